/* tiling: the tiling search (see tiling.h). */
#include "tiling.h"

#include <stdio.h>
#include <stdlib.h>

#include "cost.h"
#include "hmath.h"
#include "layer.h"
#include "plan.h"

long tiling_splits(long v, long *out, long max)
{
  long k = 0, last = -1;
  /* every n up to 32, then n doubling, so that the list always ends with 1 (the smallest
   * slice, which always fits) however large V is */
  for (long n = 1; n <= v && k < max; n = n < 32 ? n + 1 : 2 * n) {
    long q = cdiv(v, n);
    if (q != last) out[k++] = q;
    last = q;
  }
  if (k > 0 && out[k - 1] != 1) {
    if (k == max) k--;
    out[k++] = 1;
  }
  return k;
}

/* Linear contexts need stride 1 and whole output rows at least as wide as the input window of
 * a pass taking ST kernel columns (so that the row pitch can be the output width). */
static int linear_ok(const layer_t *l, long ow, long st)
{
  return l->sh == 1 && l->sw == 1 && lmin(l->w, tile_win_w(l, ow, st)) <= ow && ow <= 65535;
}

/* The estimated cycles of tiling T of members MS[0..NM) as the driver would run it
 * (cost_schedule on the planned passes); FALLBACK if the plan cannot be made. */
static double planned_cycles(const cfg_t *c, const member_t *ms, int nm, long oh, long ow,
                             const tiling_t *t, double bpc, double fallback)
{
  pass_t *ps = NULL;
  out_tile_t *ts = NULL;
  long np = 0, nt = 0;
  double v = fallback;
  if (!plan_passes(c, ms, nm, oh, ow, t, &ps, &np, &ts, &nt) && np > 0) {
    v = cost_schedule(c, ms, t, ps, np, ts, nt, bpc);
    if (v < 0) v = fallback;
  }
  free(ps);
  free(ts);
  return v;
}

/* Room for the slice sizes of one axis: channels and filters, kernel rows and columns (a longer
 * list is cut short, tiling_splits ending it with 1). */
#define SPLITS_MAX 4096
#define TAPS_MAX 64

/* One tiling search: what is searched, the slice sizes of each axis, the candidates and the best
 * so far. Each call of tiling_choose owns one (no state outlives it). */
typedef struct search {
  const cfg_t *c;
  const layer_t *l;         /* the layer, or the members' union */
  const member_t *ms;
  int nm;
  long oh, ow;
  double bpc;
  int contexts, groups, rows, fill;   /* the options (drive_opts_t's) */
  const c2i_t *c2i;         /* col2im's run (one member), or NULL */
  int narrower;             /* a member is narrower than the run: no linear contexts */
  long cts[SPLITS_MAX], kts[SPLITS_MAX], rts[TAPS_MAX], sts[TAPS_MAX];
  long ncts, nrt, nst;
  /* Round 0 finds the fastest estimate; round 1 trades, among the tilings within COST_TIE of
   * it, cycles for host-port traffic (see TRAFFIC_RATE). */
  int round;
  double best_cost, bytes0, best_score, chosen, best_bytes;
  tiling_t best;
  /* round 0's SCHED_CANDIDATES fastest by the summed estimate, cheapest first (and room for
   * round 1's choice) */
  tiling_t cand[SCHED_CANDIDATES + 1];
  double cand_cost[SCHED_CANDIDATES + 1], cand_bytes[SCHED_CANDIDATES + 1];
  int ncand;
} search_t;

/* The slice sizes of the reduction axes into S: channels, kernel rows and kernel columns. */
static void search_axes(search_t *s)
{
  const cfg_t *c = s->c;
  const layer_t *l = s->l;
  s->ncts = tiling_splits(l->c, s->cts, SPLITS_MAX);
  s->nrt = tiling_splits(l->r, s->rts, TAPS_MAX);
  /* Kernel columns per pass: the pattern must hold them, and a lane may run at most S-1
   * elements ahead of another within a row pass, so the lane FIFOs must hold S elements or the
   * feeder deadlocks (a full lane waits for a pop that an empty lane blocks). Wider kernels are
   * sliced across passes whose partial sums the hardware accumulates. */
  long smax = lmin((c->pattern_bits - 1) / l->dw + 1, c->fifo_depth);
  long tmp[TAPS_MAX];
  long ns_all = tiling_splits(l->s, tmp, TAPS_MAX);
  s->nst = 0;
  for (long i = 0; i < ns_all; i++)
    if (tmp[i] <= smax) s->sts[s->nst++] = tmp[i];
  if (s->nst == 0) s->sts[s->nst++] = lmin(l->s, smax);
  /* shared runs take whole kernels, and linear contexts only if every member has the run's
   * width (the tile's row pitch) */
  s->narrower = 0;
  if (s->nm > 1) {
    s->nrt = 1;
    s->nst = s->sts[0] == l->s;
    for (int m = 0; m < s->nm; m++) s->narrower |= layer_out_w(&s->ms[m].l) != s->ow;
  }
}

/* Tiling T (estimated COST cycles, BYTES host-port bytes) found: a candidate and the fastest so
 * far in round 0, the best trade of cycles for traffic in round 1. */
static void search_keep(search_t *s, const tiling_t *t, double cost, double bytes)
{
  /* a one-row tile's contexts are inside its row whichever mapping is asked for: the same
   * passes, kept once */
  int dup = 0;
  for (int i = 0; i < s->ncand && !dup && t->oht == 1; i++) {
    tiling_t u = *t;
    u.virt = s->cand[i].virt;
    dup = s->cand_cost[i] == cost && tile_same(&s->cand[i], &u);
  }
  if (s->round == 0 && !dup &&
      (s->ncand < SCHED_CANDIDATES || cost < s->cand_cost[SCHED_CANDIDATES - 1])) {
    int at = s->ncand < SCHED_CANDIDATES ? s->ncand++ : SCHED_CANDIDATES - 1;
    for (; at > 0 && s->cand_cost[at - 1] > cost; at--) {
      s->cand[at] = s->cand[at - 1];
      s->cand_cost[at] = s->cand_cost[at - 1];
      s->cand_bytes[at] = s->cand_bytes[at - 1];
    }
    s->cand[at] = *t;
    s->cand_cost[at] = cost;
    s->cand_bytes[at] = bytes;
  }
  if (s->round == 0 && (s->best_cost < 0 || cost < s->best_cost)) {
    s->best_cost = s->chosen = cost;
    s->bytes0 = s->best_bytes = bytes;
    s->best = *t;
  } else if (s->round == 1 && cost <= s->best_cost * (1 + COST_TIE) && s->bytes0 > 0) {
    double score = cost / s->best_cost + bytes / s->bytes0 / TRAFFIC_RATE;
    if (s->best_score < 0 || score < s->best_score) {
      s->best_score = score;
      s->chosen = cost;
      s->best_bytes = bytes;
      s->best = *t;
    }
  }
}

/* The output tiles of tiling T (its slices and mapping set): the widest first (the whole row,
 * then multiples of the lanes), each as tall as the ifmap and output memories allow. */
static void search_widths(search_t *s, tiling_t t)
{
  const cfg_t *c = s->c;
  const layer_t *l = s->l;
  long lanes = tile_lanes(c, t.groups);
  long nkg = cdiv(t.kt, t.gw);
  for (long owt = s->ow; owt >= 1;) {
    t.owt = owt;
    long tw = lmin(l->w, tile_win_w(l, owt, t.st));
    /* tallest output tile that fits the ifmap and output memories */
    /* (col2im: every channel rounded up to a word, see tile_plane) */
    long hmax_rows = (long)(((double)c->if_words * c->bus_elems -
                             (s->c2i ? (double)t.ct * (c->bus_elems - 1) : 0.0)) /
                            ((double)t.ct * tile_pitch(c, tw, 2, t.lin, owt, t.al,
                                                       tile_lead(c, t.al, l->pw))));
    long oht_if = hmax_rows >= l->h ? s->oh : (hmax_rows - 1 - (t.rt - 1) * l->dh) / l->sh + 1;
    if (hmax_rows < 1 || (t.rt - 1) * l->dh + 1 > hmax_rows) oht_if = lmin(s->oh, 1);
    long owv = tile_virt_width(lanes, owt, t.virt);
    /* the most rows whose stored pixels (tile_stored_pix) fit the output memory */
    long nkg_out = s->c2i ? 1 : nkg;
    long oht_out = t.groups == 1 ? (long)((c->out_words / (double)nkg_out + (owv - owt)) / owv)
                                 : (long)(c->out_words / (nkg * c->rows) * lanes / owv);
    t.oht = lmin(s->oh, lmin(oht_if, oht_out));
    if (s->c2i && t.ct < l->c) t.oht = lmin(t.oht, 1);
    cost_parts_t parts;
    if (t.oht >= 1 && (s->nm > 1 ? cost_shared_parts(c, l, s->ms, s->nm, &t, s->bpc, &parts)
                                 : cost_tiling_parts(c, l, s->oh, s->ow, &t, s->bpc, &parts)) >= 0)
      search_keep(s, &t, cost_of(c, &parts), cost_bytes(c, &parts, s->bpc));
    long next = (owt > lanes) ? ((owt - 1) / lanes) * lanes : owt - 1;
    if (next >= owt) next = owt - 1;
    owt = t.lin || s->c2i ? 0 : next;   /* linear contexts and col2im: whole rows */
  }
}

/* The tilings of slices CT x KT x RT x ST in G column groups of GW columns: each context
 * mapping and row layout the options and the layer allow. */
static void search_slices(search_t *s, int g, long gw, long ct, long kt, long rt, long st)
{
  for (int mode = 2; mode >= 0; mode--) {
    /* 0: contexts wrap across rows, 1: inside a row, 2: linear. On a tie of the estimates the
     * first tried wins: linear (one input run per kernel row), then inside a row, then
     * wrapping (several runs per kernel row). */
    if (s->contexts && mode != s->contexts - 1) continue;
    int lin = mode == 2;
    if (lin && (s->narrower || !linear_ok(s->l, s->ow, st))) continue;
    /* packed rows first (on a tie they move fewer host-port bytes), then aligned rows (not for
     * linear contexts, whose pitch is the output width, nor for shared runs, whose members'
     * windows start at different columns of one tile) */
    int al_hi = lin || s->nm > 1 || s->rows == 1 ? 0 : 1;
    for (int al = s->rows == 2 ? al_hi : 0; al <= al_hi; al++) {
      tiling_t t = {ct, kt, 0, 0, rt, st, mode == 1, lin, g, gw, al, s->fill, s->c2i != NULL,
                    s->c2i ? s->c2i->line_kg0 : 0, s->c2i ? s->c2i->lanes : 0};
      search_widths(s, t);
    }
  }
}

/* The tilings with G column groups: G groups of cols / G columns, each computing its own pixels
 * with the same filters; worth it when there are fewer filters than columns. */
static void search_group(search_t *s, int g)
{
  const layer_t *l = s->l;
  long gw = s->c->cols / g;
  /* With as many filters as columns, groups of fewer columns are tried only where they leave
   * fewer columns idle: 17 filters take 2 x 16 columns, or 3 x 8 with 2 groups. */
  if (g > 1 && s->groups == 0 && l->k >= s->c->cols &&
      cdiv(l->k, gw) * gw >= cdiv(l->k, s->c->cols) * s->c->cols)
    return;
  long nkt = 0;
  for (long q = cdiv(l->k, gw); q >= 1; q--) {
    long kt = lmin(l->k, q * gw);
    if (nkt == 0 || s->kts[nkt - 1] != kt) s->kts[nkt++] = kt;
    if (nkt >= SPLITS_MAX || s->c2i) break;
  }
  for (long a = 0; a < s->ncts; a++)
    for (long b = 0; b < nkt; b++)
      for (long r = 0; r < s->nrt; r++)
        for (long k = 0; k < s->nst; k++)
          search_slices(s, g, gw, s->cts[a], s->kts[b], s->rts[r], s->sts[k]);
}

/* The candidates as they would run: the fastest, and among those within COST_TIE of it the one
 * that moves the fewest bytes (see TRAFFIC_RATE), into S->best and S->chosen; round 1's choice
 * is one of them. */
static void search_rerank(search_t *s)
{
  int have = 0;
  for (int i = 0; i < s->ncand; i++) have |= tile_same(&s->cand[i], &s->best);
  if (!have) {
    s->cand[s->ncand] = s->best;
    s->cand_cost[s->ncand] = s->chosen;
    s->cand_bytes[s->ncand] = s->best_bytes;
    s->ncand++;
  }
  double sched[SCHED_CANDIDATES + 1], fast = -1, fast_bytes = 0;
  for (int i = 0; i < s->ncand; i++) {
    sched[i] = planned_cycles(s->c, s->ms, s->nm, s->oh, s->ow, &s->cand[i], s->bpc,
                              s->cand_cost[i]);
    if (fast < 0 || sched[i] < fast) {
      fast = sched[i];
      fast_bytes = s->cand_bytes[i];
    }
  }
  s->best_score = -1;
  for (int i = 0; i < s->ncand; i++) {
    if (sched[i] > fast * (1 + COST_TIE)) continue;
    double score = sched[i] / fast;
    if (fast_bytes > 0) score += s->cand_bytes[i] / fast_bytes / TRAFFIC_RATE;
    if (s->best_score < 0 || score < s->best_score) {
      s->best_score = score;
      s->chosen = sched[i];
      s->best = s->cand[i];
    }
  }
}

int tiling_choose(const cfg_t *c, const layer_t *l, const member_t *ms, int nm, long oh, long ow,
                  double bpc, int contexts, int groups, int rows, int fill, tiling_t *best,
                  double *cost_out, char *err, size_t errlen)
{
  search_t *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  s->c = c;
  s->l = l;
  s->ms = ms;
  s->nm = nm;
  s->oh = oh;
  s->ow = ow;
  s->bpc = bpc;
  s->contexts = contexts;
  s->groups = groups;
  s->rows = rows;
  s->fill = fill;
  s->c2i = nm == 1 ? ms[0].c2i : NULL;
  s->best_cost = s->best_score = s->chosen = -1;
  search_axes(s);
  int g_lo = groups > 0 ? groups : 1;
  int g_hi = groups > 0 ? groups : c->col_groups;
  /* col2im (see c2i_t): one run of one member, no column groups, every filter in each pass */
  if (s->c2i) g_lo = g_hi = 1;
  for (s->round = 0; s->round < 2 && (s->round == 0 || s->best_cost >= 0); s->round++)
    for (int g = g_lo; g <= g_hi; g++) search_group(s, g);
  int rc = 1, fallback = 0;
  if (s->best_cost >= 0) {
    search_rerank(s);
    *best = s->best;
    if (cost_out) *cost_out = s->chosen;
    rc = 0;
  } else if (contexts == 3) {   /* no tiling can use linear contexts: the driver's choice */
    fallback = 1;
  } else {
    long need_if = (long)lmin(l->h, tile_win_h(l, 1, 1)) * lmin(l->w, tile_win_w(l, 1, 1));
    snprintf(err, errlen,
             "layer does not fit the configuration: its smallest tile needs %ld ifmap elements "
             "(memory.ifmap_kib holds %ld), %ld weight words (memory.weight_kib holds %ld) and "
             "1 output word (memory.output_kib holds %ld)",
             need_if, c->if_words * c->bus_elems, 1L, c->wt_words, c->out_words);
  }
  free(s);
  if (fallback)
    return tiling_choose(c, l, ms, nm, oh, ow, bpc, 0, groups, rows, fill, best, cost_out, err,
                         errlen);
  return rc;
}
