/* test_golden_fp: the float golden models (tb/golden_fp.c) on sums whose rounding depends on
 * the order, worked out by hand, and golden_run_fp (a run as data) against golden_conv2d_fp
 * (the same convolution from its slices) on random layers.
 *
 * Prints one line per case, "ok <name>" or "not ok <name>: why", then "N passed, N failed"
 * (tests/lib/tap.h), and exits non-zero if any case failed. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "rng.h"
#include "lib/tap.h"

/* bf16 operands, fp32 sums */
static const golden_fp_t BF16 = {8, 7, 8, 23};
/* bf16 encodings: 1, 2^-12, 0; fp32: 1, 1 + 2^-23 */
#define B_ONE 0x3f80
#define B_TINY 0x3980
#define F_ONE 0x3f800000
#define F_ONE_ULP 0x3f800001

static golden_conv_t conv(long c, long h, long w, long k, long r, long s)
{
  golden_conv_t g = {1, c, h, w, k, r, s, 1, 1, 0, 0, 1, 1, 32};
  return g;
}

/* Products 1, 0, 2^-24, 2^-24 of a 1x1 layer of 4 channels: in order, 1 + 2^-24 rounds to 1
 * (a tie, to even) and so does the next; the hardware's partials 0..3 pair them as (1 + 0) +
 * (2^-24 + 2^-24) = 1 + 2^-23, exact. */
static void test_partials(void)
{
  golden_conv_t g = conv(4, 1, 1, 1, 1, 1);
  int64_t x[4] = {B_ONE, 0, B_TINY, B_TINY}, w[4] = {B_ONE, B_ONE, B_TINY, B_TINY}, y = 0;
  golden_slice_t all = {0, 4, 0, 1, 0, 1, 0};
  golden_conv2d_fp(&g, &BF16, &all, 1, x, w, &y);
  check(y == F_ONE_ULP, "conv2d_fp: partials k mod 8 and the fixed tree", "got 0x%" PRIx64, y);
  /* channels in two passes (0..1, 2..3): 1 written, then (2^-24 + 2^-24) + 1 */
  golden_slice_t two[2] = {{0, 2, 0, 1, 0, 1, 0}, {2, 2, 0, 1, 0, 1, 0}};
  golden_conv2d_fp(&g, &BF16, two, 2, x, w, &y);
  check(y == F_ONE_ULP, "conv2d_fp: a later slice adds to the stored sum", "got 0x%" PRIx64, y);
  /* passes (0), (1), (2), (3): 1, + 0, + 2^-24 (ties to 1), + 2^-24 (ties to 1) */
  golden_slice_t four[4] = {{0, 1, 0, 1, 0, 1, 0}, {1, 1, 0, 1, 0, 1, 0}, {2, 1, 0, 1, 0, 1, 0},
                            {3, 1, 0, 1, 0, 1, 0}};
  golden_conv2d_fp(&g, &BF16, four, 4, x, w, &y);
  check(y == F_ONE, "conv2d_fp: one channel a pass rounds at every pass", "got 0x%" PRIx64, y);
}

/* A padding position is no operand: its product is -0 whatever the weight. A 1 x 3 kernel
 * (inf, 1, 1) at padding 1 over the row (1, 1): the first output's first tap is padding, so
 * inf x padding adds nothing, 1 + 1 = 2 (the second's meets x: inf); over (-0, -0) every
 * product is -0 and so is the sum. */
static void test_padding(void)
{
  golden_conv_t g = conv(1, 1, 2, 1, 1, 3);
  g.pw = 1;
  int64_t w[3] = {0x7f80, B_ONE, B_ONE}, x[2] = {B_ONE, B_ONE}, y[2] = {0, 0};
  golden_slice_t all = {0, 1, 0, 1, 0, 3, 0};
  golden_conv2d_fp(&g, &BF16, &all, 1, x, w, y);
  check(y[0] == 0x40000000 && y[1] == 0x7f800000, "conv2d_fp: an infinite weight across "
        "padding adds nothing", "got 0x%" PRIx64 " 0x%" PRIx64, y[0], y[1]);
  int64_t xz[2] = {0x8000, 0x8000}, wf[3] = {B_ONE, B_ONE, B_ONE};
  golden_conv2d_fp(&g, &BF16, &all, 1, xz, wf, y);
  check(y[0] == 0x80000000 && y[1] == 0x80000000, "conv2d_fp: -0 products and padding sum to -0",
        "got 0x%" PRIx64 " 0x%" PRIx64, y[0], y[1]);
}

/* A run of one member and one tile: layer G, kernel W, its passes SL[0..NSL) (as golden
 * slices, not exchanged), the member's dense columns AW, ZERO_FILL; output into Y (OH x OW x K,
 * dst the identity). Returns golden_run_fp's status. */
static int one_run(const golden_conv_t *g, const int64_t *x, const int64_t *w,
                   const golden_slice_t *sl, long nsl, golden_axis_t aw, int zero_fill,
                   int64_t *y)
{
  long oh = golden_out_h(g), ow = golden_out_w(g), ny = g->n * g->k * oh * ow;
  long *dst = malloc(sizeof(long) * (size_t)ny);
  golden_pass_t *p = malloc(sizeof *p * (size_t)(nsl * g->n));
  golden_tile_t *t = malloc(sizeof *t * (size_t)g->n);
  for (long i = 0; i < ny; i++) dst[i] = i;
  for (long n = 0; n < g->n; n++) {
    t[n] = (golden_tile_t){n, 0, oh, 0, ow, 0, g->k, 0};
    for (long i = 0; i < nsl; i++)
      p[n * nsl + i] = (golden_pass_t){n, sl[i].c0, sl[i].ct, sl[i].r0, sl[i].rt, sl[i].s0,
                                       sl[i].st};
  }
  golden_member_t m = {*g, oh, ow, {0, 0, 0}, aw, 0, w, dst, 0, 0, 0, NULL};
  golden_run_t r = {g->n, g->c, g->h, g->w, x, zero_fill, 1, &m, g->n, nsl * g->n, t, p};
  int rc = golden_run_fp(&BF16, &r, y, ny);
  free(dst);
  free(p);
  free(t);
  return rc;
}

/* zero_fill walks the dense positions: a kernel row of taps at dense columns 0 and 2 of 3 feeds
 * a created zero between them, which takes a partial. Two channels, products (1, 2^-24) and
 * (2^-24, 0): skipping, partials 1, 2^-24, 2^-24, 0 sum to 1 (ties to even); filled, partials
 * 1, +0, 2^-24, 2^-24, +0, 0 to 1 + 2^-23. */
static void test_zero_fill(void)
{
  golden_conv_t g = conv(2, 1, 2, 1, 1, 2);
  int64_t x[4] = {B_ONE, B_TINY, B_TINY, 0}, w[4] = {B_ONE, B_TINY, B_TINY, B_ONE}, y = -1;
  golden_slice_t all = {0, 2, 0, 1, 0, 2, 0};
  golden_axis_t dense = {0, 2, 3};
  int rc = one_run(&g, x, w, &all, 1, dense, 0, &y);
  check(rc == 0 && y == F_ONE, "run_fp: zero_skip walks the taps only", "rc %d, got 0x%" PRIx64,
        rc, y);
  rc = one_run(&g, x, w, &all, 1, dense, 1, &y);
  check(rc == 0 && y == F_ONE_ULP, "run_fp: zero_fill's zero step takes a partial",
        "rc %d, got 0x%" PRIx64, rc, y);
  /* slices of one column: the first walks dense 0..1 (tap 0, a zero), the second 2..2 */
  golden_slice_t cols[2] = {{0, 2, 0, 1, 0, 1, 0}, {0, 2, 0, 1, 1, 1, 0}};
  rc = one_run(&g, x, w, cols, 2, dense, 1, &y);
  /* pass 1: partials 1, +0, 2^-24, +0: 1 + 2^-24 = 1; pass 2: 2^-24 + 0 -> 2^-24; 2^-24 + 1 */
  check(rc == 0 && y == F_ONE, "run_fp: zero_fill's slices split the dense span at the taps",
        "rc %d, got 0x%" PRIx64, rc, y);
  /* a tap the filter lacks is no operand: an infinite x across it adds nothing */
  int64_t xi[4] = {0x7f80, B_ONE, B_ONE, B_ONE}, wa[4] = {GOLDEN_ABSENT, B_ONE, B_ONE, B_ONE};
  rc = one_run(&g, xi, wa, &all, 1, dense, 0, &y);
  check(rc == 0 && y == 0x40400000, "run_fp: an absent tap adds nothing across an infinity",
        "rc %d, got 0x%" PRIx64, rc, y);
  golden_slice_t bad = {0, 3, 0, 1, 0, 2, 0};
  check(one_run(&g, x, w, &bad, 1, dense, 0, &y) == -1, "run_fp: a slice past the channels "
        "is refused", "accepted");
}

/* golden_run_fp of a convolution given as one run (identity views) against golden_conv2d_fp,
 * on random layers, slices and values. */
static void test_run_is_conv(void)
{
  uint64_t s = 99;
  int bad = 0;
  for (int it = 0; it < 200 && !bad; it++) {
    golden_conv_t g = {(long)rng_range(&s, 1, 2), (long)rng_range(&s, 1, 9),
                       (long)rng_range(&s, 3, 8), (long)rng_range(&s, 3, 8),
                       (long)rng_range(&s, 1, 3), (long)rng_range(&s, 1, 3),
                       (long)rng_range(&s, 1, 3), (long)rng_range(&s, 1, 2),
                       (long)rng_range(&s, 1, 2), (long)rng_range(&s, 0, 1),
                       (long)rng_range(&s, 0, 1), 1, 1, 32};
    long oh = golden_out_h(&g), ow = golden_out_w(&g);
    if (oh < 1 || ow < 1) continue;
    long nx = g.n * g.c * g.h * g.w, nw = g.k * g.c * g.r * g.s, ny = g.n * g.k * oh * ow;
    int64_t *x = malloc(sizeof *x * (size_t)nx), *w = malloc(sizeof *w * (size_t)nw);
    int64_t *y1 = calloc((size_t)ny, sizeof *y1), *y2 = calloc((size_t)ny, sizeof *y2);
    /* bf16 values of every sign and a spread of exponents */
    for (long i = 0; i < nx; i++) x[i] = (int64_t)((rng_range(&s, 0, 1) << 15) |
                                                   (rng_range(&s, 110, 140) << 7) |
                                                   rng_range(&s, 0, 127));
    for (long i = 0; i < nw; i++) w[i] = (int64_t)((rng_range(&s, 0, 1) << 15) |
                                                   (rng_range(&s, 110, 140) << 7) |
                                                   rng_range(&s, 0, 127));
    /* slices: channels in steps of ct, rows one at a time */
    long ct = (long)rng_range(&s, 1, (uint64_t)g.c);
    golden_slice_t sl[64];
    long nsl = 0;
    for (long c0 = 0; c0 < g.c; c0 += ct)
      for (long r0 = 0; r0 < g.r; r0++)
        sl[nsl++] = (golden_slice_t){c0, c0 + ct <= g.c ? ct : g.c - c0, r0, 1, 0, g.s, 0};
    golden_conv2d_fp(&g, &BF16, sl, nsl, x, w, y1);
    golden_axis_t none = {0, 0, 0};
    int rc = one_run(&g, x, w, sl, nsl, none, 0, y2);
    if (rc || memcmp(y1, y2, sizeof *y1 * (size_t)ny)) {
      bad = 1;
      not_ok("run_fp: a convolution as one run sums as golden_conv2d_fp", "case %d: rc %d", it,
             rc);
    }
    free(x);
    free(w);
    free(y1);
    free(y2);
  }
  if (!bad) ok("run_fp: a convolution as one run sums as golden_conv2d_fp (200 random layers)");
}

/* col2im as a run: a 2 x 2 grid of one channel, four filters in one filter group of 4 columns,
 * filter k routed to lane 0 of class k. Word (1,1) is (own + prev) + (line carry + stored):
 * own x11 w0 = 1, prev x10 w1 = 2^-24 and the carry the row above sent down, x01 w2 + x00 w3 =
 * 2^-24 + 2^-24: 1 + 2^-24 rounds to 1 (ties to even), the carry is 2^-23, the word 1 + 2^-23
 * (summed in turn, 1). Word (1,0) is x10 w0 + the carry x00 w2 = 2^-12 + 2^-24. The same with
 * the grid's rows in two tiles (the line carried from one pass to the next), and with the one
 * channel in two slices on each one-row tile (x split as x/2 + x/2: the later slice adds its
 * carry into the line and its words to the stored ones). */
static void test_c2i(void)
{
  golden_conv_t g = {1, 1, 2, 2, 4, 1, 1, 1, 1, 0, 0, 1, 1, 32};
  int64_t x[4] = {B_TINY, B_TINY, B_TINY, B_ONE}, w[4] = {B_ONE, B_TINY, B_TINY, B_TINY};
  long dst[4] = {0, 1, 2, 3};
  uint32_t route[4 * 4 * 4] = {0};
  for (int k = 0; k < 4; k++) route[k * 4] = 4u | (uint32_t)k;   /* {valid at bit 2, column} */
  golden_member_t m = {g, 2, 2, {0, 0, 0}, {0, 0, 0}, 0, w, dst, 1, 0, 4, route};
  golden_tile_t one[1] = {{0, 0, 2, 0, 2, 0, 4, 0}};
  golden_tile_t rows[2] = {{0, 0, 1, 0, 2, 0, 4, 0}, {0, 1, 1, 0, 2, 0, 4, 0}};
  golden_pass_t p1[1] = {{0, 0, 1, 0, 1, 0, 1}};
  golden_pass_t p2[2] = {{0, 0, 1, 0, 1, 0, 1}, {1, 0, 1, 0, 1, 0, 1}};
  golden_run_t r = {1, 1, 2, 2, x, 0, 1, &m, 1, 1, one, p1};
  int64_t y[4] = {0};
  int rc = golden_run_fp(&BF16, &r, y, 4);
  check(rc == 0 && y[3] == F_ONE_ULP && y[2] == 0x39800800 && y[0] == 0x39800000,
        "run_fp col2im: (own + prev) + (carry + stored), the carry from the row above",
        "rc %d, got 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64, rc, y[0], y[2], y[3]);
  r.nt = 2;
  r.np = 2;
  r.t = rows;
  r.p = p2;
  memset(y, 0, sizeof y);
  rc = golden_run_fp(&BF16, &r, y, 4);
  check(rc == 0 && y[3] == F_ONE_ULP && y[2] == 0x39800800,
        "run_fp col2im: the line carried from tile to tile", "rc %d, got 0x%" PRIx64
        " 0x%" PRIx64, rc, y[2], y[3]);
  /* two channels, each x halved (2^-13 and 0.5 are bf16 values): each pixel's sum is the same */
  golden_conv_t g2 = {1, 2, 2, 2, 4, 1, 1, 1, 1, 0, 0, 1, 1, 32};
  int64_t x2[8] = {0x3900, 0x3900, 0x3900, 0x3f00, 0x3900, 0x3900, 0x3900, 0x3f00};
  int64_t w2[8] = {B_ONE, B_ONE, B_TINY, B_TINY, B_TINY, B_TINY, B_TINY, B_TINY};
  golden_member_t m2 = {g2, 2, 2, {0, 0, 0}, {0, 0, 0}, 0, w2, dst, 1, 0, 4, route};
  golden_pass_t p4[4] = {{0, 0, 1, 0, 1, 0, 1}, {0, 1, 1, 0, 1, 0, 1},
                         {1, 0, 1, 0, 1, 0, 1}, {1, 1, 1, 0, 1, 0, 1}};
  golden_run_t r2 = {1, 2, 2, 2, x2, 0, 1, &m2, 2, 4, rows, p4};
  memset(y, 0, sizeof y);
  rc = golden_run_fp(&BF16, &r2, y, 4);
  /* word (1,1): slice 1 writes (1/2 + 2^-25) + (2^-23) -> 1/2 + 2^-23 (line: 2^-25 + 2^-25
   * from slice 1 of row 0, then 2^-25 + 2^-25 added by slice 2: 2^-23); slice 2 adds 1/2 +
   * 2^-25 (rounds to 1/2) to it: 1 + 2^-23 */
  check(rc == 0 && y[3] == F_ONE_ULP && y[2] == 0x39800800,
        "run_fp col2im: slices add their carry into the line", "rc %d, got 0x%" PRIx64
        " 0x%" PRIx64, rc, y[2], y[3]);
  /* two filter groups of 2 columns, the line from the second: filter 0 (group 0) sends x11 w0 =
   * 2^-24 to word (1,1); in group 1 filter 2 sends x11 w2 = 1 there and filter 3 x01 w3 = 2^-24
   * down. Group 1's word: 1 + (2^-24 carry + 2^-24 stored) = 1 + 2^-23, where any order that
   * adds the 1 first gives 1 */
  uint32_t rt2[2 * 4 * 2] = {0};
  rt2[0] = 2u | 0u;                  /* group 0, class 00, lane 0: column 0 (filter 0) */
  rt2[(1 * 4 + 0) * 2] = 2u | 0u;    /* group 1, class 00: column 0 (filter 2) */
  rt2[(1 * 4 + 2) * 2] = 2u | 1u;    /* group 1, class 10: column 1 (filter 3) */
  int64_t x3[4] = {B_ONE, B_TINY, B_ONE, B_ONE}, w3[4] = {0x3380, B_ONE, B_ONE, B_TINY};
  golden_member_t m3 = {g, 2, 2, {0, 0, 0}, {0, 0, 0}, 0, w3, dst, 1, 1, 2, rt2};
  golden_run_t r3 = {1, 1, 2, 2, x3, 0, 1, &m3, 1, 1, one, p1};
  memset(y, 0, sizeof y);
  rc = golden_run_fp(&BF16, &r3, y, 4);
  check(rc == 0 && y[3] == F_ONE_ULP, "run_fp col2im: the carry and the stored word meet first",
        "rc %d, got 0x%" PRIx64, rc, y[3]);
  route[4] = 4u | 3u;   /* a route to column 3 ... */
  m.g.k = 3;            /* ... of a group of three filters */
  r = (golden_run_t){1, 1, 2, 2, x, 0, 1, &m, 1, 1, one, p1};
  check(golden_run_fp(&BF16, &r, y, 4) == -1, "run_fp col2im: a route past the filters is "
        "refused", "accepted");
}

int main(void)
{
  test_partials();
  test_padding();
  test_zero_fill();
  test_run_is_conv();
  test_c2i();
  return tap_end();
}
