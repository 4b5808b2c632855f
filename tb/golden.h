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

#endif
