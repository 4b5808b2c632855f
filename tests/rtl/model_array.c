/* model_array: sagen_array used as a GEMM, C = A (ROWS x L) * B (L x COLS) per context.
 *
 * The stimulus is the unskewed array-edge stream, one step per cycle (the array runs every
 * cycle): an element step carries column i of A (one value per row) and row i of B (one value
 * per column), valid, and last on i = L-1; a bubble step is not valid and carries random values
 * (and now and then a stray last flag, which must be ignored). The testbench delays row r by r
 * steps and column c by c steps before the array, as the feed and weight registers do. Contexts
 * follow each other with at least 2*ROWS-1 steps between their last elements.
 *
 * Expected results, from the structure of an output-stationary array with an operand register
 * and a product stage in each PE: with the skew, element i of a context meets in PE (r, c) at
 * step s_i + r + c; its product is registered a step later and added the step after, and the
 * last one moves C[r][c] (wrapped to ACC_BITS) into that PE's reserve register, which the
 * reserve chain carries r steps up to row 0. So if the context's last element enters row 0 at
 * step e, res_o[c] shows C[r][c] with res_vld_o[c] set after step e + c + 2r + 2; at every
 * other step res_vld_o[c] is low.
 *
 * Floating point (sagen_pe_fp, FP = 1): operands of IEW/IFW exponent/fraction bits, sums of
 * AEW/AFW; C[r][c] is the PE's documented sum (fp_ref.h, fp_pe_dot: eight partial sums of the
 * products k mod 8, reduced as a tree), which enters the reserve register 38 steps after the
 * last element instead of 2, and contexts' last elements come max(2*ROWS-1, 18) steps apart.
 * Contexts run up to 20 elements, so that partial sums take several products; operands are
 * moderate numbers of both signs, now and then any class (zeros, subnormals, infinities, NaN).
 *
 * Usage: model_array ROWS COLS IN_BITS W_BITS ACC_BITS SEED OUT.vec [inject]
 *        model_array ROWS COLS fp IEW IFW AEW AFW SEED OUT.vec [inject]
 * Vector file: "ROWS COLS IN W ACC NCYC", then one line per cycle (hex):
 *   vld_mask last_mask a[0..ROWS-1] b[0..COLS-1] | res_vld_mask res[0..COLS-1]
 * The masks hold one bit per row; the expected part is the state after the rising edge (res[c]
 * only matters where its bit is set). With "inject" one result value is wrong on purpose. */
#include "vec_common.h"
#include "fp_ref.h"

#define MAXD 8
#define MAXL 20

typedef struct {
  uint64_t vld, last;      /* per-row masks */
  uint64_t a[MAXD], b[MAXD];
} step_t;

typedef struct {
  step_t in;
  uint64_t e_vld;
  uint64_t e_res[MAXD];
} arr_cycle;

static int R, C, IN, W, ACC;
static int FP;                     /* floating point: the formats below */
static fmt_t fi, fa;

/* An operand: an integer of BITS bits, or a float (mostly moderate, now and then any class). */
static uint64_t operand(vrng *g, int bits)
{
  if (!FP) return rand_signed(g, bits);
  if (vrng_pct(g, 4)) return draw(g, fi);
  uint64_t e = (uint64_t)(fmt_bias(fi) + vrng_range(g, -4, 4));
  return ((vrng_u64(g) & 1u) << (fi.ew + fi.fw)) | (e << fi.fw) | (vrng_u64(g) & bits_mask(fi.fw));
}

static void garbage(vrng *g, step_t *s)
{
  s->vld = 0;
  s->last = vrng_pct(g, 15) ? (vrng_u64(g) & bits_mask(R)) : 0;
  for (int r = 0; r < R; r++) s->a[r] = operand(g, IN);
  for (int c = 0; c < C; c++) s->b[c] = operand(g, W);
}

int main(int argc, char **argv)
{
  FP = argc > 3 && strcmp(argv[3], "fp") == 0;
  int a0 = FP ? 8 : 6;            /* the argument SEED */
  if (argc < a0 + 2 || argc > a0 + 3) {
    fprintf(stderr, "usage: %s ROWS COLS IN_BITS W_BITS ACC_BITS SEED OUT.vec [inject]\n"
                    "       %s ROWS COLS fp IEW IFW AEW AFW SEED OUT.vec [inject]\n",
            argv[0], argv[0]);
    return 2;
  }
  R = (int)arg_long(argv[1], "ROWS");
  C = (int)arg_long(argv[2], "COLS");
  if (FP) {
    fi = (fmt_t){(int)arg_long(argv[4], "IEW"), (int)arg_long(argv[5], "IFW")};
    fa = (fmt_t){(int)arg_long(argv[6], "AEW"), (int)arg_long(argv[7], "AFW")};
    IN = W = fi.ew + fi.fw + 1;
    ACC = fa.ew + fa.fw + 1;
  } else {
    IN = (int)arg_long(argv[3], "IN_BITS");
    W = (int)arg_long(argv[4], "W_BITS");
    ACC = (int)arg_long(argv[5], "ACC_BITS");
  }
  uint64_t seed = (uint64_t)arg_long(argv[a0], "SEED");
  const char *out = argv[a0 + 1];
  int inject = argc == a0 + 3 && strcmp(argv[a0 + 2], "inject") == 0;
  if (R < 1 || R > MAXD || C < 1 || C > MAXD || IN < 2 || IN > 32 || W < 2 || W > 32 ||
      ACC < 2 || ACC > 60 || (FP && (fi.ew < 2 || fi.ew > 8 || fi.fw < 2 || fi.fw > 23 ||
                                     fa.ew < 2 || fa.ew > 8 || fa.fw < 2 || fa.fw > 23))) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  const uint64_t am = bits_mask(ACC);
  const uint64_t all_rows = bits_mask(R);
  vrng g;
  vrng_seed(&g, seed);

  /* ---- logical steps and the results they produce ---- */
  vvec steps = {0, 0, 0, sizeof(step_t)};
  typedef struct {
    long step;
    int col;
    uint64_t val;
  } event_t;
  vvec events = {0, 0, 0, sizeof(event_t)};

  const int gap = FP && 2 * R - 1 < 18 ? 18 : 2 * R - 1;
  const int lat = FP ? 38 : 2;    /* last operand in a PE to its result in its reserve register */
  long e_prev = -1000000;
  int n_ctx = (int)vrng_range(&g, 60, 90);
  int lead = (int)vrng_range(&g, 0, 2);
  for (int k = 0; k < lead; k++) garbage(&g, vvec_push(&steps));
  for (int x = 0; x < n_ctx; x++) {
    int L = vrng_pct(&g, 25) ? 1 : (int)vrng_range(&g, 1, FP ? MAXL : 9);
    uint64_t A[MAXD][MAXL], B[MAXL][MAXD];
    for (int r = 0; r < R; r++)
      for (int i = 0; i < L; i++) A[r][i] = operand(&g, IN);
    for (int i = 0; i < L; i++)
      for (int c = 0; c < C; c++) B[i][c] = operand(&g, W);
    /* Bubbles inside the context, before element i. */
    int inner[MAXL], n = 0;
    for (int i = 0; i < L; i++) {
      inner[i] = (i > 0 && vrng_pct(&g, 20)) ? (int)vrng_range(&g, 1, 2) : 0;
      n += inner[i] + 1;
    }
    long cur = (long)steps.n;
    long need = gap - (cur + n - 1 - e_prev);
    long pre = (need > 0 ? need : 0) + (vrng_pct(&g, 50) ? 0 : vrng_range(&g, 0, 3));
    for (long k = 0; k < pre; k++) garbage(&g, vvec_push(&steps));
    for (int i = 0; i < L; i++) {
      for (int k = 0; k < inner[i]; k++) garbage(&g, vvec_push(&steps));
      step_t *s = vvec_push(&steps);
      s->vld = all_rows;
      s->last = (i == L - 1) ? all_rows : 0;
      for (int r = 0; r < R; r++) s->a[r] = A[r][i];
      for (int c = 0; c < C; c++) s->b[c] = B[i][c];
    }
    long e = (long)steps.n - 1;
    if (e - e_prev < gap) {
      fprintf(stderr, "model: context spacing violated\n");
      return 2;
    }
    e_prev = e;
    for (int r = 0; r < R; r++) {
      for (int c = 0; c < C; c++) {
        uint64_t acc = 0;
        if (FP) {
          uint64_t bc[MAXL];
          for (int i = 0; i < L; i++) bc[i] = B[i][c];
          acc = fp_pe_dot(fi, fa, A[r], bc, L);
        } else {
          for (int i = 0; i < L; i++)
            acc += (uint64_t)(sign_ext(A[r][i], IN) * sign_ext(B[i][c], W));
        }
        event_t *ev = vvec_push(&events);
        ev->step = e + c + 2 * r + lat;
        ev->col = c;
        ev->val = acc & am;
      }
    }
  }
  long drain = (C - 1) + 2 * (R - 1) + lat + 3;
  for (long k = 0; k < drain; k++) garbage(&g, vvec_push(&steps));

  long nsteps = (long)steps.n;
  uint64_t *s_vld = calloc((size_t)nsteps, sizeof(uint64_t));
  uint64_t *s_res = calloc((size_t)nsteps * (size_t)C, sizeof(uint64_t));
  if (!s_vld || !s_res) return 2;
  for (size_t i = 0; i < events.n; i++) {
    event_t *ev = &VVEC_AT(events, event_t, i);
    if (ev->step >= nsteps || (s_vld[ev->step] >> ev->col) & 1u) {
      fprintf(stderr, "model: result slot collision\n");
      return 2;
    }
    s_vld[ev->step] |= 1ull << ev->col;
    s_res[ev->step * C + ev->col] = ev->val;
  }
  if (inject) {
    event_t *ev = &VVEC_AT(events, event_t, (size_t)vrng_range(&g, 0, (long)events.n - 1));
    s_res[ev->step * C + ev->col] ^= 1u;
  }

  /* ---- cycles: one step each ---- */
  vvec cyc = {0, 0, 0, sizeof(arr_cycle)};
  for (long k = 0; k < nsteps; k++) {
    arr_cycle *cy = vvec_push(&cyc);
    cy->in = VVEC_AT(steps, step_t, k);
    cy->e_vld = s_vld[k];
    for (int c = 0; c < C; c++) cy->e_res[c] = ((s_vld[k] >> c) & 1u) ? s_res[k * C + c] : 0;
  }

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d %d %d %zu\n", R, C, IN, W, ACC, cyc.n);
  for (size_t i = 0; i < cyc.n; i++) {
    arr_cycle *cy = &VVEC_AT(cyc, arr_cycle, i);
    fprintf(f, "%llx %llx", (unsigned long long)cy->in.vld, (unsigned long long)cy->in.last);
    for (int r = 0; r < R; r++) fprintf(f, " %llx", (unsigned long long)cy->in.a[r]);
    for (int c = 0; c < C; c++) fprintf(f, " %llx", (unsigned long long)cy->in.b[c]);
    fprintf(f, "  %llx", (unsigned long long)cy->e_vld);
    for (int c = 0; c < C; c++) fprintf(f, " %llx", (unsigned long long)cy->e_res[c]);
    fputc('\n', f);
  }
  close_out(f, out);
  free(s_vld);
  free(s_res);
  free(steps.p);
  free(events.p);
  free(cyc.p);
  return 0;
}
