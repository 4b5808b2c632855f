/* side: images side by side (see side.h). */
#include "side.h"

#include "layer.h"
#include "orient.h"
#include "view.h"

/* Images side by side. A convolution of stride 1 across whose batch has two or more images can
 * run as one image N times as wide, the images' columns interleaved: column x * N + n is image
 * n's column x, in the input and in the output. Output column ox * N + n reads input columns
 * (ox + j * dw - pw) * N + n, so this is a stride-1 convolution of the wide image whose kernel
 * columns are N times as far apart and whose padding is N times as wide, and still virtual: the
 * columns left and right of the wide image are every image's padding. The lanes then fill with
 * the pixels of all the images: a 7 x 7 output (49 pixels) leaves 15 of 64 lane slots idle per
 * image, 4 images side by side 12 of 208. The host addresses column x * N + n as the pair (x, n)
 * (the views' xsplit), no copy. Not for zero_fill, whose passes step through the dense positions
 * between the kernel's columns, nor for views already split or with per-filter tables. */
static int side_ok(const member_t *m, const view_t *x, const drive_opts_t *o)
{
  const layer_t *l = &m->l;
  long oh = layer_out_h(l), ow = layer_out_w(l);
  return l->n >= 2 && l->sw == 1 && !(o && o->zero_fill) && !l->no_ops && oh > 0 && ow > 0 &&
         !m->c2i &&
         x->xsplit == 0 && m->w.xsplit == 0 && m->y.xsplit == 0 && !m->w.ft && !m->y.ft &&
         !layer_flattens(l, oh, ow, &m->y) && l->n * (l->w + 2 * l->pw) <= 65535 &&
         (l->s - 1) * l->dw * l->n < 65535;
}

int side_axis(const member_t *m, const view_t *x, const drive_opts_t *o)
{
  if (side_ok(m, x, o)) return 1;
  if (m->l.sh != 1 || m->l.n < 2) return 0;
  member_t t;
  layer_t u;
  view_t tx = view_transposed(x);
  orient_members(m, 1, 1, &t, &u);
  return side_ok(&t, &tx, o) ? 2 : 0;
}

void side_member(const member_t *m0, const view_t *x0, int axis, member_t *sm, view_t *sx)
{
  member_t mt = *m0;
  layer_t u;
  view_t xt = axis == 2 ? view_transposed(x0) : *x0;
  if (axis == 2) orient_members(m0, 1, 1, &mt, &u);
  const member_t *m = &mt;
  const view_t *x = &xt;
  const layer_t *l = &m->l;
  long n = l->n;
  *sm = *m;
  sm->l.oh = layer_out_h(l);
  sm->l.ow = layer_out_w(l) * n;
  sm->l.n = 1;
  sm->l.w = l->w * n;
  sm->l.dw = l->dw * n;
  sm->l.pw = l->pw * n;
  *sx = (view_t){x->data, x->off, {0, x->st[1], x->st[2], x->st[0]}, n, x->st[3], 0, 0, NULL, 0,
                 x->zspace};
  sm->y = (view_t){m->y.data, m->y.off, {0, m->y.st[1], m->y.st[2], m->y.st[0]}, n, m->y.st[3],
                   0, 0, NULL, 0, 0};
}
