/* model_feed_lane: reference model and stimulus for sagen_feed_lane (one im2col feed lane,
 * multi-row and linear contexts).
 *
 * Stimulus, as the feeder presents it. A pass configuration is a kernel row pattern (bit
 * s*dil set for s < S), stride_w, ROWS lanes, an output tile of oht x owt pixels (npix; owt is
 * often below ROWS, so a context of ROWS consecutive row-major pixels spans 1, 2, 3+ output
 * rows), n_kg filter groups of n_ctx = ceil(npix/ROWS) contexts, and the lane under test: a
 * lane number L in 0..ROWS-1 (its pixel k*ROWS+L in context k may be past npix). "xs" values
 * are column * stride_w. Its position inputs are xs_init = (L mod owt)*stride_w,
 * dg_init = L div owt, ctx_xs = (ROWS mod owt)*stride_w, ow_xs = owt*stride_w. Each context has
 * 1..3 row passes (pass_last on the last); each row pass one segment per output row of the
 * context, seg = 0..dseg, where lane 0's pixel is q0 = k*ROWS, dseg = (q0+ROWS-1) div owt -
 * q0 div owt; segment seg spans xs_first = (seg == 0 ? xs0 : 0) .. xs_last = (seg == dseg ?
 * xsl : ow_xs - stride_w) (xs0, xsl: lane 0's and lane ROWS-1's xs) plus kspan = (S-1)*dil+1
 * elements and starts at a random element p; its words are w = floor(p/BUS)*BUS, w+BUS, ...
 * below p+span, each with rel = w - p and its seg. A word stays until word_adv, which comes
 * once this lane is done and the other lanes (random) are too; now and then no word is
 * presented for a cycle or two (random data, rel and seg that must not be taken). pop comes at
 * random while the FIFO is not empty, as the array would take it. As in the feeder, start comes
 * before a configuration's first word and with the word_adv of a group's last word; ctx_adv
 * with the word_adv of a context's last word (not a group's last), with wrap0 = lane 0 goes to
 * a new output row; xs0_i is lane 0's xs in the context of the next word (0 after a group). In
 * some configurations xs0_i is random while the lane's dg is not 0 and wrap0 is random outside
 * ctx_adv (the lane must not use them there); sometimes a configuration starts while the FIFO
 * still holds elements of the previous one. These configurations have lin = 0 and random
 * lane (or L), pad_l and tile_w, which the lane must ignore.
 *
 * Linear contexts (35% of the configurations, lin = 1): a real layer with stride 1, S and R
 * 1..3, dilation 1..2 (dil along the row, dil_h across), padding 0..2 per side, the row pitch
 * P = owt and the tile tile_h x tile_w with tile_w = owt-1+kspan-pad_l-pad_r <= owt, 1..2
 * channels (n_ch*R <= 3): lane = L, pad_l, tile_w of the layer, the position inputs as above
 * (stride_w = 1). The tile (n_ch planes of tile_h*P random elements, the pitch padding random
 * too) sits at a random SRAM element org. Each context has one row pass per channel c and kernel
 * row r (pass_last on the last), each one segment (seg 0): the run of the plane from lane 0's
 * first tap, p = org + c*plane + (q0 div owt + r*dil_h - pad_t)*P + q0 mod owt - pad_l,
 * span = ROWS-1+kspan, words as above; element w+i holds the tile at plane position
 * w+i-org-c*plane, zero outside [0, plane) (masked by the index counters). In noisy ones xs0
 * is random throughout.
 *
 * Segments below the tile's last output row: in 80% of the non-linear configurations a
 * context presents no segment below row oht-1, and rows_left (as the feeder holds it, that of
 * the next word's context) is oht-1 minus lane 0's row; a lane whose pixel is below the tile
 * (phantom) must push lane 0's taps. In the others rows_left = 0xffff: every segment up to
 * dseg is presented and every lane takes its own.
 *
 * Modelled behaviour: the lane keeps xs_q and dg_q (16 bits): start loads xs_init/dg_init;
 * ctx_adv does xs_q += ctx_xs, wrap = xs_q >= ow_xs (then xs_q -= ow_xs), dg_q += wrap - wrap0.
 * The lane is phantom iff not lin and dg_q > rows_left. A presented word is the lane's iff
 * seg == (phantom ? 0 : dg_q); then with loc = phantom ? 0 : xs_q - (dg_q == 0 ? xs0 : 0) the
 * lane needs bus position i iff pattern bit t = rel + i - loc is set. Each cycle it takes, in
 * bus order, the first min(M, room) still-needed positions, room = DEPTH - count + pop, and
 * appends them to its FIFO (after this cycle's pop from the head); an element is flagged last
 * iff the word has pass_last and t is the pattern's top bit. done = every needed position of
 * the word has been taken (including this cycle's). word_adv forgets what was taken from the
 * word. With lin: every presented word is the lane's (whatever seg and dg_q), loc = lane, and
 * an element taken at bus position i (tap t) is pushed as zero when the input column
 * ci = xs_q - pad_l + t (32 bits, signed) is outside [0, tile_w), else as the bus element;
 * xs_q/dg_q move as without. The model checks itself: its xs_q/dg_q must equal the pixel's
 * column and row offset in every context, and the elements it pushes must be, in order, the S
 * kernel taps of the lane's pixel in each row pass (linear: the tile's elements at row
 * oy + r*dil_h - pad_t, column ox + s*dil - pad_l, zero where that is outside the tile). The
 * file keeps getting configurations until the lane has taken data in segments 0 (lane 0
 * mid-row), 1 and 2+, for a pixel past npix, after a group restart, and has seen dg go both up
 * and down (non-linear), a pick limited by M and one limited by room, and, in linear contexts,
 * lane L > 0 taking lane 0's elements as a phantom,
 * a non-zero bus element zeroed left of the tile (ci < 0) and one right of it (ci >= tile_w),
 * and data taken by a lane L > 0 whose pixel is on a later output row than lane 0's.
 *
 * Usage: model_feed_lane BUS M DEPTH PAT_BITS SEED OUT.vec [inject]  (IN_BITS = 8)
 * Vector file: "BUS M DEPTH PAT_BITS NCYC", then one line per cycle (hex):
 *   word_vld rel seg data pass_last word_adv pop start ctx_adv xs0 wrap0 pat pat_top xs_init
 *   dg_init ctx_xs ow_xs lin lane pad_l tile_w rows_left | done nonempty head head_last
 * rel is 32-bit two's complement, data holds bus element i in bits [8i+7:8i]. done is the
 * value during the cycle (checked only while word_vld); nonempty/head/head_last the state after
 * the rising edge (head and head_last only while nonempty). With "inject" one expected done
 * or head is wrong on purpose. */
#include "vec_common.h"

#define MAXBUS 8
#define FIFO_MAX 64
#define MAX_WORDS 1000

typedef struct {
  int64_t rel;
  int seg, last, clast, glast, k, kg;
  int64_t xs0;   /* lane 0's xs in the word's context */
  int64_t rows_left;   /* the tile's output rows below lane 0's in the word's context */
  int wrap0;     /* lane 0 goes to the next output row after the word's context */
  uint64_t data[MAXBUS];
} lword_t;

typedef struct {
  uint64_t v;
  int last;
} elem_t;

typedef struct {
  int wv, seg, pl, adv, pop, start, ctx_adv, wrap0;
  int64_t rel;
  uint64_t data, xs0;
  uint64_t pat, pat_top, xs_init, dg_init, ctx_xs, ow_xs;
  uint64_t lin, lane, pad_l, tile_w, rows_left;
  int done, nonempty, head_last;
  uint64_t head;
} lcycle_t;

typedef struct {
  int seg0mid, dg1, dg2, past, grp, dec, inc, phantom;   /* non-linear */
  int mlim, rlim;
  int zl, zr, lrow;                             /* linear */
} cover_t;

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static void self_check_failed(const char *what, size_t cyc)
{
  fprintf(stderr, "model self-check failed: %s (cycle %zu)\n", what, cyc);
  exit(3);
}

int main(int argc, char **argv)
{
  if (argc < 7 || argc > 8) {
    fprintf(stderr, "usage: %s BUS M DEPTH PAT_BITS SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  const int bus = (int)arg_long(argv[1], "BUS");
  const int m = (int)arg_long(argv[2], "M");
  const int depth = (int)arg_long(argv[3], "DEPTH");
  const int pat_bits = (int)arg_long(argv[4], "PAT_BITS");
  uint64_t seed = (uint64_t)arg_long(argv[5], "SEED");
  const char *out = argv[6];
  int inject = argc == 8 && strcmp(argv[7], "inject") == 0;
  if (bus < 1 || bus > MAXBUS || m < 1 || depth < m || depth > FIFO_MAX || pat_bits < 1 ||
      pat_bits > 64) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);

  vvec cyc = {0, 0, 0, sizeof(lcycle_t)};
  vvec words = {0, 0, 0, sizeof(lword_t)};
  vvec taps = {0, 0, 0, sizeof(elem_t)};   /* the taps the lane must push, in order */
  uint64_t fifo_v[FIFO_MAX];
  int fifo_l[FIFO_MAX], count = 0;
  uint32_t xs_q = 0;                       /* the lane's position registers */
  uint16_t dg_q = 0;
  cover_t cov = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  uint8_t *tile = NULL;                    /* a linear configuration's ifmap tile */
  static const int64_t rows_set[] = {1, 2, 3, 4, 5, 8, 16, 16};

  int ncfg = (int)vrng_range(&g, 14, 22);
  for (int cfg = 0;; cfg++) {
    int covered = cov.seg0mid && cov.dg1 && cov.dg2 && cov.past && cov.grp && cov.dec &&
                  cov.inc && cov.phantom && cov.mlim && cov.rlim && cov.zl && cov.zr && cov.lrow;
    if (cfg >= ncfg && covered) break;
    if (cfg >= 400) {
      fprintf(stderr, "coverage not reached in 400 configurations (seed %llu):"
              "%s%s%s%s%s%s%s%s%s%s%s%s%s\n",
              (unsigned long long)seed, cov.seg0mid ? "" : " seg0mid", cov.dg1 ? "" : " dg1",
              cov.dg2 ? "" : " dg2", cov.past ? "" : " past", cov.grp ? "" : " grp",
              cov.dec ? "" : " dec", cov.inc ? "" : " inc", cov.phantom ? "" : " phantom",
              cov.mlim ? "" : " mlim",
              cov.rlim ? "" : " rlim", cov.zl ? "" : " zl", cov.zr ? "" : " zr",
              cov.lrow ? "" : " lrow");
      return 3;
    }
    /* ---- pass configuration and its words ---- */
    int S, dil, sw, L, n_kg;
    int64_t rows, owt, oht, npix, n_ctx;
    uint64_t pat = 0;
    /* linear contexts: the layer's kernel rows, channels, padding and tile */
    const int lin = vrng_pct(&g, 35);
    int R = 1, dil_h = 1, n_ch = 1, pt = 0, pl = 0;
    int64_t tw = 0, th = 0, plane = 0;
    for (;;) {
      if (lin) {
        S = (int)vrng_range(&g, 1, 3);
        dil = (int)vrng_range(&g, 1, 2);
        R = (int)vrng_range(&g, 1, 3);
        dil_h = (int)vrng_range(&g, 1, 2);
        n_ch = R == 1 ? (int)vrng_range(&g, 1, 2) : 1;
        pt = (int)vrng_range(&g, 0, 2);
        pl = (int)vrng_range(&g, 0, 2);
        int pb = (int)vrng_range(&g, 0, 2), pr = (int)vrng_range(&g, 0, 2);
        sw = 1;
        rows = rows_set[vrng_range(&g, 0, 7)];
        owt = vrng_pct(&g, 75) && rows > 1 ? vrng_range(&g, 1, rows - 1 < 7 ? rows - 1 : 7)
                                           : vrng_range(&g, 1, 8);
        int64_t oht_max = 8 * rows / owt;
        oht = vrng_range(&g, 1, oht_max < 3 ? 3 : oht_max > 24 ? 24 : oht_max);
        /* the row pitch is owt, the tile no wider ("same" padding or an output wider than
         * the input) */
        tw = owt - 1 + (S - 1) * dil + 1 - pl - pr;
        th = oht - 1 + (int64_t)(R - 1) * dil_h + 1 - pt - pb;
        if (tw < 1 || tw > owt || th < 1) continue;
        plane = th * owt;
      } else {
        /* Mostly small kernels; sometimes a wide dilation, so the taps spread over several
         * words and many words hold nothing the lane needs. */
        S = (int)vrng_range(&g, 1, 4);
        dil = vrng_pct(&g, 20) ? (int)vrng_range(&g, 4, 20) : (int)vrng_range(&g, 1, 3);
        while (S > 1 && (S - 1) * dil >= pat_bits) S--;
        sw = (int)vrng_range(&g, 1, 3);
        rows = rows_set[vrng_range(&g, 0, 7)];
        owt = vrng_pct(&g, 75) && rows > 1 ? vrng_range(&g, 1, rows - 1 < 7 ? rows - 1 : 7)
                                           : vrng_range(&g, 1, 8);
        /* up to ~8 contexts, enough for lane 0 to wrap into a new row while lane L does not */
        int64_t oht_max = 8 * rows / owt;
        oht = vrng_range(&g, 1, oht_max < 3 ? 3 : oht_max > 24 ? 24 : oht_max);
      }
      npix = oht * owt;
      n_ctx = (npix + rows - 1) / rows;
      n_kg = (int)vrng_range(&g, 1, 2);
      if (n_ctx * n_kg > 10) continue;
      /* half of the time a lane that is past npix in the last context, if there is one */
      int64_t past0 = npix - (n_ctx - 1) * rows;
      L = (int)(past0 < rows && vrng_pct(&g, 50) ? vrng_range(&g, past0, rows - 1)
                                                 : vrng_range(&g, 0, rows - 1));
      break;
    }
    for (int s = 0; s < S; s++) pat |= 1ull << (s * dil);
    const int pat_top = (S - 1) * dil, kspan = (S - 1) * dil + 1;
    const int64_t ctx_xs = (rows % owt) * sw, ow_xs = owt * sw;
    const int64_t xs_init = (L % owt) * sw, dg_init = L / owt;
    /* segments below the tile's last output row are not presented and the lanes of pixels
     * there take lane 0's elements; now and then a limit no context reaches (every segment
     * presented, every lane on its own) */
    const int cut = lin || vrng_pct(&g, 80);
    const int noise = vrng_pct(&g, 30);
    /* lin, lane, pad_l, tile_w: those of the layer in linear contexts, else random (the lane
     * must ignore them) */
    const uint64_t v_lane = lin || vrng_pct(&g, 50) ? (uint64_t)L
                                                    : (uint64_t)vrng_range(&g, 0, 40);
    const uint64_t v_pad_l = lin ? (uint64_t)pl : (uint64_t)vrng_range(&g, 0, 3);
    const uint64_t v_tile_w = lin ? (uint64_t)tw : (uint64_t)vrng_range(&g, 0, 12);
    if (lin) {
      /* the tile, [channel][row][column] with pitch owt: random data, the columns past tile_w
       * (pitch padding) too */
      free(tile);
      tile = malloc((size_t)(n_ch * plane));
      if (!tile) return 2;
      for (int64_t a = 0; a < n_ch * plane; a++) tile[a] = (uint8_t)(vrng_u64(&g) & 0xffu);
    }
    const int64_t org = lin ? vrng_range(&g, 0, bus - 1) : 0;   /* the tile's SRAM position */

    words.n = 0;
    taps.n = 0;
    for (int kg = 0; kg < n_kg; kg++)
      for (int64_t k = 0; k < n_ctx; k++) {
        int64_t q0 = k * rows, ql = q0 + rows - 1, q = q0 + L;
        int64_t xs0 = (q0 % owt) * sw, xsl = (ql % owt) * sw;
        int64_t dseg = ql / owt - q0 / owt;
        int64_t lane_xs = (q % owt) * sw, lane_dg = q / owt - q0 / owt;
        /* the segments presented: none below the tile's last output row */
        int64_t nseg = cut && ql / owt >= oht ? oht - 1 - q0 / owt : dseg;
        int64_t rows_left = cut ? oht - 1 - q0 / owt : 0xffff;
        if (cut && q / owt >= oht) {   /* phantom: lane 0's taps */
          lane_xs = xs0;
          lane_dg = 0;
        }
        int wrap0 = (q0 + rows) / owt - q0 / owt != rows / owt;
        if (lin) {
          /* one segment per channel and kernel row: the run of the plane from lane 0's first
           * tap, ROWS-1+kspan elements; the words hold the tile (zeros outside the plane, as
           * the index counters mask them) */
          for (int c = 0; c < n_ch; c++)
            for (int r = 0; r < R; r++) {
              const int last = c == n_ch - 1 && r == R - 1;
              int64_t pf = (q0 / owt + (int64_t)r * dil_h - pt) * owt + q0 % owt - pl;
              int64_t p = org + c * plane + pf, span = rows - 1 + kspan;
              for (int64_t w = floor_div(p, bus) * bus; w < p + span; w += bus) {
                lword_t *lw = vvec_push(&words);
                lw->rel = w - p;
                lw->seg = 0;
                lw->last = last;
                lw->clast = last && w + bus >= p + span;
                lw->glast = lw->clast && k == n_ctx - 1;
                lw->k = (int)k;
                lw->kg = kg;
                lw->xs0 = xs0;
                lw->rows_left = rows_left;
                lw->wrap0 = wrap0;
                for (int i = 0; i < bus; i++) {
                  int64_t fp = w + i - org - c * plane;
                  lw->data[i] = fp >= 0 && fp < plane ? tile[c * plane + fp] : 0;
                }
              }
              /* the lane's taps: its pixel's inputs, zero outside the tile */
              for (int s = 0; s < S; s++) {
                int64_t iy = q / owt + (int64_t)r * dil_h - pt;
                int64_t ix = q % owt + (int64_t)s * dil - pl;
                elem_t *e = vvec_push(&taps);
                e->v = iy >= 0 && iy < th && ix >= 0 && ix < tw ? tile[c * plane + iy * owt + ix]
                                                                 : 0;
                e->last = last && s == S - 1;
              }
            }
          continue;
        }
        int nrp = (int)vrng_range(&g, 1, 3);
        for (int rp = 0; rp < nrp; rp++)
          for (int64_t seg = 0; seg <= nseg; seg++) {
            int64_t xs_first = seg == 0 ? xs0 : 0, xs_last = seg == dseg ? xsl : ow_xs - sw;
            int64_t span = xs_last - xs_first + kspan;
            int64_t p = vrng_range(&g, 0, 60);
            int64_t w0 = floor_div(p, bus) * bus;
            size_t first = words.n;
            for (int64_t w = w0; w < p + span; w += bus) {
              lword_t *lw = vvec_push(&words);
              lw->rel = w - p;
              lw->seg = (int)seg;
              lw->last = rp == nrp - 1;
              lw->clast = lw->last && seg == nseg && w + bus >= p + span;
              lw->glast = lw->clast && k == n_ctx - 1;
              lw->k = (int)k;
              lw->kg = kg;
              lw->xs0 = xs0;
              lw->rows_left = rows_left;
              lw->wrap0 = wrap0;
              for (int i = 0; i < bus; i++) lw->data[i] = vrng_u64(&g) & 0xffu;
            }
            if (seg == lane_dg) {
              /* the lane's taps: elements lane_xs + s*dil of the segment */
              for (int s = 0; s < S; s++) {
                int64_t a = p + (lane_xs - xs_first) + (int64_t)s * dil;
                int64_t j = floor_div(a, bus) - floor_div(p, bus);
                elem_t *e = vvec_push(&taps);
                e->v = VVEC_AT(words, lword_t, first + (size_t)j).data[a - floor_div(a, bus) * bus];
                e->last = rp == nrp - 1 && s == S - 1;
              }
            }
          }
      }
    if (words.n > MAX_WORDS) {   /* too long: draw another configuration */
      cfg--;
      continue;
    }
    static const int pops[] = {15, 50, 90, 100};
    static const int others[] = {40, 80, 100};
    int p_pop = pops[vrng_range(&g, 0, 3)];
    int p_oth = others[vrng_range(&g, 0, 2)];

    /* ---- cycles ---- */
    size_t wi = 0, ei = 0;
    int gap = 0, first_cycle = 1;
    uint64_t taken = 0;
    int tail = -1;
    /* the last configuration drains the FIFO; the others may leave elements in it */
    int drain = cfg + 1 >= ncfg || vrng_pct(&g, 70);
    for (;;) {
      if (wi == words.n && (count == 0 || !drain)) {
        if (tail < 0) tail = (int)vrng_range(&g, 0, 2);
        if (tail-- == 0) break;
      }
      lcycle_t *c = vvec_push(&cyc);
      c->pat = pat;
      c->pat_top = (uint64_t)pat_top;
      c->xs_init = (uint64_t)xs_init;
      c->dg_init = (uint64_t)dg_init;
      c->ctx_xs = (uint64_t)ctx_xs;
      c->ow_xs = (uint64_t)ow_xs;
      c->lin = (uint64_t)lin;
      c->lane = v_lane;
      c->pad_l = v_pad_l;
      c->tile_w = v_tile_w;
      c->start = first_cycle;
      c->wv = !first_cycle && wi < words.n && gap == 0;
      first_cycle = 0;
      c->pop = count > 0 && vrng_pct(&g, p_pop);
      /* lane 0's xs as the feeder holds it: that of the next word's context */
      c->xs0 = wi < words.n ? (uint64_t)VVEC_AT(words, lword_t, wi).xs0 : 0;
      if (noise && (dg_q != 0 || lin)) c->xs0 = (uint64_t)vrng_range(&g, 0, 63);
      c->wrap0 = noise ? vrng_pct(&g, 50) : (wi < words.n && VVEC_AT(words, lword_t, wi).wrap0);
      /* the rows left as the feeder holds them: those of the next word's context */
      c->rows_left = wi < words.n ? (uint64_t)VVEC_AT(words, lword_t, wi).rows_left : 0xffff;
      int npick = 0, picked[MAXBUS];
      int64_t tap[MAXBUS];
      uint64_t val[MAXBUS];   /* what the picks push */
      const lword_t *lw = c->wv ? &VVEC_AT(words, lword_t, wi) : NULL;
      if (lw) {
        c->rel = lw->rel;
        c->seg = lw->seg;
        c->pl = lw->last;
        c->data = 0;
        for (int i = 0; i < bus; i++) c->data |= lw->data[i] << (8 * i);
        int needed[MAXBUS], nneed = 0;
        const int phantom = !lin && dg_q > (uint16_t)c->rows_left;
        int64_t loc = lin       ? (int64_t)(int32_t)(uint32_t)v_lane
                      : phantom ? 0
                                : (int64_t)(int32_t)(xs_q - (dg_q == 0 ? (uint32_t)c->xs0 : 0u));
        if (lin || lw->seg == (phantom ? 0 : dg_q)) {
          for (int i = 0; i < bus; i++) {
            int64_t t = lw->rel + i - loc;
            if (t >= 0 && t < pat_bits && ((pat >> t) & 1u) && !((taken >> i) & 1u)) {
              tap[nneed] = t;
              needed[nneed++] = i;
            }
          }
        }
        int room = depth - count + c->pop;
        npick = nneed < m ? nneed : m;
        if (npick > room) npick = room;
        if (m < nneed && m <= room) cov.mlim = 1;
        if (room < nneed && room < m) cov.rlim = 1;
        for (int k = 0; k < npick; k++) {
          int i = picked[k] = needed[k];
          val[k] = lw->data[i];
          if (lin) {
            /* input column of the tap: xs - pad_l + t (32 bits, signed compare) */
            int32_t ci = (int32_t)(xs_q - (uint32_t)v_pad_l + (uint32_t)tap[k]);
            if (ci < 0 || ci >= (int32_t)v_tile_w) {
              val[k] = 0;
              if (lw->data[i] != 0 && ci < 0) cov.zl = 1;
              if (lw->data[i] != 0 && ci >= 0) cov.zr = 1;
            }
          }
        }
        c->done = npick == nneed;
        c->adv = c->done && vrng_pct(&g, p_oth);
        if (npick > 0 && !lin) {
          if (dg_q == 0 && c->xs0 != 0) cov.seg0mid = 1;
          if (dg_q == 1) cov.dg1 = 1;
          if (dg_q >= 2) cov.dg2 = 1;
          if ((int64_t)lw->k * rows + L >= npix) cov.past = 1;
          if (phantom && L > 0) cov.phantom = 1;
        }
        if (npick > 0 && lin && L > 0) {
          int64_t q0 = (int64_t)lw->k * rows;
          if ((q0 + L) / owt > q0 / owt) cov.lrow = 1;
        }
        if (c->adv && lw->clast) {
          if (lw->glast) {
            c->start = 1;
            if (lw->kg + 1 < n_kg) cov.grp = 1;
          } else {
            c->ctx_adv = 1;
            c->wrap0 = lw->wrap0;
          }
        }
      } else {
        if (gap > 0) gap--;
        c->rel = (int64_t)vrng_range(&g, -20, 60);
        c->seg = (int)vrng_range(&g, 0, 3);
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
        fifo_v[count] = val[k];
        fifo_l[count] = lw->last && tap[k] == pat_top;
        if (ei >= taps.n || VVEC_AT(taps, elem_t, ei).v != fifo_v[count] ||
            VVEC_AT(taps, elem_t, ei).last != fifo_l[count])
          self_check_failed("pushed element is not the next kernel tap", cyc.n - 1);
        ei++;
        count++;
        taken |= 1ull << i;
      }
      /* position registers */
      if (c->start) {
        xs_q = (uint32_t)xs_init;
        dg_q = (uint16_t)dg_init;
      } else if (c->ctx_adv) {
        uint32_t xs_n = xs_q + (uint32_t)ctx_xs;
        int wrap = xs_n >= (uint32_t)ow_xs;
        xs_q = wrap ? xs_n - (uint32_t)ow_xs : xs_n;
        dg_q = (uint16_t)(dg_q + wrap - c->wrap0);
        if (c->wrap0 && !wrap) cov.dec = 1;
        if (wrap && !c->wrap0) cov.inc = 1;
        int64_t q0 = (int64_t)(lw->k + 1) * rows, q = q0 + L;
        if (xs_q != (uint32_t)((q % owt) * sw) || dg_q != (uint16_t)(q / owt - q0 / owt))
          self_check_failed("lane position", cyc.n - 1);
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
    if (ei != taps.n) self_check_failed("kernel taps not all pushed", cyc.n - 1);
  }
  if (inject) {
    for (;;) {
      lcycle_t *c = &VVEC_AT(cyc, lcycle_t, (size_t)vrng_range(&g, 0, (long)cyc.n - 1));
      if (c->wv && vrng_pct(&g, 50)) {
        c->done ^= 1;
        break;
      }
      if (c->nonempty) {
        c->head ^= 1;
        break;
      }
    }
  }

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d %d %zu\n", bus, m, depth, pat_bits, cyc.n);
  for (size_t i = 0; i < cyc.n; i++) {
    lcycle_t *c = &VVEC_AT(cyc, lcycle_t, i);
    fprintf(f, "%x %08llx %x %llx %x %x %x %x %x %llx %x %llx %llx %llx %llx %llx %llx "
               "%llx %llx %llx %llx %llx  %x %x %llx %x\n",
            (unsigned)c->wv, (unsigned long long)((uint64_t)c->rel & 0xffffffffu),
            (unsigned)c->seg, (unsigned long long)c->data, (unsigned)c->pl, (unsigned)c->adv,
            (unsigned)c->pop, (unsigned)c->start, (unsigned)c->ctx_adv,
            (unsigned long long)c->xs0, (unsigned)c->wrap0, (unsigned long long)c->pat,
            (unsigned long long)c->pat_top, (unsigned long long)c->xs_init,
            (unsigned long long)c->dg_init, (unsigned long long)c->ctx_xs,
            (unsigned long long)c->ow_xs, (unsigned long long)c->lin,
            (unsigned long long)c->lane, (unsigned long long)c->pad_l,
            (unsigned long long)c->tile_w, (unsigned long long)c->rows_left,
            (unsigned)c->done, (unsigned)c->nonempty,
            (unsigned long long)c->head, (unsigned)c->head_last);
  }
  close_out(f, out);
  free(tile);
  free(words.p);
  free(taps.p);
  free(cyc.p);
  return 0;
}
