/* model_mac_count: reference model and stimulus for sagen_mac_count (useful MACs, PEs fed
 * created zeros, zero-space operands skipped, context by context).
 *
 * Modelled behaviour (from the block's description, with plain products). State: lanes_left
 * (32 bits), cols_left, ctx and x, loaded at go with npix, k_act, 0, 0. Per cycle:
 *   x_left = x < ow_real ? ow_real - x : 0; pix = min(lanes_left, lanes)
 *   act = (ow_virt > ow_real && x_left < pix) ? x_left : pix; cols = min(cols_left, grp_w)
 *   macs = act * cols mod 2^16: ev_macs on a pop, ev_zero_pe on a zero step (else 0)
 *   ev_zskip = act on a zero step; outside zero_fill on a context end
 *              n_ch * (dn_r * dn_s - nz_r * nz_s) * act mod 2^32; else 0.
 * At a context end (not go): if ctx + 1 < n_ctx the next context (ctx + 1, lanes_left - lanes
 * or 0, x + lanes mod 2^16 or 0 once it reaches ow_virt), else the next filter group (ctx, x 0,
 * lanes_left npix, cols_left - grp_w or 0).
 *
 * Stimulus: passes as sagen_core runs them. Outside zero_fill every context is T = n_ch *
 * nz_r * nz_s pops, the last one its context end, the first pop of the pass 3 cycles after go
 * or later (3 in most passes: the earliest the core allows), pops back to back in many passes;
 * in zero_fill, contexts of 1..6 steps, each a pop or a zero step, from 2 cycles after go on.
 * The last pass ends with LAT idle cycles more, so every event of the file is checked.
 * The fields: 1..12 contexts (sometimes up to 200), 1..3 filter groups, pixel counts around
 * contexts x lanes (sometimes any 32-bit value), real and virtual row widths, dense tap counts
 * small or any 16-bit value (fewer than the non-zero ones too: the count wraps), 1..4 channels
 * (sometimes up to 300, and in one pass of ~40 up to 65535).
 *
 * Usage: model_mac_count LANES COLS SEED OUT.vec [inject]
 * Vector file: "LANES COLS NPASS", then per pass a line (hex) "zero_fill n_ctx npix k_act lanes
 * grp_w ow_real ow_virt n_ch dn_r dn_s", "NCYC" and NCYC lines (hex) "go pop zstep ctx_end |
 * ev_macs ev_zero_pe ev_zskip" (the outputs of the cycle, before its rising edge: the events of
 * LAT cycles before; go is high in the first). With "inject" one expected output is wrong on
 * purpose. */
#include "vec_common.h"

typedef struct {
  int go, pop, zstep, end;
} step_t;

static vrng g;
static int lanes_max, cols_max;

/* ceil(log2(n)) for n >= 1, as Verilog's $clog2 */
static int clog2(int n)
{
  int b = 0;
  while ((1 << b) < n) b++;
  return b;
}

/* the cycles of one pass into V (go first) */
static void pass_steps(vvec *v, int zf, long n_walk, long taps, int idle_pct, int first,
                       int extra)
{
  step_t *s = vvec_push(v);
  s->go = 1;
  for (int k = 1; k < first; k++) vvec_push(v);
  for (long c = 0; c < n_walk; c++) {
    long n = zf ? vrng_range(&g, 1, 6) : taps;
    for (long i = 0; i < n; i++) {
      while (vrng_pct(&g, idle_pct)) vvec_push(v);
      s = vvec_push(v);
      s->pop = zf ? vrng_pct(&g, 50) : 1;
      s->zstep = !s->pop;
      s->end = (i + 1 == n);
    }
  }
  long tail = vrng_range(&g, 1, 4) + extra;
  for (long k = 0; k < tail; k++) vvec_push(v);
}

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s LANES COLS SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  lanes_max = (int)arg_long(argv[1], "LANES");
  cols_max = (int)arg_long(argv[2], "COLS");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (lanes_max < 1 || lanes_max > 256 || cols_max < 1 || cols_max > 256) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng_seed(&g, seed);
  int lw = clog2(lanes_max + 1), cw = clog2(cols_max + 1), nt = lw > cw ? lw : cw;
  int lat = 3 + (nt > 1 ? clog2(nt) : 1);
  uint64_t delay[16][3];   /* the events of the last lat cycles, oldest at head */
  memset(delay, 0, sizeof delay);
  int head = 0;
  const int npass = 40;
  int big_pass = (int)vrng_range(&g, 0, npass - 1);
  int bad_pass = inject ? (int)vrng_range(&g, 0, npass - 1) : -1;
  FILE *f = open_out(argv[4]);
  fprintf(f, "%d %d %d\n", lanes_max, cols_max, npass);
  long n_zskip = 0, n_macs = 0;
  for (int p = 0; p < npass; p++) {
    int zf = vrng_pct(&g, 50);
    int64_t n_ctx = vrng_pct(&g, 90) ? vrng_range(&g, 1, 12) : vrng_range(&g, 1, 200);
    int64_t n_kg = vrng_range(&g, 1, 3);
    int64_t lanes = vrng_range(&g, 1, lanes_max);
    int64_t grp_w = vrng_range(&g, 1, cols_max);
    int64_t npix;
    switch (vrng_range(&g, 0, 3)) {
    case 0: npix = n_ctx * lanes - vrng_range(&g, 0, lanes - 1); break;
    case 1: npix = vrng_range(&g, 1, n_ctx * lanes + 2 * lanes); break;
    case 2: npix = vrng_range(&g, 1, 0xffffffffll); break;
    default: npix = n_ctx * lanes; break;
    }
    int64_t k_act = vrng_pct(&g, 85) ? vrng_range(&g, 1, n_kg * grp_w + 3)
                                     : vrng_range(&g, 1, 0xffff);
    int64_t ow_real = vrng_range(&g, 1, 2 * lanes + 3), ow_virt = ow_real;
    if (vrng_pct(&g, 50)) ow_virt = ow_real + vrng_range(&g, 1, lanes);
    if (vrng_pct(&g, 5)) {
      ow_real = vrng_range(&g, 0, 0xffff);
      ow_virt = vrng_range(&g, 0, 0xffff);
    }
    int64_t n_ch = vrng_pct(&g, 90) ? vrng_range(&g, 1, 4) : vrng_range(&g, 1, 300);
    int64_t nz_r = vrng_range(&g, 1, 3), nz_s = vrng_range(&g, 1, 3);
    if (p == big_pass) {
      /* every bit of the channel count: one long context, popped back to back */
      n_ctx = 1;
      n_kg = 1;
      n_ch = vrng_range(&g, 20000, 65535);
      nz_r = nz_s = 1;
      zf = 0;
    }
    int64_t dn_r = vrng_pct(&g, 50) ? nz_r + vrng_range(&g, 0, 3) : vrng_range(&g, 0, 0xffff);
    int64_t dn_s = vrng_pct(&g, 50) ? nz_s + vrng_range(&g, 0, 3) : vrng_range(&g, 0, 0xffff);
    int idle_pct = vrng_pct(&g, 50) ? 0 : (int)vrng_range(&g, 5, 60);
    int first = zf ? (int)vrng_range(&g, 2, 4) : (vrng_pct(&g, 70) ? 3 : (int)vrng_range(&g, 4, 6));
    if (p == big_pass) idle_pct = 0;

    vvec v = {NULL, 0, 0, sizeof(step_t)};
    pass_steps(&v, zf, n_ctx * n_kg, n_ch * nz_r * nz_s, idle_pct, first,
               p + 1 == npass ? lat : 0);
    fprintf(f, "%x %llx %llx %llx %llx %llx %llx %llx %llx %llx %llx\n", zf,
            (unsigned long long)n_ctx, (unsigned long long)npix, (unsigned long long)k_act,
            (unsigned long long)lanes, (unsigned long long)grp_w, (unsigned long long)ow_real,
            (unsigned long long)ow_virt, (unsigned long long)n_ch, (unsigned long long)dn_r,
            (unsigned long long)dn_s);
    fprintf(f, "%zu\n", v.n);
    size_t bad = p == bad_pass ? (size_t)vrng_range(&g, 0, (int64_t)v.n - 1) : (size_t)-1;
    int bad_out = (int)vrng_range(&g, 0, 2);

    uint64_t skip_ctx = ((uint64_t)n_ch * (uint64_t)(dn_r * dn_s - nz_r * nz_s)) & 0xffffffffu;
    int64_t lanes_left = 0, cols_left = 0, ctx = 0, x = 0;
    for (size_t t = 0; t < v.n; t++) {
      step_t s = VVEC_AT(v, step_t, t);
      int64_t x_left = x < ow_real ? ow_real - x : 0;
      int64_t pix = lanes_left > lanes ? lanes : lanes_left;
      int64_t act = (ow_virt > ow_real && x_left < pix) ? x_left : pix;
      int64_t cols = cols_left > grp_w ? grp_w : cols_left;
      uint64_t macs = (uint64_t)(act * cols) & 0xffffu;
      uint64_t o[3];
      o[0] = s.pop ? macs : 0;
      o[1] = s.zstep ? macs : 0;
      o[2] = s.zstep ? (uint64_t)act
                     : (!zf && s.end ? (skip_ctx * (uint64_t)act) & 0xffffffffu : 0);
      n_macs += o[0] != 0;
      n_zskip += !zf && s.end && o[2] != 0;
      /* what leaves this cycle: the events of lat cycles ago */
      uint64_t out[3];
      memcpy(out, delay[head], sizeof out);
      memcpy(delay[head], o, sizeof o);
      head = (head + 1) % lat;
      if (t == bad) out[bad_out] ^= 1u;
      fprintf(f, "%x %x %x %x  %llx %llx %llx\n", s.go, s.pop, s.zstep, s.end,
              (unsigned long long)out[0], (unsigned long long)out[1],
              (unsigned long long)out[2]);
      /* the rising edge */
      if (s.go) {
        lanes_left = npix;
        cols_left = k_act;
        ctx = 0;
        x = 0;
      } else if (s.end) {
        if (ctx + 1 < n_ctx) {
          ctx++;
          lanes_left = lanes_left > lanes ? lanes_left - lanes : 0;
          int64_t xn = (x + lanes) & 0xffff;
          x = xn >= ow_virt ? 0 : xn;
        } else {
          ctx = 0;
          x = 0;
          lanes_left = npix;
          cols_left = cols_left > grp_w ? cols_left - grp_w : 0;
        }
      }
    }
    free(v.p);
  }
  close_out(f, argv[4]);
  if (n_macs < 100 || n_zskip < 10) {
    fprintf(stderr, "weak stimulus: %ld MAC counts, %ld skip counts\n", n_macs, n_zskip);
    return 1;
  }
  return 0;
}
