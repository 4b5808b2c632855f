/* cost: the tiling cost model. It estimates the cycles of a run on a configuration before it
 * runs: the array's steps per context (the feeder replayed word by word, feed_model.h), each
 * pass's fill and drain, and the host port's loads and read-outs at the configuration's
 * bandwidth, overlapped with compute where the memories are double-buffered; then, for a planned
 * run, pass by pass in the order the run engine moves the DMA jobs. Its tuning constants are in
 * cost_tuning.h. Every function is pure (no state but feed_model's cache of equal results). */
#ifndef SAGEN_HOST_COST_H
#define SAGEN_HOST_COST_H

#include "cfg.h"
#include "cost_tuning.h"
#include "member.h"
#include "plan.h"
#include "tile.h"

/* The estimated cycles of a tiling in parts: the array's, and the host port's for the ifmap
 * tiles, and for the weight tiles if they stay in the banks (WT_TILES of them, WT_ONCE cycles)
 * or are loaded for every pass (WT_EACH), and for the results; FIRST: the first tiles' load,
 * before any compute; LAST: the last output tile's read-out, after all of it. */
typedef struct cost_parts {
  double compute, ifmap, wt_tiles, wt_once, wt_each, out, first, last;
  int out_bits;        /* bits the host port moves per output word read (tile_read_bits) */
  double reductions;   /* passes per output tile (channel and kernel slices) */
} cost_parts_t;

/* Where a tile's input window sits in the ifmap memory, as the index counters see it: the row
 * pitch, the rows, the element offset of the window's virtual origin (BASE, see
 * tile_window_base) and a channel's elements (PLANE). */
typedef struct win_layout {
  long pitch, th, base, plane;
} win_layout_t;

/* Cycles the host port takes for a word of BITS at BPC bytes a cycle: one word a cycle at most
 * (so never below 1). */
double cost_word_cycles(int bits, double bpc);

/* The host-port bytes of parts P, whose cycles cost_of counts at BPC bytes a cycle (at a high
 * BPC the cycles count words, not bytes): the ifmap tiles, the weights (kept in the banks if
 * they fit), the results. */
double cost_bytes(const cfg_t *c, const cost_parts_t *p, double bpc);

/* The cycles of parts P: with two banks, loading overlaps computing after the first tiles and
 * before the last read-out (max of the two, plus FIRST and LAST); with one, they add. */
double cost_of(const cfg_t *c, const cost_parts_t *p);

/* The window layout of an output tile OHT x OWT of tiling T with ST kernel columns of layer L:
 * of the first tile along an axis (FIRST_Y, FIRST_X: it takes the layer's padding), or of one
 * inside the layer (no padding), as the pass planner lays a pass's out. */
win_layout_t cost_layout(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                         long st, int first_y, int first_x);

/* Cycles per channel and kernel row of a context of tiling T on an output tile OHT x OWT of L
 * whose kernel slice is ST taps wide and whose window W lays out: the feeder's (feed_row_cycles
 * on the tile's first contexts) or the array's steps, whichever is more; zero_fill (T->fill)
 * adds the steps through the dense positions between taps, where no word is read. */
double cost_cr_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                      long st, const win_layout_t *w);

/* The array's cycles of one pass of tiling T on an output tile OHT x OWT of L with CT channels,
 * RT kernel rows of ST taps and NKG filter groups, its window laid out as W: every context's
 * steps (at least 2 rows - 1, the reserve chains' turn, but for the last context, whose results
 * leave in the pass's drain), and the pass's fill and drain (PASS_OVERHEAD). */
double cost_pass_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                        long ct, long rt, long st, long nkg, const win_layout_t *w);

/* The estimated cycles of tiling T of layer L (output OH x OW) at BPC host-port bytes a cycle,
 * in parts, into *PARTS: 0, or -1 (PARTS unspecified) if T does not fit the configuration's
 * memories or a descriptor field. The tiles at the end of each axis and the last slice of each
 * reduction axis are charged as they are, not as full ones. */
double cost_tiling_parts(const cfg_t *c, const layer_t *l, long oh, long ow, const tiling_t *t,
                         double bpc, cost_parts_t *parts);

/* The parts of the estimated cycles of members MS[0..NM) sharing one run tiled by T for their
 * union U (orient_union) into *SUM: each member's compute, the union's ifmap tiles loaded once
 * (once per member if they do not stay in the banks), every member's weights and results; 0,
 * or -1 if T does not fit the union or a member. */
double cost_shared_parts(const cfg_t *c, const layer_t *u, const member_t *ms, int nm,
                         const tiling_t *t, double bpc, cost_parts_t *sum);

/* The estimated cycles of the planned passes PS[0..NP) (NP >= 1) of tiling T of members MS,
 * output tiles TS[0..NT), as the run engine runs them: the host port moves the loads and
 * read-outs one job at a time, in plan_dma_jobs' order, each waiting for the pass it depends
 * on (a load for the last pass that used its bank, a read-out for its tile's last pass); a pass
 * starts when the one before has ended, its tiles are in and the output bank it writes has
 * been read out. A pass's cycles are cost_pass_cycles'. Where the tiles are alike this comes to
 * cost_of's sum; where they differ (a filter slice of a few filters between whole ones, say) a
 * long read-out can only hide behind the passes that follow it. Returns -1 if out of memory
 * (its scratch is its own, freed before it returns). */
double cost_schedule(const cfg_t *c, const member_t *ms, const tiling_t *t, const pass_t *ps,
                     long np, const out_tile_t *ts, long nt, double bpc);

#endif
