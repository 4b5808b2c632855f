/* model_index_counters: reference model and stimulus for sagen_index_counters (the word read
 * sequence of the data feeder).
 *
 * For a pass descriptor the model lists the presented words directly, loop by loop (outermost
 * first: filter group kg, output row oy, x context xc, channel c, kernel row r):
 *   segment start  p = base + c*plane + r*kr_step + oy*oy_step + xc*xc_step  (lane 0's first
 *                  interest element; base is signed)
 *   words          w = floor(p/BUS)*BUS, w+BUS, ... while w < p + span
 *   per word       addr = floor(w/BUS) (low AW bits), rel = w - p,
 *                  mask bit i set iff pos = rel + i is in [0, span), the virtual row
 *                  iy = oy*str_h + r*dil_h - pad_t is in [0, tile_h) and the virtual column
 *                  ix = xc*xc_step - pad_l + pos is in [0, tile_w);
 *                  rd = any mask bit, pass_last = (r == n_kr-1 && c == n_ch-1).
 * start loads the first word; each cycle with adv high moves to the next; after the last word
 * vld drops and stays low until the next start (which may also come in the middle of a pass).
 * Half of the descriptors are consistent with a real layer and tile (padding, stride,
 * dilation, pitch > width), half are arbitrary small numbers.
 *
 * Usage: model_index_counters BUS AW SEED OUT.vec [inject]
 * Vector file: "BUS AW", then records:
 *   D n_ch n_kr n_xc n_oy n_kg plane kr_step oy_step xc_step base dil_h str_h pad_t pad_l
 *     tile_h tile_w span            (hex; base as 32-bit two's complement) - apply now
 *   C start adv | vld rd addr mask rel pass_last     (hex; rel 32-bit two's complement) - one
 *     cycle: inputs, then the word presented after the rising edge (only vld and rd matter
 *     when vld is 0, addr only when rd is 1)
 *   E                                                end of file
 * With "inject" one expected rel is wrong on purpose. */
#include "vec_common.h"

typedef struct {
  int64_t n_ch, n_kr, n_xc, n_oy, n_kg, plane, kr_step, oy_step, xc_step, base;
  int64_t dil_h, str_h, pad_t, pad_l, tile_h, tile_w, span;
} desc_t;

typedef struct {
  uint64_t addr, mask;
  int64_t rel;
  int rd, last;
} word_t;

typedef struct {
  int is_desc;
  desc_t d;
  int start, adv;
  int vld;
  word_t w;
} rec_t;

static int BUS, AW;

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static void enumerate(const desc_t *d, vvec *words)
{
  words->n = 0;
  for (int64_t kg = 0; kg < d->n_kg; kg++)
    for (int64_t oy = 0; oy < d->n_oy; oy++)
      for (int64_t xc = 0; xc < d->n_xc; xc++)
        for (int64_t c = 0; c < d->n_ch; c++)
          for (int64_t r = 0; r < d->n_kr; r++) {
            int64_t p = d->base + c * d->plane + r * d->kr_step + oy * d->oy_step +
                        xc * d->xc_step;
            int64_t iy = oy * d->str_h + r * d->dil_h - d->pad_t;
            int row_ok = iy >= 0 && iy < d->tile_h;
            for (int64_t w = floor_div(p, BUS) * BUS; w < p + d->span; w += BUS) {
              word_t *x = vvec_push(words);
              x->rel = w - p;
              x->addr = (uint64_t)floor_div(w, BUS) & bits_mask(AW);
              x->mask = 0;
              for (int i = 0; i < BUS; i++) {
                int64_t pos = x->rel + i;
                int64_t ix = xc * d->xc_step - d->pad_l + pos;
                if (row_ok && pos >= 0 && pos < d->span && ix >= 0 && ix < d->tile_w)
                  x->mask |= 1ull << i;
              }
              x->rd = x->mask != 0;
              x->last = (r == d->n_kr - 1) && (c == d->n_ch - 1);
            }
          }
}

/* A descriptor of a real convolution tile. */
static void real_desc(vrng *g, desc_t *d)
{
  for (;;) {
    int64_t lanes = vrng_range(g, 1, 4), S = vrng_range(g, 1, 3), R = vrng_range(g, 1, 3);
    int64_t dil_w = vrng_range(g, 1, 2), dil_h = vrng_range(g, 1, 2);
    int64_t str_w = vrng_range(g, 1, 2), str_h = vrng_range(g, 1, 2);
    int64_t pt = vrng_range(g, 0, 2), pb = vrng_range(g, 0, 2);
    int64_t pl = vrng_range(g, 0, 2), pr = vrng_range(g, 0, 2);
    int64_t th = vrng_range(g, 1, 6), tw = vrng_range(g, 1, 12);
    int64_t pitch = tw + (vrng_pct(g, 50) ? 0 : vrng_range(g, 1, BUS));
    if (vrng_pct(g, 30)) pitch = (pitch + BUS - 1) / BUS * BUS;
    int64_t nh = th + pt + pb - dil_h * (R - 1) - 1;
    int64_t nw = tw + pl + pr - dil_w * (S - 1) - 1;
    if (nh < 0 || nw < 0) continue;
    int64_t oh = nh / str_h + 1, ow = nw / str_w + 1;
    d->n_ch = vrng_range(g, 1, 3);
    d->n_kr = R;
    d->n_xc = (ow + lanes - 1) / lanes;
    d->n_oy = oh;
    d->n_kg = vrng_range(g, 1, 2);
    d->plane = th * pitch;
    d->kr_step = dil_h * pitch;
    d->oy_step = str_h * pitch;
    d->xc_step = lanes * str_w;
    d->base = -(pt * pitch + pl);
    d->dil_h = dil_h;
    d->str_h = str_h;
    d->pad_t = pt;
    d->pad_l = pl;
    d->tile_h = th;
    d->tile_w = tw;
    d->span = (lanes - 1) * str_w + (S - 1) * dil_w + 1;
    return;
  }
}

/* Arbitrary small numbers (the counters do not care whether they make a layer). */
static void any_desc(vrng *g, desc_t *d)
{
  d->n_ch = vrng_range(g, 1, 3);
  d->n_kr = vrng_range(g, 1, 3);
  d->n_xc = vrng_range(g, 1, 3);
  d->n_oy = vrng_range(g, 1, 3);
  d->n_kg = vrng_range(g, 1, 2);
  d->plane = vrng_range(g, 0, 60);
  d->kr_step = vrng_range(g, 0, 20);
  d->oy_step = vrng_range(g, 0, 20);
  d->xc_step = vrng_range(g, 0, 12);
  d->base = vrng_range(g, -40, 40);
  d->dil_h = vrng_range(g, 0, 2);
  d->str_h = vrng_range(g, 0, 2);
  d->pad_t = vrng_range(g, 0, 3);
  d->pad_l = vrng_range(g, 0, 3);
  d->tile_h = vrng_range(g, 1, 6);
  d->tile_w = vrng_range(g, 1, 12);
  d->span = vrng_range(g, 1, 3 * BUS);
}

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s BUS AW SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  BUS = (int)arg_long(argv[1], "BUS");
  AW = (int)arg_long(argv[2], "AW");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (BUS < 2 || BUS > 32 || (BUS & (BUS - 1)) || AW < 1 || AW > 32) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);

  vvec recs = {0, 0, 0, sizeof(rec_t)};
  vvec words = {0, 0, 0, sizeof(word_t)};
  const word_t *cur = NULL;   /* words of the running pass */
  size_t ncur = 0, idx = 0;   /* presented word: idx < ncur */
  word_t *store = NULL;

  /* One cycle: inputs, state update, expected presentation. */
#define CYCLE(START, ADV)                                                          \
  do {                                                                             \
    rec_t *c_ = vvec_push(&recs);                                                  \
    c_->start = (START);                                                           \
    c_->adv = (ADV);                                                               \
    if (c_->start) idx = 0;                                                        \
    else if (idx < ncur && c_->adv) idx++;                                         \
    c_->vld = idx < ncur;                                                          \
    if (c_->vld) c_->w = cur[idx];                                                 \
  } while (0)

  for (int k = 0; k < 3; k++) CYCLE(0, vrng_pct(&g, 50));
  int npass = (int)vrng_range(&g, 8, 12);
  for (int pass = 0; pass < npass; pass++) {
    desc_t d;
    do {
      if (vrng_pct(&g, 50)) real_desc(&g, &d);
      else any_desc(&g, &d);
      enumerate(&d, &words);
    } while (words.n > 800);
    rec_t *dr = vvec_push(&recs);
    dr->is_desc = 1;
    dr->d = d;
    /* The new pass's words replace the old ones from the start cycle on. */
    free(store);
    store = malloc(words.n * sizeof(word_t));
    if (!store) return 2;
    memcpy(store, words.p, words.n * sizeof(word_t));
    cur = store;
    ncur = words.n;
    int p_adv = vrng_pct(&g, 30) ? 100 : (int)vrng_range(&g, 20, 90);
    /* Most passes run to the end; some are cut short by the next start. */
    size_t stop = (pass + 1 < npass && vrng_pct(&g, 15)) ? (size_t)vrng_range(&g, 0, (long)ncur - 1)
                                                         : ncur;
    CYCLE(1, vrng_pct(&g, 50));
    while (idx < stop) CYCLE(0, vrng_pct(&g, p_adv));
    if (stop == ncur) {
      int tail = (int)vrng_range(&g, 1, 3);
      for (int k = 0; k < tail; k++) CYCLE(0, vrng_pct(&g, 50));
    }
  }
#undef CYCLE

  if (inject) {
    for (;;) {
      rec_t *r = &VVEC_AT(recs, rec_t, (size_t)vrng_range(&g, 0, (long)recs.n - 1));
      if (!r->is_desc && r->vld) {
        r->w.rel ^= 1;
        break;
      }
    }
  }

  FILE *f = open_out(argv[4]);
  fprintf(f, "%d %d\n", BUS, AW);
  for (size_t i = 0; i < recs.n; i++) {
    rec_t *r = &VVEC_AT(recs, rec_t, i);
    if (r->is_desc) {
      const desc_t *d = &r->d;
      fprintf(f, "D %llx %llx %llx %llx %llx %llx %llx %llx %llx %08llx %llx %llx %llx %llx %llx "
                 "%llx %llx\n",
              (unsigned long long)d->n_ch, (unsigned long long)d->n_kr,
              (unsigned long long)d->n_xc, (unsigned long long)d->n_oy,
              (unsigned long long)d->n_kg, (unsigned long long)d->plane,
              (unsigned long long)d->kr_step, (unsigned long long)d->oy_step,
              (unsigned long long)d->xc_step, (unsigned long long)((uint64_t)d->base & 0xffffffffu),
              (unsigned long long)d->dil_h, (unsigned long long)d->str_h,
              (unsigned long long)d->pad_t, (unsigned long long)d->pad_l,
              (unsigned long long)d->tile_h, (unsigned long long)d->tile_w,
              (unsigned long long)d->span);
    } else {
      fprintf(f, "C %x %x  %x %x %llx %llx %08llx %x\n", (unsigned)r->start, (unsigned)r->adv,
              (unsigned)r->vld, (unsigned)(r->vld && r->w.rd),
              (unsigned long long)r->w.addr, (unsigned long long)r->w.mask,
              (unsigned long long)((uint64_t)r->w.rel & 0xffffffffu), (unsigned)r->w.last);
    }
  }
  fprintf(f, "E\n");
  close_out(f, argv[4]);
  free(store);
  free(words.p);
  free(recs.p);
  return 0;
}
