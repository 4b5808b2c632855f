/* op_input_grad: conv2d_input_grad as the phases of dx, joined, in blocks or apart, or as
 * col2im, whichever the cost model finds fastest (see drive_conv2d_input_grad, driver.h). */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bwd_traffic.h"
#include "col2im.h"
#include "cost_tuning.h"
#include "hmath.h"
#include "ig_blocks.h"
#include "ops.h"

/* Kernel taps of one axis that reach output phase PH of the input gradient: r with
 * r*d = (ph + p) mod s, i.e. an arithmetic progression r0, r0+step, ... of N taps. */
static long phase_taps(long ph, long p, long s, long d, long ktaps, long *r0, long *step)
{
  long n = 0;
  *r0 = -1;
  *step = 1;
  for (long r = 0; r < ktaps; r++) {
    if (((r * d - ph - p) % s + s) % s == 0) {
      if (*r0 < 0) *r0 = r;
      else if (n == 1) *step = r - *r0;
      n++;
    }
  }
  return n;
}

/* The input gradient in progress: the op, the phases of dx with taps (members of its runs) and
 * the zero-space operands counted from the shapes, to check the hardware's counters against.
 * Owns MS, PHS, BLK and BS (ig_release). */
typedef struct ig {
  hw_t *hw;
  const cfg_t *c;
  const layer_t *l;
  const tensor_t *dy, *w;
  tensor_t *dx;
  const drive_opts_t *o;
  report_t *rep;
  int fill;                 /* zero_fill */
  view_t dyv, wv0, dxv0;
  member_t *ms;             /* the phases with taps, NPH of them */
  phase_t *phs;
  long nph;
  int *blk;                 /* the partition of the phases into blocks (blocks_t) */
  blocks_t bs;              /* its members, where some phases are joined */
  long nb;
  uint64_t unrun;           /* zero-space operands of the phases zero_skip does not run */
  /* The operands of the lowered matrix that fall in the zero-insertions: for each pixel of
   * phase (py, px), the K x (R*S - taps of the phase) operands of its column, once per filter
   * group of the phase's run (filters = C); each meets the C filters once as a created zero in
   * zero_fill. */
  uint64_t want, want_pe;
} ig_t;

static void ig_release(ig_t *g)
{
  blocks_free(&g->bs);
  free(g->blk);
  free(g->phs);
  free(g->ms);
  g->blk = NULL;
  g->phs = NULL;
  g->ms = NULL;
}

/* Output phase (PY, PX) of dx, whose TH x TW pixels no tap reaches: its dx is zero. zero_skip
 * does not run it; zero_fill, like BP-im2col, feeds every dense tap to the array as a created
 * zero. Returns 0, or 1 with ERR. */
static int ig_empty_phase(ig_t *g, long py, long px, long th, long tw, char *err, size_t errlen)
{
  const layer_t *l = g->l;
  uint64_t ops = (uint64_t)l->n * th * tw * cdiv(l->c, g->c->cols) * l->k * l->r * l->s;
  if (!g->fill) {
    g->unrun += ops;
    g->want += ops;
    return 0;
  }
  long oh = layer_out_h(l), ow = layer_out_w(l);
  const view_t *dxv0 = &g->dxv0, *wv0 = &g->wv0;
  layer_t el = {l->n, l->k, oh, ow, l->c, 1, 1, 1, 1, 0, 0, 1, 1, th, tw,
                0, 1, l->r, 0, 1, l->s, 1};
  view_t dxe = {g->dx->data, dxv0->off + py * dxv0->st[2] + px * dxv0->st[3],
                {dxv0->st[0], dxv0->st[1], l->sh * dxv0->st[2], l->sw * dxv0->st[3]},
                0, 0, 0, 0, NULL, 0, 0};
  view_t we = {g->w->data, wv0->off, {wv0->st[1], wv0->st[0], wv0->st[2], wv0->st[3]},
               0, 0, 0, 0, NULL, 0, 0};
  if (drive_conv(g->hw, g->c, &el, &g->dyv, &we, &dxe, g->o, g->rep, err, errlen)) return 1;
  g->want += (uint64_t)l->n * th * tw * g->rep->kgroups * l->k * l->r * l->s;
  g->want_pe += (uint64_t)l->n * th * tw * l->c * l->k * l->r * l->s;
  return 0;
}

/* The phases of dx. Output phase (py, px): rows iy = py + sh*t. Row iy takes dy row
 * oy = (iy + ph - r*dh)/sh for the taps r with r*dh = (py + ph) mod sh: r = ry0 + i*ry_step,
 * i < nry, and oy = t - m(i), m(i) = (ry0 + i*ry_step)*dh - py - ph) / sh, rising by
 * ry_step*dh/sh. With the taps reversed (j = nry-1-i) this is a stride-1 convolution of dy with
 * dilation ry_step*dh/sh and top padding m(nry-1). The phases with taps become members; the
 * others ig_empty_phase handles. Returns 0, or 1 with ERR. */
static int ig_phases(ig_t *g, char *err, size_t errlen)
{
  const layer_t *l = g->l;
  long oh = layer_out_h(l), ow = layer_out_w(l);
  const view_t *wv0 = &g->wv0, *dxv0 = &g->dxv0;
  for (long py = 0; py < l->sh && py < l->h; py++)
    for (long px = 0; px < l->sw && px < l->w; px++) {
      long ry0, rys, rx0, rxs;
      long nry = phase_taps(py, l->ph, l->sh, l->dh, l->r, &ry0, &rys);
      long nrx = phase_taps(px, l->pw, l->sw, l->dw, l->s, &rx0, &rxs);
      long th = (l->h - py + l->sh - 1) / l->sh, tw = (l->w - px + l->sw - 1) / l->sw;
      if (th < 1 || tw < 1) continue;
      if (nry == 0 || nrx == 0) {
        if (ig_empty_phase(g, py, px, th, tw, err, errlen)) return 1;
        continue;
      }
      layer_t pl = {l->n, l->k, oh, ow, l->c, nry, nrx, 1, 1, 0, 0, 1, 1, th, tw,
                    0, 0, 0, 0, 0, 0, 0};
      pl.dh = nry > 1 ? rys * l->dh / l->sh : 1;
      pl.dw = nrx > 1 ? rxs * l->dw / l->sw : 1;
      long ry_last = ry0 + (nry - 1) * rys, rx_last = rx0 + (nrx - 1) * rxs;
      pl.ph = (ry_last * l->dh - py - l->ph) / l->sh;
      pl.pw = (rx_last * l->dw - px - l->pw) / l->sw;
      /* the reversed taps j = 0..nry-1 are kernel rows ry_last - j*rys: dense positions
       * (R-1-ry_last) + j*rys of the R kernel rows walked from the last (likewise columns) */
      pl.lead_h = l->r - 1 - ry_last;
      pl.gap_h = rys;
      pl.dense_h = l->r;
      pl.lead_w = l->s - 1 - rx_last;
      pl.gap_w = rxs;
      pl.dense_w = l->s;
      /* weight view (C as filters, K as channels, taps reversed): w[k][c][ry_last - j*rys][...] */
      view_t wv = {g->w->data, wv0->off + ry_last * wv0->st[2] + rx_last * wv0->st[3],
                   {wv0->st[1], wv0->st[0], -rys * wv0->st[2], -rxs * wv0->st[3]},
                   0, 0, 0, 0, NULL, 0, 0};
      view_t dxv = {g->dx->data, dxv0->off + py * dxv0->st[2] + px * dxv0->st[3],
                    {dxv0->st[0], dxv0->st[1], l->sh * dxv0->st[2], l->sw * dxv0->st[3]},
                    0, 0, 0, 0, NULL, 0, 0};
      g->phs[g->nph] = (phase_t){py, px, ry_last, rys, rx_last, rxs};
      g->ms[g->nph++] = (member_t){pl, wv, dxv, 0, NULL};
    }
  return 0;
}

/* The form the op runs in. Every phase reads all of dy: the phases run together, each tile of
 * dy loaded once for all of them, where the cost model finds it pays (see members_drive; the
 * options can ask for one run per phase). Or phases run joined as one convolution (see
 * joined_t): each dy operand then serves every joined phase's filters, at the price of the taps
 * a phase lacks (a stride-2 3x3 kernel: 9 of the 16 joined tap-phase pairs have a weight).
 * With few channels of dx, the phases apart leave most columns idle and joined phases fill
 * them; the cost model chooses which phases to join, all, some (see blocks_choose) or none
 * (zero_skip only: zero_fill walks the phases as BP-im2col does). Or, where the configuration
 * has the overlap-add line and every tap reaches at most the next super-pixel, the whole op
 * runs as col2im (col2im.h): no tap is absent and R*S*C filters fill the columns. The partition
 * into G->blk, col2im into *USE_C2I. Returns 0, or 1 if out of memory. */
static int ig_choose(ig_t *g, int *use_c2i)
{
  const drive_opts_t *o = g->o;
  long nph = g->nph;
  int separate = o && o->phases == 2, shared = o && o->phases == 1;
  int want_join = o && o->phases == 3, want_blocks = o && o->phases == 4;
  int want_c2i = o && o->phases == 5;
  g->blk = calloc((size_t)nph + 1, sizeof *g->blk);
  int rc = !g->blk;
  double phase_cost = -1;
  *use_c2i = 0;
  for (long i = 0; !rc && i < nph; i++) g->blk[i] = (int)i;
  if (!rc && !g->fill && nph > 1 && !separate && !shared && !want_c2i)
    rc = blocks_choose(g->c, g->l, g->ms, g->phs, nph, g->w, g->dx, &g->dyv, o, want_join,
                       want_blocks, g->blk, &phase_cost);
  if (!rc && !g->fill && nph > 0 && !separate && !shared && !want_join && !want_blocks) {
    int oom = 0;
    double cc = c2i_cost(g->c, g->l, g->dy, g->w, g->dx, o, &oom);
    rc = oom;
    if (!rc && cc >= 0 && !want_c2i && phase_cost < 0) {
      char e[8];
      blocks_phase_runs(NULL, g->c, g->ms, nph, &g->dyv, 0, o, NULL, &phase_cost, e, sizeof e);
    }
    *use_c2i = !rc && cc >= 0 && (want_c2i || phase_cost < 0 || cc < C2I_GAIN * phase_cost);
    /* forced where it cannot run: the cost model's choice among the phases' forms */
    if (!rc && want_c2i && !*use_c2i && nph > 1)
      rc = blocks_choose(g->c, g->l, g->ms, g->phs, nph, g->w, g->dx, &g->dyv, o, 0, 0, g->blk,
                         &phase_cost);
  }
  return rc;
}

/* The op as col2im: every phase's zero-space operands are counted as not fetched (the col2im
 * product has none to walk), and nothing of the phases' forms runs. Returns 0, or 1 with ERR. */
static int ig_run_c2i(ig_t *g, char *err, size_t errlen)
{
  const layer_t *l = g->l;
  g->rep->form = "col2im";
  if (c2i_runs(g->hw, g->c, l, g->dy, g->w, g->dx, g->o, g->rep, err, errlen)) return 1;
  for (long i = 0; i < g->nph; i++) {
    const layer_t *pl = &g->ms[i].l;
    uint64_t ops = (uint64_t)l->n * pl->oh * pl->ow * l->k *
                   (uint64_t)(l->r * l->s - pl->r * pl->s);
    g->want += ops;
    g->unrun += ops;
  }
  g->nph = 0;
  return 0;
}

/* The op as the phases' form chosen: the blocks' members (some phases joined) or the phases,
 * in as few runs as share dy's tiles (one per phase if the options ask), and their zero-space
 * operands. Returns 0, or 1 with ERR. */
static int ig_run_phases(ig_t *g, char *err, size_t errlen)
{
  const layer_t *l = g->l;
  report_t *rep = g->rep;
  long nph = g->nph, nb = g->nb;
  int separate = g->o && g->o->phases == 2;
  member_t *runm = nb < nph ? g->bs.mem : g->ms;
  long nrun = nb < nph ? nb : nph;
  if (nb < nph) {
    rep->form = nb == 1 ? "joined_phases" : "phase_blocks";
    blocks_name(g->phs, nph, g->blk, nb, rep->phase_blocks, sizeof rep->phase_blocks);
  }
  if (blocks_phase_runs(g->hw, g->c, runm, nrun, &g->dyv, separate, g->o, rep, NULL, err,
                        errlen))
    return 1;
  for (long k = 0; k < nrun; k++) {
    if (nb < nph && g->bs.jn[k].tab) {
      rep->absent_macs += g->bs.jn[k].absent_macs;
      g->want += g->bs.jn[k].zero_ops;
      g->unrun += g->bs.jn[k].zero_ops;
      continue;
    }
    const layer_t *pl = &runm[k].l;
    uint64_t zt = (uint64_t)(l->r * l->s - pl->r * pl->s);
    uint64_t pix = (uint64_t)l->n * pl->oh * pl->ow;
    g->want += pix * runm[k].kgroups * l->k * zt;
    g->want_pe += pix * l->c * l->k * zt;
  }
  return 0;
}

/* The form ig_choose chose, run. Returns 0, or 1 with ERR. */
static int ig_run(ig_t *g, char *err, size_t errlen)
{
  int use_c2i = 0;
  int rc = ig_choose(g, &use_c2i);
  if (!rc && use_c2i) rc = ig_run_c2i(g, err, errlen);
  g->nb = g->nph;
  if (!rc) {
    g->nb = 0;
    for (long i = 0; i < g->nph; i++) g->nb = lmax(g->nb, g->blk[i] + 1);
    if (g->nb < g->nph)
      rc = blocks_build(g->l, g->ms, g->phs, g->nph, g->blk, g->w, g->dx, &g->bs);
  }
  if (rc && !use_c2i) snprintf(err, errlen, "out of memory");
  if (!rc) rc = ig_run_phases(g, err, errlen);
  return rc;
}

/* The op's figures from the shapes, and the hardware's zero-space counters checked against
 * them. Returns 0, or 1 with ERR. */
static int ig_finish(ig_t *g, char *err, size_t errlen)
{
  const layer_t *l = g->l;
  report_t *rep = g->rep;
  long oh = layer_out_h(l), ow = layer_out_w(l);
  bwd_ideal(rep, g->c, l);
  bwd_explicit_traffic(rep, g->c, l, 1);
  /* the zero-inserted, zero-padded dy of the transposed convolution, minus the real dy */
  long vh = l->h + l->dh * (l->r - 1), vw = l->w + l->dw * (l->s - 1);
  rep->zero_space = (uint64_t)l->n * l->k * ((uint64_t)vh * vw - (uint64_t)oh * ow);
  rep->zero_skipped += g->unrun;
  return bwd_zero_check(rep, g->want, g->want_pe, err, errlen);
}

int drive_conv2d_input_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy,
                            const tensor_t *w, tensor_t *dx, const drive_opts_t *o,
                            report_t *rep, char *err, size_t errlen)
{
  long xshape[4] = {l->n, l->c, l->h, l->w};
  int fill = o && o->zero_fill;
  if (op_begin(c, o, rep, "conv2d_input_grad", fill ? "zero_fill" : "zero_skip", l, dx, xshape, err,
               errlen))
    return 1;
  ig_t g;
  memset(&g, 0, sizeof g);
  g.hw = hw;
  g.c = c;
  g.l = l;
  g.dy = dy;
  g.w = w;
  g.dx = dx;
  g.o = o;
  g.rep = rep;
  g.fill = fill;
  g.dyv = view_of(dy);
  g.wv0 = view_of(w);
  g.dxv0 = view_of(dx);
  g.dyv.zspace = 1;
  g.ms = calloc((size_t)(l->sh * l->sw), sizeof *g.ms);
  g.phs = calloc((size_t)(l->sh * l->sw), sizeof *g.phs);
  int rc = 1;
  if (!g.ms || !g.phs) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  if (ig_phases(&g, err, errlen) || ig_run(&g, err, errlen)) goto fail;
  ig_release(&g);
  if (ig_finish(&g, err, errlen)) goto fail;
  rc = 0;
fail:
  ig_release(&g);
  if (rc) tensor_free(dx);
  return rc;
}
