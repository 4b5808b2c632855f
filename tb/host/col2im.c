/* col2im: the input gradient as one matrix product, overlap-added into dx (see col2im.h). */
#include "col2im.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "hmath.h"
#include "member.h"
#include "members.h"

/* The input gradient as col2im: one matrix product of dy's pixels (K channels, the reduction)
 * and the (tap, channel of dx) filters, whose products the partial-sums manager adds into dx as
 * they leave the array (sagen_psum_manager). dx is cut into super-pixels of S_h x S_w positions:
 * super-pixel I of an axis holds rows h with floor((h + P) / S) = I, at phase (h + P) mod S. Tap
 * r of dy row i lands on row i*S + r*D - P: super-pixel i + floor(r*D / S), phase r*D mod S. With
 * (R-1)*D < 2*S every tap lands on super-pixel i or i+1, so the products of dy pixel (i, j) go to
 * the words of (i, j), (i, j+1), (i+1, j) and (i+1, j+1): the four classes of the route table. The
 * run's pixels are a grid of super-pixels (a word each: a lane per phase and channel), dy's pixel
 * (i, j) at grid position (i - gy0, j - gx0); grid positions past dy read as padding. Every
 * product of the definition is computed once and no zero of a zero-space is stored, moved or
 * multiplied: each dy operand serves all its (tap, channel) products at once, so few channels of
 * dx (a first layer's 3, an image generator's last layer) fill the columns (R*S*C of them) where
 * the phases apart fill C and joined phases waste the taps a phase lacks. A word holds S_h*S_w
 * phases of cols / (S_h*S_w) channels; more channels of dx run as several runs. */
typedef struct c2i_run {
  c2i_t info;
  member_t m;
  view_t x;               /* dy from the grid's first row and column */
  filter_tab_t wt, yt;
  long *tab;              /* one allocation behind the tables */
  uint32_t *route;
} c2i_run_t;

static void c2i_free(c2i_run_t *r)
{
  free(r->tab);
  free(r->route);
  memset(r, 0, sizeof *r);
}

/* Bits of a column index in the route table (sagen_core.v's LB). */
static int route_lb(int cols)
{
  int b = 1;
  while (cols > 1 && (1 << b) < cols) b++;
  return b;
}

/* The grid of one axis: super-pixels gy0 .. gy0 + *n - 1 of dx (size SIZE, padding P, stride S),
 * from the one before dx's first (its products reach it) unless that is before dy's first. */
static long c2i_axis(long size, long p, long s, long *n)
{
  long lo = floor_div(p, s), hi = floor_div(size - 1 + p, s);
  long g0 = lmax(0, lo - 1);
  *n = hi - g0 + 1;
  return g0;
}

/* Build into RUN the col2im run of the input gradient of L for the CGN channels of dx from CG0;
 * 0, or -1 if the configuration or the layer does not allow it, or 1 if out of memory. */
static int c2i_build(const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
                     tensor_t *dx, long cg0, long cgn, c2i_run_t *run)
{
  memset(run, 0, sizeof *run);
  long sh = l->sh, sw = l->sw, nph = sh * sw;
  long R = l->r, S = l->s, nf = cgn * R * S, lanes = nph * cgn;
  long nkg = cdiv(nf, c->cols);
  long oh = layer_out_h(l), ow = layer_out_w(l), gh, gw;
  long gy0 = c2i_axis(l->h, l->ph, sh, &gh), gx0 = c2i_axis(l->w, l->pw, sw, &gw);
  if (c->line_words < c2i_min_row(c) || (R - 1) * l->dh >= 2 * sh || (S - 1) * l->dw >= 2 * sw ||
      lanes > c->cols || nkg > SAGEN_ROUTE_KGS || gy0 >= oh || gx0 >= ow || gw < c2i_min_row(c) || gh < 1)
    return -1;
  long nrt = (long)SAGEN_ROUTE_KGS * 4 * c->cols;
  run->tab = malloc(sizeof(long) * (size_t)(nf + 5 * lanes));
  run->route = calloc((size_t)nrt, sizeof *run->route);
  if (!run->tab || !run->route) {
    c2i_free(run);
    return 1;
  }
  long *woff = run->tab, *yoff = woff + nf, *rows = yoff + lanes, *cols = rows + lanes;
  long *row0 = cols + lanes, *col0 = row0 + lanes;
  view_t dyv0 = view_of(dy), wv0 = view_of(w), dxv0 = view_of(dx);
  int lb = route_lb(c->cols);
  long f_line = nf;   /* the first filter whose products go a row down */
  for (long r = 0; r < R; r++)
    for (long s = 0; s < S; s++)
      for (long ch = 0; ch < cgn; ch++) {
        long f = (r * S + s) * cgn + ch;
        long di = r * l->dh / sh, dj = s * l->dw / sw;
        long lane = ((r * l->dh % sh) * sw + s * l->dw % sw) * cgn + ch;
        long kg = f / c->cols, col = f % c->cols;
        woff[f] = (cg0 + ch) * wv0.st[1] + r * wv0.st[2] + s * wv0.st[3];
        run->route[(kg * 4 + di * 2 + dj) * c->cols + lane] = 1u << lb | (uint32_t)col;
        if (di) f_line = lmin(f_line, f);
      }
  for (long a = 0; a < sh; a++)
    for (long b = 0; b < sw; b++)
      for (long ch = 0; ch < cgn; ch++) {
        long lane = (a * sw + b) * cgn + ch;
        yoff[lane] = (cg0 + ch) * dxv0.st[1] + (gy0 * sh + a - l->ph) * dxv0.st[2] +
                     (gx0 * sw + b - l->pw) * dxv0.st[3];
        /* grid rows whose dx row at this phase is inside dx */
        row0[lane] = lmax(0, ceil_div(l->ph - a, sh) - gy0);
        rows[lane] = lmax(row0[lane], lmin(gh, floor_div(l->h - 1 + l->ph - a, sh) - gy0 + 1));
        col0[lane] = lmax(0, ceil_div(l->pw - b, sw) - gx0);
        cols[lane] = lmax(col0[lane], lmin(gw, floor_div(l->w - 1 + l->pw - b, sw) - gx0 + 1));
      }
  run->info = (c2i_t){lanes, (int)(f_line / c->cols), run->route};
  run->wt = (filter_tab_t){0, woff, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL};
  run->yt = (filter_tab_t){1, yoff, 0, 0, NULL, NULL, rows, cols, row0, col0};
  layer_t ml = {l->n, l->k, oh - gy0, ow - gx0, nf, 1, 1, 1, 1, 0, 0, 1, 1, gh, gw,
                0, 0, 0, 0, 0, 0, 0};
  view_t wv = {w->data, wv0.off, {0, wv0.st[0], 0, 0}, 0, 0, 0, 0, &run->wt, 0, 0};
  view_t yv = {dx->data, dxv0.off, {dxv0.st[0], 0, sh * dxv0.st[2], sw * dxv0.st[3]},
               0, 0, 0, 0, &run->yt, 0, 0};
  run->x = dyv0;
  run->x.off += gy0 * dyv0.st[2] + gx0 * dyv0.st[3];
  run->x.zspace = 1;
  run->m = (member_t){ml, wv, yv, 0, &run->info};
  return 0;
}

/* Channels of dx per col2im run of L on C (a word holds every phase of them). */
static long c2i_channels(const cfg_t *c, const layer_t *l)
{
  return lmin(l->c, c->cols / (l->sh * l->sw));
}

double c2i_cost(const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
                tensor_t *dx, const drive_opts_t *o, int *oom)
{
  long cg = c2i_channels(c, l);
  if (cg < 1) return -1;
  long full = l->c / cg, rest = l->c % cg;
  double cost = 0;
  for (int part = 0; part < 2 && cost >= 0; part++) {
    long n = part ? (rest ? 1 : 0) : full, cgn = part ? rest : cg;
    if (n == 0) continue;
    c2i_run_t run;
    int rc = c2i_build(c, l, dy, w, dx, 0, cgn, &run);
    if (rc) {
      *oom |= rc > 0;
      return -1;
    }
    double one = members_cost(c, &run.m, 1, &run.x, o, NULL, NULL, NULL);
    cost = one < 0 ? -1 : cost + n * one;
    c2i_free(&run);
  }
  return cost;
}

int c2i_runs(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
             tensor_t *dx, const drive_opts_t *o, report_t *rep, char *err, size_t errlen)
{
  long cg = c2i_channels(c, l);
  for (long c0 = 0; c0 < l->c; c0 += cg) {
    c2i_run_t run;
    int rc = c2i_build(c, l, dy, w, dx, c0, lmin(cg, l->c - c0), &run);
    if (rc) {
      snprintf(err, errlen, rc > 0 ? "out of memory" : "col2im cannot run this layer");
      return 1;
    }
    rc = members_drive(hw, c, &run.m, 1, &run.x, o, rep, err, errlen);
    c2i_free(&run);
    if (rc) return 1;
  }
  return 0;
}
