/* test_golden: the reference convolutions against values worked out by hand, and the adjoint
 * identities that tie the three together on random layers.
 *
 * Prints one line per case, "ok <name>" or "not ok <name>: expected X, got Y at index I", then
 * "N passed, N failed" (tests/lib/tap.h), and exits non-zero if any case failed. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "rng.h"
#include "lib/tap.h"

/* Compare GOT[0..N) with EXPECTED and print the case line. Returns 1 if equal. */
static int check_same(const char *name, const int64_t *expected, const int64_t *got, long n) {
  long i;

  for (i = 0; i < n; i++)
    if (expected[i] != got[i]) {
      not_ok(name, "expected %" PRId64 ", got %" PRId64 " at index %ld", expected[i], got[i], i);
      return 0;
    }
  ok(name);
  return 1;
}

/* A layer with stride, padding and dilation 1, no padding, acc_bits 64. */
static golden_conv_t layer(long n, long c, long h, long w, long k, long r, long s) {
  golden_conv_t g;

  memset(&g, 0, sizeof g);
  g.n = n, g.c = c, g.h = h, g.w = w, g.k = k, g.r = r, g.s = s;
  g.sh = g.sw = 1;
  g.ph = g.pw = 0;
  g.dh = g.dw = 1;
  g.acc_bits = 64;
  return g;
}

/* Run the forward pass of G and compare with EXPECTED (N*K*OH*OW values, OH/OW as given). */
static void forward_case(const char *name, const golden_conv_t *g, long oh, long ow,
                         const int64_t *x, const int64_t *w, const int64_t *expected) {
  int64_t got[64];
  long n = g->n * g->k * oh * ow, i;
  int64_t shape[2] = {oh, ow}, gshape[2];

  gshape[0] = golden_out_h(g);
  gshape[1] = golden_out_w(g);
  if (gshape[0] != oh || gshape[1] != ow) {
    char what[128];

    snprintf(what, sizeof what, "%s_out_size", name);
    check_same(what, shape, gshape, 2);
    return;
  }
  for (i = 0; i < 64; i++)
    got[i] = 0x5a5a5a5a;
  golden_conv2d(g, x, w, got);
  check_same(name, expected, got, n);
}

/* The 3x3 image 1..9 used by several cases, and the 5x5 image 1..25 (x[i][j] = 5i+j+1). */
static const int64_t img3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int64_t img5[25] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};
static const int64_t k22[4] = {1, 2, 3, 4}; /* 2x2 kernel [1 2; 3 4] */

static void test_forward(void) {
  golden_conv_t g;

  /* basic: y[oy][ox] = x[oy][ox]*1 + x[oy][ox+1]*2 + x[oy+1][ox]*3 + x[oy+1][ox+1]*4
   * y00 = 1+4+12+20 = 37   y01 = 2+6+15+24 = 47
   * y10 = 4+10+21+32 = 67  y11 = 5+12+24+36 = 77 */
  {
    static const int64_t y[4] = {37, 47, 67, 77};

    g = layer(1, 1, 3, 3, 1, 2, 2);
    forward_case("conv2d_basic", &g, 2, 2, img3, k22, y);
  }
  /* stride 2 on 5x5: OH = (5-2)/2+1 = 2; y[oy][ox] uses x[2oy..2oy+1][2ox..2ox+1]
   * y00 = 1*1+2*2+6*3+7*4 = 51      y01 = 3+8+24+36 = 71
   * y10 = 11+24+48+68 = 151         y11 = 13+28+54+76 = 171 */
  {
    static const int64_t y[4] = {51, 71, 151, 171};

    g = layer(1, 1, 5, 5, 1, 2, 2);
    g.sh = g.sw = 2;
    forward_case("conv2d_stride2", &g, 2, 2, img5, k22, y);
  }
  /* padding 1 on 3x3: OH = 3+2-1-1+1 = 4. With the zero-padded image xp (5x5, xp[i][j] =
   * x[i-1][j-1]): y[oy][ox] = xp[oy][ox] + 2xp[oy][ox+1] + 3xp[oy+1][ox] + 4xp[oy+1][ox+1]
   * row 0: 4*1 = 4;  3*1+4*2 = 11;  3*2+4*3 = 18;  3*3 = 9
   * row 1: 2*1+4*4 = 18;  37;  47;  1*3+3*6 = 21
   * row 2: 2*4+4*7 = 36;  67;  77;  1*6+3*9 = 33
   * row 3: 2*7 = 14;  7+2*8 = 23;  8+2*9 = 26;  9 */
  {
    static const int64_t y[16] = {4, 11, 18, 9, 18, 37, 47, 21, 36, 67, 77, 33, 14, 23, 26, 9};

    g = layer(1, 1, 3, 3, 1, 2, 2);
    g.ph = g.pw = 1;
    forward_case("conv2d_pad1", &g, 4, 4, img3, k22, y);
  }
  /* dilation 2 on 5x5: taps at (0,0) (0,2) (2,0) (2,2); OH = 5-2*1-1+1 = 3
   * y[oy][ox] = x[oy][ox] + 2x[oy][ox+2] + 3x[oy+2][ox] + 4x[oy+2][ox+2]
   * y00 = 1+2*3+3*11+4*13 = 92, and each step right adds 1+2+3+4 = 10, each step down 50:
   * 92 102 112 / 142 152 162 / 192 202 212 */
  {
    static const int64_t y[9] = {92, 102, 112, 142, 152, 162, 192, 202, 212};

    g = layer(1, 1, 5, 5, 1, 2, 2);
    g.dh = g.dw = 2;
    forward_case("conv2d_dilation2", &g, 3, 3, img5, k22, y);
  }
  /* rectangular: x 3x4 = [1 2 3 4; 5 6 7 8; 9 10 11 12], w 2x3 = [1 0 -1; 2 1 0],
   * stride (1,2), pad (0,1): OH = (3-1-1)/1+1 = 2, OW = (4+2-2-1)/2+1 = 2.
   * columns read: ox=0 -> -1,0,1   ox=1 -> 1,2,3
   * y00 = (0*1 + 1*0 + 2*-1) + (0*2 + 5*1 + 6*0) = -2+5 = 3
   * y01 = (2 - 4) + (2*6 + 7) = -2+19 = 17
   * y10 = (0 - 6) + (9) = 3
   * y11 = (6 - 8) + (2*10 + 11) = -2+31 = 29 */
  {
    static const int64_t x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const int64_t w[6] = {1, 0, -1, 2, 1, 0};
    static const int64_t y[4] = {3, 17, 3, 29};

    g = layer(1, 1, 3, 4, 1, 2, 3);
    g.sh = 1, g.sw = 2, g.ph = 0, g.pw = 1;
    forward_case("conv2d_rect_stride_pad", &g, 2, 2, x, w, y);
  }
  /* rectangular dilation (2,1) and padding (1,0) on 3x3 with a 2x1 kernel [1; 10]:
   * taps rows oy-1 and oy+1 of column ox; OH = (3+2-2-1)+1 = 3, OW = 3
   * row 0: x[-1]*1 + x[1]*10 = 40 50 60
   * row 1: x[0] + 10x[2] = 1+70 = 71, 2+80 = 82, 3+90 = 93
   * row 2: x[1] + 0 = 4 5 6 */
  {
    static const int64_t w[2] = {1, 10};
    static const int64_t y[9] = {40, 50, 60, 71, 82, 93, 4, 5, 6};

    g = layer(1, 1, 3, 3, 1, 2, 1);
    g.dh = 2, g.ph = 1;
    forward_case("conv2d_rect_dilation_pad", &g, 3, 3, img3, w, y);
  }
  /* multi-channel, multi-filter, batch 2: x N=2,C=2,2x3; w K=2,C=2,2x2; OH=1, OW=2.
   * x[0][0] = [1 2 0; 3 4 1]   x[0][1] = [5 6 1; 7 8 0]
   * x[1][0] = [-1 0 2; 2 1 0]  x[1][1] = [0 3 1; -2 1 -1]
   * w[0][0] = [1 0; 0 1]  w[0][1] = [0 1; 1 0]  w[1][0] = [1 1; 1 1]  w[1][1] = [-1 2; 0 3]
   * n0 k0: ox0 (1+4)+(6+7) = 18        ox1 (2+1)+(1+8) = 12
   * n0 k1: ox0 10+(-5+12+24) = 41      ox1 (2+0+4+1)+(-6+2+0+0) = 3
   * n1 k0: ox0 (-1+1)+(3-2) = 1        ox1 (0+0)+(1+1) = 2
   * n1 k1: ox0 2+(0+6+0+3) = 11        ox1 (0+2+1+0)+(-3+2+0-3) = -1 */
  {
    static const int64_t x[24] = {1, 2, 0, 3, 4, 1, 5, 6, 1, 7, 8, 0,
                                  -1, 0, 2, 2, 1, 0, 0, 3, 1, -2, 1, -1};
    static const int64_t w[16] = {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, -1, 2, 0, 3};
    static const int64_t y[8] = {18, 12, 41, 3, 1, 2, 11, -1};

    g = layer(2, 2, 2, 3, 2, 2, 2);
    forward_case("conv2d_multi_channel_filter_batch", &g, 1, 2, x, w, y);
  }
  /* acc_bits 8: 10*10 + 10*10 = 200 wraps to 200-256 = -56; a lone product 100*2 = 200 wraps
   * the same way; 1*-1 + -128*1 = -129 wraps to 127 */
  {
    static const int64_t x[2] = {10, 10}, w[2] = {10, 10}, y[1] = {-56};
    static const int64_t x2[2] = {100, 0}, w2[2] = {2, 7}, y2[1] = {-56};
    static const int64_t x3[2] = {1, -128}, w3[2] = {-1, 1}, y3[1] = {127};

    g = layer(1, 1, 1, 2, 1, 1, 2);
    g.acc_bits = 8;
    forward_case("conv2d_acc8_wrap", &g, 1, 1, x, w, y);
    forward_case("conv2d_acc8_product_wrap", &g, 1, 1, x2, w2, y2);
    forward_case("conv2d_acc8_negative_wrap", &g, 1, 1, x3, w3, y3);
  }
  /* acc_bits 16: 200*200 = 40000 wraps to 40000-65536 = -25536; 2 bits: 1+1 = 2 -> -2 */
  {
    static const int64_t x[2] = {200, 0}, w[2] = {200, 0}, y[1] = {-25536};
    static const int64_t x2[2] = {1, 1}, w2[2] = {1, 1}, y2[1] = {-2};

    g = layer(1, 1, 1, 2, 1, 1, 2);
    g.acc_bits = 16;
    forward_case("conv2d_acc16_wrap", &g, 1, 1, x, w, y);
    g.acc_bits = 2;
    forward_case("conv2d_acc2_wrap", &g, 1, 1, x2, w2, y2);
  }
  /* acc_bits 64: INT64_MAX + 1 = INT64_MIN; INT64_MAX + INT64_MAX = 2^64 - 2 = -2;
   * INT64_MIN * -1 = 2^63 = INT64_MIN */
  {
    static const int64_t x[2] = {INT64_MAX, 1}, w[2] = {1, 1}, y[1] = {INT64_MIN};
    static const int64_t x2[2] = {INT64_MAX, INT64_MAX}, w2[2] = {1, 1}, y2[1] = {-2};
    static const int64_t x3[2] = {INT64_MIN, 0}, w3[2] = {-1, 5}, y3[1] = {INT64_MIN};

    g = layer(1, 1, 1, 2, 1, 1, 2);
    forward_case("conv2d_acc64_wrap", &g, 1, 1, x, w, y);
    forward_case("conv2d_acc64_wrap_twice", &g, 1, 1, x2, w2, y2);
    forward_case("conv2d_acc64_product_wrap", &g, 1, 1, x3, w3, y3);
  }
}

static void test_out_size(void) {
  golden_conv_t g;
  int64_t got[6], expected[6];

  /* h=3,R=3: 0/1+1 = 1.   h=2,R=3,s=2: numerator -1 (truncating division would give 1): <= 0.
   * h=5,R=2,s=2: 3/2+1 = 2.   w=4,S=2,d=3,p=1: 4+2-3-1 = 2, /1+1 = 3.
   * w=1,S=5,p=1: 1+2-4-1 = -2: <= 0.   w=7,S=3,s=3,p=2,d=2: 7+4-4-1 = 6, /3+1 = 3 */
  g = layer(1, 1, 3, 4, 1, 3, 2);
  g.dw = 3, g.pw = 1;
  got[0] = golden_out_h(&g), expected[0] = 1;
  got[1] = golden_out_w(&g), expected[1] = 3;
  g = layer(1, 1, 2, 1, 1, 3, 5);
  g.sh = 2, g.pw = 1;
  got[2] = golden_out_h(&g) <= 0, expected[2] = 1;
  got[3] = golden_out_w(&g) <= 0, expected[3] = 1;
  g = layer(1, 1, 5, 7, 1, 2, 3);
  g.sh = 2, g.sw = 3, g.pw = 2, g.dw = 2;
  got[4] = golden_out_h(&g), expected[4] = 2;
  got[5] = golden_out_w(&g), expected[5] = 3;
  check_same("out_size", expected, got, 6);
}

static void test_input_grad(void) {
  golden_conv_t g;
  int64_t got[64];

  /* h=5, R=2, s=2, p=0: OH = (5-1-1)/2+1 = 2, so forward never reads row 4.
   * x 5x1, w 2x1 = [2; 3], dy 2x1 = [1; 10]. dx[iy] = sum over oy*2+r == iy of dy[oy]*w[r]:
   * dx0 = 1*2 = 2, dx1 = 1*3 = 3, dx2 = 10*2 = 20, dx3 = 10*3 = 30, dx4 = nothing = 0 */
  {
    static const int64_t w[2] = {2, 3}, dy[2] = {1, 10}, dx[5] = {2, 3, 20, 30, 0};

    g = layer(1, 1, 5, 1, 1, 2, 1);
    g.sh = 2;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, w, got);
    check_same("input_grad_dropped_row", dx, got, 5);
  }
  /* stride 1, no padding: x 3x3, w [1 2; 3 4], dy [1 2; 3 4]. dx[iy][ix] = sum of
   * dy[oy][ox]*w[iy-oy][ix-ox]:
   * dx00 = 1*1 = 1       dx01 = 1*2+2*1 = 4          dx02 = 2*2 = 4
   * dx10 = 1*3+3*1 = 6   dx11 = 1*4+2*3+3*2+4*1 = 20 dx12 = 2*4+4*2 = 16
   * dx20 = 3*3 = 9       dx21 = 3*4+4*3 = 24         dx22 = 4*4 = 16 */
  {
    static const int64_t dy[4] = {1, 2, 3, 4}, dx[9] = {1, 4, 4, 6, 20, 16, 9, 24, 16};

    g = layer(1, 1, 3, 3, 1, 2, 2);
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, k22, got);
    check_same("input_grad_basic", dx, got, 9);
  }
  /* padding 1: x 2x2, w 3x3 = [1 2 3; 4 5 6; 7 8 9], dy 2x2 = [1 10; 100 1000]; OH = 2.
   * dx[iy][ix] = sum of dy[oy][ox]*w[iy-oy+1][ix-ox+1]:
   * dx00 = 1*5 + 10*4 + 100*2 + 1000*1 = 1245
   * dx01 = 1*6 + 10*5 + 100*3 + 1000*2 = 2356
   * dx10 = 1*8 + 10*7 + 100*5 + 1000*4 = 4578
   * dx11 = 1*9 + 10*8 + 100*6 + 1000*5 = 5689 */
  {
    static const int64_t dy[4] = {1, 10, 100, 1000}, dx[4] = {1245, 2356, 4578, 5689};

    g = layer(1, 1, 2, 2, 1, 3, 3);
    g.ph = g.pw = 1;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, img3, got);
    check_same("input_grad_pad1", dx, got, 4);
  }
  /* channels: C=2, K=2, 1x1 kernels, x 1x2. w[k][c] = [[1, 2], [3, 4]],
   * dy[0] = [1 10], dy[1] = [100 1000]. dx[c][ix] = sum_k dy[k][ix]*w[k][c]:
   * c0: 1*1+100*3 = 301, 10*1+1000*3 = 3010    c1: 1*2+100*4 = 402, 10*2+1000*4 = 4020 */
  {
    static const int64_t w[4] = {1, 2, 3, 4}, dy[4] = {1, 10, 100, 1000};
    static const int64_t dx[4] = {301, 3010, 402, 4020};

    g = layer(1, 2, 1, 2, 2, 1, 1);
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, w, got);
    check_same("input_grad_channels", dx, got, 4);
  }
  /* dilation 2, stride 2, 1-D along w: x 1x6, w 1x2 = [1 10], dy 1x2 = [1 100]
   * OW = (6-2-1)/2+1 = 2; taps of ox: 2ox and 2ox+2.
   * dx0 = dy0*w0 = 1; dx2 = dy0*w1 + dy1*w0 = 10+100 = 110; dx4 = dy1*w1 = 1000;
   * odd columns and dx5 get nothing */
  {
    static const int64_t w[2] = {1, 10}, dy[2] = {1, 100}, dx[6] = {1, 0, 110, 0, 1000, 0};

    g = layer(1, 1, 1, 6, 1, 1, 2);
    g.sw = 2, g.dw = 2;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, w, got);
    check_same("input_grad_stride_dilation", dx, got, 6);
  }
  /* acc_bits 8, C=1, K=2, all 1x1: dx = dy[0]*w[0] + dy[1]*w[1] = 100 + 100 = 200 -> -56 */
  {
    static const int64_t w[2] = {10, 10}, dy[2] = {10, 10}, dx[1] = {-56};

    g = layer(1, 1, 1, 1, 2, 1, 1);
    g.acc_bits = 8;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, dy, w, got);
    check_same("input_grad_acc8_wrap", dx, got, 1);
  }
  /* no output (h=2 < R=3): every dx is 0 and dy is never read */
  {
    static const int64_t w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, dx[4] = {0, 0, 0, 0};

    g = layer(1, 1, 2, 2, 1, 3, 3);
    memset(got, 0x5a, sizeof got);
    golden_conv2d_input_grad(&g, NULL, w, got);
    check_same("input_grad_no_output", dx, got, 4);
  }
}

static void test_weight_grad(void) {
  golden_conv_t g;
  int64_t got[64];

  /* stride 2 on the 5x5 image, dy 2x2 = [1 10; 100 1000]:
   * dw[r][s] = x[r][s] + 10x[r][s+2] + 100x[r+2][s] + 1000x[r+2][s+2]
   * dw00 = 1 + 30 + 1100 + 13000 = 14131     dw01 = 2 + 40 + 1200 + 14000 = 15242
   * dw10 = 6 + 80 + 1600 + 18000 = 19686     dw11 = 7 + 90 + 1700 + 19000 = 20797 */
  {
    static const int64_t dy[4] = {1, 10, 100, 1000}, dw[4] = {14131, 15242, 19686, 20797};

    g = layer(1, 1, 5, 5, 1, 2, 2);
    g.sh = g.sw = 2;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_weight_grad(&g, img5, dy, got);
    check_same("weight_grad_stride2", dw, got, 4);
  }
  /* padding 1: x 2x2 = [1 2; 3 4], R=S=3, dy 2x2 = [1 10; 100 1000].
   * dw[r][s] = sum of dy[oy][ox]*x[oy+r-1][ox+s-1]:
   * r0: 1000*1 = 1000;  100*1+1000*2 = 2100;  100*2 = 200
   * r1: 10*1+1000*3 = 3010;  1*1+10*2+100*3+1000*4 = 4321;  1*2+100*4 = 402
   * r2: 10*3 = 30;  1*3+10*4 = 43;  1*4 = 4 */
  {
    static const int64_t x[4] = {1, 2, 3, 4}, dy[4] = {1, 10, 100, 1000};
    static const int64_t dw[9] = {1000, 2100, 200, 3010, 4321, 402, 30, 43, 4};

    g = layer(1, 1, 2, 2, 1, 3, 3);
    g.ph = g.pw = 1;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_weight_grad(&g, x, dy, got);
    check_same("weight_grad_pad1", dw, got, 9);
  }
  /* batch and channels: N=2, C=2, K=1, 1x1 everything. x[0] = [1 2], x[1] = [3 4],
   * dy[0] = 10, dy[1] = 100. dw[0][c] = 10*x[0][c] + 100*x[1][c] = 310, 420 */
  {
    static const int64_t x[4] = {1, 2, 3, 4}, dy[2] = {10, 100}, dw[2] = {310, 420};

    g = layer(2, 2, 1, 1, 1, 1, 1);
    memset(got, 0x5a, sizeof got);
    golden_conv2d_weight_grad(&g, x, dy, got);
    check_same("weight_grad_batch_channels", dw, got, 2);
  }
  /* rectangular: x 3x4 = 1..12, kernel 1x2, stride (2,1), dilation (1,2): OH = (3-1)/2+1 = 2,
   * OW = (4-2-1)+1 = 2; dy = [1 10; 100 1000].
   * dw[0][s] = 1*x[0][2s] + 10*x[0][1+2s] + 100*x[2][2s] + 1000*x[2][1+2s]
   * dw00 = 1 + 20 + 900 + 10000 = 10921     dw01 = 3 + 40 + 1100 + 12000 = 13143 */
  {
    static const int64_t x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const int64_t dy[4] = {1, 10, 100, 1000}, dw[2] = {10921, 13143};

    g = layer(1, 1, 3, 4, 1, 1, 2);
    g.sh = 2, g.dw = 2;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_weight_grad(&g, x, dy, got);
    check_same("weight_grad_rect", dw, got, 2);
  }
  /* acc_bits 8 with two batch items: 100*1 + 100*1 = 200 -> -56 */
  {
    static const int64_t x[2] = {100, 100}, dy[2] = {1, 1}, dw[1] = {-56};

    g = layer(2, 1, 1, 1, 1, 1, 1);
    g.acc_bits = 8;
    memset(got, 0x5a, sizeof got);
    golden_conv2d_weight_grad(&g, x, dy, got);
    check_same("weight_grad_acc8_wrap", dw, got, 1);
  }
}

/* The state of tb/rng.h's generator (splitmix64): a fixed seed, so a failure is reproducible. */
static uint64_t rng_state;

/* Uniform in LO..HI. */
static long rnd(long lo, long hi) {
  return (long)rng_range(&rng_state, lo, hi);
}

static int64_t dot(const int64_t *a, const int64_t *b, long n) {
  int64_t s = 0;
  long i;

  for (i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* Low BITS bits of V, sign-extended: computed differently from golden (shifts on the unsigned
 * pattern, then a subtraction). */
static int64_t sext(int64_t v, int bits) {
  uint64_t u = (uint64_t)v & (((uint64_t)1 << bits) - 1);

  if (u >= (uint64_t)1 << (bits - 1))
    return (int64_t)u - ((int64_t)1 << (bits - 1)) - ((int64_t)1 << (bits - 1));
  return (int64_t)u;
}

#define LAYERS 200
#define SEED 0x5a6e6e5eedULL

/* On LAYERS random small layers: <conv2d(x,w), dy> == <x, input_grad(dy,w)> ==
 * <w, weight_grad(x,dy)> with acc_bits 64 and values in -8..8 (no wrap), and conv2d with a
 * narrow accumulator equals the wide result wrapped. */
static void test_properties(void) {
  const char *names[3] = {"adjoint_input_grad", "adjoint_weight_grad", "acc_bits_wrap_matches"};
  int bad[3] = {0, 0, 0};
  char why[3][512];
  int layer_i;

  rng_state = SEED;
  for (layer_i = 0; layer_i < LAYERS; layer_i++) {
    golden_conv_t g;
    long oh, ow, nx, nw, ny, i;
    int64_t *x, *w, *y, *dy, *dx, *dw, *y8;
    int64_t a, b, c;
    char desc[200];

    memset(&g, 0, sizeof g);
    g.n = rnd(1, 2), g.c = rnd(1, 3), g.k = rnd(1, 3);
    g.r = rnd(1, 5), g.s = rnd(1, 5);
    g.sh = rnd(1, 3), g.sw = rnd(1, 3);
    g.ph = rnd(0, 2), g.pw = rnd(0, 2);
    g.dh = rnd(1, 3), g.dw = rnd(1, 3);
    g.h = g.dh * (g.r - 1) + 1 - 2 * g.ph;
    g.w = g.dw * (g.s - 1) + 1 - 2 * g.pw;
    g.h = (g.h < 1 ? 1 : g.h) + rnd(0, 6);
    g.w = (g.w < 1 ? 1 : g.w) + rnd(0, 6);
    g.acc_bits = 64;
    oh = golden_out_h(&g), ow = golden_out_w(&g);
    snprintf(desc, sizeof desc,
             " (seed 0x%llx layer %d: n%ld c%ld h%ld w%ld k%ld r%ld s%ld stride %ld,%ld pad "
             "%ld,%ld dil %ld,%ld)", (unsigned long long)SEED, layer_i, g.n, g.c, g.h, g.w, g.k,
             g.r, g.s, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw);
    if (oh < 1 || ow < 1) {
      if (!bad[0]++)
        snprintf(why[0], sizeof why[0], "expected out size >= 1, got %ldx%ld at index %d%s", oh,
                 ow, layer_i, desc);
      continue;
    }
    nx = g.n * g.c * g.h * g.w, nw = g.k * g.c * g.r * g.s, ny = g.n * g.k * oh * ow;
    x = malloc(sizeof *x * nx), dx = malloc(sizeof *dx * nx);
    w = malloc(sizeof *w * nw), dw = malloc(sizeof *dw * nw);
    y = malloc(sizeof *y * ny), dy = malloc(sizeof *dy * ny), y8 = malloc(sizeof *y8 * ny);
    if (!x || !dx || !w || !dw || !y || !dy || !y8) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    for (i = 0; i < nx; i++)
      x[i] = rnd(-8, 8);
    for (i = 0; i < nw; i++)
      w[i] = rnd(-8, 8);
    for (i = 0; i < ny; i++)
      dy[i] = rnd(-8, 8);
    golden_conv2d(&g, x, w, y);
    golden_conv2d_input_grad(&g, dy, w, dx);
    golden_conv2d_weight_grad(&g, x, dy, dw);
    a = dot(y, dy, ny), b = dot(x, dx, nx), c = dot(w, dw, nw);
    if (a != b && !bad[0]++)
      snprintf(why[0], sizeof why[0], "expected %" PRId64 ", got %" PRId64 " at index %d%s", a,
               b, layer_i, desc);
    if (a != c && !bad[1]++)
      snprintf(why[1], sizeof why[1], "expected %" PRId64 ", got %" PRId64 " at index %d%s", a,
               c, layer_i, desc);
    /* wrap: large values, acc_bits 2..63, compare with the 64-bit result reduced */
    for (i = 0; i < nx; i++)
      x[i] = rnd(-1000000, 1000000);
    for (i = 0; i < nw; i++)
      w[i] = rnd(-1000000, 1000000);
    golden_conv2d(&g, x, w, y);
    g.acc_bits = (int)rnd(2, 63);
    golden_conv2d(&g, x, w, y8);
    for (i = 0; i < ny; i++)
      if (y8[i] != sext(y[i], g.acc_bits)) {
        if (!bad[2]++)
          snprintf(why[2], sizeof why[2],
                   "expected %" PRId64 ", got %" PRId64 " at index %ld (acc_bits %d)%s",
                   sext(y[i], g.acc_bits), y8[i], i, g.acc_bits, desc);
        break;
      }
    free(x), free(dx), free(w), free(dw), free(y), free(dy), free(y8);
  }
  for (layer_i = 0; layer_i < 3; layer_i++) {
    if (bad[layer_i])
      not_ok(names[layer_i], "%s", why[layer_i]);
    else
      ok(names[layer_i]);
  }
}

int main(void) {
  test_forward();
  test_out_size();
  test_input_grad();
  test_weight_grad();
  test_properties();
  return tap_end();
}
