/* model_pe_fp: reference model and stimulus for sagen_pe_fp (the floating-point PE).
 *
 * Behaviour modelled (from the block's description, not its pipeline): every cycle a, its valid
 * and last flags, and b move one register on, as in sagen_pe. The valid products of a context,
 * numbered k = 0, 1, ... (bubbles do not count), each a * b rounded into the accumulation
 * format, go to partial sum k mod 8; a partial adds its products in order starting from -0;
 * at the context's last product the partials s_0..s_7 are reduced as
 * ((s_0 + s_1) + (s_2 + s_3)) + ((s_4 + s_5) + (s_6 + s_7)), and the result enters the
 * reserve register LAT = 38 cycles after the cycle of that last product; in every other cycle
 * the reserve register takes the chain input from below. Contexts' last products come at least
 * MIN_GAP = 18 cycles apart (the block's stated condition; the stimulus keeps it, often at
 * exactly 18). An active-low reset clears every register and forgets the contexts in flight.
 * The arithmetic is fp_ref.h's: exact in double, rounded once per operation.
 *
 * Stimulus: contexts of 1 to 200 products with and without bubbles; operands drawn in moods,
 * each in turn: moderate magnitudes of both signs (cancellation), a few huge among small ones
 * (the reduction's order changes the rounding), values near the top of the range (overflow to
 * infinity), tiny ones (subnormal and zero sums), zero products mostly -0 (the signed-zero
 * sums), and sparse special values (zeros, infinities, NaN) in every mood. A run of 4 000
 * cycles or more that reaches no NaN, infinite, -0, +0 or subnormal result (the last where the
 * format pair has subnormal products), or no result that a plain left-to-right sum would have
 * rounded differently, fails: its stimulus is broken.
 *
 * Usage: model_pe_fp IEW IFW AEW AFW NCYC SEED OUT.vec [inject]
 * Vector file: "IEW IFW AEW AFW NCYC", then one line per cycle (hex):
 *   rst_n a a_vld a_last b res_i res_vld_i | a_o a_vld_o a_last_o b_o res_o res_vld_o
 * where the second group is the expected state after the cycle's rising edge. With "inject"
 * one expected result is wrong on purpose (to show the test can fail). */
#include "vec_common.h"
#include "fp_ref.h"

enum { LAT = 38, MIN_GAP = 18, P = 8 };

typedef struct {
  uint64_t rst_n, a, vld, last, b, res_i, res_vld_i;
  uint64_t e_a, e_vld, e_last, e_b, e_res, e_res_vld;
  int due;                        /* a context's result is expected after this cycle's edge */
  uint64_t due_res;
} pe_cycle;

static fmt_t fi, fa;

static uint64_t fadd(uint64_t x, uint64_t y)
{
  return round_fmt(fa, decode(fa, x) + decode(fa, y));
}

static uint64_t fmul(uint64_t x, uint64_t y)
{
  return mul_fmt(fi, fa, x, y);
}

/* An operand in the mood M. */
static uint64_t operand(vrng *g, int m)
{
  uint64_t sgn = (uint64_t)(vrng_u64(g) & 1u) << (fi.ew + fi.fw);
  uint64_t frac = vrng_u64(g) & bits_mask(fi.fw);
  int64_t bias = fmt_bias(fi), emax = (int64_t)fmt_emax(fi);
  int64_t e;
  if (vrng_pct(g, 1)) return draw(g, fi);              /* any class, specials included */
  switch (m) {
  case 0: e = bias + vrng_range(g, -3, 3); break;      /* moderate: cancellation */
  case 1: e = bias + (vrng_pct(g, 4) ? vrng_range(g, 8, 14) : vrng_range(g, -4, 0)); break;
  case 2:                                              /* near the top: overflow, +inf */
    if (vrng_pct(g, 2)) return fmt_inf(fi, 0);
    e = emax - vrng_range(g, 1, 3);
    sgn = 0;
    break;
  case 3:                                              /* tiny: products about the least */
    e = bias + (1 - fmt_bias(fa) - vrng_range(g, 0, fa.fw)) / 2 + vrng_range(g, -2, 2);
    break;                                             /* normal sum: subnormal sums, zeros */
  default: e = bias + vrng_range(g, -2, 2); frac &= ~bits_mask(fi.fw - 2); break; /* short */
  }
  if (e < 0) e = 0;
  if (e > emax - 1) e = emax - 1;
  return sgn | ((uint64_t)e << fi.fw) | frac;
}

enum { K_NAN, K_INF, K_NEG0, K_POS0, K_SUBN, K_ORDER, K_N };
static const char *const kind_name[K_N] = {
  "a NaN result", "an infinite result", "a -0 result", "a +0 result", "a subnormal result",
  "a result a left-to-right sum rounds differently"};

int main(int argc, char **argv)
{
  if (argc < 8 || argc > 9) {
    fprintf(stderr, "usage: %s IEW IFW AEW AFW NCYC SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  fi = (fmt_t){(int)arg_long(argv[1], "IEW"), (int)arg_long(argv[2], "IFW")};
  fa = (fmt_t){(int)arg_long(argv[3], "AEW"), (int)arg_long(argv[4], "AFW")};
  long ncyc = arg_long(argv[5], "NCYC");
  uint64_t seed = (uint64_t)arg_long(argv[6], "SEED");
  const char *out = argv[7];
  int inject = argc == 9 && strcmp(argv[8], "inject") == 0;
  if (fi.ew < 2 || fi.ew > 8 || fi.fw < 2 || fi.fw > 23 || fa.ew < 2 || fa.ew > 8 ||
      fa.fw < 2 || fa.fw > 23 || ncyc < 100 || ncyc > 1000000) {
    fprintf(stderr, "model_pe_fp: formats or NCYC out of range\n");
    return 2;
  }
  const uint64_t neg0 = 1ull << (fa.ew + fa.fw), am = bits_mask(fa.ew + fa.fw + 1);
  vrng g;
  vrng_seed(&g, seed);
  vvec cyc = {0, 0, 0, sizeof(pe_cycle)};
  long kinds[K_N] = {0};
  long nres = 0;

  /* the context in progress: its partials, its product count, the cycle of the last end */
  uint64_t part[P];
  uint64_t seq = neg0;            /* the same products summed left to right (the coverage) */
  long k = 0, last_end = -1000;
  int mood = 0, p_vld = 90, len = 10;
  for (int j = 0; j < P; j++) part[j] = neg0;
  for (long t = 0; t < ncyc + LAT + 2; t++) {
    while ((long)cyc.n <= t) vvec_push(&cyc);
    pe_cycle *c = &VVEC_AT(cyc, pe_cycle, t);   /* (drawn ahead where a result is due) */
    int tail = t >= ncyc;         /* the last cycles: no new context, results drain */
    if (t % 400 == 0) {
      mood = (int)((t / 400 + (long)seed) % 6);      /* every mood, in turn */
      p_vld = vrng_pct(&g, 50) ? 100 : (int)vrng_range(&g, 30, 95);
      len = vrng_pct(&g, 30) ? (int)vrng_range(&g, 1, 12)
                             : (int)vrng_range(&g, 12, vrng_pct(&g, 20) ? 200 : 40);
      if (mood == 5) len = (int)vrng_range(&g, 1, 8);
    }
    c->rst_n = !(t < 2 || (!tail && t % 2500 == 1300));
    c->a = operand(&g, mood);
    c->b = operand(&g, mood);
    if (mood == 5) {              /* zero products, mostly -0: signed-zero sums */
      c->a = vrng_pct(&g, 97) ? 1ull << (fi.ew + fi.fw) : 0;
      c->b &= bits_mask(fi.ew + fi.fw);
    }
    c->vld = !tail && (uint64_t)vrng_pct(&g, p_vld);
    /* a context ends after about len products, never sooner than MIN_GAP after the last end
     * (often exactly then) */
    int may_end = t - last_end >= MIN_GAP;
    if (may_end && (k + 1 >= len || vrng_pct(&g, 3))) c->last = 1;
    else c->last = !c->vld && vrng_pct(&g, 2);    /* a flag on a bubble: no end */
    c->res_i = vrng_u64(&g) & am;
    c->res_vld_i = (uint64_t)vrng_pct(&g, 50);

    if (!c->rst_n) {
      /* every register cleared; contexts and results in flight forgotten */
      for (long u = t; u < (long)cyc.n; u++) VVEC_AT(cyc, pe_cycle, u).due = 0;
      for (int j = 0; j < P; j++) part[j] = neg0;
      seq = neg0;
      k = 0;
      last_end = -1000;
    } else if (c->vld) {
      uint64_t p = fmul(c->a, c->b);
      part[k % P] = fadd(part[k % P], p);
      seq = fadd(seq, p);
      k++;
      if (c->last) {
        uint64_t r = fadd(fadd(fadd(part[0], part[1]), fadd(part[2], part[3])),
                          fadd(fadd(part[4], part[5]), fadd(part[6], part[7])));
        /* the result's edge may lie past the cycles drawn so far: make room */
        while ((long)cyc.n <= t + LAT) vvec_push(&cyc);
        c = &VVEC_AT(cyc, pe_cycle, t);
        VVEC_AT(cyc, pe_cycle, t + LAT).due = 1;
        VVEC_AT(cyc, pe_cycle, t + LAT).due_res = r;
        nres++;
        uint64_t mag = r & bits_mask(fa.ew + fa.fw);
        kinds[K_NAN] += r == fmt_qnan(fa);
        kinds[K_INF] += mag == fmt_inf(fa, 0);
        kinds[K_NEG0] += r == neg0;
        kinds[K_POS0] += r == 0;
        kinds[K_SUBN] += mag != 0 && (mag >> fa.fw) == 0;
        kinds[K_ORDER] += r != seq && r != fmt_qnan(fa);
        for (int j = 0; j < P; j++) part[j] = neg0;
        seq = neg0;
        k = 0;
        last_end = t;
      }
    }
  }

  /* expected outputs, cycle by cycle */
  uint64_t a_o = 0, vld_o = 0, last_o = 0, b_o = 0, res_o = 0, res_vld_o = 0;
  for (size_t t = 0; t < cyc.n; t++) {
    pe_cycle *c = &VVEC_AT(cyc, pe_cycle, t);
    if (!c->rst_n) {
      a_o = vld_o = last_o = b_o = res_o = res_vld_o = 0;
    } else {
      a_o = c->a;
      vld_o = c->vld;
      last_o = c->last;
      b_o = c->b;
      if (c->due) {
        res_o = c->due_res;
        res_vld_o = 1;
      } else {
        res_o = c->res_i;
        res_vld_o = c->res_vld_i;
      }
    }
    c->e_a = a_o;
    c->e_vld = vld_o;
    c->e_last = last_o;
    c->e_b = b_o;
    c->e_res = res_o;
    c->e_res_vld = res_vld_o;
  }
  if (inject) {
    for (size_t t = cyc.n / 2; t < cyc.n; t++)
      if (VVEC_AT(cyc, pe_cycle, t).due) {
        VVEC_AT(cyc, pe_cycle, t).e_res ^= 1u;
        break;
      }
  }
  /* (products of a format pair whose products are exact in the accumulation format, such as
   * binary16 into binary32, are never subnormal there, and no sum of them is either) */
  int no_subn = 2 * (1 - fmt_bias(fi) - fi.fw) >= 1 - fmt_bias(fa);
  for (int j = 0; j < K_N && ncyc >= 4000; j++) {
    if (kinds[j] == 0 && !(j == K_SUBN && no_subn)) {
      fprintf(stderr, "model_pe_fp: %ld cycles of seed %llu reach no %s\n", ncyc,
              (unsigned long long)seed, kind_name[j]);
      return 1;
    }
  }

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d %d %zu\n", fi.ew, fi.fw, fa.ew, fa.fw, cyc.n);
  for (size_t i = 0; i < cyc.n; i++) {
    pe_cycle *c = &VVEC_AT(cyc, pe_cycle, i);
    fprintf(f, "%llx %llx %llx %llx %llx %llx %llx  %llx %llx %llx %llx %llx %llx\n",
            (unsigned long long)c->rst_n,
            (unsigned long long)c->a, (unsigned long long)c->vld,
            (unsigned long long)c->last, (unsigned long long)c->b,
            (unsigned long long)c->res_i, (unsigned long long)c->res_vld_i,
            (unsigned long long)c->e_a, (unsigned long long)c->e_vld,
            (unsigned long long)c->e_last, (unsigned long long)c->e_b,
            (unsigned long long)c->e_res, (unsigned long long)c->e_res_vld);
  }
  close_out(f, out);
  printf("# %ld contexts: %ld NaN, %ld infinite, %ld -0, %ld subnormal, %ld ordered apart\n",
         nres, kinds[K_NAN], kinds[K_INF], kinds[K_NEG0], kinds[K_SUBN], kinds[K_ORDER]);
  free(cyc.p);
  (void)cov_name;
  return 0;
}
