/* test_feed_model: the feeder replay of the tiling cost model (tb/host/feed_model.c).
 *
 * Shapes whose cycles per kernel row follow from the feeder's rules by hand (one word a cycle
 * at most, every lane at most regs_per_lane elements of a word a cycle, one pop of every lane
 * a step): a 1-tap row in one aligned word is 1 cycle, in two words 2; a 3-tap row in two
 * words is its 3 steps; wrapping contexts of a stride-3 tile read 7 words a row in their first
 * context and 2 in the second (4.5 on average). Then properties over random shapes: never
 * fewer cycles than steps, never more with a deeper FIFO or more registers per lane, and
 * 32 lanes of 5 taps, which run ahead of each other by a word, stall on 5-entry FIFOs and not
 * on 16-entry ones (which the cache must keep apart).
 *
 * Usage: test_feed_model. Prints "ok NAME" or "not ok NAME: ..." per case, then "N passed,
 * N failed" (tests/lib/tap.h). */
#include "feed_model.h"
#include "lib/tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ok NAME if COND, else not ok with the figure GOT and the one wanted */
static void check_value(int cond, const char *name, double got, double want)
{
  check(cond, name, "got %.4f, want %.4f", got, want);
}

static cfg_t cfg_of(int m, int depth)
{
  cfg_t c = {0};
  c.bus_elems = 16;
  c.regs_per_lane = m;
  c.fifo_depth = depth;
  return c;
}

/* Linear contexts of 16 lanes over whole aligned rows: the plane and kernel-row steps are
 * words, so every row's segment starts where BASE puts it. */
static feed_shape_t linear16(long st, long base)
{
  feed_shape_t s = {.lanes = 16, .owv = 16, .oht = 4, .st = st, .dw = 1, .sw = 1, .lin = 1,
                    .base = base, .plane = 64, .kr_step = 16, .oy_step = 16, .rows = 8, .rt = 1};
  return s;
}

int main(void)
{
  cfg_t c = cfg_of(3, 5);
  double v;

  feed_shape_t a = linear16(1, 0);
  v = feed_row_cycles(&c, &a);
  check_value(fabs(v - 1.0) < 1e-9, "1 tap, one aligned word a row: 1 cycle", v, 1.0);
  a = linear16(1, 3);
  v = feed_row_cycles(&c, &a);
  check_value(fabs(v - 2.0) < 1e-9, "1 tap, the row across two words: 2 cycles", v, 2.0);
  a = linear16(3, 0);
  v = feed_row_cycles(&c, &a);
  check_value(fabs(v - 3.0) < 1e-9, "3 taps in two words: the 3 steps", v, 3.0);

  /* 20 output pixels 5 wide, stride 3, 2 taps, window pitch 12 starting one column left of the
   * tile: context 0 reads rows 0-2 (14 elements, two words each) and row 3's first pixel (one
   * word), context 1 the rest of row 3 (11 elements, two words) */
  feed_shape_t w = {.lanes = 16, .owv = 5, .oht = 4, .st = 2, .dw = 1, .sw = 3, .lin = 0,
                    .base = -1, .plane = 120, .kr_step = 12, .oy_step = 36, .rows = 16, .rt = 1};
  v = feed_row_cycles(&c, &w);
  check_value(fabs(v - 4.5) < 1e-9, "wrapping contexts: 7 words a row, then 2", v, 4.5);

  /* 32 lanes, 5 taps, 3 words a row, each a cycle (5 registers a lane): the first lanes take
   * their row a word before the last lanes take theirs, and hold it */
  feed_shape_t f = {.lanes = 32, .owv = 32, .oht = 4, .st = 5, .dw = 1, .sw = 1, .lin = 1,
                    .base = 0, .plane = 128, .kr_step = 32, .oy_step = 32, .rows = 8, .rt = 2};
  cfg_t m5 = cfg_of(5, 5), deep = cfg_of(5, 16);
  double v5 = feed_row_cycles(&m5, &f);
  double v16 = feed_row_cycles(&deep, &f);
  check_value(v5 > 5.5, "32 lanes of 5 taps stall on 5-entry FIFOs", v5, 5.5);
  check_value(fabs(v16 - 5.0) < 1e-9, "and run at their steps on 16-entry ones", v16, 5.0);
  check_value(feed_row_cycles(&m5, &f) == v5, "the cache returns what the replay gave", v5, v5);
  /* 3 registers a lane (and FIFOs deep enough): each word holds a lane's 4 or 5 taps, 2 cycles */
  cfg_t m3 = cfg_of(3, 16);
  v = feed_row_cycles(&m3, &f);
  check_value(fabs(v - 6.0) < 1e-9, "3 words of 5-tap rows at 3 elements a cycle: 6 cycles", v, 6.0);

  /* 5 taps on FIFOs of fifo_depth 3 (4 entries): lane 0 holds 4 of its row and waits for a
   * pop, lane 31 has nothing in the first word and waits for the next: the replay says so
   * instead of spinning (fifo_depth 4 holds the row: 5 entries) */
  cfg_t shallow = cfg_of(3, 3);
  v = feed_row_cycles(&shallow, &f);
  check_value(v == FEED_STUCK, "lanes waiting on each other for ever: FEED_STUCK", v, FEED_STUCK);
  cfg_t holds = cfg_of(3, 4);
  v = feed_row_cycles(&holds, &f);
  check_value(v < FEED_STUCK, "fifo_depth 4: the extra entry holds a 5-tap row, no deadlock", v, 0);

  /* properties over random shapes */
  srand(7);
  int below = 0, deeper = 0, wider = 0, n = 400;
  for (int i = 0; i < n; i++) {
    feed_shape_t s = {0};
    s.lanes = 1 + rand() % 64;
    s.lin = rand() % 3 == 0;
    s.owv = s.lin ? s.lanes + rand() % 40 : 1 + rand() % 40;
    s.oht = 1 + rand() % 12;
    s.st = 1 + rand() % 5;
    s.dw = 1 + rand() % 2;
    s.sw = s.lin ? 1 : 1 + rand() % 3;
    long pitch = s.owv * s.sw + (s.st - 1) * s.dw + rand() % 20;
    s.base = -(rand() % 3) * pitch - rand() % 3;
    s.plane = pitch * (s.oht * s.sw + 4);
    s.kr_step = pitch;
    s.oy_step = pitch * s.sw;
    s.rt = 1 + rand() % 3;
    s.rows = s.rt * (1 + rand() % 4);
    int m = 1 + rand() % 4, depth = m + rand() % 4;
    if (depth < s.st) depth = (int)s.st;   /* the driver's limit: shallower FIFOs deadlock */
    cfg_t c1 = cfg_of(m, depth), c2 = cfg_of(m, depth + 3), c3 = cfg_of(m + 1, depth + 1);
    double x = feed_row_cycles(&c1, &s);
    below += x < (double)s.st - 1e-9;
    deeper += feed_row_cycles(&c2, &s) > x + 1e-9;
    wider += feed_row_cycles(&c3, &s) > x + 1e-9;
  }
  check_value(below == 0, "never fewer cycles than steps (400 random shapes)", below, 0);
  check_value(deeper == 0, "a deeper FIFO is never slower", deeper, 0);
  check_value(wider == 0, "more registers per lane are never slower", wider, 0);

  return tap_end();
}
