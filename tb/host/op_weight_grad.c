/* op_weight_grad: conv2d_weight_grad in its fastest form: matrix products over blocks of taps
 * or single taps, or the dilated-kernel form, its images side by side or apart (see
 * drive_conv2d_weight_grad, driver.h). */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>

#include "bwd_traffic.h"
#include "hmath.h"
#include "layer.h"
#include "members.h"
#include "ops.h"
#include "view.h"

/* The output positions [*lo, *hi) (of OUT) at which tap T of an axis (dilation DIL) reads the
 * input (extent IN, padding PAD, stride STRIDE) inside; empty (*lo == *hi) if only padding. */
static void tap_inside(long t, long in, long out, long stride, long pad, long dil, long *lo,
                       long *hi)
{
  long a = 0, b = out;
  while (a < out && a * stride - pad + t * dil < 0) a++;
  while (b > a && (b - 1) * stride - pad + t * dil >= in) b--;
  *lo = a;
  *hi = b;
}

/* The layer of the matrix product of L's weight gradient for the kernel taps [r0, r0+rn) x
 * [s0, s0+sn) into ML, and the view of DW it writes into MO; returns its positions m (0: the
 * taps only meet padding, no product). See weight_grad_product. */
static long product_layer(const layer_t *l, const tensor_t *dw, long r0, long rn, long s0,
                          long sn, layer_t *ml, view_t *mo, long *oy0, long *ox0, long *ny,
                          long *nx)
{
  view_t dwv = view_of(dw);
  long oh = layer_out_h(l), ow = layer_out_w(l), r1 = r0 + rn - 1, s1 = s0 + sn - 1;
  /* [oy0, oy1): every tap's x row inside (the first tap's start, the last tap's end) */
  long oy1, ox1, unused;
  tap_inside(r0, l->h, oh, l->sh, l->ph, l->dh, oy0, &unused);
  tap_inside(r1, l->h, oh, l->sh, l->ph, l->dh, &unused, &oy1);
  tap_inside(s0, l->w, ow, l->sw, l->pw, l->dw, ox0, &unused);
  tap_inside(s1, l->w, ow, l->sw, l->pw, l->dw, &unused, &ox1);
  *ny = lmax(oy1 - *oy0, 0);
  *nx = lmax(ox1 - *ox0, 0);
  long m = l->n * *ny * *nx, np = l->c * rn * sn;
  *ml = (layer_t){1, m, 1, np, l->k, 1, 1, 1, 1, 0, 0, 1, 1, 1, np, 0, 0, 0, 0, 0, 0, 0};
  /* pixel q = (c * rn + r - r0) * sn + s - s0 of the block is dw[k][c][r][s]: q split into
   * (c, r, s) */
  *mo = (view_t){dw->data, r0 * dwv.st[2] + s0 * dwv.st[3], {0, dwv.st[0], 0, dwv.st[3]},
                 sn, dwv.st[2], rn, dwv.st[1], NULL, 0, 0};
  return m;
}

/* One matrix product of the weight gradient, for the kernel taps [r0, r0+rn) x [s0, s0+sn):
 * dw[k][c][r][s] = sum over the positions m = (n, oy, ox) at which every tap of the block reads
 * x inside the input of dy[n][k][oy][ox] * x[n][c][oy*sh - ph + r*dh][ox*sw - pw + s*dw]. It runs
 * as a 1x1 convolution of one image whose pixels are the outputs (c, r, s) of the block (one
 * row, c-major like dw) and whose channels are the positions, with dy as its K filters: the
 * lanes fill with C x RN x SN pixels where the dilated-kernel form has only R x S per image. The
 * host streams x at the stride once per tap and dy undilated, once for the block (the gathers a
 * strided DMA does); no zero-insertion is formed. The taps of the block must read x inside the
 * input at the same positions (tap_classes), so that dropping the others drops only padding.
 * With HW NULL, only its estimated cycles into *COST (-1: it cannot run). Returns 0, or 1 with
 * ERR. */
static int weight_grad_product(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                               const tensor_t *dy, tensor_t *dw, long r0, long rn, long s0,
                               long sn, const drive_opts_t *o, report_t *rep, double *cost,
                               char *err, size_t errlen)
{
  layer_t ml;
  view_t mo;
  long oy0, ox0, ny, nx;
  long m = product_layer(l, dw, r0, rn, s0, sn, &ml, &mo, &oy0, &ox0, &ny, &nx);
  long np = ml.w;
  if (!hw) {
    /* x gathered as [1][m][1][np], dy as [k][m][1][1], both contiguous */
    view_t mx = {NULL, 0, {m * np, np, np, 1}, 0, 0, 0, 0, NULL, 0, 0}, mk = {NULL, 0, {m, 1, 1, 1}, 0, 0, 0, 0, NULL, 0, 0};
    *cost = m == 0 ? 0 : members_conv_cost(c, &ml, &mx, &mk, &mo, o);
    return 0;
  }
  if (m == 0) return 0;   /* the taps only meet padding: dw stays zero */
  view_t xv = view_of(x), dyv = view_of(dy);
  long xs[4] = {1, m, 1, np}, ks[4] = {l->k, m, 1, 1};
  tensor_t xg = {0}, kg = {0};
  if (tensor_alloc(&xg, 4, xs) || tensor_alloc(&kg, 4, ks)) {
    tensor_free(&xg);
    tensor_free(&kg);
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  for (long n = 0; n < l->n; n++)
    for (long oy = oy0; oy < oy0 + ny; oy++)
      for (long ox = ox0; ox < ox0 + nx; ox++) {
        long q = (n * ny + oy - oy0) * nx + ox - ox0;
        for (long ch = 0; ch < l->c; ch++)
          for (long r = r0; r < r0 + rn; r++)
            for (long s = s0; s < s0 + sn; s++)
              xg.data[q * np + (ch * rn + r - r0) * sn + s - s0] =
                  view_at(&xv, n, ch, oy * l->sh - l->ph + r * l->dh, ox * l->sw - l->pw + s * l->dw);
        for (long k = 0; k < l->k; k++) kg.data[k * m + q] = view_at(&dyv, n, k, oy, ox);
      }
  view_t mx = view_of(&xg), mk = view_of(&kg);
  mk.zspace = 1;   /* dy, gathered as the kernel */
  int bad = drive_conv(hw, c, &ml, &mx, &mk, &mo, o, rep, err, errlen);
  tensor_free(&xg);
  tensor_free(&kg);
  return bad;
}

/* The taps of one axis (kernel extent TAPS, dilation DIL) in classes of consecutive taps that read
 * the input (extent IN, padding PAD, stride STRIDE) inside at the same OUT output positions:
 * class i is taps [start[i], start[i+1]). A tap's first and last such positions never rise
 * with the tap, so equal ranges are consecutive. Without padding reached, one class. Returns
 * the number of classes. */
static int tap_classes(long taps, long in, long out, long stride, long pad, long dil, long *start)
{
  int n = 0;
  long plo = -1, phi = -1;
  for (long t = 0; t < taps; t++) {
    long lo, hi;
    tap_inside(t, in, out, stride, pad, dil, &lo, &hi);
    if (t == 0 || lo != plo || hi != phi) start[n++] = t;
    plo = lo;
    phi = hi;
  }
  start[n] = taps;
  return n;
}

/* The products of L's weight gradient, one per block of rows [rc[i], rc[i+1]) x columns
 * [sc[j], sc[j+1]), run on HW or, with HW NULL, their summed estimated cycles into *COST (-1:
 * one cannot run). Returns 0, or 1 with ERR. */
static int weight_grad_products(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                                const tensor_t *dy, tensor_t *dw, const long *rc, int nrc,
                                const long *sc, int nsc, const drive_opts_t *o, report_t *rep,
                                double *cost, char *err, size_t errlen)
{
  if (cost) *cost = 0;
  for (int i = 0; i < nrc; i++)
    for (int j = 0; j < nsc; j++) {
      double one = 0;
      if (weight_grad_product(hw, c, l, x, dy, dw, rc[i], rc[i + 1] - rc[i], sc[j],
                              sc[j + 1] - sc[j], o, rep, &one, err, errlen))
        return 1;
      if (!hw && (one < 0 || *cost < 0)) *cost = -1;
      else if (!hw) *cost += one;
    }
  return 0;
}

/* The dilated-kernel form gives each image (a channel of x) an R x S output. Side by side, the C
 * images are one image C x W wide, their columns interleaved (column x * C + c is image c's
 * column x): output column s * C + c is image c's column s, so the output rows hold C x S pixels
 * at stride 1 and the lanes fill with images where one image alone fills S lanes per output
 * row, each bus word serving as many images as it holds elements. This needs the output columns
 * one apart in x (S = 1 or dilation 1 across); the kernel's columns are then C times as far
 * apart, and the padding C times as wide. Or the same with the axes exchanged (R = 1 or
 * dilation 1 down). */
/* 0: not; 1: side by side; 2: side by side with the axes exchanged. */
static int side_by_side(const layer_t *l)
{
  if (l->c < 2) return 0;
  if (l->s == 1 || l->dw == 1) return 1;
  return l->r == 1 || l->dh == 1 ? 2 : 0;
}

/* The dilated-kernel form of L's weight gradient (SIDE: 0, or side_by_side's) into GL, with the
 * views of X, DY and DW it reads and writes: a convolution whose images are the channels of x
 * (batch and channels swapped), whose channels are the batch, whose kernel is dy (taps oy, ox)
 * dilated by the stride, with stride = dilation of the layer, and an R x S output; or its images
 * side by side. */
static void dilated_layer(const layer_t *l, int side, const tensor_t *x, const tensor_t *dy,
                          const tensor_t *dw, layer_t *gl, view_t *xv, view_t *kv, view_t *ov)
{
  view_t xa = view_of(x), da = view_of(dy), wa = view_of(dw);
  layer_t lw = *l;
  if (side == 2) {   /* exchange the axes */
    lw = layer_transposed(l);
    xa = view_transposed(&xa);
    da = view_transposed(&da);
    wa = view_transposed(&wa);
  }
  long oh = layer_out_h(&lw), ow = layer_out_w(&lw);
  *xv = (view_t){x->data, 0, {xa.st[1], xa.st[0], xa.st[2], xa.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
  *kv = (view_t){dy->data, 0, {da.st[1], da.st[0], da.st[2], da.st[3]}, 0, 0, 0, 0, NULL, 0, 1};
  *ov = (view_t){dw->data, 0, {wa.st[1], wa.st[0], wa.st[2], wa.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
  /* the kernel's taps sit every stride positions of the zero-inserted dy */
  *gl = (layer_t){lw.c, lw.n, lw.h, lw.w, lw.k, oh, ow, lw.dh, lw.dw, lw.ph, lw.pw, lw.sh, lw.sw,
                  lw.r, lw.s, 0, lw.sh, (oh - 1) * lw.sh + 1, 0, lw.sw, (ow - 1) * lw.sw + 1, 0};
  if (side) {
    /* column x * C + c is image c's column x: the host addresses it as the pair (x, c)
     * (xsplit), no copy; output column s * C + c is dw[k][c][r][s] */
    *xv = (view_t){x->data, 0, {0, xa.st[0], xa.st[2], xa.st[1]}, lw.c, xa.st[3], 0, 0, NULL, 0, 0};
    *ov = (view_t){dw->data, 0, {0, wa.st[0], wa.st[2], wa.st[1]}, lw.c, wa.st[3], 0, 0, NULL, 0, 0};
    gl->n = 1;
    gl->w = lw.c * lw.w;
    gl->sw = 1;
    gl->dw = lw.sw * lw.c;
    gl->pw = lw.pw * lw.c;
    gl->ow = lw.c * lw.s;
  }
}

/* Forms of the weight gradient, in the order that wins a tie of the estimates: the products
 * stream no zero-insertion, a block streams dy once where its taps stream it once each, and
 * side by side fills the lanes better than the images apart. */
enum { WG_BLOCKS, WG_TAPS, WG_SIDE, WG_DILATED, WG_FORMS };
static const char *const form_name[WG_FORMS] = {"tap_blocks", "taps", "side_by_side", "dilated"};

int drive_conv2d_weight_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                             const tensor_t *dy, tensor_t *dw, const drive_opts_t *o,
                             report_t *rep, char *err, size_t errlen)
{
  long oh = layer_out_h(l), ow = layer_out_w(l);
  long wshape[4] = {l->k, l->c, l->r, l->s};
  int fill = o && o->zero_fill;
  if (op_begin(c, o, rep, "conv2d_weight_grad", fill ? "zero_fill" : "zero_skip", l, dw, wshape, err,
               errlen))
    return 1;
  /* dw[k][c][r][s] = sum over n, oy, ox of x[n][c][oy*sh-ph+r*dh][ox*sw-pw+s*dw] * dy[n][k][oy][ox]:
   * the dilated-kernel form (dilated_layer, its images apart or side by side), or matrix
   * products (weight_grad_product) over blocks of taps that see the same positions (a class of
   * rows x a class of columns: all taps when no padding is reached), or over single taps. Each
   * form's cycles are estimated by the tiling cost model and the fastest runs; zero_fill feeds
   * the zero-insertions, so it runs a dilated form. */
  uint64_t zs = (uint64_t)l->n * l->k *
                ((uint64_t)((oh - 1) * l->sh + 1) * ((ow - 1) * l->sw + 1) - (uint64_t)oh * ow);
  long rs = l->r * l->s;
  int rc = 1;
  long *cls = malloc(sizeof(long) * (size_t)(2 * (l->r + l->s) + 4));
  if (!cls) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  long *rcl = cls, *sc = rcl + l->r + 1, *rt = sc + l->s + 1, *st = rt + l->r + 1;
  int nrc = tap_classes(l->r, l->h, oh, l->sh, l->ph, l->dh, rcl);
  int nsc = tap_classes(l->s, l->w, ow, l->sw, l->pw, l->dw, sc);
  for (long t = 0; t <= l->r; t++) rt[t] = t;
  for (long t = 0; t <= l->s; t++) st[t] = t;
  long most = 0;   /* a product's pixels are a descriptor field */
  for (int i = 0; i < nrc; i++)
    for (int j = 0; j < nsc; j++)
      most = lmax(most, l->c * (rcl[i + 1] - rcl[i]) * (sc[j + 1] - sc[j]));
  /* the products' classes of rows and columns: blocks, single taps */
  const long *pr[2] = {rcl, rt}, *pc[2] = {sc, st};
  int npr[2] = {nrc, (int)l->r}, npc[2] = {nsc, (int)l->s};
  int fits[2] = {most <= 65535, l->c <= 65535};
  /* the dilated-kernel forms: side by side, images apart */
  int side = side_by_side(l);
  layer_t gl[2];
  view_t xv[2], kv[2], ov[2];
  double cost[WG_FORMS];
  for (int f = 0; f < WG_FORMS; f++) {
    cost[f] = -1;
    if (f >= WG_SIDE) {
      int i = f - WG_SIDE;
      if (f == WG_SIDE && !side) continue;
      dilated_layer(l, f == WG_SIDE ? side : 0, x, dy, dw, &gl[i], &xv[i], &kv[i], &ov[i]);
      cost[f] = members_conv_cost(c, &gl[i], &xv[i], &kv[i], &ov[i], o);
    } else if (!fill && fits[f]) {
      weight_grad_products(NULL, c, l, x, dy, dw, pr[f], npr[f], pc[f], npc[f], o, rep, &cost[f],
                           err, errlen);
    }
  }
  int form = WG_DILATED;   /* runs even where the model finds no tiling: its error says why */
  for (int f = WG_FORMS - 1; f >= 0; f--)
    if (cost[f] >= 0 && (cost[form] < 0 || cost[f] <= cost[form])) form = f;
  rep->form = form_name[form];
  int bad = form < WG_SIDE
                ? weight_grad_products(hw, c, l, x, dy, dw, pr[form], npr[form], pc[form],
                                       npc[form], o, rep, NULL, err, errlen)
                : drive_conv(hw, c, &gl[form - WG_SIDE], &xv[form - WG_SIDE], &kv[form - WG_SIDE],
                             &ov[form - WG_SIDE], o, rep, err, errlen);
  if (bad) goto fail;
  bwd_ideal(rep, c, l);
  bwd_explicit_traffic(rep, c, l, 0);
  /* the zeros inserted into dy to use it as a dilated kernel */
  rep->zero_space = zs;
  if (form < WG_SIDE) {   /* the products never form them */
    rep->zero_skipped += (uint64_t)l->c * rs * cdiv(l->k, c->cols) * zs / l->k;
  } else {
    /* lowered: each of the C x R x S outputs (the pixels) meets the zero-insertions of the N
     * channels of dy (its kernel), once per group of array columns (filters = K) */
    uint64_t want = (uint64_t)l->c * l->r * l->s * rep->kgroups * rep->zero_space / l->k;
    if (bwd_zero_check(rep, want, (uint64_t)l->c * l->r * l->s * rep->zero_space, err, errlen))
      goto fail;
  }
  rc = 0;
fail:
  free(cls);
  if (rc) tensor_free(dw);
  return rc;
}
