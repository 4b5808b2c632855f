/* model_feeder: reference model and stimulus for sagen_feeder (index counters, word pipeline and
 * feed lanes together), from the feeder's contract rather than from its insides.
 *
 * A pass: the descriptor of a real convolution tile (conv_desc.h: R, S = taps_i kernel columns
 * d = tap_gap_i apart, strides, padding, pitch >= tile width, the output tile oht x owt; with
 * ROWS = lanes_i pixels per context) on an ifmap tile of n_ch channels placed in the SRAM at
 * element `off` (element (c, y, x) of the tile at off + c*plane + y*P + x; base = off - pad_t*P -
 * pad_l), every other element of the SRAM image random garbage (never zero). Linear passes have
 * off = 0: their index counters check the plane bounds from the window's origin, and the host
 * lays a linear tile out at its bank's start. lanes_i is LANES most of the time, else 1..LANES;
 * the lanes from lanes_i on sit out. oh_last = oht - 1 (as the controller sets it).
 *
 * Expected elements. Lane l of context k (of every filter group) computes pixel q = k*ROWS + l
 * (oy = q div owt, ox = q mod owt) and its FIFO delivers, for each channel c, kernel row r and
 * tap s (in that order), tile[c][oy*str_h + r*dil_h - pad_t][ox*str_w + s*d - pad_l], 0 where
 * that is outside the tile; the element of the last c, r, s is marked last, no other. A lane
 * whose pixel is past the tile (q >= oht*owt, phantom) delivers as many elements with the same
 * marks, whatever their values. The array pops all lanes together, so pop j of the pass is
 * element j mod (n_ch*R*S) of context (j div (n_ch*R*S)) mod n_ctx of every lane.
 *
 * Expected SRAM reads: the words of each context's interest region that hold a tile element, in
 * order (group, context, channel, kernel row, segment, word), and no other read. Non-linear: a
 * segment per output row oy that the context's non-phantom pixels touch; with xa and xb the
 * least and greatest ox*str_w of those pixels, it starts at element
 * p = off + c*plane + (oy*str_h + r*dil_h - pad_t)*P + xa - pad_l and spans xb - xa + kspan
 * elements (kspan = (S-1)*d + 1); element p + i is a tile element iff its row
 * oy*str_h + r*dil_h - pad_t is in [0, tile_h) and its column xa - pad_l + i in [0, tile_w).
 * Linear: one segment per channel and kernel row from lane 0's first tap (pixel q0 = k*ROWS,
 * p = c*plane + (q0 div owt + r*dil_h - pad_t)*P + q0 mod owt - pad_l) over ROWS-1+kspan
 * elements; element p + i counts iff p + i - c*plane is in [0, plane) (the lanes zero the taps
 * left or right of the tile in their row). The words of a segment are floor(p/BUS) ..
 * floor((p+span-1)/BUS) (addresses modulo 2^AW); all of them are presented (one a cycle at
 * most), those without a tile element are not read (ev_pad_word_o). The model checks itself:
 * every tap of every non-phantom lane lies in its segment, and a tap inside the tile lies in a
 * word that is read.
 *
 * Passes: the tile and the garbage around it fit the SRAM (2^AW words), and a pass has at most
 * 8192 reads and 8192 pops (the testbench's arrays); the file keeps getting passes (at least
 * 6, a multiple of 3) until they cover: a linear pass, a non-linear one with a context over 2+
 * output rows and one with phantom lanes (LANES > 1), several filter groups, S = 1 and
 * S = DEPTH, S >= 2 with d = 3, stride 3, padding 2, lanes_i < LANES (LANES > 1), and run_i
 * late; from the fourth pass on, each pass goes for one of the last six not covered yet. The
 * pop rate is 100%, 70% and 30% of the ready cycles, in turn. Half the passes raise
 * run_i with start_i, the others 1..15 or (late) 16..80 cycles later (a pass started ahead of
 * its data: the index counters could present its first word 14 cycles after start).
 *
 * Usage: model_feeder LANES BUS IN_BITS M DEPTH AW SEED OUT.vec [inject]
 *   (IN_BITS a multiple of 4 up to 16; M only checked against the testbench's)
 * Vector file: "LANES BUS IN_BITS M DEPTH AW SEED" (the testbench draws its pops from SEED),
 * then per pass (hex):
 *   D lanes n_ch n_kr n_ctx n_kg plane kr_step oy_step ctx_xs ctx_py ctx_y ow_xs last_xs
 *     last_dseg oh_last ctx_rows base dil_h str_h str_w pad_t pad_l tile_h tile_w taps tap_gap
 *     lin                           the feeder's descriptor inputs (base 32-bit two's complement)
 *   S p_pop run_dly n_img n_rd n_pop n_words
 *                                   the pop rate (percent of ready cycles), the cycles from
 *                                   start_i to run_i (0: with it; the image is loaded then),
 *                                   the counts of the records below, and the words the index
 *                                   counters present (read or not)
 *   n_img lines: data               SRAM words 0 .. n_img-1 (element i in bits i*IN_BITS up)
 *   n_rd lines: R addr              the expected reads, in order
 *   n_pop lines: P chk last data    per pop: the lanes whose element is checked (bit l), the
 *                                   expected head_last_o of the lanes in use, and the lanes'
 *                                   expected elements (lane l in bits l*IN_BITS up)
 * and "E" at the end. With "inject" one expected element is wrong on purpose. */
#include "conv_desc.h"

#define MAX_READS 8192   /* the testbench's limits (tb_feeder.v) */
#define MAX_POPS  8192
#define MAX_LANES 64

static int LANES, BUS, IN_BITS, M, DEPTH, AW;

typedef struct {
  desc_t d;
  int lanes, taps, gap;
  int64_t off;
  int p_pop, run_dly;
  size_t img0, n_img, rd0, n_rd, pop0, n_pop;
  long n_words;
} pass_t;

typedef struct {
  uint64_t chk, last;
  uint64_t e[MAX_LANES];
} pop_t;

/* What the passes so far have exercised. */
typedef struct {
  int lin, multirow, phantom, kg, s1, sdepth, d3, str3, pad2, fewer, late;
} cover_t;

static void self_check_failed(const char *what, long k)
{
  fprintf(stderr, "model self-check failed: %s (context %ld)\n", what, k);
  exit(3);
}

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

/* A segment of the interest region (which of its elements are tile elements). */
typedef struct {
  const desc_t *dd;
  int64_t c, yrow, xa;   /* its channel; non-linear: its row and first column (virtual) */
  int lin;
} seg_t;

static int seg_real(const seg_t *s, int64_t p, int64_t i)
{
  const int64_t *d = s->dd->f;
  if (s->lin) {
    int64_t fp = p + i - s->c * d[PLANE];
    return fp >= 0 && fp < d[PLANE];
  }
  int64_t x = s->xa - d[PAD_L] + i;
  return s->yrow >= 0 && s->yrow < d[TILE_H] && x >= 0 && x < d[TILE_W];
}

/* The words of a segment from element p over span elements: pushes the reads (the words with a
 * tile element) onto rd, returns how many words are presented. */
static long seg_words(const seg_t *s, int64_t p, int64_t span, vvec *rd)
{
  long n = 0;
  for (int64_t w = floor_div(p, BUS); w * BUS < p + span; w++, n++) {
    int real = 0;
    for (int64_t a = w * BUS; a < (w + 1) * BUS; a++)
      if (a >= p && a < p + span && seg_real(s, p, a - p)) real = 1;
    if (real) *(uint64_t *)vvec_push(rd) = (uint64_t)w & bits_mask(AW);
  }
  return n;
}

/* Is word w (unwrapped) among the reads rd[from ..]? */
static int word_read(const vvec *rd, size_t from, int64_t w)
{
  for (size_t i = from; i < rd->n; i++)
    if (VVEC_AT(*rd, uint64_t, i) == ((uint64_t)w & bits_mask(AW))) return 1;
  return 0;
}

/* The reads and pops of a pass; 0 if it exceeds the testbench's limits. */
static int build(pass_t *ps, const int64_t *tile, vvec *rd, vvec *pops, cover_t *cov)
{
  const desc_t *dd = &ps->d;
  const int64_t *d = dd->f;
  const int64_t L = ps->lanes, owt = dd->owt, npix = dd->oht * dd->owt;
  const int64_t P = d[OY_STEP] / d[STR_H], th = d[TILE_H], tw = d[TILE_W];
  const int64_t S = ps->taps, gap = ps->gap, kspan = d[KSPAN];
  const int64_t crs = d[N_CH] * d[N_KR] * S;
  const int lin = (int)d[LIN];
  cover_t cv = *cov;
  ps->rd0 = rd->n;
  ps->pop0 = pops->n;
  ps->n_words = 0;
  for (int64_t kg = 0; kg < d[N_KG]; kg++) {
    if (kg > 0) cv.kg = 1;
    for (int64_t k = 0; k < d[N_CTX]; k++) {
      int64_t q0 = k * L, qe = q0 + L < npix ? q0 + L : npix;   /* real pixels [q0, qe) */
      if (q0 + L > npix && !lin) cv.phantom = 1;
      if (!lin && (qe - 1) / owt > q0 / owt) cv.multirow = 1;
      /* reads */
      for (int64_t c = 0; c < d[N_CH]; c++)
        for (int64_t r = 0; r < d[N_KR]; r++) {
          size_t rd_cr = rd->n;
          if (lin) {
            seg_t s = {dd, c, 0, 0, 1};
            int64_t p = c * d[PLANE] + (q0 / owt + r * d[DIL_H] - d[PAD_T]) * P + q0 % owt -
                        d[PAD_L];
            if (p != d[BASE] + c * d[PLANE] + r * d[KR_STEP] + q0) self_check_failed("lin p", k);
            ps->n_words += seg_words(&s, p, L - 1 + kspan, rd);
            for (int64_t q = q0; q < qe; q++)
              for (int64_t t = 0; t < S; t++) {
                int64_t y = q / owt + r * d[DIL_H] - d[PAD_T], x = q % owt + t * gap - d[PAD_L];
                int64_t a = c * d[PLANE] + y * P + x;
                if (a < p || a >= p + L - 1 + kspan) self_check_failed("tap outside", k);
                if (y >= 0 && y < th && x >= 0 && x < tw &&
                    !word_read(rd, rd_cr, floor_div(a, BUS)))
                  self_check_failed("tap not read", k);
              }
          } else {
            for (int64_t oy = q0 / owt; oy <= (qe - 1) / owt; oy++) {
              int64_t xa = -1, xb = -1;
              for (int64_t q = q0; q < qe; q++)
                if (q / owt == oy) {
                  if (xa < 0) xa = (q % owt) * d[STR_W];
                  xb = (q % owt) * d[STR_W];
                }
              int64_t yrow = oy * d[STR_H] + r * d[DIL_H] - d[PAD_T];
              int64_t p = ps->off + c * d[PLANE] + yrow * P + xa - d[PAD_L];
              seg_t s = {dd, c, yrow, xa, 0};
              size_t rd_seg = rd->n;
              ps->n_words += seg_words(&s, p, xb - xa + kspan, rd);
              for (int64_t q = q0; q < qe; q++) {
                if (q / owt != oy) continue;
                for (int64_t t = 0; t < S; t++) {
                  int64_t x = (q % owt) * d[STR_W] + t * gap - d[PAD_L];
                  int64_t a = ps->off + c * d[PLANE] + yrow * P + x;
                  if (a < p || a >= p + xb - xa + kspan) self_check_failed("tap outside", k);
                  if (yrow >= 0 && yrow < th && x >= 0 && x < tw &&
                      !word_read(rd, rd_seg, floor_div(a, BUS)))
                    self_check_failed("tap not read", k);
                }
              }
            }
          }
        }
      /* elements, in pop order */
      for (int64_t j = 0; j < crs; j++) {
        int64_t c = j / (d[N_KR] * S), r = (j / S) % d[N_KR], t = j % S;
        if (pops->n - ps->pop0 >= MAX_POPS) return 0;
        pop_t *pp = vvec_push(pops);
        for (int64_t l = 0; l < L; l++) {
          int64_t q = q0 + l;
          if (j == crs - 1) pp->last |= 1ull << l;
          if (q >= npix) continue;
          int64_t y = (q / owt) * d[STR_H] + r * d[DIL_H] - d[PAD_T];
          int64_t x = (q % owt) * d[STR_W] + t * gap - d[PAD_L];
          pp->chk |= 1ull << l;
          pp->e[l] = (y >= 0 && y < th && x >= 0 && x < tw)
                         ? (uint64_t)tile[(c * th + y) * tw + x] : 0;
        }
      }
    }
  }
  ps->n_rd = rd->n - ps->rd0;
  ps->n_pop = pops->n - ps->pop0;
  if (ps->n_rd > MAX_READS) return 0;
  *cov = cv;
  return 1;
}

int main(int argc, char **argv)
{
  if (argc < 9 || argc > 10) {
    fprintf(stderr, "usage: %s LANES BUS IN_BITS M DEPTH AW SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  LANES = (int)arg_long(argv[1], "LANES");
  BUS = (int)arg_long(argv[2], "BUS");
  IN_BITS = (int)arg_long(argv[3], "IN_BITS");
  M = (int)arg_long(argv[4], "M");
  DEPTH = (int)arg_long(argv[5], "DEPTH");
  AW = (int)arg_long(argv[6], "AW");
  uint64_t seed = (uint64_t)arg_long(argv[7], "SEED");
  const char *out = argv[8];
  int inject = argc == 10 && strcmp(argv[9], "inject") == 0;
  if (LANES < 1 || LANES > MAX_LANES || BUS < 2 || BUS > 64 || (BUS & (BUS - 1)) ||
      IN_BITS < 4 || IN_BITS > 16 || IN_BITS % 4 || M < 1 || DEPTH < M || AW < 4 || AW > 16) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int64_t cap = ((int64_t)1 << AW) * BUS;   /* elements in the SRAM */
  const uint64_t vmax = bits_mask(IN_BITS);

  vvec passes = {0, 0, 0, sizeof(pass_t)};
  vvec img = {0, 0, 0, sizeof(uint64_t)};   /* SRAM elements of every pass, one after another */
  vvec rd = {0, 0, 0, sizeof(uint64_t)};
  vvec pops = {0, 0, 0, sizeof(pop_t)};
  vvec tile = {0, 0, 0, sizeof(int64_t)};
  /* one lane: contexts of one pixel, never over two rows, never past the tile */
  cover_t cov = {0, LANES == 1, LANES == 1, 0, 0, 0, 0, 0, 0, LANES == 1, 0};
  const int rates[3] = {100, 70, 30};

  for (int pass = 0;; pass++) {
    int covered = cov.lin && cov.multirow && cov.phantom && cov.kg && cov.s1 && cov.sdepth &&
                  cov.d3 && cov.str3 && cov.pad2 && cov.fewer && cov.late;
    if (pass >= 6 && covered && pass % 3 == 0) break;
    if (pass >= 60) {
      fprintf(stderr, "coverage not reached in 60 passes (seed %llu):%s%s%s%s%s%s%s%s%s%s%s\n",
              (unsigned long long)seed, cov.lin ? "" : " lin", cov.multirow ? "" : " multirow",
              cov.phantom ? "" : " phantom", cov.kg ? "" : " kg", cov.s1 ? "" : " s1",
              cov.sdepth ? "" : " sdepth", cov.d3 ? "" : " d3", cov.str3 ? "" : " str3",
              cov.pad2 ? "" : " pad2", cov.fewer ? "" : " fewer", cov.late ? "" : " late");
      return 3;
    }
    /* from the fourth pass on, a pass goes for a case not covered yet (the first of: S >= 2 with
     * d = 3, S = DEPTH, stride 3, linear, fewer lanes, run_i late) */
    const int steer = pass >= 3;
    const int want_d3 = steer && !cov.d3, want_sd = steer && cov.d3 && !cov.sdepth;
    const int want_s3 = steer && cov.d3 && cov.sdepth && !cov.str3;
    const int want_lin = steer && cov.d3 && cov.sdepth && cov.str3 && !cov.lin;
    const int want_few = steer && cov.d3 && cov.sdepth && cov.str3 && cov.lin && !cov.fewer;
    const int want_late = steer && cov.d3 && cov.sdepth && cov.str3 && cov.lin && cov.fewer &&
                          !cov.late;
    pass_t ps;
    for (;;) {
      memset(&ps, 0, sizeof ps);
      ps.lanes = vrng_pct(&g, 60) ? LANES : (int)vrng_range(&g, 1, LANES);
      if (want_few) ps.lanes = (int)vrng_range(&g, 1, LANES - 1);
      int lin = want_lin || (!want_d3 && !want_sd && !want_s3 && vrng_pct(&g, 25));
      const real_opts_t ro = {.bus = BUS, .rows = ps.lanes, .s_max = DEPTH, .dil_max = 3,
                              .str_max = 3, .s_min = want_sd ? DEPTH : want_d3 ? 2 : 1,
                              .dil_min = want_d3 ? 3 : 1, .str_min = want_s3 ? 3 : 1};
      real_desc(&g, &ro, &ps.d, lin);
      int64_t *d = ps.d.f;
      d[OH_LAST] = ps.d.oht - 1;
      ps.taps = (int)ps.d.s;
      ps.gap = (int)ps.d.dil_w;
      ps.off = lin ? 0 : vrng_range(&g, 0, 3 * BUS);
      int64_t end = ps.off + d[N_CH] * d[PLANE];
      if (end + 2 * BUS > cap) continue;
      /* the tile, then the image: garbage but where the tile is */
      tile.n = 0;
      for (int64_t i = 0; i < d[N_CH] * d[TILE_H] * d[TILE_W]; i++)
        *(int64_t *)vvec_push(&tile) = vrng_range(&g, 1, (int64_t)vmax);
      size_t rd_n = rd.n, pop_n = pops.n;
      if (!build(&ps, (const int64_t *)tile.p, &rd, &pops, &cov)) {
        rd.n = rd_n;
        pops.n = pop_n;
        continue;
      }
      ps.img0 = img.n;
      ps.n_img = (size_t)((end + 2 * BUS - 1) / BUS);
      const int64_t P = d[OY_STEP] / d[STR_H];
      for (size_t i = 0; i < ps.n_img * (size_t)BUS; i++)
        *(uint64_t *)vvec_push(&img) = (uint64_t)vrng_range(&g, 1, (int64_t)vmax);
      for (int64_t c = 0; c < d[N_CH]; c++)
        for (int64_t y = 0; y < d[TILE_H]; y++)
          for (int64_t x = 0; x < d[TILE_W]; x++)
            VVEC_AT(img, uint64_t, ps.img0 + (size_t)(ps.off + c * d[PLANE] + y * P + x)) =
                (uint64_t)VVEC_AT(tile, int64_t, (size_t)((c * d[TILE_H] + y) * d[TILE_W] + x));
      break;
    }
    /* base with the tile's origin */
    ps.d.f[BASE] += ps.off;
    ps.p_pop = rates[pass % 3];
    /* run_i with start, or after it: before the first word could come, or after (the index
     * counters present it 14 cycles after start) */
    ps.run_dly = vrng_pct(&g, 50) ? 0 : vrng_pct(&g, 50) ? (int)vrng_range(&g, 1, 15)
                                                         : (int)vrng_range(&g, 16, 80);
    if (want_late) ps.run_dly = (int)vrng_range(&g, 16, 80);
    if (ps.run_dly >= 16) cov.late = 1;
    if (ps.d.f[LIN]) cov.lin = 1;
    if (ps.taps == 1) cov.s1 = 1;
    if (ps.taps == DEPTH) cov.sdepth = 1;
    if (ps.taps >= 2 && ps.gap == 3) cov.d3 = 1;
    if (ps.d.f[STR_W] == 3 || ps.d.f[STR_H] == 3) cov.str3 = 1;
    if (ps.d.f[PAD_T] == 2 || ps.d.f[PAD_L] == 2 || ps.d.pad_b == 2 || ps.d.pad_r == 2)
      cov.pad2 = 1;
    if (ps.lanes < LANES) cov.fewer = 1;
    *(pass_t *)vvec_push(&passes) = ps;
  }

  if (inject) {
    /* one checked element of one pop, wrong */
    for (;;) {
      pop_t *pp = &VVEC_AT(pops, pop_t, (size_t)vrng_range(&g, 0, (long)pops.n - 1));
      if (!pp->chk) continue;
      int l;
      do l = (int)vrng_range(&g, 0, LANES - 1);
      while (!((pp->chk >> l) & 1u));
      pp->e[l] ^= 1u;
      break;
    }
  }

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d %d %d %d %u\n", LANES, BUS, IN_BITS, M, DEPTH, AW,
          (unsigned)(seed & 0x7fffffffu));
  static const int dorder[] = {N_CH, N_KR, N_CTX, N_KG, PLANE, KR_STEP, OY_STEP, CTX_XS, CTX_PY,
                               CTX_Y, OW_XS, LAST_XS, LAST_DSEG, OH_LAST, CTX_ROWS, BASE, DIL_H,
                               STR_H, STR_W, PAD_T, PAD_L, TILE_H, TILE_W};
  const int hd = IN_BITS / 4;   /* hex digits per element */
  for (size_t i = 0; i < passes.n; i++) {
    pass_t *ps = &VVEC_AT(passes, pass_t, i);
    fprintf(f, "D %x", ps->lanes);
    for (size_t k = 0; k < sizeof dorder / sizeof dorder[0]; k++)
      fprintf(f, " %llx", (unsigned long long)((uint64_t)ps->d.f[dorder[k]] & 0xffffffffu));
    fprintf(f, " %x %x %x\n", ps->taps, ps->gap, (unsigned)ps->d.f[LIN]);
    fprintf(f, "S %x %x %zx %zx %zx %lx\n", ps->p_pop, ps->run_dly, ps->n_img, ps->n_rd,
            ps->n_pop, ps->n_words);
    for (size_t w = 0; w < ps->n_img; w++) {
      for (int e = BUS - 1; e >= 0; e--)
        fprintf(f, "%0*llx", hd,
                (unsigned long long)VVEC_AT(img, uint64_t, ps->img0 + w * (size_t)BUS + (size_t)e));
      fputc('\n', f);
    }
    for (size_t r = 0; r < ps->n_rd; r++)
      fprintf(f, "R %llx\n", (unsigned long long)VVEC_AT(rd, uint64_t, ps->rd0 + r));
    for (size_t p = 0; p < ps->n_pop; p++) {
      pop_t *pp = &VVEC_AT(pops, pop_t, ps->pop0 + p);
      fprintf(f, "P %llx %llx ", (unsigned long long)pp->chk, (unsigned long long)pp->last);
      for (int l = LANES - 1; l >= 0; l--) fprintf(f, "%0*llx", hd, (unsigned long long)pp->e[l]);
      fputc('\n', f);
    }
  }
  fprintf(f, "E\n");
  close_out(f, out);
  free(passes.p);
  free(img.p);
  free(rd.p);
  free(pops.p);
  free(tile.p);
  return 0;
}
