/* layer: layer geometry (see layer.h; layer_out_h and layer_out_w: driver.h). */
#include "layer.h"

long layer_out_h(const layer_t *l)
{
  if (l->oh > 0) return l->oh;
  long num = l->h + 2 * l->ph - l->dh * (l->r - 1) - 1;
  return num < 0 ? 0 : num / l->sh + 1;
}

long layer_out_w(const layer_t *l)
{
  if (l->ow > 0) return l->ow;
  long num = l->w + 2 * l->pw - l->dw * (l->s - 1) - 1;
  return num < 0 ? 0 : num / l->sw + 1;
}

int layer_flattens(const layer_t *l, long oh, long ow, const view_t *y)
{
  return l->r == 1 && l->s == 1 && l->ph == 0 && l->pw == 0 && l->n * oh * ow <= 65535 &&
         y->xsplit == 0 && !(y->ft && y->ft->rows) && (oh - 1) * l->sh < l->h &&
         (ow - 1) * l->sw < l->w;
}

layer_t layer_flat(const layer_t *l, long oh, long ow)
{
  layer_t f = *l;
  f.n = 1;
  f.h = 1;
  f.w = l->n * oh * ow;
  f.sh = f.sw = f.dh = f.dw = 1;
  f.oh = 1;
  f.ow = f.w;
  return f;
}

layer_t layer_transposed(const layer_t *l)
{
  layer_t t = *l;
  t.h = l->w; t.w = l->h;
  t.r = l->s; t.s = l->r;
  t.sh = l->sw; t.sw = l->sh;
  t.ph = l->pw; t.pw = l->ph;
  t.dh = l->dw; t.dw = l->dh;
  t.oh = l->ow; t.ow = l->oh;
  t.lead_h = l->lead_w; t.lead_w = l->lead_h;
  t.gap_h = l->gap_w; t.gap_w = l->gap_h;
  t.dense_h = l->dense_w; t.dense_w = l->dense_h;
  return t;
}
