/* model_feed_lane: reference model and stimulus for sagen_feed_lane (one im2col feed lane).
 *
 * Stimulus, as the feeder presents it: pass configurations (kernel pattern with bit s*dil set
 * for s < S, stride, number of lanes) and, for each, contexts of 1..3 row passes; a row pass
 * with segment start p (lane 0's first interest element) and span (NL-1)*stride + (S-1)*dil + 1
 * is the words w = floor(p/BUS)*BUS, w+BUS, ... below p+span, each with rel = w - p and
 * pass_last set in the last row pass of a context. A word stays until word_adv, which comes
 * once this lane is done and the other lanes (random) are too; now and then no word is
 * presented for a cycle or two (random data that must not be taken). pop comes at random while
 * the FIFO is not empty, as the array would take it.
 *
 * Modelled behaviour: the lane needs bus position i of a word iff pattern bit
 * t = rel + i - LANE*stride is set. Each cycle it takes, in bus order, the first
 * min(M, room) still-needed positions, room = DEPTH - count + pop, and appends them to its FIFO
 * (after this cycle's pop from the head); an element is flagged last iff the word has
 * pass_last and t is the pattern's top bit. done = every needed position of the word has been
 * taken (including this cycle's). word_adv forgets what was taken from the word.
 *
 * Usage: model_feed_lane LANE BUS M DEPTH PAT_BITS SEED OUT.vec [inject]  (IN_BITS = 8)
 * Vector file: "LANE BUS M DEPTH PAT_BITS NCYC", then one line per cycle (hex):
 *   word_vld rel data pass_last word_adv pop pat pat_top stride | done nonempty head head_last
 * rel is 32-bit two's complement, data holds bus element i in bits [8i+7:8i]. done is the
 * value during the cycle (checked only while word_vld); nonempty/head/head_last the state after
 * the rising edge (head and head_last only while nonempty). With "inject" one expected done is
 * wrong on purpose. */
#include "vec_common.h"

#define MAXBUS 8
#define FIFO_MAX 64

typedef struct {
  int64_t rel;
  int last;
  uint64_t data[MAXBUS];
} lword_t;

typedef struct {
  int wv, pl, adv, pop, done, nonempty, head_last;
  int64_t rel;
  uint64_t data, pat, pat_top, stride, head;
} lcycle_t;

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

int main(int argc, char **argv)
{
  if (argc < 8 || argc > 9) {
    fprintf(stderr, "usage: %s LANE BUS M DEPTH PAT_BITS SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  const int lane = (int)arg_long(argv[1], "LANE");
  const int bus = (int)arg_long(argv[2], "BUS");
  const int m = (int)arg_long(argv[3], "M");
  const int depth = (int)arg_long(argv[4], "DEPTH");
  const int pat_bits = (int)arg_long(argv[5], "PAT_BITS");
  uint64_t seed = (uint64_t)arg_long(argv[6], "SEED");
  const char *out = argv[7];
  int inject = argc == 9 && strcmp(argv[8], "inject") == 0;
  if (lane < 0 || bus < 1 || bus > MAXBUS || m < 1 || depth < m || depth > FIFO_MAX ||
      pat_bits < 1 || pat_bits > 64) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);

  vvec cyc = {0, 0, 0, sizeof(lcycle_t)};
  vvec words = {0, 0, 0, sizeof(lword_t)};
  uint64_t fifo_v[FIFO_MAX];
  int fifo_l[FIFO_MAX], count = 0;

  int ncfg = (int)vrng_range(&g, 10, 16);
  for (int cfg = 0; cfg < ncfg; cfg++) {
    /* ---- pass configuration and its words ---- */
    /* Mostly small kernels; sometimes a wide dilation, so a lane's taps spread over several
     * words and many words hold nothing it needs. */
    int S = (int)vrng_range(&g, 1, 4);
    int dil = vrng_pct(&g, 20) ? (int)vrng_range(&g, 4, 20) : (int)vrng_range(&g, 1, 3);
    while (S > 1 && (S - 1) * dil >= pat_bits) S--;
    int stride = (int)vrng_range(&g, 1, 3);
    int nl = lane + (int)vrng_range(&g, 1, 3);
    int span = (nl - 1) * stride + (S - 1) * dil + 1;
    uint64_t pat = 0;
    for (int s = 0; s < S; s++) pat |= 1ull << (s * dil);
    int pat_top = (S - 1) * dil;
    int loc = lane * stride;
    words.n = 0;
    int nctx = (int)vrng_range(&g, 2, 4);
    for (int x = 0; x < nctx; x++) {
      int nrp = (int)vrng_range(&g, 1, 3);
      for (int rp = 0; rp < nrp; rp++) {
        int64_t p = vrng_range(&g, 0, 60);
        for (int64_t w = floor_div(p, bus) * bus; w < p + span; w += bus) {
          lword_t *lw = vvec_push(&words);
          lw->rel = w - p;
          lw->last = rp == nrp - 1;
          for (int i = 0; i < bus; i++) lw->data[i] = vrng_u64(&g) & 0xffu;
        }
      }
    }
    static const int pops[] = {15, 50, 90, 100};
    static const int others[] = {40, 80, 100};
    int p_pop = pops[vrng_range(&g, 0, 3)];
    int p_oth = others[vrng_range(&g, 0, 2)];

    /* ---- cycles ---- */
    size_t wi = 0;
    int gap = (int)vrng_range(&g, 0, 1);
    uint64_t taken = 0;
    int tail = -1;
    for (;;) {
      if (wi == words.n && count == 0) {
        if (tail < 0) tail = (int)vrng_range(&g, 0, 2);
        if (tail-- == 0) break;
      }
      lcycle_t *c = vvec_push(&cyc);
      c->pat = pat;
      c->pat_top = (uint64_t)pat_top;
      c->stride = (uint64_t)stride;
      c->wv = wi < words.n && gap == 0;
      c->pop = count > 0 && vrng_pct(&g, p_pop);
      int npick = 0, picked[MAXBUS];
      const lword_t *lw = c->wv ? &VVEC_AT(words, lword_t, wi) : NULL;
      if (lw) {
        c->rel = lw->rel;
        c->pl = lw->last;
        c->data = 0;
        for (int i = 0; i < bus; i++) c->data |= lw->data[i] << (8 * i);
        int needed[MAXBUS], nneed = 0;
        for (int i = 0; i < bus; i++) {
          int64_t t = lw->rel + i - loc;
          if (t >= 0 && t < pat_bits && ((pat >> t) & 1u) && !((taken >> i) & 1u))
            needed[nneed++] = i;
        }
        int room = depth - count + c->pop;
        npick = nneed < m ? nneed : m;
        if (npick > room) npick = room;
        for (int k = 0; k < npick; k++) picked[k] = needed[k];
        c->done = npick == nneed;
        c->adv = c->done && vrng_pct(&g, p_oth);
      } else {
        if (gap > 0) gap--;
        c->rel = (int64_t)vrng_range(&g, -20, 60);
        c->pl = vrng_pct(&g, 50);
        c->data = vrng_u64(&g) & bits_mask(8 * bus);
        c->adv = 0;
        c->done = 0;
      }
      /* FIFO: pop the head, then append this cycle's picks. */
      if (c->pop) {
        for (int k = 1; k < count; k++) {
          fifo_v[k - 1] = fifo_v[k];
          fifo_l[k - 1] = fifo_l[k];
        }
        count--;
      }
      for (int k = 0; k < npick; k++) {
        int i = picked[k];
        fifo_v[count] = lw->data[i];
        fifo_l[count] = lw->last && (lw->rel + i - loc == pat_top);
        count++;
        taken |= 1ull << i;
      }
      if (c->adv) {
        wi++;
        taken = 0;
        gap = vrng_pct(&g, 20) ? (int)vrng_range(&g, 1, 2) : 0;
      }
      c->nonempty = count > 0;
      c->head = count > 0 ? fifo_v[0] : 0;
      c->head_last = count > 0 ? fifo_l[0] : 0;
    }
  }
  if (inject) {
    for (;;) {
      lcycle_t *c = &VVEC_AT(cyc, lcycle_t, (size_t)vrng_range(&g, 0, (long)cyc.n - 1));
      if (c->wv) {
        c->done ^= 1;
        break;
      }
    }
  }

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d %d %d %zu\n", lane, bus, m, depth, pat_bits, cyc.n);
  for (size_t i = 0; i < cyc.n; i++) {
    lcycle_t *c = &VVEC_AT(cyc, lcycle_t, i);
    fprintf(f, "%x %08llx %llx %x %x %x %llx %llx %llx  %x %x %llx %x\n", (unsigned)c->wv,
            (unsigned long long)((uint64_t)c->rel & 0xffffffffu), (unsigned long long)c->data,
            (unsigned)c->pl, (unsigned)c->adv, (unsigned)c->pop, (unsigned long long)c->pat,
            (unsigned long long)c->pat_top, (unsigned long long)c->stride, (unsigned)c->done,
            (unsigned)c->nonempty, (unsigned long long)c->head, (unsigned)c->head_last);
  }
  close_out(f, out);
  free(words.p);
  free(cyc.p);
  return 0;
}
