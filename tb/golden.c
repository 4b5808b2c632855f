/* golden: reference convolutions written from their definitions (PyTorch semantics, groups=1).
 *
 * Deliberately naive: one loop per index of the defining sum, no tiling, no im2col, nothing
 * shared with the generator or the host driver. Arithmetic is done in uint64 (wrap-around is
 * defined there) and every partial sum is reduced to ACC_BITS two's complement. */
#include "golden.h"

#include <stdint.h>

/* Reduce V (a 64-bit two's complement pattern) to BITS bits and sign-extend it back to int64.
 * BITS outside 1..63 means 64: the pattern itself. The conversion to int64 avoids the
 * implementation-defined cast of values above INT64_MAX. */
static int64_t golden_wrap(uint64_t v, int bits) {
  if (bits >= 1 && bits < 64) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t sign = (uint64_t)1 << (bits - 1);

    v &= mask;
    if (v & sign)
      v |= ~mask;
  }
  if (v <= (uint64_t)INT64_MAX)
    return (int64_t)v;
  return -(int64_t)(~v) - 1;
}

/* ACC + A*B wrapped to BITS: the product and the sum are taken mod 2^64 (no signed overflow),
 * then reduced, which is the same as reducing after every add of the exact sum. */
static int64_t golden_mac(int64_t acc, int64_t a, int64_t b, int bits) {
  uint64_t p = (uint64_t)a * (uint64_t)b;

  return golden_wrap((uint64_t)acc + p, bits);
}

/* Output size along one axis: (in + 2*pad - dil*(k-1) - 1) / stride + 1, or 0 when the
 * numerator is negative or the stride is not positive (C division truncates toward zero, so
 * the negative case must not reach it). */
static long golden_out_size(long in, long k, long stride, long pad, long dil) {
  long num = in + 2 * pad - dil * (k - 1) - 1;

  if (stride < 1 || num < 0)
    return 0;
  return num / stride + 1;
}

/* Forward output height; <= 0 when the layer has no output. */
long golden_out_h(const golden_conv_t *g) {
  return golden_out_size(g->h, g->r, g->sh, g->ph, g->dh);
}

/* Forward output width; <= 0 when the layer has no output. */
long golden_out_w(const golden_conv_t *g) {
  return golden_out_size(g->w, g->s, g->sw, g->pw, g->dw);
}

/* Index of element (a,b,c,d) of a C-order tensor of shape (.,B,C,D). */
static long golden_at(long a, long b, long c, long d, long nb, long nc, long nd) {
  return ((a * nb + b) * nc + c) * nd + d;
}

/* y[n,k,oy,ox] = sum_{c,r,s} x[n,c,oy*sh-ph+r*dh, ox*sw-pw+s*dw] * w[k,c,r,s], positions
 * outside the input reading as zero. Y holds N*K*OH*OW values; nothing is written when the
 * layer has no output. */
void golden_conv2d(const golden_conv_t *g, const int64_t *x, const int64_t *w, int64_t *y) {
  long oh = golden_out_h(g), ow = golden_out_w(g);
  long n, k, oy, ox, c, r, s;

  if (oh <= 0 || ow <= 0)
    return;
  for (n = 0; n < g->n; n++)
    for (k = 0; k < g->k; k++)
      for (oy = 0; oy < oh; oy++)
        for (ox = 0; ox < ow; ox++) {
          int64_t acc = 0;

          for (c = 0; c < g->c; c++)
            for (r = 0; r < g->r; r++)
              for (s = 0; s < g->s; s++) {
                long iy = oy * g->sh - g->ph + r * g->dh;
                long ix = ox * g->sw - g->pw + s * g->dw;

                if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w)
                  continue;
                acc = golden_mac(acc, x[golden_at(n, c, iy, ix, g->c, g->h, g->w)],
                                 w[golden_at(k, c, r, s, g->c, g->r, g->s)], g->acc_bits);
              }
          y[golden_at(n, k, oy, ox, g->k, oh, ow)] = acc;
        }
}

/* dx[n,c,iy,ix] = sum of dy[n,k,oy,ox] * w[k,c,r,s] over every (k,r,s,oy,ox) with
 * oy*sh-ph+r*dh == iy and ox*sw-pw+s*dw == ix, 0 <= oy < OH, 0 <= ox < OW. For given iy and r
 * the only candidate is oy = (iy+ph-r*dh)/sh, and it counts only when the division is exact
 * and oy is in range (likewise ox). Input rows and columns the forward pass never read get 0.
 * DX holds N*C*H*W values and is always fully written. */
void golden_conv2d_input_grad(const golden_conv_t *g, const int64_t *dy, const int64_t *w,
                              int64_t *dx) {
  long oh = golden_out_h(g), ow = golden_out_w(g);
  long n, c, iy, ix, k, r, s;

  for (n = 0; n < g->n; n++)
    for (c = 0; c < g->c; c++)
      for (iy = 0; iy < g->h; iy++)
        for (ix = 0; ix < g->w; ix++) {
          int64_t acc = 0;

          for (k = 0; k < g->k && oh > 0 && ow > 0; k++)
            for (r = 0; r < g->r; r++)
              for (s = 0; s < g->s; s++) {
                long ty = iy + g->ph - r * g->dh;
                long tx = ix + g->pw - s * g->dw;
                long oy, ox;

                if (ty < 0 || tx < 0 || ty % g->sh != 0 || tx % g->sw != 0)
                  continue;
                oy = ty / g->sh;
                ox = tx / g->sw;
                if (oy >= oh || ox >= ow)
                  continue;
                acc = golden_mac(acc, dy[golden_at(n, k, oy, ox, g->k, oh, ow)],
                                 w[golden_at(k, c, r, s, g->c, g->r, g->s)], g->acc_bits);
              }
          dx[golden_at(n, c, iy, ix, g->c, g->h, g->w)] = acc;
        }
}

/* dw[k,c,r,s] = sum_{n,oy,ox} x[n,c,oy*sh-ph+r*dh, ox*sw-pw+s*dw] * dy[n,k,oy,ox], positions
 * outside the input reading as zero. DW holds K*C*R*S values and is always fully written. */
void golden_conv2d_weight_grad(const golden_conv_t *g, const int64_t *x, const int64_t *dy,
                               int64_t *dw) {
  long oh = golden_out_h(g), ow = golden_out_w(g);
  long k, c, r, s, n, oy, ox;

  for (k = 0; k < g->k; k++)
    for (c = 0; c < g->c; c++)
      for (r = 0; r < g->r; r++)
        for (s = 0; s < g->s; s++) {
          int64_t acc = 0;

          for (n = 0; n < g->n; n++)
            for (oy = 0; oy < oh; oy++)
              for (ox = 0; ox < ow; ox++) {
                long iy = oy * g->sh - g->ph + r * g->dh;
                long ix = ox * g->sw - g->pw + s * g->dw;

                if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w)
                  continue;
                acc = golden_mac(acc, x[golden_at(n, c, iy, ix, g->c, g->h, g->w)],
                                 dy[golden_at(n, k, oy, ox, g->k, oh, ow)], g->acc_bits);
              }
          dw[golden_at(k, c, r, s, g->c, g->r, g->s)] = acc;
        }
}
