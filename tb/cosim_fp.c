/* cosim_fp: a float data.format in `sagen sim` (see cosim_fp.h). */
#include "cosim_fp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpnum.h"
#include "golden.h"
#include "npy.h"

int cosim_fp_operand(const cfg_t *c, tensor_t *t, const char *path, int round)
{
  fpnum_fmt_t fmt = (fpnum_fmt_t)fpnum_format(c->format);
  if (t->fbits == 0) {
    fprintf(stderr, "%s: holds integers: data.format %s takes float16 or float32 tensors "
            "(bf16 values as float32)\n", path, c->format);
    return 1;
  }
  long n = tensor_numel(t);
  for (long i = 0; i < n; i++) {
    uint32_t f = t->fbits == 16 ? fpnum_f16_to_f32((uint32_t)t->data[i]) : (uint32_t)t->data[i];
    uint64_t enc;
    if (fpnum_from_f32(fmt, f, &enc) && !round) {
      float v;
      memcpy(&v, &f, sizeof v);
      fprintf(stderr, "%s: value %.9g (0x%08" PRIx32 ") at flat index %ld is not a %s value: "
              "give --round-inputs to round it to nearest even\n", path, (double)v, f, i,
              c->format);
      return 1;
    }
    t->data[i] = (int64_t)enc;
  }
  t->fbits = 0;
  return 0;
}

int cosim_fp_random(const cfg_t *c, tensor_t *t, const long *shape, uint64_t *s)
{
  if (tensor_alloc(t, 4, shape)) return 1;
  fpnum_fmt_t fmt = (fpnum_fmt_t)fpnum_format(c->format);
  long n = tensor_numel(t);
  for (long i = 0; i < n; i++) t->data[i] = (int64_t)fpnum_normal(fmt, s);
  return 0;
}

int cosim_fp_write(const cfg_t *c, const char *path, tensor_t *y)
{
  char err[2048];
  if (npy_write_float(path, y, c->acc_bits, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  return 0;
}

/* SLICES' reduction order of output tile 0, into *OUT (NOUT slices), after checking that every
 * tile's is the same. Returns 0, or 1 after an error message. */
static int common_order(const drive_slices_t *sl, golden_slice_t **out, long *nout)
{
  long n0 = 0;
  for (long i = 0; i < sl->n; i++) n0 += sl->s[i].tile == sl->s[0].tile;
  golden_slice_t *g = calloc((size_t)(n0 > 0 ? n0 : 1), sizeof *g);
  if (!g) {
    fprintf(stderr, "sagen sim: out of memory for the reduction order\n");
    return 1;
  }
  long k = 0;
  for (long i = 0; i < sl->n; i++) {
    const drive_slice_t *s = &sl->s[i];
    if (s->tile != sl->s[0].tile) continue;
    /* a run with H and W exchanged walks the layer's columns where it walks rows */
    g[k++] = s->swap ? (golden_slice_t){s->c0, s->ct, s->s0, s->st, s->r0, s->rt, 1}
                     : (golden_slice_t){s->c0, s->ct, s->r0, s->rt, s->s0, s->st, 0};
  }
  /* every tile: the same slices in the same order */
  long at = 0, tile = -1;
  for (long i = 0; i < sl->n; i++) {
    const drive_slice_t *s = &sl->s[i];
    if (s->tile != tile) {
      if (tile >= 0 && at != n0) break;
      tile = s->tile;
      at = 0;
    }
    const golden_slice_t *q = &g[at < n0 ? at : 0];
    long r0 = s->swap ? s->s0 : s->r0, s0 = s->swap ? s->r0 : s->s0;
    if (at >= n0 || q->c0 != s->c0 || q->ct != s->ct || q->r0 != r0 || q->s0 != s0) {
      fprintf(stderr, "sagen sim: the passes of output tile %ld reduce in another order than "
              "tile %ld's: the bit-exact check needs one order for every output\n", s->tile,
              sl->s[0].tile);
      free(g);
      return 1;
    }
    at++;
  }
  *out = g;
  *nout = n0;
  return 0;
}

/* Y against REF bit for bit: prints the first mismatches; returns their count. */
static long compare_bits(const tensor_t *y, const int64_t *ref, const char *yn)
{
  long n = tensor_numel(y), nbad = 0;
  for (long i = 0; i < n; i++) {
    if (y->data[i] == ref[i]) continue;
    if (nbad++ < 10) {
      long d3 = y->shape[3], d2 = y->shape[2], d1 = y->shape[1];
      fprintf(stderr, "mismatch at %s[%ld,%ld,%ld,%ld]: expected 0x%" PRIx64 ", got 0x%" PRIx64
              "\n", yn, i / (d3 * d2 * d1), (i / (d3 * d2)) % d1, (i / d3) % d2, i % d3,
              (uint64_t)ref[i], (uint64_t)y->data[i]);
    }
  }
  return nbad;
}

int cosim_fp_golden(const cfg_t *c, const layer_t *l, const tensor_t *a, const tensor_t *b,
                    const drive_slices_t *slices, tensor_t *ref)
{
  golden_conv_t g = {l->n, l->c, l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw,
                     l->dh, l->dw, c->acc_bits};
  golden_fp_t f = {c->in_ew, c->in_fw, c->acc_ew, c->acc_fw};
  golden_slice_t *order = NULL;
  long norder = 0, shape[4] = {l->n, l->k, golden_out_h(&g), golden_out_w(&g)};
  if (common_order(slices, &order, &norder)) return 1;
  if (tensor_alloc(ref, 4, shape)) {
    free(order);
    fprintf(stderr, "sagen sim: out of memory for the golden output\n");
    return 1;
  }
  golden_conv2d_fp(&g, &f, order, norder, a->data, b->data, ref->data);
  free(order);
  return 0;
}

_Static_assert(DRIVE_RUN_ABSENT == GOLDEN_ABSENT, "the run's absent taps read as the golden's");

/* A run in the golden model's types, and the memory that holds it. */
typedef struct grun {
  golden_run_t g;
  golden_member_t *m;
  long **dst;
  golden_tile_t *t;
  golden_pass_t *p;
} grun_t;

static void grun_free(grun_t *r)
{
  for (int m = 0; r->dst && m < r->g.nm; m++) free(r->dst[m]);
  free(r->dst);
  free(r->m);
  free(r->t);
  free(r->p);
}

/* Run RN of a plan into *R: the layers' geometry, the destinations as flat indices of Y.
 * Returns 0, or 1 after an error message (a result placed outside Y; out of memory). */
static int golden_of_run(const cfg_t *c, const drive_run_t *rn, const tensor_t *y, grun_t *r)
{
  memset(r, 0, sizeof *r);
  r->g.nm = rn->nm;
  r->m = calloc((size_t)rn->nm, sizeof *r->m);
  r->dst = calloc((size_t)rn->nm, sizeof *r->dst);
  r->t = malloc((size_t)(rn->nt > 0 ? rn->nt : 1) * sizeof *r->t);
  r->p = malloc((size_t)(rn->np > 0 ? rn->np : 1) * sizeof *r->p);
  if (!r->m || !r->dst || !r->t || !r->p) goto oom;
  uintptr_t base = (uintptr_t)y->data;
  long ny = tensor_numel(y);
  for (int m = 0; m < rn->nm; m++) {
    const drive_run_member_t *dm = &rn->m[m];
    const layer_t *l = &dm->l;
    long nd = l->n * (dm->c2i_lanes ? dm->c2i_lanes : l->k) * l->oh * l->ow;
    long *d = r->dst[m] = malloc(sizeof(long) * (size_t)(nd > 0 ? nd : 1));
    if (!d) goto oom;
    for (long i = 0; i < nd; i++) {
      uintptr_t at = (uintptr_t)dm->dst[i];
      d[i] = -1;
      if (!dm->dst[i]) continue;
      long q = at < base ? -1 : (long)((at - base) / sizeof(int64_t));
      if (q < 0 || q >= ny || (at - base) % sizeof(int64_t)) {
        fprintf(stderr, "sagen sim: a result of member %d of a run went outside the output\n", m);
        return 1;
      }
      d[i] = q;
    }
    r->m[m] = (golden_member_t){{l->n, l->c, l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph,
                                  l->pw, l->dh, l->dw, c->acc_bits},
                                 l->oh, l->ow,
                                 {l->lead_h, l->gap_h, l->dense_h},
                                 {l->lead_w, l->gap_w, l->dense_w},
                                 l->no_ops, dm->w, d, dm->c2i_lanes, dm->c2i_kg0,
                                 dm->c2i_cols, dm->c2i_route};
  }
  for (long i = 0; i < rn->nt; i++) {
    const drive_run_tile_t *t = &rn->t[i];
    r->t[i] = (golden_tile_t){t->n, t->oy0, t->oht, t->ox0, t->owt, t->k0, t->kt, t->m};
  }
  for (long i = 0; i < rn->np; i++) {
    const drive_run_pass_t *p = &rn->p[i];
    r->p[i] = (golden_pass_t){p->tile, p->c0, p->ct, p->r0, p->rt, p->s0, p->st};
  }
  r->g = (golden_run_t){rn->n, rn->c, rn->h, rn->w, rn->x, rn->zero_fill, rn->nm, r->m, rn->nt,
                        rn->np, r->t, r->p};
  return 0;
oom:
  fprintf(stderr, "sagen sim: out of memory for the golden model of a run\n");
  return 1;
}

int cosim_fp_golden_runs(const cfg_t *c, const drive_runs_t *runs, const tensor_t *y,
                         tensor_t *ref)
{
  golden_fp_t f = {c->in_ew, c->in_fw, c->acc_ew, c->acc_fw};
  if (tensor_alloc(ref, 4, y->shape)) {
    fprintf(stderr, "sagen sim: out of memory for the golden output\n");
    return 1;
  }
  long ny = tensor_numel(y);
  memset(ref->data, 0, sizeof(int64_t) * (size_t)ny);   /* what no run writes: +0 */
  for (long i = 0; i < runs->n; i++) {
    grun_t g;
    int bad = golden_of_run(c, &runs->r[i], y, &g);
    if (!bad && golden_run_fp(&f, &g.g, ref->data, ny)) {
      fprintf(stderr, "sagen sim: run %ld of the plan is not a convolution the golden model "
              "can sum (a slice, tile or destination out of range)\n", i);
      bad = 1;
    }
    grun_free(&g);
    if (bad) return 1;
  }
  return 0;
}

long cosim_fp_bound(const cfg_t *c, int op, const layer_t *l, const tensor_t *a,
                    const tensor_t *b, const tensor_t *y, long *first)
{
  golden_conv_t g = {l->n, l->c, l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw,
                     l->dh, l->dw, c->acc_bits};
  golden_fp_t f = {c->in_ew, c->in_fw, c->acc_ew, c->acc_fw};
  return golden_fp_bound_check(&g, &f, op, a->data, b->data, y->data, first);
}

int cosim_fp_check(const cfg_t *c, int op, const layer_t *l, const tensor_t *a,
                   const tensor_t *b, const tensor_t *y, const drive_slices_t *slices,
                   const drive_runs_t *runs, const char *what, int quiet)
{
  const char *yn = op == 0 ? "y" : op == 1 ? "dx" : "dw";
  long n = tensor_numel(y), nbad = 0;
  {
    tensor_t ref = {0};
    if (op == 0 ? cosim_fp_golden(c, l, a, b, slices, &ref)
                : cosim_fp_golden_runs(c, runs, y, &ref)) {
      tensor_free(&ref);
      return 1;
    }
    nbad = compare_bits(y, ref.data, yn);
    tensor_free(&ref);
    if (nbad) {
      fprintf(stderr, "sagen sim: %ld of %ld elements differ from the golden model's bits (%s)\n",
              nbad, n, what);
      return 1;
    }
  }
  long first;
  long out = cosim_fp_bound(c, op, l, a, b, y, &first);
  if (out < 0) {
    fprintf(stderr, "sagen sim: out of memory for the error-bound check\n");
    return 1;
  }
  if (out) {
    fprintf(stderr, "sagen sim: %ld of %ld elements are outside the accumulation's error bound "
            "of the double-precision %s, the first at flat index %ld (0x%" PRIx64 ") (%s)\n",
            out, n, op == 0 ? "conv2d" : op == 1 ? "input gradient" : "weight gradient",
            first, (uint64_t)y->data[first], what);
    return 1;
  }
  if (!quiet)
    fprintf(stderr, "sagen: check passed: %ld of %ld elements bit-exact and in the error bound "
            "of the double-precision result (%s)\n", n, n, what);
  return 0;
}
