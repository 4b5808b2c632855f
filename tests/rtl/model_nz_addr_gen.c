/* model_nz_addr_gen: reference model and stimulus for sagen_nz_addr_gen (the NZ-detecting
 * address generator), with BP-im2col's Algorithms 1 and 2 as the reference.
 *
 * The block walks pixels (pb, py, px) and, per pixel, taps (c, r, s), and gives for each element
 * NULL or the address in the stored tensor (definition in rtl_templates/sagen_nz_addr_gen.v).
 * Shapes come in three modes:
 *   transposed  loss of the input (BP-im2col Algorithm 1, Eq. 2 and 3): every addr_in of the
 *               virtual matrix B (rows (n, hk, wk) over N*Kh*Kw, columns (b, h_out, w_out) over
 *               B*Hi*Wi, addr_in = row*(B*Hi*Wi) + col), taken in the block's walk order (column
 *               outer, row inner). The expected address is, for every element, computed four
 *               ways that must agree (else the model exits 3, "self-check failed"):
 *                 alg1_published    Algorithm 1 literally (divisions and modulo on addr_in,
 *                                   Eq. 2 and 3), when the shape is one the paper covers
 *                                   (dilation 1, one stride S);
 *                 alg1_general      the same text with a dilation D per axis (a tap is D
 *                                   virtual positions apart; published: D = 1) and a stride per
 *                                   axis, then alg1_bottom_right_bound (h' < Ho, w' < Wo): the
 *                                   step Algorithm 1 lacks. Without it, once the bottom/right
 *                                   padding D*(K-1) - P + output_padding of the zero-spaced dy
 *                                   reaches S, Algorithm 1 returns addresses past the stored
 *                                   dy (e.g. K = 3, P = 0, S = 2); such entries are counted;
 *                 vmap              the zero-inserted, padded dy built as an explicit index map
 *                                   (array), looked up at (h_out + hk*D, w_out + wk*D);
 *                 def_elem          the block's own definition for the descriptor of the mode
 *                                   (checks the parameter mapping).
 *               Published agreement is required with the unbounded general form; the reference
 *               sent to the RTL is the bounded one (= direct = def).
 *   dilated     gradient of the kernel (Algorithm 2, Eq. 4): every addr_in of A (N rows x
 *               B*Ho''*Wo'' columns, Ho'' = (Ho-1)*S + 1) in walk order (= addr_in order),
 *               checked the same way: alg2_published (one S), alg2_general (S per axis),
 *               vmap (the zero-inserted dy as an index map), def_elem.
 *   any         arbitrary descriptors (negative offsets, dilation above the stride, strides and
 *               bases at random, addresses that wrap mod 2^AW, counts or strides of 0 which the
 *               block takes as 1, extreme offsets/dilations with long prologues) against
 *               def_elem alone.
 * Grids (every seed). Transposed: the grid of axes is every (D 1..2, S 1..3, K 1..4, P 0..K-1,
 * Ho 1..4, output padding op 0..S-1) with Hi = (Ho-1)*S - 2P + D*(K-1) + 1 + op >= 1 (459
 * axes). The block's h and w logic are separate, so instead of the cross product (too slow under
 * Icarus) every axis comes on h and on w, each time paired with a small axis (K*Hi <= SMALL, a
 * seed-dependent rotation): D = 1 axes with a partner of the same S and D = 1 (the shapes
 * Algorithm 1 covers: checked against the published text), D = 2 axes with any partner (mixed
 * D, S_h != S_w), and D = 1 axes once more with a partner of another S; N, B rotate through
 * 1..2 (lowered for shapes above CAP elements). Then 6 random larger shapes (K up to 5, S up to
 * 4, D up to 3, P up to D*(K-1), Ho up to 8, N, B up to 3; 40% of them published ones, 30%
 * square). Dilated: the full cross product of (S 1..3, Ho 1..4) per axis and N, B 1..2, then 8
 * random larger shapes (S up to 5, Ho up to 8).
 *
 * Walks: each shape is one walk: start, then the elements; most at full rate (adv every cycle),
 * some with random gaps (adv low for 1..3 cycles before taking an element). Some walks are
 * first cut short by a restart of the same shape: in the prologue, or after a prefix of its
 * elements. The expected prologue (cycles from the start cycle to the first vld cycle) is
 *   3 + max(|floor(-off_h/str_h)|, |floor(-off_w/str_w)|, floor(dil_h/str_h), floor(dil_w/str_w)).
 *
 * Usage: model_nz_addr_gen MODE AW SEED OUT.vec [inject]     (MODE transposed|dilated|any)
 * Vector file (hex unless noted):
 *   "AW" (decimal), then records:
 *   W n_pb n_py n_px n_ch n_r n_s dil_h dil_w off_h off_w str_h str_w hs ws pitch pb_stride
 *     ch_stride base prologue nelem cut wait
 *                  a walk: start with this descriptor (off_* as 16-bit two's complement),
 *                  expect vld first in cycle `prologue`, then nelem element lines follow.
 *                  cut 0: the walk is complete, vld must fall after its last element; cut 1:
 *                  the next W record restarts after these nelem elements are taken, or, with
 *                  nelem 0, after `wait` cycles of the prologue (wait < prologue).
 *   gap nz addr tap_last last
 *                  one element: adv stays low for `gap` cycles first (the element must hold),
 *                  then is taken; addr is 0 when nz is 0.
 *   N elements nz published direct missing_pub missing_gen
 *                  (decimal) totals for the testbench's note line: elements of complete walks,
 *                  non-zero ones, entries checked against the published algorithm and against
 *                  the index map, entries where Algorithm 1 as published (and its generalized
 *                  form) gives an address the bottom/right bound turns into NULL
 *   E              end of file
 * With "inject" one expected element field is wrong on purpose. */
#include "vec_common.h"

#define NF 18
enum {
  F_NPB, F_NPY, F_NPX, F_NCH, F_NR, F_NS, F_DILH, F_DILW, F_OFFH, F_OFFW, F_STRH, F_STRW, F_HS,
  F_WS, F_PITCH, F_PBS, F_CHS, F_BASE
};
#define MAX_ELEMS 6000   /* per random shape */
#define SMALL 4          /* transposed grid: K*Hi of a small partner axis */
#define CAP 300          /* transposed grid: N*B lowered above this many elements */

typedef struct {
  int64_t f[NF];
} desc_t;

typedef struct {
  desc_t d;
  int64_t prologue, nelem, wait;
  int cut;
  size_t first;  /* its first element in `outs` */
} walk_t;

typedef struct {
  uint32_t addr;
  uint8_t gap, nz, tl, last;
} out_t;

/* One axis of a shape: stride, kernel, padding, dilation, stored size, output padding, and the
 * size of the virtual side (Hi for transposed, Ho'' for dilated). */
typedef struct {
  int64_t S, K, P, D, Ho, op, Hi;
} axis_t;

typedef struct {
  int64_t N, B;
  axis_t h, w;
} shape_t;

static int AW;
static vvec walks = {0, 0, 0, sizeof(walk_t)};
static vvec outs = {0, 0, 0, sizeof(out_t)};
static struct {
  long long elems, nz, missing_bound, missing_pub, published, direct;
} tot;

static void self_check_failed(const char *what, const shape_t *t, int64_t addr_in)
{
  fprintf(stderr,
          "model self-check failed: %s (N %lld B %lld S %lldx%lld K %lldx%lld P %lldx%lld "
          "D %lldx%lld Ho %lldx%lld op %lldx%lld, addr_in %lld)\n",
          what, (long long)t->N, (long long)t->B, (long long)t->h.S, (long long)t->w.S,
          (long long)t->h.K, (long long)t->w.K, (long long)t->h.P, (long long)t->w.P,
          (long long)t->h.D, (long long)t->w.D, (long long)t->h.Ho, (long long)t->w.Ho,
          (long long)t->h.op, (long long)t->w.op, (long long)addr_in);
  exit(3);
}

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int64_t abs64(int64_t a)
{
  return a < 0 ? -a : a;
}

#define NUL (-1)

/* ---- Algorithm 1 (transposed mode) -------------------------------------------------------- */

/* Eq. 2: (h, w) is in area 0 (top/left zero-padding). */
static int eq2(int64_t h, int64_t w, int64_t Kh, int64_t Kw, int64_t Ph, int64_t Pw)
{
  return h < Kh - 1 - Ph || w < Kw - 1 - Pw;
}

/* Eq. 3: (h, w) is in area 1 (the other zero-spaces). */
static int eq3(int64_t h, int64_t w, int64_t Kh, int64_t Kw, int64_t Ph, int64_t Pw, int64_t S)
{
  return (h - (Kh - 1 - Ph)) % S > 0 || (w - (Kw - 1 - Pw)) % S > 0;
}

/* Algorithm 1 as published (dilation 1, one stride S = t->h.S): the address in the stored dy
 * (B x N x Ho x Wo) of element addr_in of the virtual matrix B, or NUL. */
static int64_t alg1_published(int64_t addr_in, const shape_t *t)
{
  int64_t B = t->B, N = t->N, Hi = t->h.Hi, Wi = t->w.Hi, Kh = t->h.K, Kw = t->w.K;
  int64_t Ph = t->h.P, Pw = t->w.P, S = t->h.S, Ho = t->h.Ho, Wo = t->w.Ho;
  int64_t row = addr_in / (B * Hi * Wi), col = addr_in % (B * Hi * Wi);       /* line 1 */
  int64_t b = col / (Hi * Wi), temp1 = row / Kw, wk = row % Kw;               /* line 2 */
  int64_t n = temp1 / Kh, hk = temp1 % Kh, temp2 = col % (Hi * Wi);           /* line 3 */
  int64_t h = temp2 / Wi + hk, w = temp2 % Wi + wk;                           /* line 4 */
  if (eq2(h, w, Kh, Kw, Ph, Pw) || eq3(h, w, Kh, Kw, Ph, Pw, S))              /* line 5 */
    return NUL;                                                               /* line 6 */
  int64_t hp = (h - (Kh - 1 - Ph)) / S, wp = (w - (Kw - 1 - Pw)) / S;         /* line 8 */
  return b * N * Ho * Wo + n * Ho * Wo + hp * Wo + wp;                        /* line 9 */
}

/* Algorithm 1 generalized: dilation D per axis (tap hk sits at h_out + hk*D; the zero-padding
 * above the zero-inserted dy is D*(K-1) - P) and a stride per axis. With D = 1 and S_h = S_w it
 * is the published text. Gives (h', w') in *hp, *wp for the bound step. */
static int64_t alg1_general(int64_t addr_in, const shape_t *t, int64_t *hp, int64_t *wp)
{
  int64_t B = t->B, N = t->N, Hi = t->h.Hi, Wi = t->w.Hi, Kh = t->h.K, Kw = t->w.K;
  int64_t Ph = t->h.P, Pw = t->w.P, Sh = t->h.S, Sw = t->w.S, Ho = t->h.Ho, Wo = t->w.Ho;
  int64_t Dh = t->h.D, Dw = t->w.D;
  int64_t th = Dh * (Kh - 1) - Ph, tw = Dw * (Kw - 1) - Pw;   /* top/left padding */
  int64_t row = addr_in / (B * Hi * Wi), col = addr_in % (B * Hi * Wi);
  int64_t b = col / (Hi * Wi), temp1 = row / Kw, wk = row % Kw;
  int64_t n = temp1 / Kh, hk = temp1 % Kh, temp2 = col % (Hi * Wi);
  int64_t h = temp2 / Wi + hk * Dh, w = temp2 % Wi + wk * Dw;
  if (h < th || w < tw) return NUL;                           /* Eq. 2 */
  if ((h - th) % Sh > 0 || (w - tw) % Sw > 0) return NUL;     /* Eq. 3 */
  *hp = (h - th) / Sh;
  *wp = (w - tw) / Sw;
  return b * N * Ho * Wo + n * Ho * Wo + *hp * Wo + *wp;
}

/* The step Algorithm 1 lacks: the bottom/right zero-padding. Positions past the last stored
 * row/column of dy (h' >= Ho or w' >= Wo) are zero-spaces too. Eq. 2 covers only the top/left
 * padding; Eq. 3 catches the bottom/right padding only while it is narrower than S. */
static int64_t alg1_bottom_right_bound(int64_t addr_out, int64_t hp, int64_t wp,
                                       const shape_t *t)
{
  if (addr_out == NUL) return NUL;
  if (hp >= t->h.Ho || wp >= t->w.Ho) return NUL;
  return addr_out;
}

/* Third definition: the virtual map of dy with zero-insertions and zero-paddings, built as an
 * index array per (b, n): -1 everywhere, then dy(b, n, i, j) written at (top + i*S, left + j*S)
 * with top = D*(K-1) - P. Sizes Hv = top + (Ho-1)*S + 1 + top + op (bottom padding
 * top + op). */
typedef struct {
  int64_t Hv, Wv, top, left;
  int64_t *map;
} vmap_t;

static void vmap_build(vmap_t *m, const shape_t *t, int transposed)
{
  m->top = transposed ? t->h.D * (t->h.K - 1) - t->h.P : 0;
  m->left = transposed ? t->w.D * (t->w.K - 1) - t->w.P : 0;
  m->Hv = m->top + (t->h.Ho - 1) * t->h.S + 1 + (transposed ? m->top + t->h.op : 0);
  m->Wv = m->left + (t->w.Ho - 1) * t->w.S + 1 + (transposed ? m->left + t->w.op : 0);
  size_t n = (size_t)(t->B * t->N * m->Hv * m->Wv);
  m->map = malloc(n * sizeof(int64_t));
  if (!m->map) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (size_t i = 0; i < n; i++) m->map[i] = -1;
  for (int64_t b = 0; b < t->B; b++)
    for (int64_t n2 = 0; n2 < t->N; n2++)
      for (int64_t i = 0; i < t->h.Ho; i++)
        for (int64_t j = 0; j < t->w.Ho; j++) {
          int64_t y = m->top + i * t->h.S, x = m->left + j * t->w.S;
          m->map[((b * t->N + n2) * m->Hv + y) * m->Wv + x] =
              ((b * t->N + n2) * t->h.Ho + i) * t->w.Ho + j;
        }
}

static int64_t vmap_at(const vmap_t *m, const shape_t *t, int64_t b, int64_t n, int64_t y,
                       int64_t x, int64_t addr_in)
{
  if (y < 0 || y >= m->Hv || x < 0 || x >= m->Wv)
    self_check_failed("position outside the virtual map", t, addr_in);
  return m->map[((b * t->N + n) * m->Hv + y) * m->Wv + x];
}

/* ---- Algorithm 2 (dilated mode) ------------------------------------------------------------ */

/* Eq. 4: (h, w) is a zero-insertion. */
static int eq4(int64_t h, int64_t w, int64_t S)
{
  return h % S > 0 || w % S > 0;
}

/* Algorithm 2 as published (one stride S): the address in the stored dy of element addr_in of
 * the virtual matrix A (N rows, B*Ho''*Wo'' columns), or NUL. */
static int64_t alg2_published(int64_t addr_in, const shape_t *t)
{
  int64_t B = t->B, N = t->N, Ho2 = t->h.Hi, Wo2 = t->w.Hi, S = t->h.S;
  int64_t Ho = t->h.Ho, Wo = t->w.Ho;
  int64_t n = addr_in / (B * Ho2 * Wo2), col = addr_in % (B * Ho2 * Wo2);     /* line 1 */
  int64_t temp = col / Wo2, w = col % Wo2;                                    /* line 2 */
  int64_t b = temp / Ho2, h = temp % Ho2;                                     /* line 3 */
  if (eq4(h, w, S)) return NUL;                                               /* lines 4-5 */
  int64_t hp = h / S, wp = w / S;                                             /* line 7 */
  return b * N * Ho * Wo + n * Ho * Wo + hp * Wo + wp;                        /* line 8 */
}

/* Algorithm 2 with a stride per axis (published: S_h = S_w). */
static int64_t alg2_general(int64_t addr_in, const shape_t *t)
{
  int64_t B = t->B, N = t->N, Ho2 = t->h.Hi, Wo2 = t->w.Hi, Sh = t->h.S, Sw = t->w.S;
  int64_t Ho = t->h.Ho, Wo = t->w.Ho;
  int64_t n = addr_in / (B * Ho2 * Wo2), col = addr_in % (B * Ho2 * Wo2);
  int64_t temp = col / Wo2, w = col % Wo2;
  int64_t b = temp / Ho2, h = temp % Ho2;
  if (h % Sh > 0 || w % Sw > 0) return NUL;
  return b * N * Ho * Wo + n * Ho * Wo + (h / Sh) * Wo + w / Sw;
}

/* ---- the block's definition ------------------------------------------------------------------ */

static int64_t cnt(const desc_t *d, int k)
{
  return d->f[k] ? d->f[k] : 1;
}

/* Element (pb, py, px, c, r, s) of descriptor d: 1 and *addr if non-zero, else 0. Offsets are
 * 16-bit two's complement in d. */
static int def_elem(const desc_t *d, int64_t pb, int64_t py, int64_t px, int64_t c, int64_t r,
                    int64_t s, uint64_t *addr)
{
  int64_t sh = cnt(d, F_STRH), sw = cnt(d, F_STRW);
  int64_t vh = py + r * d->f[F_DILH] - sign_ext((uint64_t)d->f[F_OFFH], 16);
  int64_t vw = px + s * d->f[F_DILW] - sign_ext((uint64_t)d->f[F_OFFW], 16);
  if (vh < 0 || vh % sh != 0 || vh / sh >= d->f[F_HS]) return 0;
  if (vw < 0 || vw % sw != 0 || vw / sw >= d->f[F_WS]) return 0;
  uint64_t a = (uint64_t)d->f[F_BASE] + (uint64_t)pb * (uint64_t)d->f[F_PBS] +
               (uint64_t)c * (uint64_t)d->f[F_CHS] + (uint64_t)(vh / sh) * (uint64_t)d->f[F_PITCH] +
               (uint64_t)(vw / sw);
  *addr = a & bits_mask(AW);
  return 1;
}

static int64_t prologue_of(const desc_t *d)
{
  int64_t sh = cnt(d, F_STRH), sw = cnt(d, F_STRW);
  int64_t k[4] = {abs64(floor_div(-sign_ext((uint64_t)d->f[F_OFFH], 16), sh)),
                  abs64(floor_div(-sign_ext((uint64_t)d->f[F_OFFW], 16), sw)),
                  d->f[F_DILH] / sh, d->f[F_DILW] / sw};
  int64_t m = 0;
  for (int i = 0; i < 4; i++)
    if (k[i] > m) m = k[i];
  return 3 + m;
}

/* ---- walks --------------------------------------------------------------------------------- */

typedef struct {
  uint64_t addr;
  int nz, tl, last;
} elem_t;

static vvec cur = {0, 0, 0, sizeof(elem_t)};  /* elements of the walk being built */

static void push_elem(int nz, uint64_t addr, int tl, int last)
{
  elem_t *e = vvec_push(&cur);
  e->nz = nz;
  e->addr = nz ? addr : 0;
  e->tl = tl;
  e->last = last;
}

/* The element lines of a walk: its first n elements of `cur`, gaps with probability pct. */
static void emit_elems(vrng *g, int64_t n, int pct, int maxgap)
{
  for (int64_t i = 0; i < n; i++) {
    const elem_t *e = &VVEC_AT(cur, elem_t, (size_t)i);
    out_t *x = vvec_push(&outs);
    x->gap = (uint8_t)(vrng_pct(g, pct) ? vrng_range(g, 1, maxgap) : 0);
    x->nz = (uint8_t)e->nz;
    x->addr = (uint32_t)e->addr;
    x->tl = (uint8_t)e->tl;
    x->last = (uint8_t)e->last;
  }
}

/* The walk of d over the elements in `cur`: sometimes first a restart of the same walk (in its
 * prologue or after a prefix), then the whole walk, at full rate or with gaps. */
static void emit_walk(vrng *g, const desc_t *d)
{
  int64_t pro = prologue_of(d), n = (int64_t)cur.n;
  if (vrng_pct(g, 8)) {
    walk_t *w = vvec_push(&walks);
    w->d = *d;
    w->prologue = pro;
    w->cut = 1;
    w->first = outs.n;
    if (pro > 2 && vrng_pct(g, 40)) {
      w->nelem = 0;
      w->wait = vrng_range(g, 1, pro - 1);
    } else {
      w->nelem = vrng_range(g, 0, n - 1 < 40 ? n - 1 : 40);
      w->wait = 0;
    }
    emit_elems(g, w->nelem, 30, 2);
  }
  walk_t *w = vvec_push(&walks);
  w->d = *d;
  w->prologue = pro;
  w->nelem = n;
  w->cut = 0;
  w->wait = 0;
  w->first = outs.n;
  emit_elems(g, n, vrng_pct(g, 25) ? 40 : 0, 3);
  tot.elems += n;
}

/* Transposed mode: the walk of shape t, every element checked four ways. */
static void walk_transposed(vrng *g, const shape_t *t)
{
  int64_t N = t->N, B = t->B, Hi = t->h.Hi, Wi = t->w.Hi, Kh = t->h.K, Kw = t->w.K;
  int64_t Ho = t->h.Ho, Wo = t->w.Ho;
  int published = t->h.D == 1 && t->w.D == 1 && t->h.S == t->w.S;
  desc_t d;
  d.f[F_NPB] = B;
  d.f[F_NPY] = Hi;
  d.f[F_NPX] = Wi;
  d.f[F_NCH] = N;
  d.f[F_NR] = Kh;
  d.f[F_NS] = Kw;
  d.f[F_DILH] = t->h.D;
  d.f[F_DILW] = t->w.D;
  d.f[F_OFFH] = (t->h.D * (Kh - 1) - t->h.P) & 0xffff;
  d.f[F_OFFW] = (t->w.D * (Kw - 1) - t->w.P) & 0xffff;
  d.f[F_STRH] = t->h.S;
  d.f[F_STRW] = t->w.S;
  d.f[F_HS] = Ho;
  d.f[F_WS] = Wo;
  d.f[F_PITCH] = Wo;
  d.f[F_PBS] = N * Ho * Wo;
  d.f[F_CHS] = Ho * Wo;
  d.f[F_BASE] = 0;
  vmap_t m;
  vmap_build(&m, t, 1);
  cur.n = 0;
  /* walk order: pixel (b, h_out, w_out) outer = columns of B; tap (n, hk, wk) inner = rows */
  for (int64_t b = 0; b < B; b++)
    for (int64_t ho = 0; ho < Hi; ho++)
      for (int64_t wo = 0; wo < Wi; wo++)
        for (int64_t n = 0; n < N; n++)
          for (int64_t hk = 0; hk < Kh; hk++)
            for (int64_t wk = 0; wk < Kw; wk++) {
              int64_t row = (n * Kh + hk) * Kw + wk, col = (b * Hi + ho) * Wi + wo;
              int64_t addr_in = row * (B * Hi * Wi) + col;
              int64_t hp = 0, wp = 0;
              int64_t gen = alg1_general(addr_in, t, &hp, &wp);
              int64_t ref = alg1_bottom_right_bound(gen, hp, wp, t);
              if (published) {
                if (alg1_published(addr_in, t) != gen)
                  self_check_failed("Algorithm 1 as published != generalized", t, addr_in);
                tot.published++;
                if (gen != ref) tot.missing_pub++;
              }
              if (gen != ref) tot.missing_bound++;
              int64_t dir = vmap_at(&m, t, b, n, ho + hk * t->h.D, wo + wk * t->w.D, addr_in);
              if (dir != ref) self_check_failed("Algorithm 1 (bounded) != index map", t, addr_in);
              tot.direct++;
              uint64_t a = 0;
              int nz = def_elem(&d, b, ho, wo, n, hk, wk, &a);
              if (nz != (ref != NUL) || (nz && a != ((uint64_t)ref & bits_mask(AW))))
                self_check_failed("block definition != Algorithm 1 (bounded)", t, addr_in);
              int tl = n == N - 1 && hk == Kh - 1 && wk == Kw - 1;
              push_elem(nz, a, tl, tl && b == B - 1 && ho == Hi - 1 && wo == Wi - 1);
              tot.nz += nz;
            }
  free(m.map);
  emit_walk(g, &d);
}

/* Dilated mode: the walk of shape t (h.Hi = Ho''), every element checked four ways. */
static void walk_dilated(vrng *g, const shape_t *t)
{
  int64_t N = t->N, B = t->B, Ho2 = t->h.Hi, Wo2 = t->w.Hi, Ho = t->h.Ho, Wo = t->w.Ho;
  int published = t->h.S == t->w.S;
  desc_t d;
  d.f[F_NPB] = N;
  d.f[F_NPY] = 1;
  d.f[F_NPX] = 1;
  d.f[F_NCH] = B;
  d.f[F_NR] = Ho2;
  d.f[F_NS] = Wo2;
  d.f[F_DILH] = 1;
  d.f[F_DILW] = 1;
  d.f[F_OFFH] = 0;
  d.f[F_OFFW] = 0;
  d.f[F_STRH] = t->h.S;
  d.f[F_STRW] = t->w.S;
  d.f[F_HS] = Ho;
  d.f[F_WS] = Wo;
  d.f[F_PITCH] = Wo;
  d.f[F_PBS] = Ho * Wo;
  d.f[F_CHS] = N * Ho * Wo;
  d.f[F_BASE] = 0;
  vmap_t m;
  vmap_build(&m, t, 0);
  cur.n = 0;
  for (int64_t n = 0; n < N; n++)
    for (int64_t b = 0; b < B; b++)
      for (int64_t h = 0; h < Ho2; h++)
        for (int64_t w = 0; w < Wo2; w++) {
          int64_t addr_in = ((n * B + b) * Ho2 + h) * Wo2 + w;
          int64_t ref = alg2_general(addr_in, t);
          if (published) {
            if (alg2_published(addr_in, t) != ref)
              self_check_failed("Algorithm 2 as published != generalized", t, addr_in);
            tot.published++;
          }
          if (vmap_at(&m, t, b, n, h, w, addr_in) != ref)
            self_check_failed("Algorithm 2 != index map", t, addr_in);
          tot.direct++;
          uint64_t a = 0;
          int nz = def_elem(&d, n, 0, 0, b, h, w, &a);
          if (nz != (ref != NUL) || (nz && a != ((uint64_t)ref & bits_mask(AW))))
            self_check_failed("block definition != Algorithm 2", t, addr_in);
          int tl = b == B - 1 && h == Ho2 - 1 && w == Wo2 - 1;
          push_elem(nz, a, tl, tl && n == N - 1);
          tot.nz += nz;
        }
  free(m.map);
  emit_walk(g, &d);
}

/* Any descriptor: the walk from the definition alone. 0 if it has too many elements. */
static int walk_any(vrng *g, const desc_t *d)
{
  int64_t npb = cnt(d, F_NPB), npy = cnt(d, F_NPY), npx = cnt(d, F_NPX);
  int64_t nch = cnt(d, F_NCH), nr = cnt(d, F_NR), ns = cnt(d, F_NS);
  if (npb * npy * npx * nch * nr * ns > MAX_ELEMS) return 0;
  cur.n = 0;
  for (int64_t pb = 0; pb < npb; pb++)
    for (int64_t py = 0; py < npy; py++)
      for (int64_t px = 0; px < npx; px++)
        for (int64_t c = 0; c < nch; c++)
          for (int64_t r = 0; r < nr; r++)
            for (int64_t s = 0; s < ns; s++) {
              uint64_t a = 0;
              int nz = def_elem(d, pb, py, px, c, r, s, &a);
              int tl = c == nch - 1 && r == nr - 1 && s == ns - 1;
              push_elem(nz, a, tl, tl && pb == npb - 1 && py == npy - 1 && px == npx - 1);
              tot.nz += nz;
            }
  emit_walk(g, d);
  return 1;
}

/* ---- shapes -------------------------------------------------------------------------------- */

/* Transposed per-axis shapes of the grid with dilation D: S 1..3, K 1..4, P 0..K-1, Ho 1..4,
 * output padding 0..S-1, Hi >= 1. */
static size_t grid_axes(axis_t *a, int64_t D)
{
  size_t n = 0;
  for (int64_t S = 1; S <= 3; S++)
    for (int64_t K = 1; K <= 4; K++)
      for (int64_t P = 0; P <= K - 1; P++)
        for (int64_t Ho = 1; Ho <= 4; Ho++)
          for (int64_t op = 0; op < S; op++) {
            int64_t Hi = (Ho - 1) * S - 2 * P + D * (K - 1) + 1 + op;
            if (Hi < 1) continue;
            axis_t x = {S, K, P, D, Ho, op, Hi};
            a[n++] = x;
          }
  return n;
}

/* A random transposed axis, larger than the grid. */
static axis_t rand_axis_tr(vrng *g)
{
  for (;;) {
    axis_t x;
    x.S = vrng_range(g, 1, 4);
    x.K = vrng_range(g, 1, 5);
    x.D = vrng_range(g, 1, 3);
    x.P = vrng_range(g, 0, x.D * (x.K - 1));
    x.Ho = vrng_range(g, 1, 8);
    x.op = vrng_range(g, 0, x.S - 1);
    x.Hi = (x.Ho - 1) * x.S - 2 * x.P + x.D * (x.K - 1) + 1 + x.op;
    if (x.Hi >= 1) return x;
  }
}

static axis_t axis_dil(int64_t S, int64_t Ho)
{
  axis_t x = {S, 1, 0, 1, Ho, 0, (Ho - 1) * S + 1};
  return x;
}

/* N and B of grid shape number i (rotating through 1..2 x 1..2), lowered while the walk would
 * have more than CAP elements. */
static void grid_nb(shape_t *t, size_t i, uint64_t seed)
{
  t->N = 1 + (int64_t)((i + seed) % 2);
  t->B = 1 + (int64_t)(((i + seed) / 2) % 2);
  int64_t e = t->h.K * t->h.Hi * t->w.K * t->w.Hi;
  while (t->N * t->B * e > CAP && t->N * t->B > 1) {
    if (t->B > 1) t->B--;
    else t->N--;
  }
}

/* Partner axis number i (cyclic) among the small axes of `pool` (K*Hi <= SMALL) with a stride
 * other than not_s and, if only_s is not 0, equal to only_s. */
static axis_t partner(const axis_t *pool, size_t n, size_t i, int64_t not_s, int64_t only_s)
{
  size_t k = 0, pick;
  for (size_t j = 0; j < n; j++)
    if (pool[j].K * pool[j].Hi <= SMALL && pool[j].S != not_s && (!only_s || pool[j].S == only_s))
      k++;
  pick = i % k;
  for (size_t j = 0; j < n; j++)
    if (pool[j].K * pool[j].Hi <= SMALL && pool[j].S != not_s && (!only_s || pool[j].S == only_s)) {
      if (pick == 0) return pool[j];
      pick--;
    }
  return pool[0];
}

static void run_transposed(vrng *g, uint64_t seed)
{
  static axis_t a1[512], a2[512], all[1024];
  size_t n1 = grid_axes(a1, 1), n2 = grid_axes(a2, 2), na = 0;
  for (size_t i = 0; i < n1; i++) all[na++] = a1[i];
  for (size_t i = 0; i < n2; i++) all[na++] = a2[i];
  size_t rot = (size_t)(seed * 7919u), i = 0;
  /* The shapes Algorithm 1 covers (D = 1 on both axes, one S): every grid axis on h with a
   * small w axis of the same S, and on w with a small h axis. */
  for (size_t j = 0; j < n1; j++, i++)
    for (int side = 0; side < 2; side++) {
      shape_t t;
      axis_t p = partner(a1, n1, rot + 3 * j + (size_t)side, 0, a1[j].S);
      t.h = side ? p : a1[j];
      t.w = side ? a1[j] : p;
      grid_nb(&t, i + (size_t)side, seed);
      walk_transposed(g, &t);
    }
  /* The generalization: every grid axis with D = 2 on h and on w with a small partner of any
   * S and D, and every D = 1 axis on h with a small w axis of another S. */
  for (size_t j = 0; j < n2; j++, i++)
    for (int side = 0; side < 2; side++) {
      shape_t t;
      axis_t p = partner(all, na, rot + 5 * j + (size_t)side, 0, 0);
      t.h = side ? p : a2[j];
      t.w = side ? a2[j] : p;
      grid_nb(&t, i + (size_t)side, seed);
      walk_transposed(g, &t);
    }
  for (size_t j = 0; j < n1; j++, i++) {
    shape_t t;
    t.h = a1[j];
    t.w = partner(all, na, rot + 7 * j, a1[j].S, 0);
    grid_nb(&t, i, seed);
    walk_transposed(g, &t);
  }
  /* Larger random shapes. */
  for (int k = 0; k < 6;) {
    shape_t t;
    t.h = rand_axis_tr(g);
    t.w = vrng_pct(g, 30) ? t.h : rand_axis_tr(g);
    if (vrng_pct(g, 40)) {  /* a shape Algorithm 1 covers */
      t.h.D = t.w.D = 1;
      t.w.S = t.h.S;
      if (t.h.P > t.h.K - 1) t.h.P = t.h.K - 1;
      if (t.w.P > t.w.K - 1) t.w.P = t.w.K - 1;
      if (t.w.op >= t.w.S) t.w.op = t.w.S - 1;
      t.h.Hi = (t.h.Ho - 1) * t.h.S - 2 * t.h.P + (t.h.K - 1) + 1 + t.h.op;
      t.w.Hi = (t.w.Ho - 1) * t.w.S - 2 * t.w.P + (t.w.K - 1) + 1 + t.w.op;
      if (t.h.Hi < 1 || t.w.Hi < 1) continue;
    }
    t.N = vrng_range(g, 1, 3);
    t.B = vrng_range(g, 1, 3);
    if (t.N * t.B * t.h.K * t.w.K * t.h.Hi * t.w.Hi > MAX_ELEMS) continue;
    walk_transposed(g, &t);
    k++;
  }
}

static void run_dilated(vrng *g)
{
  /* The full cross product of the grid. */
  for (int64_t Sh = 1; Sh <= 3; Sh++)
    for (int64_t Sw = 1; Sw <= 3; Sw++)
      for (int64_t Ho = 1; Ho <= 4; Ho++)
        for (int64_t Wo = 1; Wo <= 4; Wo++)
          for (int64_t nb = 0; nb < 4; nb++) {
            shape_t t;
            t.h = axis_dil(Sh, Ho);
            t.w = axis_dil(Sw, Wo);
            t.N = 1 + nb % 2;
            t.B = 1 + nb / 2;
            walk_dilated(g, &t);
          }
  for (int k = 0; k < 8;) {
    shape_t t;
    t.h = axis_dil(vrng_range(g, 1, 5), vrng_range(g, 1, 8));
    t.w = vrng_pct(g, 40) ? axis_dil(t.h.S, vrng_range(g, 1, 8))
                          : axis_dil(vrng_range(g, 1, 5), vrng_range(g, 1, 8));
    t.N = vrng_range(g, 1, 3);
    t.B = vrng_range(g, 1, 3);
    if (t.N * t.B * t.h.Hi * t.w.Hi > MAX_ELEMS) continue;
    walk_dilated(g, &t);
    k++;
  }
}

static void run_any(vrng *g, uint64_t seed)
{
  int nwalk = 0;
  while (nwalk < 150) {
    desc_t d;
    int64_t *f = d.f;
    for (int k = F_NPB; k <= F_NS; k++) f[k] = vrng_pct(g, 3) ? 0 : vrng_range(g, 1, 4);
    f[F_DILH] = vrng_range(g, 0, 4);
    f[F_DILW] = vrng_range(g, 0, 4);
    f[F_OFFH] = (uint64_t)vrng_range(g, -4, 6) & 0xffff;
    f[F_OFFW] = (uint64_t)vrng_range(g, -4, 6) & 0xffff;
    f[F_STRH] = vrng_pct(g, 3) ? 0 : vrng_range(g, 1, vrng_pct(g, 70) ? 2 : 5);
    f[F_STRW] = vrng_pct(g, 3) ? 0 : vrng_range(g, 1, vrng_pct(g, 70) ? 2 : 5);
    f[F_HS] = vrng_range(g, 0, 12);
    f[F_WS] = vrng_range(g, 0, 12);
    f[F_PITCH] = vrng_pct(g, 70) ? vrng_range(g, 0, 20) : (int64_t)(vrng_u64(g) & 0xffffffffu);
    f[F_PBS] = vrng_pct(g, 70) ? vrng_range(g, 0, 500) : (int64_t)(vrng_u64(g) & 0xffffffffu);
    f[F_CHS] = vrng_pct(g, 70) ? vrng_range(g, 0, 200) : (int64_t)(vrng_u64(g) & 0xffffffffu);
    f[F_BASE] = vrng_pct(g, 50) ? vrng_range(g, 0, 100) : (int64_t)(vrng_u64(g) & 0xffffffffu);
    if (walk_any(g, &d)) nwalk++;
  }
  /* Extremes, one set per seed: offsets at the ends of the 16-bit range (long prologues, a
   * quotient of 32768 inside a 65535-row tensor), a dilation of 65535 (quotients near 2^32,
   * which must come out as outside, not wrap into range), a stride of 65535. */
  desc_t d;
  int64_t *f = d.f;
  for (int k = F_NPB; k <= F_NS; k++) f[k] = 2;
  f[F_DILH] = 1;
  f[F_DILW] = 3;
  f[F_STRH] = f[F_STRW] = 1;
  f[F_HS] = f[F_WS] = 0xffff;
  f[F_PITCH] = 0x10001;
  f[F_PBS] = 0x12345678;
  f[F_CHS] = 0x9abcdef;
  f[F_BASE] = 0xfffffff0;
  switch (seed % 3) {
  case 0:
    f[F_OFFH] = 0x8000;  /* -32768: q starts at 32768 */
    f[F_OFFW] = 0xfff0;
    break;
  case 1:
    f[F_OFFH] = 0xfffe;
    f[F_OFFW] = 0x7fff;  /* 32767: q starts at -32767, reaches 0 at s = 1 */
    f[F_DILW] = 0x7fff;
    f[F_STRH] = 2;
    f[F_DILH] = 0xffff;  /* dil/str = 32767 rem 1 */
    f[F_NR] = 4;
    f[F_HS] = 0xfffe;
    break;
  default:
    f[F_OFFH] = 0x7fff;
    f[F_STRH] = 0xffff;  /* -32767 = -1*65535 + 32768 */
    f[F_DILH] = 0x8000;
    f[F_NR] = 3;
    f[F_OFFW] = 0xffff;
    f[F_STRW] = 0xfffe;
    f[F_DILW] = 0xfffd;
    f[F_HS] = f[F_WS] = 3;
    break;
  }
  walk_any(g, &d);
}

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s transposed|dilated|any AW SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  AW = (int)arg_long(argv[2], "AW");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (AW < 1 || AW > 32) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  if (strcmp(mode, "transposed") == 0) {
    run_transposed(&g, seed);
  } else if (strcmp(mode, "dilated") == 0) {
    run_dilated(&g);
  } else if (strcmp(mode, "any") == 0) {
    run_any(&g, seed);
  } else {
    fprintf(stderr, "bad mode '%s'\n", mode);
    return 2;
  }

  if (inject) {
    out_t *r = &VVEC_AT(outs, out_t, (size_t)vrng_range(&g, 0, (long)outs.n - 1));
    switch (vrng_range(&g, 0, 3)) {
    case 0: r->nz ^= 1; break;
    case 1: r->addr ^= 1; break;
    case 2: r->tl ^= 1; break;
    default: r->last ^= 1; break;
    }
  }

  FILE *f = open_out(argv[4]);
  fprintf(f, "%d\n", AW);
  for (size_t i = 0; i < walks.n; i++) {
    const walk_t *w = &VVEC_AT(walks, walk_t, i);
    fprintf(f, "W");
    for (int k = 0; k < NF; k++)
      fprintf(f, " %llx", (unsigned long long)((uint64_t)w->d.f[k] & 0xffffffffu));
    fprintf(f, " %llx %llx %x %llx\n", (unsigned long long)w->prologue,
            (unsigned long long)w->nelem, (unsigned)w->cut, (unsigned long long)w->wait);
    for (int64_t k = 0; k < w->nelem; k++) {
      const out_t *x = &VVEC_AT(outs, out_t, w->first + (size_t)k);
      fprintf(f, "%x %x %lx %x %x\n", (unsigned)x->gap, (unsigned)x->nz,
              (unsigned long)x->addr, (unsigned)x->tl, (unsigned)x->last);
    }
  }
  fprintf(f, "N %lld %lld %lld %lld %lld %lld\n", tot.elems, tot.nz, tot.published, tot.direct,
          tot.missing_pub, tot.missing_bound);
  fprintf(f, "E\n");
  close_out(f, argv[4]);
  free(cur.p);
  free(walks.p);
  free(outs.p);
  return 0;
}
