/* runlog: a run recorded as data (drive_run_t, driver.h): the convolution as the hardware ran
 * it, where its results went and its passes in order, for the bit-exact check of a float
 * backward op (golden_run_fp), which reads none of the driver's code. */
#ifndef SAGEN_HOST_RUNLOG_H
#define SAGEN_HOST_RUNLOG_H

#include <stddef.h>

#include "driver.h"
#include "member.h"
#include "plan.h"

/* The run of members MS[0..NM) on input X (layer LV: its n, c, h, w), planned as passes
 * PS[0..NP) and output tiles TS[0..NT), appended to RUNS: its operands read through the views
 * (X, each member's kernel), each result's destination in its output view (col2im: each word
 * lane's, and the route table of an array of COLS columns), the tiles and passes. ZERO_FILL:
 * the sequencer walks the dense taps. Returns 0, or 1 with ERR (out of memory). */
int runlog_append(drive_runs_t *runs, const layer_t *lv, const view_t *x, const member_t *ms,
                  int nm, const pass_t *ps, long np, const out_tile_t *ts, long nt, int zero_fill,
                  int cols, char *err, size_t errlen);

#endif
