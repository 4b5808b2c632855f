/* golden_fp: the forward convolution in floating point, two ways (see golden.h): bit for bit
 * in the order the plan sums, and against a double-precision convolution within the rigorous
 * bound of the accumulation. Written from the definitions: its own decoding and rounding (the
 * value scaled to an integer count of the format's last place, rounded by nearbyint in the
 * default round-to-nearest-even mode), nothing shared with the driver or the generator. */
#include "golden.h"

#include <math.h>
#include <stdlib.h>

/* The value of encoding V of format EW/FW, exactly (every value of these formats is a double). */
static double fp_value(int ew, int fw, uint64_t v)
{
  uint64_t emax = (1ull << ew) - 1, e = (v >> fw) & emax, m = v & ((1ull << fw) - 1);
  int bias = (1 << (ew - 1)) - 1;
  double r;
  if (e == emax) r = m ? NAN : INFINITY;
  else if (e == 0) r = ldexp((double)m, 1 - bias - fw);
  else r = ldexp((double)(m | 1ull << fw), (int)e - bias - fw);
  return (v >> (ew + fw)) & 1u ? -r : r;
}

/* X rounded to format EW/FW: nearest, ties to even; subnormals kept; past the largest finite
 * value infinity; NaN the canonical quiet NaN. */
static uint64_t fp_round(int ew, int fw, double x)
{
  uint64_t emax = (1ull << ew) - 1, sign = (uint64_t)(signbit(x) != 0) << (ew + fw);
  int bias = (1 << (ew - 1)) - 1, e;
  if (isnan(x)) return emax << fw | 1ull << (fw - 1);
  if (isinf(x)) return sign | emax << fw;
  if (x == 0.0) return sign;
  (void)frexp(fabs(x), &e);
  e -= 1;                                   /* |x| in [2^e, 2^(e+1)) */
  if (e < 1 - bias) e = 1 - bias;           /* the subnormals' place */
  double q = nearbyint(ldexp(fabs(x), fw - e));
  if (q >= ldexp(1.0, fw + 1)) {            /* rounded up into the next binade */
    q = ldexp(q, -1);
    e++;
  }
  uint64_t qi = (uint64_t)q, ef = qi >> fw ? (uint64_t)(e + bias) : 0;
  if (ef >= emax) return sign | emax << fw;
  return sign | ef << fw | (qi & ((1ull << fw) - 1));
}

static uint64_t fp_add(const golden_fp_t *f, uint64_t a, uint64_t b)
{
  return fp_round(f->acc_ew, f->acc_fw, fp_value(f->acc_ew, f->acc_fw, a) +
                                            fp_value(f->acc_ew, f->acc_fw, b));
}

/* The PE's sum of one pass: product k of the walk (rounded into the accumulation format) into
 * partial k mod 8, from -0; then ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)). */
typedef struct pe_sum {
  uint64_t part[8];
  long k;
} pe_sum_t;

static void pe_start(const golden_fp_t *f, pe_sum_t *p)
{
  for (int j = 0; j < 8; j++) p->part[j] = 1ull << (f->acc_ew + f->acc_fw);
  p->k = 0;
}

static void pe_mac(const golden_fp_t *f, pe_sum_t *p, uint64_t a, uint64_t b)
{
  double v = fp_value(f->in_ew, f->in_fw, a) * fp_value(f->in_ew, f->in_fw, b);
  uint64_t prod = fp_round(f->acc_ew, f->acc_fw, v);
  p->part[p->k % 8] = fp_add(f, p->part[p->k % 8], prod);
  p->k++;
}

/* An operand that is not there (a padding position, a tap the filter lacks): the hardware feeds
 * "no operand", whose product is -0, the identity of the sum; the partial takes it all the
 * same. */
static void pe_none(const golden_fp_t *f, pe_sum_t *p)
{
  uint64_t nz = 1ull << (f->acc_ew + f->acc_fw);
  p->part[p->k % 8] = fp_add(f, p->part[p->k % 8], nz);
  p->k++;
}

static uint64_t pe_result(const golden_fp_t *f, pe_sum_t *p)
{
  for (int w = 1; w < 8; w *= 2)
    for (int j = 0; j + w < 8; j += 2 * w) p->part[j] = fp_add(f, p->part[j], p->part[j + w]);
  return p->part[0];
}

void golden_conv2d_fp(const golden_conv_t *g, const golden_fp_t *f, const golden_slice_t *sl,
                      long nsl, const int64_t *x, const int64_t *w, int64_t *y)
{
  long oh = golden_out_h(g), ow = golden_out_w(g);
  if (oh <= 0 || ow <= 0) return;
  for (long n = 0; n < g->n; n++)
    for (long k = 0; k < g->k; k++)
      for (long oy = 0; oy < oh; oy++)
        for (long ox = 0; ox < ow; ox++) {
          uint64_t out = 0;
          for (long i = 0; i < nsl; i++) {
            const golden_slice_t *q = &sl[i];
            pe_sum_t p;
            pe_start(f, &p);
            long n1 = q->cols_first ? q->st : q->rt, n2 = q->cols_first ? q->rt : q->st;
            for (long c = q->c0; c < q->c0 + q->ct; c++)
              for (long i1 = 0; i1 < n1; i1++)
                for (long i2 = 0; i2 < n2; i2++) {
                  long r = q->r0 + (q->cols_first ? i2 : i1);
                  long s = q->s0 + (q->cols_first ? i1 : i2);
                  long iy = oy * g->sh - g->ph + r * g->dh, ix = ox * g->sw - g->pw + s * g->dw;
                  int in = iy >= 0 && iy < g->h && ix >= 0 && ix < g->w;
                  /* a padding position adds nothing, but takes its partial */
                  if (!in)
                    pe_none(f, &p);
                  else
                    pe_mac(f, &p, (uint64_t)x[((n * g->c + c) * g->h + iy) * g->w + ix],
                           (uint64_t)w[((k * g->c + c) * g->r + r) * g->s + s]);
                }
            uint64_t v = pe_result(f, &p);
            /* the first slice writes its sum (+ -0: itself), later ones add the stored one */
            out = i == 0 ? v : fp_add(f, v, out);
          }
          y[((n * g->k + k) * oh + oy) * ow + ox] = (int64_t)out;
        }
}

/* The walk of one axis of a pass over taps T0..T0+TN-1 of NTAPS into SEQ: each item a tap index,
 * or -1 for a zero step. Without FILL the taps; with it the dense positions from the slice's
 * first tap (from 0 for the first slice) to the one before the next slice's first tap (to the
 * end for the last); NO_OPS: every dense position a zero step. Returns the items. */
static long axis_walk(long ntaps, long t0, long tn, const golden_axis_t *a, int fill, int no_ops,
                      long *seq)
{
  long lead = a->lead, gap = a->gap, dense = a->dense, n = 0;
  if (dense == 0) {
    lead = 0;
    gap = 1;
    dense = ntaps;
  }
  if (no_ops) {
    for (long u = 0; u < dense; u++) seq[n++] = -1;
    return n;
  }
  if (!fill) {
    for (long i = 0; i < tn; i++) seq[n++] = t0 + i;
    return n;
  }
  long u0 = t0 == 0 ? 0 : lead + t0 * gap;
  long u1 = t0 + tn == ntaps ? dense - 1 : lead + (t0 + tn) * gap - 1;
  for (long u = u0; u <= u1; u++) {
    long q = u - lead;
    int tap = q >= 0 && q % gap == 0 && q / gap >= t0 && q / gap < t0 + tn;
    seq[n++] = tap ? q / gap : -1;
  }
  return n;
}

/* Whether R's members, tiles and passes are in range. */
static int run_ok(const golden_run_t *r, long ny)
{
  for (int m = 0; m < r->nm; m++) {
    const golden_member_t *q = &r->m[m];
    const golden_conv_t *g = &q->g;
    if (g->n > r->n || g->c != r->c || g->h > r->h || g->w > r->w || g->r < 1 || g->s < 1 ||
        (q->ah.dense && q->ah.dense < g->r) || (q->aw.dense && q->aw.dense < g->s) ||
        (q->ah.dense && q->ah.gap < 1) || (q->aw.dense && q->aw.gap < 1))
      return 0;
    long nk = q->c2i_lanes ? q->c2i_lanes : g->k;
    for (long i = 0; i < g->n * nk * q->oh * q->ow; i++)
      if (q->dst[i] >= ny) return 0;
  }
  for (long i = 0; i < r->nt; i++) {
    const golden_tile_t *t = &r->t[i];
    if (t->m < 0 || t->m >= r->nm) return 0;
    const golden_member_t *q = &r->m[t->m];
    if (t->n < 0 || t->n >= q->g.n || t->oy0 < 0 || t->oy0 + t->oht > q->oh || t->ox0 < 0 ||
        t->ox0 + t->owt > q->ow || t->k0 < 0 || t->k0 + t->kt > q->g.k)
      return 0;
  }
  for (long i = 0; i < r->np; i++) {
    const golden_pass_t *p = &r->p[i];
    if (p->tile < 0 || p->tile >= r->nt) return 0;
    const golden_conv_t *g = &r->m[r->t[p->tile].m].g;
    if (p->c0 < 0 || p->ct < 1 || p->c0 + p->ct > g->c || p->r0 < 0 || p->rt < 1 ||
        p->r0 + p->rt > g->r || p->s0 < 0 || p->st < 1 || p->s0 + p->st > g->s)
      return 0;
  }
  return 1;
}

/* The sum of pass P for output (N, K, OY, OX) of member Q of run R (walks RW, SW). */
static uint64_t pass_sum(const golden_fp_t *f, const golden_run_t *r, const golden_member_t *q,
                         const golden_pass_t *p, long n, long k, long oy, long ox, long *rw,
                         long *sw)
{
  const golden_conv_t *g = &q->g;
  long nr = axis_walk(g->r, p->r0, p->rt, &q->ah, r->zero_fill, q->no_ops, rw);
  long ns = axis_walk(g->s, p->s0, p->st, &q->aw, r->zero_fill, q->no_ops, sw);
  pe_sum_t ps;
  pe_start(f, &ps);
  for (long c = p->c0; c < p->c0 + p->ct; c++)
    for (long i = 0; i < nr; i++)
      for (long j = 0; j < ns; j++) {
        long rr = rw[i], ss = sw[j];
        if (rr < 0 || ss < 0) {   /* a zero step: created zeros */
          pe_mac(f, &ps, 0, 0);
          continue;
        }
        long iy = oy * g->sh - g->ph + rr * g->dh, ix = ox * g->sw - g->pw + ss * g->dw;
        int in = iy >= 0 && iy < g->h && ix >= 0 && ix < g->w;
        int64_t b = q->w[((k * g->c + c) * g->r + rr) * g->s + ss];
        /* a padding position or a tap the filter lacks adds nothing, but takes its partial */
        if (!in || b == GOLDEN_ABSENT)
          pe_none(f, &ps);
        else
          pe_mac(f, &ps, (uint64_t)r->x[((n * r->c + c) * r->h + iy) * r->w + ix], (uint64_t)b);
      }
  return pe_result(f, &ps);
}

/* col2im's run R into Y (see golden_run_fp); R is in range (run_ok). */
static int run_c2i(const golden_fp_t *f, const golden_run_t *r, int64_t *y)
{
  const golden_member_t *q = &r->m[0];
  const golden_conv_t *g = &q->g;
  long gh = q->oh, gw = q->ow, lanes = q->c2i_lanes, nf = g->k;
  int cols = q->c2i_cols, lb = 1;
  while (cols > 1 && (1 << lb) < cols) lb++;
  long nkg = (nf + cols - 1) / cols;
  if (cols < 1 || lanes > cols || g->r != 1 || g->s != 1 || q->c2i_kg0 < 0 || r->zero_fill)
    return -1;
  for (long e = 0; e < nkg * 4 * cols; e++) {   /* a route names a filter of the group */
    uint32_t v = q->c2i_route[e];
    long col = (long)(v & ((1u << lb) - 1)), kg = e / (4 * cols);
    if ((v >> lb & 1u) && (col >= cols || kg * cols + col >= nf)) return -1;
  }
  for (long i = 0; i < r->nt; i++)   /* tiles of whole rows */
    if (r->t[i].ox0 != 0 || r->t[i].owt != gw || r->t[i].k0 != 0 || r->t[i].kt != nf) return -1;
  const uint64_t none = 1ull << (f->acc_ew + f->acc_fw);
  size_t nw = (size_t)(g->n * gh * gw * lanes), nl = (size_t)(nkg * gw * lanes);
  uint64_t *word = malloc(nw * sizeof *word), *line = malloc(nl * sizeof *line);
  uint64_t *ps = malloc((size_t)(gh * gw * nf) * sizeof *ps);   /* a pass's PE sums */
  if (!word || !line || !ps) {
    free(word);
    free(line);
    free(ps);
    return -1;
  }
  for (size_t i = 0; i < nw; i++) word[i] = none;
  for (size_t i = 0; i < nl; i++) line[i] = none;
  for (long pi = 0; pi < r->np; pi++) {
    const golden_pass_t *p = &r->p[pi];
    const golden_tile_t *t = &r->t[p->tile];
    long sl = 0;   /* the pass's slice of its tile: passes of the tile before it */
    for (long i = 0; i < pi; i++) sl += r->p[i].tile == p->tile;
    int later = sl > 0, lfirst = t->oy0 > 0 && !later;
    for (long i = t->oy0; i < t->oy0 + t->oht; i++)
      for (long j = 0; j < gw; j++)
        for (long k = 0; k < nf; k++) {
          long rw = 0, sw = 0;
          ps[(i * gw + j) * nf + k] = pass_sum(f, r, q, p, t->n, k, i, j, &rw, &sw);
        }
    for (long kg = 0; kg < nkg; kg++) {
      int hl = kg >= q->c2i_kg0;
      for (long i = t->oy0; i < t->oy0 + t->oht; i++) {
        int add_l = hl && !later && (i > t->oy0 || lfirst);
        for (long j = 0; j < gw; j++)
          for (long l = 0; l < lanes; l++) {
            /* the sum class K of filter group KG sends lane L from pixel (I, J), or none */
#define ROUTED(K, I, J)                                                                        \
  ((q->c2i_route[(kg * 4 + (K)) * cols + l] >> lb & 1u)                                        \
       ? ps[((I) * gw + (J)) * nf + kg * cols +                                                \
            (long)(q->c2i_route[(kg * 4 + (K)) * cols + l] & ((1u << lb) - 1))]                \
       : none)
            uint64_t *w = &word[((t->n * gh + i) * gw + j) * lanes + l];
            uint64_t *lw = &line[(kg * gw + j) * lanes + l];
            uint64_t own = ROUTED(0, i, j), prev = j > 0 ? ROUTED(1, i, j - 1) : none;
            uint64_t carry = add_l ? *lw : none, st = later || kg > 0 ? *w : none;
            *w = fp_add(f, fp_add(f, own, prev), fp_add(f, carry, st));
            if (hl) {
              uint64_t down = ROUTED(2, i, j), dprev = j > 0 ? ROUTED(3, i, j - 1) : none;
              *lw = fp_add(f, fp_add(f, down, dprev), later ? *lw : none);
            }
#undef ROUTED
          }
      }
    }
  }
  for (long n = 0; n < g->n; n++)
    for (long l = 0; l < lanes; l++)
      for (long i = 0; i < gh; i++)
        for (long j = 0; j < gw; j++) {
          long d = q->dst[((n * lanes + l) * gh + i) * gw + j];
          if (d >= 0) y[d] = (int64_t)word[((n * gh + i) * gw + j) * lanes + l];
        }
  free(word);
  free(line);
  free(ps);
  return 0;
}

int golden_run_fp(const golden_fp_t *f, const golden_run_t *r, int64_t *y, long ny)
{
  if (!run_ok(r, ny)) return -1;
  if (r->nm == 1 && r->m[0].c2i_lanes > 0) return run_c2i(f, r, y);
  long most = 1;
  for (int m = 0; m < r->nm; m++) {
    const golden_member_t *q = &r->m[m];
    long a = q->ah.dense > q->g.r ? q->ah.dense : q->g.r;
    long b = q->aw.dense > q->g.s ? q->aw.dense : q->g.s;
    most = most > a ? most : a;
    most = most > b ? most : b;
  }
  long *rw = malloc(sizeof(long) * (size_t)most), *sw = malloc(sizeof(long) * (size_t)most);
  long *order = malloc(sizeof(long) * (size_t)(r->np > 0 ? r->np : 1));
  if (!rw || !sw || !order) {
    free(rw);
    free(sw);
    free(order);
    return -1;
  }
  for (long ti = 0; ti < r->nt; ti++) {
    const golden_tile_t *t = &r->t[ti];
    const golden_member_t *q = &r->m[t->m];
    long no = 0;   /* the tile's passes, in the order they ran */
    for (long i = 0; i < r->np; i++)
      if (r->p[i].tile == ti) order[no++] = i;
    for (long k = t->k0; k < t->k0 + t->kt; k++)
      for (long oy = t->oy0; oy < t->oy0 + t->oht; oy++)
        for (long ox = t->ox0; ox < t->ox0 + t->owt; ox++) {
          long d = q->dst[((t->n * q->g.k + k) * q->oh + oy) * q->ow + ox];
          if (d < 0 || no == 0) continue;
          uint64_t out = 0;
          for (long i = 0; i < no; i++) {
            uint64_t v = pass_sum(f, r, q, &r->p[order[i]], t->n, k, oy, ox, rw, sw);
            out = i == 0 ? v : fp_add(f, v, out);
          }
          y[d] = (int64_t)out;
        }
  }
  free(rw);
  free(sw);
  free(order);
  return 0;
}

long golden_fp_bound_check(const golden_conv_t *g, const golden_fp_t *f, int op,
                           const int64_t *a, const int64_t *b, const int64_t *y, long *first)
{
  /* the reference and sum |a_i b_i| per output, in double, from the op's definition */
  long oh = golden_out_h(g), ow = golden_out_w(g);
  long ny = op == 0 ? g->n * g->k * oh * ow : op == 1 ? g->n * g->c * g->h * g->w
                                                      : g->k * g->c * g->r * g->s;
  double *ref = calloc((size_t)(ny > 0 ? ny : 1), sizeof *ref);
  double *mag = calloc((size_t)(ny > 0 ? ny : 1), sizeof *mag);
  long *cnt = calloc((size_t)(ny > 0 ? ny : 1), sizeof *cnt);
  if (!ref || !mag || !cnt) {
    free(ref);
    free(mag);
    free(cnt);
    *first = -1;
    return -1;
  }
  if (oh > 0 && ow > 0)
    for (long n = 0; n < g->n; n++)
      for (long k = 0; k < g->k; k++)
        for (long c = 0; c < g->c; c++)
          for (long r = 0; r < g->r; r++)
            for (long s = 0; s < g->s; s++)
              for (long oy = 0; oy < oh; oy++)
                for (long ox = 0; ox < ow; ox++) {
                  long iy = oy * g->sh - g->ph + r * g->dh, ix = ox * g->sw - g->pw + s * g->dw;
                  if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w) continue;
                  long xi = ((n * g->c + c) * g->h + iy) * g->w + ix;
                  long wi = ((k * g->c + c) * g->r + r) * g->s + s;
                  long di = ((n * g->k + k) * oh + oy) * ow + ox;
                  /* the operands: x, w, dy by op (conv2d: a x, b w; input grad: a dy, b w;
                   * weight grad: a x, b dy); the element the product goes to */
                  long ia = op == 1 ? di : xi, ib = op == 2 ? di : wi;
                  long io = op == 0 ? di : op == 1 ? xi : wi;
                  double p = fp_value(f->in_ew, f->in_fw, (uint64_t)a[ia]) *
                             fp_value(f->in_ew, f->in_fw, (uint64_t)b[ib]);
                  ref[io] += p;
                  mag[io] += fabs(p);
                  cnt[io]++;
                }
  double u = ldexp(1.0, -(f->acc_fw + 1));
  int bias = (1 << (f->acc_ew - 1)) - 1;
  double eta = ldexp(1.0, 1 - bias - f->acc_fw);          /* the least subnormal */
  double big = ldexp(2.0 - ldexp(1.0, -f->acc_fw), bias); /* the largest finite value */
  long bad = 0;
  *first = -1;
  for (long i = 0; i < ny; i++) {
    double v = fp_value(f->acc_ew, f->acc_fw, (uint64_t)y[i]);
    double bound = (double)(cnt[i] + 1) * u * mag[i] + (double)(2 * cnt[i] + 1) * eta;
    int ok;
    if (isnan(ref[i])) ok = isnan(v);
    else if (!isfinite(ref[i]) || !isfinite(mag[i]) || mag[i] * (1.0 + 2 * bound) >= big)
      ok = v == ref[i] || isnan(v) || (isinf(v) && mag[i] * (1.0 + 2 * bound) >= big) ||
           fabs(v - ref[i]) <= bound;                     /* an overflow is possible */
    else ok = fabs(v - ref[i]) <= bound;
    if (!ok) {
      if (*first < 0) *first = i;
      bad++;
    }
  }
  free(ref);
  free(mag);
  free(cnt);
  return bad;
}
