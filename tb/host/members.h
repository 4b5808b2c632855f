/* members: how a run's members run: together in one run (their input loaded once) or one at a
 * time, each in the orientation and with its images side by side or apart as the cost model
 * finds faster (or the options force); and drive_conv (driver.h), one convolution so. */
#ifndef SAGEN_HOST_MEMBERS_H
#define SAGEN_HOST_MEMBERS_H

#include <stddef.h>

#include "cfg.h"
#include "driver.h"
#include "hw.h"
#include "member.h"

/* The estimated cycles of members MS[0..NM) with input X as members_drive runs them, -1 if
 * they cannot run. *APART_OUT (if not NULL): 1 if they run one at a time, each in its own
 * orientation; *SWAP_OUT (if not NULL): the orientation they run in together; *SIDE_OUT (if not
 * NULL): the axis one member's images run side by side along (0: apart). Together only if the
 * model says it pays, or O->phases is 1 (shared). */
double members_cost(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
                    const drive_opts_t *o, int *apart_out, int *swap_out, int *side_out);

/* Run members MS[0..NM) (NM = 1: one convolution; more: they share input X, orient_can_share)
 * on HW as members_cost chooses: each run through engine_run. The feeder reads a kernel row's
 * elements of a context as one segment of bus words, so a kernel taller than wide reads R
 * segments for R x 1 steps per channel and waits on the bus; exchanging H and W turns it into
 * 1 x R. Sets each member's kgroups; adds the runs' figures to *SUM (side_runs counted).
 * Returns 0, or 1 with ERR (engine_run's errors, out of memory). */
int members_drive(hw_t *hw, const cfg_t *c, member_t *ms, int nm, const view_t *x,
                  const drive_opts_t *o, report_t *sum, char *err, size_t errlen);

/* The estimated cycles of convolution L of input X by kernel W into Y as drive_conv would run
 * it; -1 if no tiling fits. */
double members_conv_cost(const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
                         const view_t *y, const drive_opts_t *o);

#endif
