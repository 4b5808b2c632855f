/* golden: reference convolutions written from their definitions (PyTorch semantics, groups=1).
 *
 * Shares no code with the host driver or the generator: a bug shared by both would hide itself.
 * Every sum is wrapped to ACC_BITS two's complement after each accumulation, as the hardware
 * accumulator does (wrap-around, not saturation). Tensors are int64 in C order:
 * x: N,C,H,W   w: K,C,R,S   y/dy: N,K,OH,OW   with
 * OH = (H + 2*ph - dh*(R-1) - 1) / sh + 1, likewise OW. */
#ifndef SAGEN_GOLDEN_H
#define SAGEN_GOLDEN_H

#include <stdint.h>

typedef struct golden_conv {
  long n, c, h, w;        /* input (x / dx) shape */
  long k, r, s;           /* filters, kernel height, kernel width */
  long sh, sw, ph, pw, dh, dw;  /* stride, padding, dilation per axis */
  int acc_bits;           /* 2..64 */
} golden_conv_t;

/* Output spatial size of the forward pass; <= 0 when the layer has no output. */
long golden_out_h(const golden_conv_t *g);
long golden_out_w(const golden_conv_t *g);

/* y = conv2d(x, w): torch.nn.functional.conv2d. */
void golden_conv2d(const golden_conv_t *g, const int64_t *x, const int64_t *w, int64_t *y);
/* dx = torch.nn.grad.conv2d_input((n,c,h,w), w, dy, stride, padding, dilation). */
void golden_conv2d_input_grad(const golden_conv_t *g, const int64_t *dy, const int64_t *w,
                              int64_t *dx);
/* dw = torch.nn.grad.conv2d_weight(x, (k,c,r,s), dy, stride, padding, dilation). */
void golden_conv2d_weight_grad(const golden_conv_t *g, const int64_t *x, const int64_t *dy,
                               int64_t *dw);

/* Floating point (data.format fp16, bf16, fp32): operands of IN_EW/IN_FW exponent/fraction bits,
 * sums of ACC_EW/ACC_FW; tensors hold the bit patterns. */
typedef struct golden_fp {
  int in_ew, in_fw, acc_ew, acc_fw;
} golden_fp_t;

/* One reduction slice of a pass: input channels C0..C0+CT-1, kernel rows R0.., columns S0... */
typedef struct golden_slice {
  long c0, ct, r0, rt, s0, st;
  int cols_first;   /* the walk is c, s, r (the pass ran with H and W exchanged) */
} golden_slice_t;

/* y = conv2d(x, w) bit for bit as the hardware sums (docs/hardware.md, "The order of a float
 * sum"): for each slice SL[0..NSL) in the order the passes ran, the walk c, r, s (s fastest;
 * c, s, r with cols_first) of the slice, a padding position a product of -0 (no operand, the
 * sum's identity, which still takes its partial); each product rounded into the accumulation
 * format and added into partial sum k mod 8 (from -0); the partials reduced as ((s0 + s1) +
 * (s2 + s3)) + ((s4 + s5) + (s6 + s7)); the first slice's sum written, each later one's added
 * to the sum so far (slice + stored). Every rounding to nearest, ties to even. */
void golden_conv2d_fp(const golden_conv_t *g, const golden_fp_t *f, const golden_slice_t *sl,
                      long nsl, const int64_t *x, const int64_t *w, int64_t *y);

/* A convolution as the hardware ran it, given as data (the lowering of a backward op, see
 * drive_run_t): its input X [n][c][h][w] (padding not stored), its members (convolutions of
 * that input, each its own kernel, output and destinations), its output tiles and its passes
 * in the order they ran. */
typedef struct golden_axis {
  long lead, gap, dense;   /* tap i at dense position lead + i * gap of DENSE; dense 0: taps */
} golden_axis_t;
#define GOLDEN_ABSENT INT64_MIN   /* a weight of a tap the filter lacks (golden_member_t.w) */
typedef struct golden_member {
  golden_conv_t g;         /* n, c as the run's; h, w at most the run's */
  long oh, ow;             /* its output size */
  golden_axis_t ah, aw;    /* the dense tap sequences of its rows and columns */
  int no_ops;              /* no tap at all: every dense position a zero step */
  const int64_t *w;        /* [k][c][r][s]; GOLDEN_ABSENT: a tap the filter lacks */
  const long *dst;         /* [n][k][oh][ow]: the flat index of Y each result goes to, or -1;
                              col2im: [n][c2i_lanes][oh][ow], each word lane's */
  long c2i_lanes;          /* col2im (0: not; see golden_run_fp): lanes of a word that hold Y */
  int c2i_kg0, c2i_cols;   /* col2im: first filter group with a line segment; columns */
  const uint32_t *c2i_route;   /* col2im: [kg][class][lane] = {valid, column}, valid at bit
                                  max(1, ceil(log2(cols))) */
} golden_member_t;
typedef struct golden_tile {
  long n, oy0, oht, ox0, owt, k0, kt;
  int m;
} golden_tile_t;
typedef struct golden_pass {
  long tile, c0, ct, r0, rt, s0, st;
} golden_pass_t;
typedef struct golden_run {
  long n, c, h, w;
  const int64_t *x;
  int zero_fill;           /* the passes walk the dense positions, a zero step +0 x +0 */
  int nm;
  const golden_member_t *m;
  long nt, np;
  const golden_tile_t *t;
  const golden_pass_t *p;
} golden_run_t;

/* Run R's results written into Y (NY elements) bit for bit as the hardware sums them: each
 * output of each tile summed over the tile's passes in order as golden_conv2d_fp sums a slice
 * (the walk c, r, s of the pass's slice of the member's kernel; with zero_fill every dense
 * position of the slice's span, from the dense start for the first slice of an axis to the end
 * for its last, a position between taps a product +0 x +0), the first pass's sum written, each
 * later one's added to it, into Y at its destination.
 * col2im (one member, c2i_lanes > 0: a 1x1 convolution of dy's pixels, the grid of oh x ow
 * super-pixels, and the filters of (tap, channel)): each pass's PE sums P(pixel, filter) as
 * above; a filter group kg is c2i_cols filters; the route table names, per filter group, class
 * and lane, the column whose sum the lane takes: class 00 of the pixel itself (own), 01 of the
 * row's previous pixel (prev), 10 of the pixel above (down) and 11 of the one above and before
 * (dprev). Pass by pass (tiles of whole grid rows, a tile's passes its reduction slices), filter
 * group by group, pixel by pixel in row order, each word lane becomes (own + prev) + (carry +
 * stored) and, for filter groups from c2i_kg0 on, the line word of its column (down + dprev) +
 * line (the line's own value only in a later slice), each + rounded, an absent operand -0; the
 * carry is the line word of the column in rows after the tile's first (and in the tile's first
 * when it is not the grid's first), not in later slices; stored is the word so far after the
 * first filter group or the first slice. The words go to Y at their destinations at the end.
 * Returns 0, or -1 if R is inconsistent (a slice, tile, route or destination out of range;
 * nothing written) or out of memory. */
int golden_run_fp(const golden_fp_t *f, const golden_run_t *r, int64_t *y, long ny);

/* The independent check of a float result Y of op OP (0 conv2d: A x, B w; 1 input gradient: A
 * dy, B w; 2 weight gradient: A x, B dy): every element against the exact sum of its products
 * in double, ref, within |y - ref| <= (n + 1) u sum|a_i b_i| + (2n + 1) eta (n products, u the
 * accumulation format's unit roundoff, eta its least subnormal: the underflows); a NaN ref
 * needs a NaN y, and where the accumulation may overflow (sum|a_i b_i| near the largest finite
 * value) an infinity or NaN is accepted. Returns the elements outside the bound (*FIRST: the
 * first one's flat index, or -1), or -1 if out of memory. */
long golden_fp_bound_check(const golden_conv_t *g, const golden_fp_t *f, int op,
                           const int64_t *a, const int64_t *b, const int64_t *y, long *first);

#endif
