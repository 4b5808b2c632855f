/* model_index_counters: reference model and stimulus for sagen_index_counters (the word read
 * sequence of the data feeder, multi-row and linear contexts).
 *
 * A context is ROWS consecutive pixels of the output tile (oht rows x owt columns, row-major),
 * so it may span several output rows. "xs" values are column * stride_w. For a pass descriptor
 * the model lists the presented words directly, loop by loop (outermost first: filter group kg,
 * context k, channel c, kernel row r, segment seg = 0..last, word):
 *   context state  xs0 (lane 0's xs), py0/y0 (lane 0's output row as pointer / rows), xsl
 *                  (lane ROWS-1's xs), dseg (lane ROWS-1's row relative to lane 0's); at the
 *                  start of each group xs0 = py0 = y0 = 0, xsl = last_xs, dseg = last_dseg;
 *                  after a context: xs0 += ctx_xs, wrap0 = xs0 >= ow_xs (then xs0 -= ow_xs),
 *                  py0 += ctx_py + (wrap0 ? oy_step : 0), y0 += ctx_y + (wrap0 ? str_h : 0),
 *                  xsl += ctx_xs with wrapl likewise, dseg += wrapl - wrap0
 *   segments       0 .. last, where last is the first seg with seg == dseg or
 *                  seg >= (oh_last - orow0) mod 2^16 (the tile's last output row: none below
 *                  it); orow0 (lane 0's output row, 16 bits) is 0 at the start of each group
 *                  and moves by ctx_rows + wrap0 after a context
 *   segment        xs_first = seg == 0 ? xs0 : 0, xs_last = seg == dseg ? xsl : ow_xs - str_w,
 *                  span = xs_last - xs_first + kspan,
 *                  p = base + c*plane + r*kr_step + py0 + seg*oy_step + xs_first (base signed)
 *   words          w = floor(p/BUS)*BUS, w+BUS, ... while w < p + span
 *   per word       addr = floor(w/BUS) (low AW bits), rel = w - p, seg, fs = the segment's first
 *                  word, ofs = p - floor(p/BUS)*BUS, iw = its index in the segment,
 *                  mask bit i set iff pos = rel + i is in [0, span), the virtual row
 *                  iy = y0 + seg*str_h + r*dil_h - pad_t is in [0, tile_h) and the virtual
 *                  column ix = xs_first - pad_l + pos is in [0, tile_w); rd = any mask bit,
 *                  pass_last = (r == n_kr-1 && c == n_ch-1), ctx_last = the context's last word,
 *                  grp_last = ctx_last of the group's last context.
 * Linear contexts (lin = 1): the context state moves as above, but each (c, r) has one segment
 * (seg 0, the last; dseg is ignored) with xs_first = xs0, span = last_xs + kspan and
 * p = base + c*plane + r*kr_step + py0 + xs0; mask bit i is set iff pos = rel + i is in
 * [0, span) and the plane position fp = p - c*plane + pos is in [0, plane) (no row or column
 * check); words, addr, rel, rd and the last flags as above.
 * start begins a pass (which may also come in the middle of one); the counters present its words
 * in order, each until a cycle with adv high takes it; after the last word vld stays low until
 * the next start. The counters may present no word for a while (vld low; at the start of a
 * pass they take a few cycles), but a pass taken with adv high every cycle must come one word a
 * cycle from its first word on.
 *
 * Descriptors: 35% are real layers in linear contexts (below); of the rest (lin = 0 unless
 * arbitrary), 60% are consistent with a real layer and tile (ROWS 1..16 lanes, owt often
 * smaller than ROWS so that contexts span 1, 2, 3+ output rows, several filter groups, the last
 * context with lanes past npix, padding, stride, dilation, pitch > width); for those the model
 * also checks itself: the incremental context state must equal the one computed from the pixel
 * numbers (k*ROWS .. k*ROWS+ROWS-1), and every segment must span exactly the lanes in it. The
 * rest are arbitrary small numbers (the counters do not care whether they make a layer), a
 * quarter of them with lin = 1. A real linear layer has stride 1, R, S 1..3, dilation 1..2,
 * padding 0..2 per side, the row pitch P = owt with tile_w = owt-1+kspan-pad_l-pad_r <= owt
 * (owt often below ROWS), and: oy_step = P, kr_step = dil_h*P, plane = tile_h*P,
 * base = -(pad_t*P + pad_l), ctx_xs = ROWS mod owt, ctx_py = (ROWS div owt)*P,
 * ctx_y = ROWS div owt, ow_xs = owt, last_xs = ROWS-1 (not wrapped), last_dseg =
 * (ROWS-1) div owt, str_h = str_w = 1. For those the model checks that xs0/py0/y0 follow the
 * pixel numbers, that every lane's kernel taps (segment position L + s*dil_w) lie in the
 * segment, and that a tap of a column inside the tile is at plane position
 * (oy + r*dil_h - pad_t)*P + (ox + s*dil_w - pad_l) with its mask bit set iff its row is inside
 * the tile (taps of other columns are the lanes' to zero). The file keeps getting passes until
 * it covers contexts of 1, 2 and 3+ rows, a multi-row context starting mid-row, lanes past
 * npix, a context cut at the tile's last output row (oh_last, 80% of the real descriptors; the
 * rest have 0xffff, out of reach), a multi-group pass, and a context advance where lane
 * ROWS-1 wraps into a new row but lane 0 does not (dseg up) and one the other way (dseg down)
 * (non-linear), a linear context
 * over 2+ output rows, and linear words with real elements and positions of the segment cut by
 * the plane start (fp < 0) and by the plane end (fp >= plane).
 *
 * Usage: model_index_counters BUS AW SEED OUT.vec [inject]
 * Vector file: "BUS AW", then records:
 *   D n_ch n_kr n_ctx n_kg plane kr_step oy_step ctx_xs ctx_py ctx_y ow_xs last_xs last_dseg
 *     base dil_h str_h str_w pad_t pad_l tile_h tile_w kspan lin oh_last ctx_rows
 *                                     (hex; base as 32-bit two's complement) - the descriptor
 *   S n cut p_adv                     start the pass; its first n words follow; cut: the next
 *                                     start comes once they are taken (else they are all of
 *                                     the pass); p_adv: the percent of cycles adv is high
 *   W rd addr mask fs ofs iw seg pass_last ctx_last grp_last
 *                                     (hex) one word, in order (addr only matters when rd)
 *   E                                 end of file
 * With "inject" one expected field (fs, seg, mask, ctx_last or grp_last) is wrong on purpose. */
#include "conv_desc.h"

#define MAX_WORDS 1500

typedef struct {
  uint64_t addr, mask;
  int64_t rel;
  int seg, rd, plast, clast, glast;
  int fs, ofs, iw;
} word_t;

typedef struct {
  desc_t d;
  size_t first, n;   /* its words in the word list */
  int cut, p_adv;
} pass_t;

/* What the passes so far have exercised (real descriptors). */
typedef struct {
  int seg1, seg2, seg3, midrow, past, kg, up, down, tcut;   /* non-linear */
  int lin2, cut_lo, cut_hi;                             /* linear */
} cover_t;

static int BUS, AW;

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static void self_check_failed(const char *what, int64_t k)
{
  fprintf(stderr, "model self-check failed: %s (context %lld)\n", what, (long long)k);
  exit(3);
}

/* Mask bit of segment position pos (its word found from the segment's first word `first`). */
static int mask_at(const vvec *words, size_t first, int64_t p, int64_t pos)
{
  int64_t a = p + pos;
  size_t j = first + (size_t)(floor_div(a, BUS) - floor_div(p, BUS));
  if (j >= words->n) return -1;
  return (int)((VVEC_AT(*words, word_t, j).mask >> (a - floor_div(a, BUS) * BUS)) & 1u);
}

/* Words of a pass into `words`; 0 if the descriptor is unusable (a segment without elements,
 * a negative or huge segment count, too many words). */
static int enumerate(const desc_t *dd, vvec *words, cover_t *cov)
{
  const int64_t *d = dd->f;
  const int lin = d[LIN] != 0;
  cover_t cv = *cov;
  words->n = 0;
  for (int64_t kg = 0; kg < d[N_KG]; kg++) {
    int64_t xs0 = 0, py0 = 0, y0 = 0, xsl = d[LAST_XS], dseg = d[LAST_DSEG], orow0 = 0;
    for (int64_t k = 0; k < d[N_CTX]; k++) {
      if (!lin && (dseg < 0 || dseg > 40)) return 0;
      if (dd->rows) {
        /* the state from the pixel numbers of lane 0 and lane ROWS-1 */
        int64_t q0 = k * dd->rows, ql = q0 + dd->rows - 1;
        if (xs0 != (q0 % dd->owt) * d[STR_W]) self_check_failed("xs0", k);
        if (y0 != (q0 / dd->owt) * d[STR_H]) self_check_failed("y0", k);
        if (py0 != (q0 / dd->owt) * d[OY_STEP]) self_check_failed("py0", k);
        if (lin) {
          if (ql / dd->owt > q0 / dd->owt) cv.lin2 = 1;
        } else {
          if (xsl != (ql % dd->owt) * d[STR_W]) self_check_failed("xsl", k);
          if (dseg != ql / dd->owt - q0 / dd->owt) self_check_failed("dseg", k);
          /* each segment spans exactly the xs of its lanes */
          for (int64_t seg = 0; seg <= dseg; seg++) {
            int64_t lo = -1, hi = -1;
            for (int64_t l = 0; l < dd->rows; l++) {
              int64_t q = q0 + l;
              if (q / dd->owt - q0 / dd->owt != seg) continue;
              int64_t xs = (q % dd->owt) * d[STR_W];
              if (lo < 0 || xs < lo) lo = xs;
              if (xs > hi) hi = xs;
            }
            int64_t xf = seg == 0 ? xs0 : 0, xl = seg == dseg ? xsl : d[OW_XS] - d[STR_W];
            if (lo != xf || hi != xl) self_check_failed("segment extent", k);
          }
          if (dseg == 0) cv.seg1 = 1;
          if (dseg == 1) cv.seg2 = 1;
          if (dseg >= 2) cv.seg3 = 1;
          if (dseg >= 1 && xs0 != 0) cv.midrow = 1;
          if (q0 + dd->rows > dd->oht * dd->owt) cv.past = 1;
          if (ql / dd->owt >= dd->oht && d[OH_LAST] == dd->oht - 1 && dseg >= 1)
            cv.tcut = 1;
          if (kg > 0) cv.kg = 1;
        }
      }
      for (int64_t c = 0; c < d[N_CH]; c++)
        for (int64_t r = 0; r < d[N_KR]; r++)
          for (int64_t seg = 0;; seg++) {
            /* the last segment: lane ROWS-1's row, or the tile's last output row */
            const int last_seg = lin || seg == dseg || seg >= ((d[OH_LAST] - orow0) & 0xffff);
            int64_t xs_first = seg == 0 ? xs0 : 0;
            int64_t xs_last = seg == dseg ? xsl : d[OW_XS] - d[STR_W];
            int64_t span = (lin ? d[LAST_XS] : xs_last - xs_first) + d[KSPAN];
            if (span <= 0) return 0;
            /* the segment's start in the channel plane, and in the SRAM */
            int64_t pf = d[BASE] + r * d[KR_STEP] + py0 + seg * d[OY_STEP] + xs_first;
            int64_t p = pf + c * d[PLANE];
            int64_t iy = y0 + seg * d[STR_H] + r * d[DIL_H] - d[PAD_T];
            int row_ok = iy >= 0 && iy < d[TILE_H];
            int plast = (r == d[N_KR] - 1) && (c == d[N_CH] - 1);
            size_t first = words->n;
            for (int64_t w = floor_div(p, BUS) * BUS; w < p + span; w += BUS) {
              if (words->n >= MAX_WORDS) return 0;
              word_t *x = vvec_push(words);
              x->rel = w - p;
              x->seg = (int)seg;
              x->fs = words->n - 1 == first;
              x->ofs = (int)(p - floor_div(p, BUS) * BUS);
              x->iw = (int)(words->n - 1 - first);
              x->addr = (uint64_t)floor_div(w, BUS) & bits_mask(AW);
              x->mask = 0;
              int cut_lo = 0, cut_hi = 0;
              for (int i = 0; i < BUS; i++) {
                int64_t pos = x->rel + i;
                if (pos < 0 || pos >= span) continue;
                if (lin) {
                  int64_t fp = pf + pos;
                  if (fp >= 0 && fp < d[PLANE]) x->mask |= 1ull << i;
                  cut_lo |= fp < 0;
                  cut_hi |= fp >= d[PLANE];
                } else {
                  int64_t ix = xs_first - d[PAD_L] + pos;
                  if (row_ok && ix >= 0 && ix < d[TILE_W]) x->mask |= 1ull << i;
                }
              }
              x->rd = x->mask != 0;
              x->plast = plast;
              x->clast = plast && last_seg && w + BUS >= p + span;
              x->glast = x->clast && k == d[N_CTX] - 1;
              if (lin && dd->rows && x->mask) {
                if (cut_lo) cv.cut_lo = 1;
                if (cut_hi) cv.cut_hi = 1;
              }
            }
            if (lin && dd->rows) {
              /* every lane's taps are in the segment; those inside the tile are where the
               * [channel][row][column] layout puts them (and real), the ones of rows above or
               * below the tile in a column of it are zeros */
              const int64_t P = d[OY_STEP];
              for (int64_t l = 0; l < dd->rows; l++) {
                int64_t q = k * dd->rows + l, oy = q / dd->owt, ox = q % dd->owt;
                for (int64_t s = 0; s < dd->s; s++) {
                  int64_t pos = l + s * dd->dil_w;
                  if (pos < 0 || pos >= span) self_check_failed("tap outside the segment", k);
                  int64_t ty = oy + r * d[DIL_H] - d[PAD_T], tx = ox + s * dd->dil_w - d[PAD_L];
                  if (tx < 0 || tx >= d[TILE_W]) continue;   /* the lane zeroes it */
                  int in = ty >= 0 && ty < d[TILE_H];
                  if (in && pf + pos != ty * P + tx) self_check_failed("tap position", k);
                  if (mask_at(words, first, p, pos) != in) self_check_failed("tap mask", k);
                }
              }
            }
            if (last_seg) break;
            if (seg >= 40) return 0;
          }
      /* next context: ROWS pixels on */
      xs0 += d[CTX_XS];
      int wrap0 = xs0 >= d[OW_XS];
      if (wrap0) xs0 -= d[OW_XS];
      xsl += d[CTX_XS];
      int wrapl = xsl >= d[OW_XS];
      if (wrapl) xsl -= d[OW_XS];
      py0 += d[CTX_PY] + (wrap0 ? d[OY_STEP] : 0);
      y0 += d[CTX_Y] + (wrap0 ? d[STR_H] : 0);
      dseg += wrapl - wrap0;
      orow0 = (orow0 + d[CTX_ROWS] + wrap0) & 0xffff;
      if (dd->rows && !lin && wrapl && !wrap0) cv.up = 1;
      if (dd->rows && !lin && wrap0 && !wrapl) cv.down = 1;
    }
  }
  *cov = cv;
  return 1;
}

/* Arbitrary small numbers. */
static void any_desc(vrng *g, desc_t *dd)
{
  int64_t *d = dd->f;
  d[N_CH] = vrng_range(g, 1, 3);
  d[N_KR] = vrng_range(g, 1, 3);
  d[N_CTX] = vrng_range(g, 1, 5);
  d[N_KG] = vrng_range(g, 1, 2);
  d[PLANE] = vrng_range(g, 0, 60);
  d[KR_STEP] = vrng_range(g, 0, 20);
  d[OY_STEP] = vrng_range(g, 0, 20);
  d[OW_XS] = vrng_range(g, 1, 20);
  d[CTX_XS] = vrng_range(g, 0, d[OW_XS] - 1);
  d[CTX_PY] = vrng_range(g, 0, 40);
  d[CTX_Y] = vrng_range(g, 0, 3);
  d[LAST_XS] = vrng_range(g, 0, d[OW_XS] - 1);
  d[LAST_DSEG] = vrng_range(g, 0, 3);
  d[BASE] = vrng_range(g, -40, 40);
  d[DIL_H] = vrng_range(g, 0, 2);
  d[STR_H] = vrng_range(g, 0, 2);
  d[STR_W] = vrng_range(g, 0, d[OW_XS] < 3 ? d[OW_XS] : 3);
  d[PAD_T] = vrng_range(g, 0, 3);
  d[PAD_L] = vrng_range(g, 0, 3);
  d[TILE_H] = vrng_range(g, 1, 6);
  d[TILE_W] = vrng_range(g, 1, 12);
  d[KSPAN] = vrng_range(g, 1, 2 * BUS);
  d[LIN] = vrng_pct(g, 25);
  d[OH_LAST] = vrng_pct(g, 70) ? vrng_range(g, 0, 8) : 0xffff;
  d[CTX_ROWS] = vrng_range(g, 0, 3);
  dd->rows = dd->owt = dd->oht = dd->s = dd->dil_w = dd->pad_b = dd->pad_r = 0;
}

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s BUS AW SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  BUS = (int)arg_long(argv[1], "BUS");
  AW = (int)arg_long(argv[2], "AW");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (BUS < 2 || BUS > 32 || (BUS & (BUS - 1)) || AW < 1 || AW > 32) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);

  vvec passes = {0, 0, 0, sizeof(pass_t)};
  vvec all = {0, 0, 0, sizeof(word_t)};     /* the words of every pass, one after the other */
  vvec words = {0, 0, 0, sizeof(word_t)};
  cover_t cov = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  /* ROWS from the set, S 1..3, dilation and stride 1..2 */
  const real_opts_t ropt = {.bus = BUS, .rows = 0, .s_max = 3, .dil_max = 2, .str_max = 2};

  int npass = (int)vrng_range(&g, 12, 18);
  for (int pass = 0;; pass++) {
    int covered = cov.seg1 && cov.seg2 && cov.seg3 && cov.midrow && cov.past && cov.kg &&
                  cov.up && cov.down && cov.tcut && cov.lin2 && cov.cut_lo && cov.cut_hi;
    if (pass >= npass && covered) break;
    if (pass >= 200) {
      fprintf(stderr, "coverage not reached in 200 passes (seed %llu):%s%s%s%s%s%s%s%s%s%s%s%s\n",
              (unsigned long long)seed, cov.seg1 ? "" : " seg1", cov.seg2 ? "" : " seg2",
              cov.seg3 ? "" : " seg3", cov.midrow ? "" : " midrow", cov.past ? "" : " past",
              cov.kg ? "" : " kg", cov.up ? "" : " up", cov.down ? "" : " down",
              cov.tcut ? "" : " tcut",
              cov.lin2 ? "" : " lin2", cov.cut_lo ? "" : " cut_lo", cov.cut_hi ? "" : " cut_hi");
      return 3;
    }
    desc_t d;
    for (;;) {
      /* 35% real layers in linear contexts; the rest as before: 60% real, 40% arbitrary (a
       * quarter of those with lin = 1) */
      if (vrng_pct(&g, 35)) real_desc(&g, &ropt, &d, 1);
      else if (vrng_pct(&g, 60)) real_desc(&g, &ropt, &d, 0);
      else any_desc(&g, &d);
      if (enumerate(&d, &words, &cov)) break;
    }
    pass_t *ps = vvec_push(&passes);
    ps->d = d;
    ps->first = all.n;
    /* Most passes run to the end; some are cut short by the next start. Some are taken at
     * full speed (adv every cycle): their words must come one a cycle. */
    ps->cut = vrng_pct(&g, 12);
    ps->n = ps->cut ? (size_t)vrng_range(&g, 0, (long)words.n - 1) : words.n;
    ps->p_adv = vrng_pct(&g, 30) ? 100 : (int)vrng_range(&g, 20, 90);
    for (size_t i = 0; i < ps->n; i++) *(word_t *)vvec_push(&all) = VVEC_AT(words, word_t, i);
  }

  if (inject) {
    for (;;) {
      if (all.n == 0) break;
      word_t *w = &VVEC_AT(all, word_t, (size_t)vrng_range(&g, 0, (long)all.n - 1));
      switch (vrng_range(&g, 0, 4)) {
      case 0: w->fs ^= 1; break;
      case 1: w->seg ^= 1; break;
      case 2: w->mask ^= 1; break;
      case 3: w->clast ^= 1; break;
      default: w->glast ^= 1; break;
      }
      break;
    }
  }

  FILE *f = open_out(argv[4]);
  fprintf(f, "%d %d\n", BUS, AW);
  for (size_t i = 0; i < passes.n; i++) {
    pass_t *ps = &VVEC_AT(passes, pass_t, i);
    fprintf(f, "D");
    for (int k = 0; k < NFIELD; k++)
      fprintf(f, " %llx", (unsigned long long)((uint64_t)ps->d.f[k] & 0xffffffffu));
    fprintf(f, "\nS %zx %x %x\n", ps->n, ps->cut, ps->p_adv);
    for (size_t j = 0; j < ps->n; j++) {
      word_t *w = &VVEC_AT(all, word_t, ps->first + j);
      fprintf(f, "W %x %llx %llx %x %x %x %x %x %x %x\n", (unsigned)w->rd,
              (unsigned long long)w->addr, (unsigned long long)w->mask, (unsigned)w->fs,
              (unsigned)w->ofs, (unsigned)w->iw, (unsigned)w->seg, (unsigned)w->plast,
              (unsigned)w->clast, (unsigned)w->glast);
    }
  }
  fprintf(f, "E\n");
  close_out(f, argv[4]);
  free(words.p);
  free(all.p);
  free(passes.p);
  return 0;
}
