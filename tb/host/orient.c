/* orient: the run's orientation and the union of its members (see orient.h). */
#include "orient.h"

#include <stdlib.h>

#include "cost_tuning.h"
#include "engine.h"
#include "hmath.h"
#include "layer.h"
#include "tiling.h"
#include "view.h"

layer_t orient_union(const member_t *ms, int nm)
{
  layer_t u = ms[0].l;
  long top = 0, bottom = 0, left = 0, right = 0;
  for (int m = 0; m < nm; m++) {
    const layer_t *l = &ms[m].l;
    long t = -l->ph, b = (l->r - 1) * l->dh - l->ph;
    long le = -l->pw, ri = (l->s - 1) * l->dw - l->pw;
    top = m ? lmin(top, t) : t;
    bottom = m ? lmax(bottom, b) : b;
    left = m ? lmin(left, le) : le;
    right = m ? lmax(right, ri) : ri;
  }
  u.oh = u.ow = 0;
  for (int m = 0; m < nm; m++) {
    u.oh = lmax(u.oh, layer_out_h(&ms[m].l));
    u.ow = lmax(u.ow, layer_out_w(&ms[m].l));
  }
  u.r = bottom - top + 1;
  u.s = right - left + 1;
  u.ph = -top;
  u.pw = -left;
  u.dh = u.dw = 1;
  u.lead_h = u.gap_h = u.dense_h = u.lead_w = u.gap_w = u.dense_w = 0;
  u.no_ops = 0;
  return u;
}

int orient_can_share(const layer_t *a, const layer_t *b)
{
  return a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w && a->k == b->k &&
         a->sh == 1 && a->sw == 1 && b->sh == 1 && b->sw == 1 && !a->no_ops && !b->no_ops;
}

/* Member M's layer as the run sees it: H and W exchanged if SWAP, the output size explicit. */
static layer_t member_layer(const member_t *m, int swap)
{
  layer_t l = swap ? layer_transposed(&m->l) : m->l;
  long oh = layer_out_h(&m->l), ow = layer_out_w(&m->l);
  l.oh = swap ? ow : oh;
  l.ow = swap ? oh : ow;
  return l;
}

void orient_members(const member_t *ms, int nm, int swap, member_t *mo, layer_t *u)
{
  for (int m = 0; m < nm; m++) {
    mo[m].l = member_layer(&ms[m], swap);
    mo[m].w = swap ? view_transposed(&ms[m].w) : ms[m].w;
    mo[m].y = swap ? view_transposed(&ms[m].y) : ms[m].y;
    mo[m].c2i = ms[m].c2i;   /* never swapped (see orient_choose) */
  }
  *u = nm > 1 ? orient_union(mo, nm) : mo[0].l;
}

/* Estimated cycles of members MS[0..NM) run together in orientation SWAP; -1 if they cannot. */
static double run_cost(const cfg_t *c, const member_t *ms, int nm, int swap, const drive_opts_t *o)
{
  double cost = -1;
  tiling_t t;
  char e[8];
  layer_t u;
  member_t *mo = calloc((size_t)nm + 1, sizeof *mo);
  if (!mo) return -1;
  orient_members(ms, nm, swap, mo, &u);
  /* estimated as engine_run runs it: a 1x1 layer flattened */
  if (nm == 1 && layer_flattens(&u, u.oh, u.ow, &mo[0].y))
    mo[0].l = u = layer_flat(&u, u.oh, u.ow);
  if (tiling_choose(c, &u, mo, nm, u.oh, u.ow, engine_bpc(c, o), o ? o->contexts : 0,
                    o ? o->col_groups : 0, o ? o->rows : 0, o && o->zero_fill, &t, &cost, e,
                    sizeof e))
    cost = -1;
  free(mo);
  return cost;
}

double orient_choose(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
                     const drive_opts_t *o, int *swap)
{
  int orient = o ? o->orientation : 0;
  long oh = layer_out_h(&ms[0].l), ow = layer_out_w(&ms[0].l);
  int can_swap = x->xsplit == 0 && oh > 0 && ow > 0 &&
                 !(nm == 1 && layer_flattens(&ms[0].l, oh, ow, &ms[0].y));
  for (int m = 0; m < nm; m++)
    can_swap = can_swap && ms[m].w.xsplit == 0 && ms[m].y.xsplit == 0 && !ms[m].c2i;
  *swap = 0;
  double cost = orient == 2 && can_swap ? -1 : run_cost(c, ms, nm, 0, o);
  if (orient != 1 && can_swap) {
    double c1 = run_cost(c, ms, nm, 1, o);
    *swap = orient == 2 ? nm == 1 || c1 >= 0 : c1 >= 0 && (cost < 0 || c1 < ORIENT_GAIN * cost);
    if (*swap) cost = c1;
  }
  return cost;
}
