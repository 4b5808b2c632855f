/* conv_desc: pass descriptors of real convolution tiles, shared by the models of the data
 * feeder's blocks (model_index_counters.c, model_feeder.c). Header-only, like vec_common.h.
 *
 * The fields are those of sagen_index_counters' descriptor (its header has their meaning), in
 * the order of the enum below; "xs" values are column * stride_w. real_desc() draws the
 * descriptor of a real layer and output tile: a context is ROWS consecutive pixels of an output
 * tile of oht x owt pixels (row-major; owt below ROWS most of the time, so that contexts span
 * 1, 2, 3+ output rows), R kernel rows, S kernel columns (taps) dil_w apart, dilation dil_h,
 * stride str_h x str_w, padding 0..2 per side, the input tile tile_h x tile_w laid out
 * [channel][row][column] with row pitch P >= tile_w (P = tile_w, or a few elements more,
 * sometimes rounded up to whole bus words) from the tile's origin, and:
 *   n_ch 1..3, n_kr = R, n_ctx = ceil(npix / ROWS) (npix = oht * owt), n_kg 1..3 (1..2 with more
 *   than 4 contexts), plane = tile_h * P, kr_step = dil_h * P, oy_step = str_h * P,
 *   ctx_xs = (ROWS mod owt) * str_w, ctx_py = (ROWS div owt) * oy_step,
 *   ctx_y = (ROWS div owt) * str_h, ow_xs = owt * str_w, last_xs = ((ROWS-1) mod owt) * str_w,
 *   last_dseg = (ROWS-1) div owt, base = -(pad_t * P + pad_l) (the tile's origin at element 0),
 *   kspan = (S-1) * dil_w + 1, oh_last = oht - 1 (80%; else 0xffff, out of reach),
 *   ctx_rows = ROWS div owt.
 * Linear contexts (lin = 1): stride 1, P = owt, tile_w = owt-1+kspan-pad_l-pad_r <= owt, and
 * last_xs = ROWS-1 (the run of all ROWS lanes, not wrapped; last_dseg is ignored). */
#ifndef SAGEN_TESTS_RTL_CONV_DESC_H
#define SAGEN_TESTS_RTL_CONV_DESC_H

#include "vec_common.h"

#define NFIELD 25

typedef struct {
  int64_t f[NFIELD];
  /* how a real descriptor was made (for the models' self-checks), rows == 0 for arbitrary
   * ones; s and dil_w: the kernel columns and their spacing; pad_b, pad_r: the padding below
   * and right of the tile (the tile's extent follows from them) */
  int64_t rows, owt, oht, s, dil_w, pad_b, pad_r;
} desc_t;

enum {
  N_CH, N_KR, N_CTX, N_KG, PLANE, KR_STEP, OY_STEP, CTX_XS, CTX_PY, CTX_Y, OW_XS, LAST_XS,
  LAST_DSEG, BASE, DIL_H, STR_H, STR_W, PAD_T, PAD_L, TILE_H, TILE_W, KSPAN, LIN, OH_LAST,
  CTX_ROWS
};

/* What real_desc() draws from (give the fields by name: the minimums may be left out). */
typedef struct {
  int bus;       /* elements per bus word (the pitch's rounding) */
  int rows;      /* pixels per context; 0: drawn from {1, 2, 3, 4, 5, 8, 16} (16 twice as often) */
  int s_max;     /* S drawn from s_min..s_max */
  int dil_max;   /* dil_w from dil_min..dil_max, dil_h from 1..dil_max */
  int str_max;   /* str_w from str_min..str_max, str_h from 1..str_max (1 in linear contexts) */
  int s_min, dil_min, str_min;   /* 0 or 1: from 1 */
} real_opts_t;

static inline int64_t real_lo(int v) { return v > 1 ? v : 1; }

/* Draw into DD the descriptor of a real convolution tile (see above); with LIN one in linear
 * contexts. R is drawn from 1..3. */
static inline void real_desc(vrng *g, const real_opts_t *o, desc_t *dd, int lin)
{
  static const int64_t rows_set[] = {1, 2, 3, 4, 5, 8, 16, 16};
  int64_t *d = dd->f;
  const int64_t bus = o->bus;
  for (;;) {
    int64_t rows = o->rows > 0 ? o->rows : rows_set[vrng_range(g, 0, 7)];
    int64_t S = vrng_range(g, real_lo(o->s_min), o->s_max), R = vrng_range(g, 1, 3);
    int64_t dil_w = vrng_range(g, real_lo(o->dil_min), o->dil_max);
    int64_t dil_h = vrng_range(g, 1, o->dil_max);
    int64_t str_w = lin ? 1 : vrng_range(g, real_lo(o->str_min), o->str_max);
    int64_t str_h = lin ? 1 : vrng_range(g, 1, o->str_max);
    int64_t pt = vrng_range(g, 0, 2), pb = vrng_range(g, 0, 2);
    int64_t pl = vrng_range(g, 0, 2), pr = vrng_range(g, 0, 2);
    /* output tile: owt below ROWS most of the time (multi-row contexts) */
    int64_t owt = vrng_pct(g, 75) && rows > 1 ? vrng_range(g, 1, rows - 1 < 7 ? rows - 1 : 7)
                                               : vrng_range(g, 1, 12);
    /* up to ~8 contexts, enough for lane 0 and lane ROWS-1 to wrap at different times */
    int64_t oht_max = 8 * rows / owt;
    int64_t oht = vrng_range(g, 1, oht_max < 3 ? 3 : oht_max > 20 ? 20 : oht_max);
    int64_t th = (oht - 1) * str_h + (R - 1) * dil_h + 1 - pt - pb;
    int64_t tw = (owt - 1) * str_w + (S - 1) * dil_w + 1 - pl - pr;
    if (th < 1 || tw < 1 || (lin && tw > owt)) continue;
    int64_t pitch = owt;
    if (!lin) {
      pitch = tw + (vrng_pct(g, 50) ? 0 : vrng_range(g, 1, bus));
      if (vrng_pct(g, 30)) pitch = (pitch + bus - 1) / bus * bus;
    }
    int64_t npix = oht * owt;
    d[N_CH] = vrng_range(g, 1, 3);
    d[N_KR] = R;
    d[N_CTX] = (npix + rows - 1) / rows;
    d[N_KG] = vrng_range(g, 1, d[N_CTX] > 4 ? 2 : 3);
    d[PLANE] = th * pitch;
    d[KR_STEP] = dil_h * pitch;
    d[OY_STEP] = str_h * pitch;
    d[CTX_XS] = (rows % owt) * str_w;
    d[CTX_PY] = (rows / owt) * str_h * pitch;
    d[CTX_Y] = (rows / owt) * str_h;
    d[OW_XS] = owt * str_w;
    /* linear: the run of all ROWS lanes, not wrapped (and dseg is ignored) */
    d[LAST_XS] = lin ? rows - 1 : ((rows - 1) % owt) * str_w;
    d[LAST_DSEG] = (rows - 1) / owt;
    d[BASE] = -(pt * pitch + pl);
    d[DIL_H] = dil_h;
    d[STR_H] = str_h;
    d[STR_W] = str_w;
    d[PAD_T] = pt;
    d[PAD_L] = pl;
    d[TILE_H] = th;
    d[TILE_W] = tw;
    d[KSPAN] = (S - 1) * dil_w + 1;
    d[LIN] = lin;
    /* most of the time the tile's last output row (no segment below it), else out of reach */
    d[OH_LAST] = vrng_pct(g, 80) ? oht - 1 : 0xffff;
    d[CTX_ROWS] = rows / owt;
    dd->rows = rows;
    dd->owt = owt;
    dd->oht = oht;
    dd->s = S;
    dd->dil_w = dil_w;
    dd->pad_b = pb;
    dd->pad_r = pr;
    return;
  }
}

#endif
