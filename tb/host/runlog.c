/* runlog: a run recorded as data (see runlog.h). */
#include "runlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "sagen_regmap.h"
#include "view.h"

static void run_free(drive_run_t *r)
{
  for (int m = 0; m < r->nm; m++) {
    free(r->m[m].w);
    free(r->m[m].dst);
    free(r->m[m].c2i_route);
  }
  free(r->m);
  free(r->x);
  free(r->t);
  free(r->p);
}

void drive_runs_free(drive_runs_t *runs)
{
  for (long i = 0; i < runs->n; i++) run_free(&runs->r[i]);
  free(runs->r);
  runs->r = NULL;
  runs->n = runs->cap = 0;
}

/* Member M's kernel and destinations (col2im: its route table, for COLS columns) into R->m[M].
 * Returns 0, or 1 if out of memory. */
static int log_member(drive_run_member_t *rm, const member_t *m, int cols)
{
  const layer_t *l = &m->l;
  long oh = layer_out_h(l), ow = layer_out_w(l);
  /* col2im: a word's lanes are dx's phases and channels, not filters */
  long nk = m->c2i ? m->c2i->lanes : l->k;
  rm->l = *l;
  rm->l.oh = oh;
  rm->l.ow = ow;
  rm->w = calloc((size_t)(l->k * l->c * l->r * l->s), sizeof *rm->w);
  rm->dst = calloc((size_t)(l->n * nk * oh * ow), sizeof *rm->dst);
  if (!rm->w || !rm->dst) return 1;
  if (m->c2i) {
    size_t nrt = (size_t)SAGEN_ROUTE_KGS * 4 * (size_t)cols;
    rm->c2i_route = malloc(nrt * sizeof *rm->c2i_route);
    if (!rm->c2i_route) return 1;
    memcpy(rm->c2i_route, m->c2i->route, nrt * sizeof *rm->c2i_route);
    rm->c2i_lanes = m->c2i->lanes;
    rm->c2i_kg0 = m->c2i->line_kg0;
    rm->c2i_cols = cols;
  }
  /* an output phase no tap reaches fetches no weight: its kernel is zeros */
  if (!l->no_ops)
    for (long k = 0; k < l->k; k++)
      for (long c = 0; c < l->c; c++)
        for (long r = 0; r < l->r; r++)
          for (long s = 0; s < l->s; s++) {
            int absent = 0;
            long at = view_index_of(&m->w, k, c, r, s, &absent);
            rm->w[((k * l->c + c) * l->r + r) * l->s + s] =
                absent ? DRIVE_RUN_ABSENT : m->w.data[at];
          }
  for (long n = 0; n < l->n; n++)
    for (long k = 0; k < nk; k++)
      for (long oy = 0; oy < oh; oy++)
        for (long ox = 0; ox < ow; ox++)
          if (view_has(&m->y, k, oy, ox))
            rm->dst[((n * nk + k) * oh + oy) * ow + ox] =
                &m->y.data[view_index(&m->y, n, k, oy, ox)];
  return 0;
}

int runlog_append(drive_runs_t *runs, const layer_t *lv, const view_t *x, const member_t *ms,
                  int nm, const pass_t *ps, long np, const out_tile_t *ts, long nt, int zero_fill,
                  int cols, char *err, size_t errlen)
{
  if (runs->n == runs->cap) {
    long cap = runs->cap ? 2 * runs->cap : 4;
    drive_run_t *g = realloc(runs->r, (size_t)cap * sizeof *g);
    if (!g) goto oom;
    runs->r = g;
    runs->cap = cap;
  }
  drive_run_t *r = &runs->r[runs->n++];
  *r = (drive_run_t){lv->n, lv->c, lv->h, lv->w, NULL, zero_fill, 0, NULL, nt, np, NULL, NULL};
  r->x = malloc((size_t)(lv->n * lv->c * lv->h * lv->w) * sizeof *r->x);
  r->m = calloc((size_t)nm, sizeof *r->m);
  r->t = malloc((size_t)nt * sizeof *r->t);
  r->p = malloc((size_t)np * sizeof *r->p);
  if (!r->x || !r->m || !r->t || !r->p) goto oom;
  r->nm = nm;
  for (long n = 0; n < lv->n; n++)
    for (long c = 0; c < lv->c; c++)
      for (long h = 0; h < lv->h; h++)
        for (long w = 0; w < lv->w; w++)
          r->x[((n * lv->c + c) * lv->h + h) * lv->w + w] = view_at(x, n, c, h, w);
  for (int m = 0; m < nm; m++)
    if (log_member(&r->m[m], &ms[m], cols)) goto oom;
  for (long i = 0; i < nt; i++) {
    const out_tile_t *t = &ts[i];
    r->t[i] = (drive_run_tile_t){t->n, t->oy0, t->oht, t->ox0, t->owt, t->k0, t->kt, t->m};
  }
  for (long i = 0; i < np; i++) {
    const pass_t *p = &ps[i];
    r->p[i] = (drive_run_pass_t){p->out_tile, p->c0, p->ct, p->r0, p->rt, p->s0, p->st};
  }
  return 0;
oom:
  snprintf(err, errlen, "out of memory for the log of a run");
  return 1;
}
