/* cost: the tiling cost model (see cost.h; its constants: cost_tuning.h). */
#include "cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "feed_model.h"
#include "hmath.h"
#include "sagen_regmap.h"

/* The host port's cycles of PARTS: the ifmap tiles, the weights (kept in the banks if they fit),
 * the results. */
static double dram_of(const cfg_t *c, const cost_parts_t *p)
{
  return p->ifmap + (p->wt_tiles <= c->banks ? p->wt_once : p->wt_each) + p->out;
}

double cost_word_cycles(int bits, double bpc) { return fmax(1.0, ((bits + 7) / 8) / bpc); }

double cost_bytes(const cfg_t *c, const cost_parts_t *p, double bpc)
{
  return p->ifmap / cost_word_cycles(c->if_word_bits, bpc) * ((c->if_word_bits + 7) / 8) +
         (p->wt_tiles <= c->banks ? p->wt_once : p->wt_each) /
             cost_word_cycles(c->wt_word_bits, bpc) * ((c->wt_word_bits + 7) / 8) +
         p->out / cost_word_cycles(p->out_bits, bpc) * ((p->out_bits + 7) / 8);
}

double cost_of(const cfg_t *c, const cost_parts_t *p)
{
  if (c->banks > 1) return fmax(p->compute, dram_of(c, p)) + p->first + p->last;
  return p->compute + dram_of(c, p);
}

/* The tiles of V by T: CNT[0] of SZ[0] = T, and CNT[1] (0 or 1) of the remainder SZ[1]. */
static void slice_mix(long v, long t, long sz[2], double cnt[2])
{
  long n = cdiv(v, t), rem = v - (n - 1) * t;
  sz[0] = t;
  sz[1] = rem;
  cnt[0] = rem == t ? (double)n : (double)(n - 1);
  cnt[1] = rem == t ? 0.0 : 1.0;
}

win_layout_t cost_layout(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                         long st, int first_y, int first_x)
{
  long pad_t = first_y ? l->ph : 0, pad_l = first_x ? l->pw : 0;
  long th = lmin(l->h, tile_win_h(l, oht, t->rt) - pad_t);
  long tw = lmin(l->w, tile_win_w(l, owt, st) - pad_l);
  long lead = tile_lead(c, t->al, pad_l);
  win_layout_t w = {tile_pitch(c, tw, th, t->lin, owt, t->al, lead), th, 0, 0};
  w.base = tile_window_base(w.pitch, pad_t, pad_l, lead, 0, 0);
  w.plane = tile_plane(c, t->c2i, th, w.pitch);
  return w;
}

/* Cycles per channel and kernel row of a context of tiling T, in a tile OWV output pixels wide
 * (virtual width) and OHT rows whose window W lays out: the feeder's, replayed word by word on
 * the tile's first contexts (feed_row_cycles), or the array's STEPS if more (zero_fill steps
 * through the kernel row's dense positions, where created zeros take no element). */
static double per_cr_of(const cfg_t *c, const layer_t *l, const tiling_t *t, long st,
                        double steps, long lanes, long owv, long oht, const win_layout_t *w)
{
  feed_shape_t s = {
    .lanes = lanes, .owv = owv, .oht = oht, .st = st, .dw = l->dw, .sw = l->sw, .lin = t->lin,
    .base = w->base, .plane = w->plane, .kr_step = l->dh * w->pitch,
    .oy_step = l->sh * w->pitch, .rows = t->ct * t->rt, .rt = t->rt};
  return fmax(steps, feed_row_cycles(c, &s));
}

double cost_cr_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                      long st, const win_layout_t *w)
{
  long lanes = tile_lanes(c, t->groups);
  long owv = tile_virt_width(lanes, owt, t->virt);
  /* zero_fill: a slice of st taps steps through about st * dense_w / s positions, and the
   * dense rows between tap rows are steps on created zeros, no word read */
  double sd = t->fill && l->dense_w > 0 ? (double)st * l->dense_w / l->s : st;
  double fr = t->fill && l->dense_h > 0 ? (double)l->dense_h / l->r : 1.0;
  return per_cr_of(c, l, t, st, sd, lanes, owv, oht, w) + (fr - 1.0) * sd;
}

double cost_pass_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                        long ct, long rt, long st, long nkg, const win_layout_t *w)
{
  long lanes = tile_lanes(c, t->groups);
  long nctx = cdiv(oht * tile_virt_width(lanes, owt, t->virt), lanes);
  double work = (double)ct * rt * cost_cr_cycles(c, l, t, oht, owt, st, w);
  double ctx = fmax(work, CTX_GAP(c));
  return (double)nkg * nctx * ctx - (ctx - work) + PASS_OVERHEAD(c);
}

double cost_tiling_parts(const cfg_t *c, const layer_t *l, long oh, long ow, const tiling_t *t,
                         double bpc, cost_parts_t *parts)
{
  long th = lmin(l->h, tile_win_h(l, t->oht, t->rt));
  long tw = lmin(l->w, tile_win_w(l, t->owt, t->st));
  long lead = tile_lead(c, t->al, l->pw);   /* the left edge tile's */
  long pitch = tile_pitch(c, tw, th, t->lin, t->owt, t->al, lead);
  long lanes = tile_lanes(c, t->groups);
  long nkg = cdiv(t->kt, t->gw);
  long owv = tile_virt_width(lanes, t->owt, t->virt);
  long plane = tile_plane(c, t->c2i, th, pitch);
  if ((double)t->ct * plane > (double)c->if_words * c->bus_elems) return -1;
  if ((double)nkg * t->ct * t->rt * t->st > (double)c->wt_words) return -1;
  /* col2im: every filter group adds into one word per pixel, each with a line segment from
   * c2i_kg0 on (a row of the tile each), and a line word is read again a row later */
  long nkg_out = t->c2i ? 1 : nkg;
  if (tile_out_words(c, t->groups, (double)tile_stored_pix(t->oht, t->owt, owv), (double)nkg_out) >
      (double)c->out_words)
    return -1;
  if (t->c2i && (t->owt != ow || owv < c2i_min_row(c) || (t->ct < l->c && t->oht > 1) ||
                 (double)lmax(0, nkg - t->c2i_kg0) * owv > (double)c->line_words))
    return -1;
  long kspan = (t->st - 1) * l->dw + 1;
  long ctx_y = (lanes / owv) * l->sh;
  if (kspan > 65535 || th > 65535 || tw > 65535 || t->ct > 65535 || t->oht > 65535 ||
      ctx_y > 65535 || owv > 65535)
    return -1;
  if ((double)t->ct * plane > 2e9) return -1;
  /* linear contexts only pay off across rows: a one-row tile keeps its bus-aligned pitch */
  if (t->lin && t->oht < 2) return -1;
  if (cdiv(t->oht * owv, lanes) * nkg > 65535) return -1;   /* the tap sequencer's count */
  double n_sp = (double)l->n * cdiv(oh, t->oht) * cdiv(ow, t->owt);
  double n_kt = (double)cdiv(l->k, t->kt);
  double n_red = (double)cdiv(l->c, t->ct) * cdiv(l->r, t->rt) * cdiv(l->s, t->st);
  double passes = n_sp * n_kt * n_red;
  /* The last tile of each axis may be smaller than T's: the contexts, filter groups and ifmap
   * words are summed over the tiles as they are (charging every tile as a full one would make
   * a tiling that divides the layer evenly look faster than one that does not), and so are the
   * steps of the last slice of each reduction axis (a 7-tap row in slices of 4 is 4 + 3). */
  long hs[2], ws[2], cs[2], rs[2], ss[2];
  double hn[2], wn[2], cn[2], rn[2], sn[2];
  slice_mix(oh, t->oht, hs, hn);
  slice_mix(ow, t->owt, ws, wn);
  slice_mix(l->c, t->ct, cs, cn);
  slice_mix(l->r, t->rt, rs, rn);
  slice_mix(l->s, t->st, ss, sn);
  double steps = 0, ifw_all = 0;   /* over the spatial tiles of one image */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double n_ij = hn[i] * wn[j];
      if (n_ij == 0) continue;
      long owv_j = tile_virt_width(lanes, ws[j], t->virt);
      long th_i = lmin(l->h, tile_win_h(l, hs[i], t->rt)), tw_j = lmin(l->w, tile_win_w(l, ws[j], t->st));
      double red_steps = 0;   /* a context's steps over every reduction slice */
      for (int si = 0; si < 2; si++) {
        if (sn[si] == 0) continue;
        win_layout_t w = cost_layout(c, l, t, hs[i], ws[j], ss[si], hn[0] + hn[1] <= 1.0,
                                   wn[0] + wn[1] <= 1.0);
        double per_cr = cost_cr_cycles(c, l, t, hs[i], ws[j], ss[si], &w);
        for (int ci = 0; ci < 2; ci++)
          for (int ri = 0; ri < 2; ri++)
            if (cn[ci] * rn[ri] > 0)
              red_steps += sn[si] * cn[ci] * rn[ri] *
                           fmax((double)cs[ci] * rs[ri] * per_cr, CTX_GAP(c));
      }
      steps += n_ij * (double)cdiv(hs[i] * owv_j, lanes) * red_steps;
      ifw_all += n_ij * (double)cdiv(t->ct * tile_plane(c, t->c2i, th_i,
                                                        tile_pitch(c, tw_j, th_i, t->lin, ws[j],
                                                                 t->al, lead)),
                                     c->bus_elems);
    }
  /* filter groups over the filter tiles */
  double kg_all = (n_kt - 1) * nkg + (double)cdiv(l->k - ((long)n_kt - 1) * t->kt, t->gw);
  /* passes back to back but for col2im ones (PASS_CHAINED): one drain, at the end */
  double compute = l->n * kg_all * steps +
                   (t->c2i ? passes * PASS_OVERHEAD(c)
                           : PASS_OVERHEAD(c) + (passes - 1) * PASS_CHAINED(c));
  /* The host port moves at most one word per cycle, and bpc bytes per cycle. */
  double ifw = (double)cdiv(t->ct * plane, c->bus_elems);
  double wtw = (double)nkg * t->ct * t->rt * t->st;
  double outw = (double)l->n * (t->c2i ? 1 : cdiv(l->k, t->gw)) * oh * ow / t->groups;
  double ifb = cost_word_cycles(c->if_word_bits, bpc), wtb = cost_word_cycles(c->wt_word_bits, bpc);
  double ifc = ifw * ifb, wtc = wtw * wtb;
  double wt_all = kg_all * t->ct * t->rt * t->st * wtb;   /* every filter tile's, once */
  double outc = outw * cost_word_cycles(tile_read_bits(c, t), bpc);
  /* each spatial tile is loaded once per reduction slice if the banks hold them all, else once
   * per pass */
  double if_loads = n_red <= c->banks ? n_red : n_red * n_kt;
  parts->compute = compute;
  parts->ifmap = l->n * if_loads * ifw_all * ifb;
  parts->wt_tiles = n_kt * n_red;
  parts->wt_once = n_red * wt_all;
  parts->wt_each = n_sp * n_red * wt_all;
  parts->out = outc;
  parts->out_bits = tile_read_bits(c, t);
  parts->first = ifc + wtc;
  parts->last = outc / (n_sp * n_kt);
  parts->reductions = n_red;
  return 0;
}

double cost_shared_parts(const cfg_t *c, const layer_t *u, const member_t *ms, int nm,
                         const tiling_t *t, double bpc, cost_parts_t *sum)
{
  cost_parts_t pu, pm;
  *sum = (cost_parts_t){0};
  if (cost_tiling_parts(c, u, u->oh, u->ow, t, bpc, &pu) < 0) return -1;
  for (int m = 0; m < nm; m++) {
    tiling_t tm = *t;
    tm.rt = ms[m].l.r;
    tm.st = ms[m].l.s;
    if (cost_tiling_parts(c, &ms[m].l, u->oh, u->ow, &tm, bpc, &pm) < 0) return -1;
    sum->compute += pm.compute;
    sum->out += pm.out;
    sum->wt_tiles += pm.wt_tiles;   /* they stay in the banks only if every member's fit */
    sum->wt_once += pm.wt_once;
    sum->wt_each += pm.wt_each;
  }
  /* the union's ifmap tiles stay while the members take turns only if they fit the banks */
  sum->ifmap = pu.reductions <= c->banks ? pu.ifmap : nm * pu.ifmap;
  sum->first = pu.first;
  sum->out_bits = pu.out_bits;
  sum->last = pm.last;   /* the last member's */
  return 0;
}

/* Words the host reads of output tile OT (readout_words, less the words of column groups that
 * hold no real pixel, which the host skips). */
static double readout_real(const cfg_t *c, const out_tile_t *ot)
{
  long nkg = ot->wl ? 1 : cdiv(ot->kt, ot->gw);
  if (ot->groups <= 1) return (double)nkg * ot->oht * ot->owt;
  long npix = tile_stored_pix(ot->oht, ot->owt, ot->owv), nctx = cdiv(npix, ot->lanes);
  return (double)nkg * ((nctx - 1) * c->rows + lmin(c->rows, npix - (nctx - 1) * ot->lanes));
}

/* The array's cycles of pass P of tiling T (cost_pass_cycles), kept for the last SCHED_SHAPES
 * shapes of pass in MEMO: a run's passes come in a few (the edge tiles', the last slices'). */
#define SHAPE_KEY 10
typedef struct shape_memo {
  long key[SCHED_SHAPES][SHAPE_KEY];
  double cyc[SCHED_SHAPES];
  int n, next;
} shape_memo_t;

static double pass_cost(const cfg_t *c, const member_t *ms, const tiling_t *t, const pass_t *p,
                        shape_memo_t *memo)
{
  const layer_t *l = &ms[p->m].l;
  /* the window as desc_program gives it to the index counters */
  win_layout_t w = {p->pitch, p->tile_h,
                    tile_window_base(p->pitch, p->pad_t, p->pad_l, p->lead, p->sub_y, p->sub_x),
                    p->plane};
  long key[SHAPE_KEY] = {p->m, p->oht, p->owt, p->ct, p->rt, p->st, cdiv(p->kt, p->gw),
                         w.pitch, w.th, w.base};
  for (int i = 0; i < memo->n; i++)
    if (!memcmp(memo->key[i], key, sizeof key)) return memo->cyc[i];
  tiling_t tp = *t;
  if (p->rt == l->r) tp.rt = l->r;   /* a shared run's member: its whole kernel */
  double v = cost_pass_cycles(c, l, &tp, p->oht, p->owt, p->ct, p->rt, p->st, key[6], &w);
  int slot = memo->n < SCHED_SHAPES ? memo->n++ : memo->next++ % SCHED_SHAPES;
  memcpy(memo->key[slot], key, sizeof key);
  memo->cyc[slot] = v;
  return v;
}

double cost_schedule(const cfg_t *c, const member_t *ms, const tiling_t *t, const pass_t *ps,
                     long np, const out_tile_t *ts, long nt, double bpc)
{
  double *end = malloc((size_t)np * sizeof *end);     /* its last result written */
  double *issued = malloc((size_t)np * sizeof *issued);   /* its last tap in the array */
  double *loaded = calloc((size_t)np, sizeof *loaded);   /* both loads of the pass done */
  double *read = calloc((size_t)nt, sizeof *read);
  job_t *jobs = malloc((size_t)(2 * np + nt + 1) * sizeof *jobs);
  double total = -1;
  if (!end || !issued || !loaded || !read || !jobs) goto out;
  double ifb = cost_word_cycles(c->if_word_bits, bpc), wtb = cost_word_cycles(c->wt_word_bits, bpc);
  double outb = cost_word_cycles(tile_read_bits(c, t), bpc);
  shape_memo_t memo = {.n = 0};
  double port = 0;   /* when the host port is free */
  long next = 0;     /* next pass to schedule */
  long nj = plan_dma_jobs(ps, np, jobs);
  for (long k = 0; k < nj; k++) {
    const job_t *j = &jobs[k];
    const pass_t *q = &ps[j->type == JOB_READOUT ? ts[j->idx].last_pass : j->idx];
    long dep = j->type == JOB_LOAD_IF ? q->if_wait : j->type == JOB_LOAD_WT ? q->wt_wait
                                                                              : ts[j->idx].last_pass;
    double words = j->type == JOB_LOAD_IF ? (double)q->if_words * ifb
                 : j->type == JOB_LOAD_WT ? (double)q->wt_words * wtb
                                          : readout_real(c, &ts[j->idx]) * outb;
    for (; next <= dep; next++) {   /* the passes this job waits for */
      const pass_t *p = &ps[next], *q = next > 0 ? &ps[next - 1] : NULL;
      double ready = loaded[next];   /* the host's start */
      if (!p->acc && p->out_tile >= c->banks) ready = fmax(ready, read[p->out_tile - c->banks]);
      double work = pass_cost(c, ms, t, p, &memo) - PASS_OVERHEAD(c);
      /* chained: started while the pass before drains (sagen_ctrl's chain_o) */
      int chain = q && !p->c2i && !q->c2i && p->groups == q->groups &&
                  (p->groups <= 1 || p->gw == q->gw) && ready <= end[next - 1];
      if (chain) issued[next] = fmax(issued[next - 1], ready) + PASS_CHAINED(c) + work;
      else issued[next] = fmax(q ? end[next - 1] : 0, ready) + PASS_FILL + work;
      end[next] = issued[next] + PASS_DRAIN(c);
    }
    port = fmax(port, dep >= 0 ? end[dep] + STATUS_DELAY : 0) + words;
    if (j->type == JOB_READOUT) read[j->idx] = port;
    else loaded[j->idx] = fmax(loaded[j->idx], port);
  }
  total = fmax(port, end[np - 1]);   /* the last job waits for the last pass */
out:
  free(end);
  free(issued);
  free(loaded);
  free(read);
  free(jobs);
  return total;
}
