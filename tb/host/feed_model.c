/* feed_model: the data feeder's cycles, replayed word by word (see feed_model.h). */
#include "feed_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Contexts replayed from the tile's first (a tile's contexts repeat with a period of
 * owv / gcd(owv, lanes); a longer period is sampled from its start), and kernel rows replayed
 * per context (the lanes' FIFOs carry a row or two; later rows repeat the first ones'
 * alignments). */
#define FEED_CONTEXTS 16
#define FEED_ROWS 4

static long floor_div(long a, long b)
{
  long q = a / b;
  if (a % b != 0 && (a < 0) != (b < 0)) q--;
  return q;
}

static long lmin(long a, long b) { return a < b ? a : b; }

/* Taps of a lane whose first tap sits at segment position LOC, inside the word that starts at
 * segment position REL. */
static long taps_in(long loc, long rel, long bus, long st, long dw)
{
  long lo = rel - loc, hi = rel + bus - 1 - loc;   /* tap positions s * dw in [lo, hi] */
  long s_lo = lo <= 0 ? 0 : (lo + dw - 1) / dw;
  long s_hi = hi < 0 ? -1 : lmin(st - 1, hi / dw);
  return s_hi >= s_lo ? s_hi - s_lo + 1 : 0;
}

typedef struct lane_state {
  long seg, loc;   /* the lane's segment (output row of the context) and first tap in it */
  long cnt, rem;   /* elements in the FIFO; taps still to take from the staged word */
} lane_state_t;

typedef struct replay_state {
  lane_state_t *ln;
  long lanes, bus, st, dw, m, depth;
  long cycles;
  int stuck;   /* a cycle without a pop or a pick: the lanes wait on each other for ever */
} replay_t;

/* The staged word of segment SEG, REL elements into it, until every lane is done with it; the
 * lanes' FIFOs move on meanwhile, and every cycle in which no lane is empty pops them all. */
static void replay_word(replay_t *r, long seg, long rel)
{
  lane_state_t *ln = r->ln;
  for (long l = 0; l < r->lanes; l++)
    ln[l].rem = ln[l].seg == seg ? taps_in(ln[l].loc, rel, r->bus, r->st, r->dw) : 0;
  int done;
  do {
    int pop = 1, moved = 0;
    for (long l = 0; l < r->lanes && pop; l++) pop = ln[l].cnt > 0;
    done = 1;
    for (long l = 0; l < r->lanes; l++) {
      /* the lane's FIFO has fifo_depth + 1 entries; its room does not count this cycle's pop */
      long pick = lmin(lmin(ln[l].rem, r->m), r->depth + 1 - ln[l].cnt);
      ln[l].rem -= pick;
      ln[l].cnt += pick - pop;
      moved |= pick > 0;
      if (ln[l].rem > 0) done = 0;
    }
    r->cycles++;
    if (!done && !pop && !moved) r->stuck = 1;
  } while (!done && !r->stuck);
}

/* The words of the first N contexts of shape S, ROWS kernel rows each, through the lanes. */
static void replay_contexts(replay_t *rp, const feed_shape_t *s, long n, long rows)
{
  lane_state_t *ln = rp->ln;
  long lanes = s->lanes, bus = rp->bus, kspan = (s->st - 1) * s->dw + 1;
  for (long k = 0; k < n; k++) {
    long q0 = k * lanes, ql = q0 + lanes - 1;
    long y0 = q0 / s->owv, x0 = q0 % s->owv;
    long dseg = s->lin ? 0 : ql / s->owv - y0;
    long last = s->lin ? 0 : lmin(dseg, s->oht - 1 - y0);   /* none below the tile */
    for (long l = 0; l < lanes; l++) {
      long q = q0 + l, seg = s->lin ? 0 : q / s->owv - y0;
      if (s->lin) ln[l].seg = 0, ln[l].loc = l;
      else if (seg > last) ln[l].seg = 0, ln[l].loc = 0;   /* past the tile: lane 0's taps */
      else ln[l].seg = seg, ln[l].loc = (q % s->owv) * s->sw - (seg == 0 ? x0 * s->sw : 0);
    }
    for (long j = 0; j < rows; j++) {
      long ch = j / s->rt, r = j % s->rt;
      for (long seg = 0; seg <= last; seg++) {
        long xs_first = seg == 0 ? x0 * s->sw : 0;
        long xs_last = s->lin ? x0 * s->sw + lanes - 1
                     : seg == dseg ? (ql % s->owv) * s->sw : (s->owv - 1) * s->sw;
        long span = xs_last - xs_first + kspan;
        long p = s->base + ch * s->plane + r * s->kr_step + (y0 + seg) * s->oy_step + xs_first;
        for (long w = floor_div(p, bus) * bus; w < p + span && !rp->stuck; w += bus)
          replay_word(rp, seg, w - p);
      }
    }
  }
}

/* The replay itself (uncached): the sampled contexts twice, the second time counted, so that
 * the lanes start it as they run in a pass, not empty (a pass's start is its fill). */
static double replay(const cfg_t *c, const feed_shape_t *s)
{
  replay_t rp = {.lanes = s->lanes, .bus = c->bus_elems, .st = s->st, .dw = s->dw,
                 .m = c->regs_per_lane, .depth = c->fifo_depth};
  rp.ln = calloc((size_t)s->lanes, sizeof *rp.ln);
  if (!rp.ln) return (double)s->st;
  long nctx = (s->oht * s->owv + s->lanes - 1) / s->lanes;
  long n = lmin(nctx, FEED_CONTEXTS), rows = lmin(s->rows, FEED_ROWS);
  replay_contexts(&rp, s, n, rows);
  long left = rp.ln[0].cnt;   /* every lane got as many elements and popped as many */
  rp.cycles = 0;
  replay_contexts(&rp, s, n, rows);
  /* the second replay pops what the first left over and leaves some of its own: each element
   * left is a pop still to come */
  double cycles = (double)(rp.cycles + rp.ln[0].cnt - left);
  free(rp.ln);
  if (rp.stuck) return FEED_STUCK;
  return cycles / (double)(n * rows);
}

/* A small cache: the cost model asks for the same shapes again and again (the tilings of a
 * layer differ in channel and filter slices far more than in tile shape; the default layer of
 * make bench asks some 780,000 times for some 8,000 shapes). The driver's one piece of static
 * state: a memo of a pure function of its key (the replay runs on the key's shape), so no
 * figure depends on what it holds, only the time to get it. A key may sit in any of the
 * FEED_WAYS slots from its hash's: a direct-mapped cache let two keys of one slot evict each
 * other on every other call (three replays out of four were of keys already seen). */
#define FEED_CACHE 65536
#define FEED_WAYS 4

typedef struct feed_key {
  feed_shape_t s;
  int bus, m, depth;
} feed_key_t;
_Static_assert(sizeof(feed_key_t) % 8 == 0, "feed_row_cycles hashes the key as 64-bit words");

static struct {
  feed_key_t key;
  double v;
  int used;
} cache[FEED_CACHE];

double feed_row_cycles(const cfg_t *c, const feed_shape_t *s)
{
  feed_key_t key;
  memset(&key, 0, sizeof key);   /* padding bytes too: the key is compared as bytes */
  key.s.lanes = s->lanes;
  key.s.owv = s->owv;
  key.s.oht = s->oht;
  key.s.st = s->st;
  key.s.dw = s->dw;
  key.s.sw = s->sw;
  key.s.lin = s->lin;
  /* the words' alignments are all the offsets decide: they count modulo a word */
  long bus = c->bus_elems;
  key.s.base = s->base - floor_div(s->base, bus) * bus;
  key.s.plane = s->plane % bus;
  key.s.kr_step = s->kr_step % bus;
  key.s.oy_step = s->oy_step % bus;
  key.s.rows = lmin(s->rows, FEED_ROWS);
  key.s.rt = lmin(s->rt, key.s.rows);   /* the rows replayed all in one channel, or not */
  key.bus = c->bus_elems;
  key.m = c->regs_per_lane;
  key.depth = c->fifo_depth;
  /* FNV-1a over the key's 64-bit words (its size is a multiple of 8: longs first), then the
   * high half folded in, as FNV's low bits, the slot's, mix least */
  uint64_t h = 1469598103934665603ull;
  const unsigned char *b = (const unsigned char *)&key;
  for (size_t i = 0; i + 8 <= sizeof key; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ w) * 1099511628211ull;
  }
  h ^= h >> 32;
  size_t home = (size_t)(h % FEED_CACHE), slot = home;
  for (int i = 0; i < FEED_WAYS; i++) {
    size_t k = (home + (size_t)i) % FEED_CACHE;
    if (!cache[k].used) {
      slot = k;   /* the key is in none of the slots before: it goes into this free one */
      break;
    }
    if (!memcmp(&cache[k].key, &key, sizeof key)) return cache[k].v;
  }
  double v = replay(c, &key.s);
  cache[slot].key = key;
  cache[slot].v = v;
  cache[slot].used = 1;
  return v;
}
