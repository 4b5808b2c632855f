/* plan: passes, banks and DMA jobs (see plan.h). */
#include "plan.h"

#include <stdlib.h>

#include "hmath.h"

/* Geometry of the input window of pass P (clipped to the layer). */
static void pass_window(const cfg_t *c, const layer_t *l, pass_t *p)
{
  long vy_lo = p->oy0 * l->sh - l->ph + p->r0 * l->dh;
  long vy_hi = (p->oy0 + p->oht - 1) * l->sh - l->ph + (p->r0 + p->rt - 1) * l->dh;
  long vx_lo = p->ox0 * l->sw - l->pw + p->s0 * l->dw;
  long vx_hi = (p->ox0 + p->owt - 1) * l->sw - l->pw + (p->s0 + p->st - 1) * l->dw;
  long iy_lo = lmax(0, vy_lo), iy_hi = lmin(l->h - 1, vy_hi);
  long ix_lo = lmax(0, vx_lo), ix_hi = lmin(l->w - 1, vx_hi);
  if (iy_lo > iy_hi || ix_lo > ix_hi) { /* all padding: an empty tile */
    p->iy_lo = p->ix_lo = 0;
    p->tile_h = p->tile_w = 0;
    p->pad_t = p->pad_l = 0;
    p->pitch = p->lead = 0;
  } else {
    p->iy_lo = iy_lo;
    p->ix_lo = ix_lo;
    p->tile_h = iy_hi - iy_lo + 1;
    p->tile_w = ix_hi - ix_lo + 1;
    p->pad_t = iy_lo - vy_lo;
    p->pad_l = ix_lo - vx_lo;
    p->lead = tile_lead(c, p->al, p->pad_l);
    p->pitch = tile_pitch(c, p->tile_w, p->tile_h, p->lin, p->owt, p->al, p->lead);
  }
  p->plane = tile_plane(c, p->c2i, p->tile_h, p->pitch);
  p->if_words = cdiv(p->ct * p->plane, c->bus_elems);
  p->wt_words = cdiv(p->kt, p->gw) * p->ct * p->rt * p->st;
}

static int same_if(const pass_t *a, const pass_t *b)
{
  return a->n == b->n && a->c0 == b->c0 && a->ct == b->ct && a->iy_lo == b->iy_lo &&
         a->tile_h == b->tile_h && a->ix_lo == b->ix_lo && a->tile_w == b->tile_w &&
         a->pitch == b->pitch && a->lead == b->lead;
}

static int same_wt(const pass_t *a, const pass_t *b)
{
  return a->m == b->m && a->k0 == b->k0 && a->kt == b->kt && a->c0 == b->c0 && a->ct == b->ct &&
         a->r0 == b->r0 && a->rt == b->rt && a->s0 == b->s0 && a->st == b->st;
}

/* The passes PS[0..NP) of one output tile position, every member's: the passes that take the
 * same channels load one tile, the union of their windows, and each reads its own window from
 * where it starts in it. */
static void share_windows(const cfg_t *c, pass_t *ps, long np)
{
  for (long i = 0; i < np; i++) {
    long j, y0 = 0, y1 = -1, x0 = 0, x1 = -1;
    for (j = 0; j < i; j++)
      if (ps[j].c0 == ps[i].c0) break;
    if (j < i) continue;   /* its channels' tile is placed already */
    for (j = i; j < np; j++) {
      const pass_t *q = &ps[j];
      if (q->c0 != ps[i].c0 || q->tile_h == 0) continue;
      if (y1 < y0) {
        y0 = q->iy_lo; y1 = q->iy_lo + q->tile_h - 1;
        x0 = q->ix_lo; x1 = q->ix_lo + q->tile_w - 1;
      } else {
        y0 = lmin(y0, q->iy_lo); y1 = lmax(y1, q->iy_lo + q->tile_h - 1);
        x0 = lmin(x0, q->ix_lo); x1 = lmax(x1, q->ix_lo + q->tile_w - 1);
      }
    }
    for (j = i; j < np; j++) {
      pass_t *q = &ps[j];
      if (q->c0 != ps[i].c0 || q->tile_h == 0) continue;
      q->sub_y = q->iy_lo - y0;
      q->sub_x = q->ix_lo - x0;
      q->iy_lo = y0; q->tile_h = y1 - y0 + 1;
      q->ix_lo = x0; q->tile_w = x1 - x0 + 1;
      q->pitch = tile_pitch(c, q->tile_w, q->tile_h, q->lin, q->owt, q->al, q->lead);
      q->plane = tile_plane(c, q->c2i, q->tile_h, q->pitch);
      q->if_words = cdiv(q->ct * q->plane, c->bus_elems);
    }
  }
}

/* Output tile TI of member M (MS[M], layer LM) at image N, row OY0, column OX0, filters from K0,
 * tiled by T, into *OT, and its passes (every reduction slice) from PS[*I] on; *I moves past
 * them. */
static void plan_tile(const cfg_t *c, const member_t *ms, int m, const tiling_t *t, long n,
                      long oy0, long ox0, long k0, long ti, out_tile_t *ot, pass_t *ps, long *i)
{
  const layer_t *l = &ms[0].l;   /* n, c, k: the same for every member */
  const layer_t *lm = &ms[m].l;
  long ohm = layer_out_h(lm), owm = layer_out_w(lm);
  ot->m = m;
  ot->n = n; ot->oy0 = oy0; ot->oht = lmin(t->oht, ohm - oy0);
  ot->ox0 = ox0; ot->owt = lmin(t->owt, owm - ox0);
  ot->k0 = k0; ot->kt = lmin(t->kt, l->k - k0);
  ot->groups = t->groups;
  ot->lin = t->lin;
  ot->gw = t->gw;
  ot->lanes = tile_lanes(c, t->groups);
  ot->owv = tile_virt_width(ot->lanes, ot->owt, t->virt);
  ot->wl = ms[m].c2i ? ms[m].c2i->lanes : 0;
  ot->bank = (int)(ti % c->banks);
  int first = 1;
  for (long c0 = 0; c0 < l->c; c0 += t->ct)
    for (long r0 = 0; r0 < lm->r; r0 += t->rt)
      for (long s0 = 0; s0 < lm->s; s0 += t->st) {
        pass_t *p = &ps[*i];
        p->m = m;
        p->n = n; p->oy0 = oy0; p->oht = ot->oht; p->ox0 = ox0; p->owt = ot->owt;
        p->k0 = k0; p->kt = ot->kt; p->owv = ot->owv;
        p->groups = ot->groups; p->gw = ot->gw; p->lanes = ot->lanes;
        p->lin = ot->lin;
        p->al = t->al;
        p->c0 = c0; p->ct = lmin(t->ct, l->c - c0);
        p->r0 = r0; p->rt = lmin(t->rt, lm->r - r0);
        p->s0 = s0; p->st = lmin(t->st, lm->s - s0);
        p->acc = !first;
        /* col2im: the tiles of an image's rows run in order, and the overlap-add line carries
         * each tile's last row into the next one's first: its first reduction slice takes it
         * (not in the image's first tile); a later slice (one-row tiles) adds its carry into
         * it */
        p->c2i = ms[m].c2i != NULL;
        p->line_kg0 = p->c2i ? ms[m].c2i->line_kg0 : 0;
        p->line_first = p->c2i && oy0 > 0 && first;
        p->line_acc = p->c2i && !first;
        first = 0;
        p->out_tile = (int)ti;
        p->out_bank = ot->bank;
        pass_window(c, lm, p);
        if (lm->no_ops) p->if_words = p->wt_words = 0;   /* nothing to fetch */
        (*i)++;
      }
  ps[*i - 1].last = 1;
  ot->last_pass = *i - 1;
}

/* The banks of passes PS[0..NP): keep a tile where it is if the next pass needs it again, else
 * load it into the bank the previous pass did not use; a load waits for the last pass that used
 * its bank. */
static void plan_banks(const cfg_t *c, pass_t *ps, long np)
{
  long if_at[2] = {-1, -1}, wt_at[2] = {-1, -1}; /* pass whose tile each bank holds */
  long if_user[2] = {-1, -1}, wt_user[2] = {-1, -1};
  for (long i = 0; i < np; i++) {
    pass_t *p = &ps[i];
    int b;
    for (b = 0; b < c->banks; b++)
      if (if_at[b] >= 0 && same_if(&ps[if_at[b]], p)) break;
    if (b < c->banks) {
      p->load_if = 0;
    } else {
      b = (c->banks > 1 && i > 0) ? 1 - ps[i - 1].if_bank : 0;
      p->load_if = 1;
      if_at[b] = i;
    }
    p->if_bank = b;
    p->if_wait = p->load_if ? if_user[b] : -1;
    if_user[b] = i;
    for (b = 0; b < c->banks; b++)
      if (wt_at[b] >= 0 && same_wt(&ps[wt_at[b]], p)) break;
    if (b < c->banks) {
      p->load_wt = 0;
    } else {
      b = (c->banks > 1 && i > 0) ? 1 - ps[i - 1].wt_bank : 0;
      p->load_wt = 1;
      wt_at[b] = i;
    }
    p->wt_bank = b;
    p->wt_wait = p->load_wt ? wt_user[b] : -1;
    wt_user[b] = i;
  }
}

int plan_passes(const cfg_t *c, const member_t *ms, int nm, long oh, long ow, const tiling_t *t,
                pass_t **passes_out, long *np_out, out_tile_t **tiles_out, long *nt_out)
{
  const layer_t *l = &ms[0].l;   /* n, c, k: the same for every member */
  long n_sp = l->n * cdiv(oh, t->oht) * cdiv(ow, t->owt);
  long n_kt = cdiv(l->k, t->kt);
  long n_red = 0;
  for (int m = 0; m < nm; m++)
    n_red += cdiv(l->c, t->ct) * cdiv(ms[m].l.r, t->rt) * cdiv(ms[m].l.s, t->st);
  long np = n_sp * n_kt * n_red, nt = n_sp * n_kt * nm;
  pass_t *ps = calloc((size_t)np, sizeof *ps);
  out_tile_t *ts = calloc((size_t)nt, sizeof *ts);
  if (!ps || !ts) {
    free(ps);
    free(ts);
    return 1;
  }
  long i = 0, ti = 0;
  for (long n = 0; n < l->n; n++)
    for (long oy0 = 0; oy0 < oh; oy0 += t->oht)
      for (long ox0 = 0; ox0 < ow; ox0 += t->owt)
        for (long k0 = 0; k0 < l->k; k0 += t->kt) {
          long i_pos = i;
          for (int m = 0; m < nm; m++) {
            const layer_t *lm = &ms[m].l;
            if (oy0 >= layer_out_h(lm) || ox0 >= layer_out_w(lm)) continue;   /* past its edge */
            plan_tile(c, ms, m, t, n, oy0, ox0, k0, ti, &ts[ti], ps, &i);
            ti++;
          }
          if (nm > 1) share_windows(c, ps + i_pos, i - i_pos);
        }
  np = i;   /* members stop at their own edges */
  nt = ti;
  plan_banks(c, ps, np);
  *passes_out = ps;
  *np_out = np;
  *tiles_out = ts;
  *nt_out = nt;
  return 0;
}

long plan_dma_jobs(const pass_t *ps, long np, job_t *jobs)
{
  long nj = 0;
  for (long i = 0; i < np; i++) {
    if (ps[i].load_if) jobs[nj++] = (job_t){JOB_LOAD_IF, i};
    if (ps[i].load_wt) jobs[nj++] = (job_t){JOB_LOAD_WT, i};
    if (i > 0 && ps[i - 1].last) jobs[nj++] = (job_t){JOB_READOUT, ps[i - 1].out_tile};
  }
  jobs[nj++] = (job_t){JOB_READOUT, ps[np - 1].out_tile};
  return nj;
}
