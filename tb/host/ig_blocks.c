/* ig_blocks: the input gradient's phases joined, in blocks, or apart (see ig_blocks.h). */
#include "ig_blocks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_tuning.h"
#include "hmath.h"
#include "members.h"
#include "orient.h"

/* One axis (W if COLS, else H) of the joined kernel: the union of the tap offsets -pad +
 * j*dil (j < taps) of the NM phases MS, as taps -*JPAD + i * *JDIL, i < *N. */
static void joined_axis(const member_t *ms, int nm, int cols, long *n, long *jpad, long *jdil)
{
  long lo = 0, hi = 0, g = 0;
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    long a = -(cols ? pl->pw : pl->ph);
    long b = a + ((cols ? pl->s : pl->r) - 1) * (cols ? pl->dw : pl->dh);
    lo = m ? lmin(lo, a) : a;
    hi = m ? lmax(hi, b) : b;
  }
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    g = lgcd(g, -(cols ? pl->pw : pl->ph) - lo);
    if ((cols ? pl->s : pl->r) > 1) g = lgcd(g, cols ? pl->dw : pl->dh);
  }
  if (g == 0) g = 1;
  *n = (hi - lo) / g + 1;
  *jpad = -lo;
  *jdil = g;
}

/* Build the joined form of the NM phases MS (PH: theirs) of the input gradient of L into J;
 * 1 if out of memory. */
static int joined_build(const layer_t *l, const member_t *ms, const phase_t *ph, int nm,
                        const tensor_t *w, tensor_t *dx, joined_t *j)
{
  memset(j, 0, sizeof *j);
  long nr, ns, jph, jpw, jdh, jdw;
  joined_axis(ms, nm, 0, &nr, &jph, &jdh);
  joined_axis(ms, nm, 1, &ns, &jpw, &jdw);
  long nf = (long)nm * l->c, th = 0, tw = 0;
  for (int m = 0; m < nm; m++) {
    th = lmax(th, ms[m].l.oh);
    tw = lmax(tw, ms[m].l.ow);
  }
  j->tab = malloc(sizeof(long) * (size_t)(nf * (4 + nr + ns)));
  if (!j->tab) return 1;
  long *woff = j->tab, *yoff = woff + nf, *rows = yoff + nf, *cols = rows + nf;
  long *roff = cols + nf, *soff = roff + nf * nr;
  view_t wv0 = view_of(w), dxv0 = view_of(dx);
  int extent = 0;   /* a phase's grid smaller than the joined one */
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    uint64_t pix = (uint64_t)pl->oh * pl->ow;
    extent |= pl->oh != th || pl->ow != tw;
    j->absent_macs += (uint64_t)l->n * l->k * l->c *
                      ((uint64_t)th * tw * nr * ns - pix * pl->r * pl->s);
    j->zero_ops += (uint64_t)l->n * pix * l->k * (uint64_t)(l->r * l->s - pl->r * pl->s);
    for (long ch = 0; ch < l->c; ch++) {
      long f = m * l->c + ch;
      woff[f] = ch * wv0.st[1];
      yoff[f] = ch * dxv0.st[1] + ph[m].py * dxv0.st[2] + ph[m].px * dxv0.st[3];
      rows[f] = pl->oh;
      cols[f] = pl->ow;
      for (long i = 0; i < nr; i++) roff[f * nr + i] = FT_NONE;
      for (long i = 0; i < ns; i++) soff[f * ns + i] = FT_NONE;
      for (long t = 0; t < pl->r; t++)
        roff[f * nr + (-pl->ph + t * pl->dh + jph) / jdh] = (ph[m].ry_last - t * ph[m].rys) * wv0.st[2];
      for (long t = 0; t < pl->s; t++)
        soff[f * ns + (-pl->pw + t * pl->dw + jpw) / jdw] = (ph[m].rx_last - t * ph[m].rxs) * wv0.st[3];
    }
  }
  j->wt = (filter_tab_t){0, woff, nr, ns, roff, soff, NULL, NULL, NULL, NULL};
  j->yt = (filter_tab_t){1, yoff, 0, 0, NULL, NULL, extent ? rows : NULL, extent ? cols : NULL,
                         NULL, NULL};
  layer_t jl = {l->n, l->k, ms[0].l.h, ms[0].l.w, nf, nr, ns, 1, 1, jph, jpw, jdh, jdw, th, tw,
                0, 0, 0, 0, 0, 0, 0};
  view_t wj = {w->data, wv0.off, {0, wv0.st[0], 0, 0}, 0, 0, 0, 0, &j->wt, 0, 0};
  view_t yj = {dx->data, dxv0.off, {dxv0.st[0], 0, l->sh * dxv0.st[2], l->sw * dxv0.st[3]},
               0, 0, 0, 0, &j->yt, 0, 0};
  j->m = (member_t){jl, wj, yj, 0, NULL};
  return 0;
}

void blocks_free(blocks_t *b)
{
  for (long k = 0; b->jn && k < b->nb; k++) free(b->jn[k].tab);
  free(b->jn);
  free(b->mem);
  memset(b, 0, sizeof *b);
}

/* Block K of partition BLK of the NPH phases MS (PH: theirs) as a member into *MEM: the phase
 * itself, or its phases joined into *JN (which then owns a table); 1 if out of memory. */
static int block_member(const layer_t *l, const member_t *ms, const phase_t *ph, long nph,
                        const int *blk, int k, const tensor_t *w, tensor_t *dx, joined_t *jn,
                        member_t *mem)
{
  memset(jn, 0, sizeof *jn);
  member_t *sub = calloc((size_t)nph, sizeof *sub);
  phase_t *sph = calloc((size_t)nph, sizeof *sph);
  int n = 0, rc = !sub || !sph;
  for (long i = 0; !rc && i < nph; i++)
    if (blk[i] == k) {
      sub[n] = ms[i];
      sph[n++] = ph[i];
    }
  if (!rc && n == 1) *mem = sub[0];
  else if (!rc && !(rc = joined_build(l, sub, sph, n, w, dx, jn))) *mem = jn->m;
  free(sph);
  free(sub);
  return rc;
}

int blocks_build(const layer_t *l, const member_t *ms, const phase_t *ph, long nph,
                 const int *blk, const tensor_t *w, tensor_t *dx, blocks_t *b)
{
  memset(b, 0, sizeof *b);
  for (long i = 0; i < nph; i++) b->nb = lmax(b->nb, blk[i] + 1);
  b->mem = calloc((size_t)b->nb, sizeof *b->mem);
  b->jn = calloc((size_t)b->nb, sizeof *b->jn);
  int rc = !b->mem || !b->jn;
  for (long k = 0; !rc && k < b->nb; k++)
    rc = block_member(l, ms, ph, nph, blk, (int)k, w, dx, &b->jn[k], &b->mem[k]);
  if (rc) blocks_free(b);
  return rc;
}

/* BLK with blocks A < B joined (numbered again in the order of their first phase) into OUT. */
static void blocks_join(const int *blk, long nph, int a, int b, int *out)
{
  int map[16], next = 0;   /* the search's 16 phases at most */
  for (int k = 0; k < 16; k++) map[k] = -1;
  for (long i = 0; i < nph; i++) {
    int k = blk[i] == b ? a : blk[i];
    if (map[k] < 0) map[k] = next++;
    out[i] = map[k];
  }
}

int blocks_phase_runs(hw_t *hw, const cfg_t *c, member_t *ms, long nph, const view_t *dyv,
                      int separate, const drive_opts_t *o, report_t *rep, double *cost,
                      char *err, size_t errlen)
{
  if (!hw) *cost = 0;
  for (long i = 0, j; i < nph; i = j) {
    for (j = i + 1; j < nph && !separate && orient_can_share(&ms[i].l, &ms[j].l); j++) continue;
    if (!hw) {
      double ci = members_cost(c, ms + i, (int)(j - i), dyv, o, NULL, NULL, NULL);
      *cost = ci < 0 || *cost < 0 ? -1 : *cost + ci;
    } else if (members_drive(hw, c, ms + i, (int)(j - i), dyv, o, rep, err, errlen)) {
      return 1;
    }
  }
  return 0;
}

void blocks_name(const phase_t *ph, long nph, const int *blk, long nb, char *buf, size_t len)
{
  size_t at = 0;
  buf[0] = 0;
  for (long k = 0; k < nb; k++)
    for (long i = 0, first = 1; i < nph; i++) {
      if (blk[i] != k) continue;
      char one[48];
      int n = snprintf(one, sizeof one, "%s(%ld,%ld)", first ? (k ? " " : "") : "+", ph[i].py,
                       ph[i].px);
      first = 0;
      if (at + (size_t)n + 4 >= len) {
        snprintf(buf + at, len - at, "...");
        return;
      }
      memcpy(buf + at, one, (size_t)n + 1);
      at += (size_t)n;
    }
}

/* Estimated cycles of the phases in partition BLK (see blocks_t) into *COST (-1 if some run
 * cannot); 1 if out of memory. */
static int blocks_cost(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                       long nph, const int *blk, const tensor_t *w, tensor_t *dx,
                       const view_t *dyv, const drive_opts_t *o, double *cost)
{
  blocks_t bs;
  char e[8];
  if (blocks_build(l, ms, ph, nph, blk, w, dx, &bs)) return 1;
  blocks_phase_runs(NULL, c, bs.mem, bs.nb, dyv, 0, o, NULL, cost, e, sizeof e);
  blocks_free(&bs);
  return 0;
}

/* Estimated cycles of the block of phases MASK run alone (-1 if it cannot), cached in BC. */
static double block_cost(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                         long nph, unsigned mask, const tensor_t *w, tensor_t *dx,
                         const view_t *dyv, const drive_opts_t *o, double *bc, int *oom)
{
  if (bc[mask] > -2) return bc[mask];
  int in[16];   /* block 0: the phases of MASK */
  for (long i = 0; i < nph; i++) in[i] = mask >> i & 1u ? 0 : 1;
  joined_t jn;
  member_t m;
  if (block_member(l, ms, ph, nph, in, 0, w, dx, &jn, &m)) {
    *oom = 1;
    return -1;
  }
  bc[mask] = members_cost(c, &m, 1, dyv, o, NULL, NULL, NULL);
  free(jn.tab);
  return bc[mask];
}

/* The sum of the cached estimates of the blocks of partition BLK, each run alone (-1 if one
 * cannot run). */
static double blocks_sum(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                         long nph, const int *blk, const tensor_t *w, tensor_t *dx,
                         const view_t *dyv, const drive_opts_t *o, double *bc, int *oom)
{
  unsigned masks[16] = {0};
  int nb = 0;
  for (long i = 0; i < nph; i++) {
    masks[blk[i]] |= 1u << i;
    if (blk[i] + 1 > nb) nb = blk[i] + 1;
  }
  double sum = 0;
  for (int k = 0; k < nb && sum >= 0 && !*oom; k++) {
    double b = block_cost(c, l, ms, ph, nph, masks[k], w, dx, dyv, o, bc, oom);
    sum = b < 0 ? -1 : sum + b;
  }
  return sum;
}

/* The partition of the NPH phases into two or more blocks, one of them joined, that runs
 * fastest by the cost model, each as it would run (blocks sharing dy's tiles where that pays:
 * a partition's blocks share the first loads and the last read-out, which estimates of blocks
 * alone would count once per block), into BLK; its estimate into *COST (-1 if none runs).
 * Partitions are walked as restricted growth strings (phase i in a block at most one past the
 * highest of the phases before it). 1 if out of memory. */
static int blocks_exact(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                        long nph, const tensor_t *w, tensor_t *dx, const view_t *dyv,
                        const drive_opts_t *o, int *blk, double *cost)
{
  int rg[16] = {0}, hi[16] = {0};   /* hi[i]: the highest block of phases 0..i */
  *cost = -1;
  for (;;) {
    int nb = hi[nph - 1] + 1, joined = nb < nph;
    if (nb >= 2 && joined) {
      double ct;
      if (blocks_cost(c, l, ms, ph, nph, rg, w, dx, dyv, o, &ct)) return 1;
      if (ct >= 0 && (*cost < 0 || ct < *cost)) {
        *cost = ct;
        memcpy(blk, rg, sizeof *blk * (size_t)nph);
      }
    }
    long i = nph - 1;   /* the next string: the last phase that can move to a higher block */
    while (i > 0 && rg[i] > hi[i - 1]) i--;
    if (i == 0) return 0;
    rg[i]++;
    hi[i] = rg[i] > hi[i - 1] ? rg[i] : hi[i - 1];
    for (long j = i + 1; j < nph; j++) {
      rg[j] = 0;
      hi[j] = hi[i];
    }
  }
}

int blocks_choose(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                  long nph, const tensor_t *w, tensor_t *dx, const view_t *dyv,
                  const drive_opts_t *o, int join, int partial, int *blk, double *cost_out)
{
  *cost_out = -1;
  int *all = calloc((size_t)nph * 4, sizeof *all);
  double *bc = nph <= 16 ? malloc(sizeof *bc << nph) : NULL;
  int oom = !all || (nph <= 16 && !bc);
  if (oom) {
    free(all);
    free(bc);
    return 1;
  }
  for (long i = 0; bc && i < 1L << nph; i++) bc[i] = -2;
  int *cur = all + nph, *tmp = cur + nph, *step = tmp + nph;   /* all: every phase in block 0 */
  memcpy(cur, blk, sizeof *cur * (size_t)nph);
  int exact = !join && nph >= 3 && nph <= BLOCKS_EXACT;
  double cpart = -1;
  if (exact && blocks_exact(c, l, ms, ph, nph, w, dx, dyv, o, cur, &cpart)) oom = 1;
  int found = exact && cpart >= 0;
  double ccur = bc && !exact ? blocks_sum(c, l, ms, ph, nph, cur, w, dx, dyv, o, bc, &oom) : -1;
  for (long nb = nph; bc && !oom && !join && !exact && nb > 2; nb--) {
    double cstep = -1;
    for (int a = 0; !oom && a < nb; a++)
      for (int b = a + 1; !oom && b < nb; b++) {
        blocks_join(cur, nph, a, b, tmp);
        double ct = blocks_sum(c, l, ms, ph, nph, tmp, w, dx, dyv, o, bc, &oom);
        if (ct >= 0 && (cstep < 0 || ct < cstep)) {
          cstep = ct;
          memcpy(step, tmp, sizeof *step * (size_t)nph);
        }
      }
    if (oom || cstep < 0 || (ccur >= 0 && cstep >= ccur && (found || !partial))) break;
    ccur = cstep;
    memcpy(cur, step, sizeof *cur * (size_t)nph);
    found = 1;
  }
  /* as they would run: the partition found, all joined, all apart */
  double call = -1, capart = -1;
  char e[8];
  if (!oom && found && !exact && blocks_cost(c, l, ms, ph, nph, cur, w, dx, dyv, o, &cpart))
    oom = 1;
  if (!oom && !join && blocks_cost(c, l, ms, ph, nph, all, w, dx, dyv, o, &call)) oom = 1;
  if (!oom && !join && !(partial && found))
    blocks_phase_runs(NULL, c, (member_t *)ms, nph, dyv, 0, o, NULL, &capart, e, sizeof e);
  if (!oom) {
    double other = call < 0 ? capart : capart < 0 ? call : fmin(call, capart);
    if (found && cpart >= 0 && (partial || other < 0 || cpart < BLOCKS_GAIN * other)) {
      memcpy(blk, cur, sizeof *blk * (size_t)nph);
      *cost_out = cpart;
    } else if (join || (call >= 0 && (capart < 0 || call < capart))) {
      memset(blk, 0, sizeof *blk * (size_t)nph);
      *cost_out = call;
    } else {
      *cost_out = capart;
    }
  }
  free(bc);
  free(all);
  return oom;
}
