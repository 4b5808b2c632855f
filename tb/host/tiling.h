/* tiling: the tiling search. For a run (one convolution, or members sharing one input) it tries
 * every slicing of channels, filters and kernel, every column-group count, context mapping, row
 * layout and output tile width the options and the configuration allow, estimates each with the
 * cost model, and keeps the fastest; the SCHED_CANDIDATES fastest by the summed estimate are
 * then planned pass by pass and estimated as they would run, and the fastest of those is chosen,
 * traded against its host-port traffic within COST_TIE. */
#ifndef SAGEN_HOST_TILING_H
#define SAGEN_HOST_TILING_H

#include <stddef.h>

#include "cfg.h"
#include "member.h"
#include "tile.h"

/* The distinct values of ceil(V / n) for n = 1..V, largest first (every n up to 32, then n
 * doubling), into OUT[0..MAX); the list always ends with 1. Returns the count (0 if V < 1). */
long tiling_splits(long v, long *out, long max);

/* The fastest tiling of layer L (output OH x OW) at BPC host-port bytes a cycle into *BEST, its
 * estimated cycles into *COST_OUT (if not NULL). With members MS[0..NM) (NM > 1), L is their
 * union (orient_union) and the tiling is the best for them sharing one run, no kernel sliced
 * across passes; with one member, MS[0] says whether it is col2im's. CONTEXTS, GROUPS, ROWS:
 * drive_opts_t's (0: the search chooses; CONTEXTS 3, linear, falls back to the search's choice
 * where no tiling can use them); FILL: zero_fill. Returns 0, or 1 with a one-line message in
 * ERR (no tiling fits the memories, or out of memory); *BEST is then unchanged. Owns nothing
 * after it returns. */
int tiling_choose(const cfg_t *c, const layer_t *l, const member_t *ms, int nm, long oh, long ow,
                  double bpc, int contexts, int groups, int rows, int fill, tiling_t *best,
                  double *cost_out, char *err, size_t errlen);

#endif
