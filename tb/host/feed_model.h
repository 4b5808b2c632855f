/* feed_model: the data feeder's cycles, replayed word by word for the tiling cost model.
 *
 * The feeder (sagen_feeder, sagen_feed_lane, sagen_index_counters) presents one bus word at a
 * time; every lane takes the kernel taps of its own pixel that the word holds, at most
 * regs_per_lane a cycle and no more than its FIFO has room for at the start of the cycle (it has
 * fifo_depth + 1 entries), and the next word comes once
 * every lane is done with this one. The array pops one element from every lane at once, in a
 * cycle where no lane is empty. feed_row_cycles replays exactly that for the first contexts of a
 * tile, with the words the index counters would list, and returns the cycles a context spends
 * per channel and kernel row: the longer of its steps and its words, and the stalls of lanes
 * that run ahead (a lane whose taps come in the first word of a row fills its FIFO while the
 * last lane still waits for its own). */
#ifndef SAGEN_FEED_MODEL_H
#define SAGEN_FEED_MODEL_H

#include "cfg.h"

/* One pass's geometry, as the index counters see it (see sagen_index_counters): element
 * offsets in the ifmap memory (BASE: of the window's virtual origin; PLANE: a channel's;
 * KR_STEP: a kernel row's; OY_STEP: an output row's), the tile OHT rows of OWV pixels (virtual
 * width), LANES pixels a context, ST taps a kernel row DW apart, stride SW along a row. LIN:
 * linear contexts (one segment a kernel row, lane l's taps from element l). ROWS: the kernel
 * rows (channel x kernel row, RT kernel rows a channel) a context runs. */
typedef struct feed_shape {
  long lanes, owv, oht;
  long st, dw, sw;
  int lin;
  long base, plane, kr_step, oy_step;
  long rows, rt;
} feed_shape_t;

/* What feed_row_cycles returns for a shape whose lanes would wait on each other for ever (a
 * FIFO shallower than a lane's lead over another: a full lane waits for a pop that an empty one
 * blocks; the driver never programs such a pass). */
#define FEED_STUCK 1e12

/* Cycles per channel and kernel row of a context of shape S on configuration C (bus_elems,
 * regs_per_lane, fifo_depth), averaged over the tile's first contexts, or FEED_STUCK. Results
 * are cached. */
double feed_row_cycles(const cfg_t *c, const feed_shape_t *s);

#endif
