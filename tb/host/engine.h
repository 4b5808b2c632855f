/* engine: one run on the hardware. Set-up (the tiling, the passes and their DMA jobs; the
 * hardware reset and checked against the configuration), then cycle by cycle the two host
 * engines: the CSR engine programs each pass's descriptor and starts it once its tiles are in,
 * the DMA engine moves the tiles in and the results out at the configuration's DRAM bandwidth,
 * in plan_dma_jobs' order; each word read is placed into the output view as it comes. Then the
 * performance counters. */
#ifndef SAGEN_HOST_ENGINE_H
#define SAGEN_HOST_ENGINE_H

#include <stddef.h>

#include "cfg.h"
#include "driver.h"
#include "hw.h"
#include "member.h"

/* Host-port bytes per cycle of a run: the option's (O may be NULL), or the configuration's. */
double engine_bpc(const cfg_t *c, const drive_opts_t *o);

/* Options O that configuration C cannot run, checked before any planning: more column groups
 * than array.col_groups. Returns 0, or 1 with a one-line message in ERR. */
int engine_check_opts(const cfg_t *c, const drive_opts_t *o, char *err, size_t errlen);

/* Run members MS0[0..NM) (see member_t; one for a plain convolution, several sharing their
 * input) on HW with input view X0, tiled as layer LT says (a member's own layer, or the union
 * of the members' windows, orient_union). A lone 1x1 member without padding runs flattened, as
 * a matrix product (layer_flattens). Writes every result word into the members' output views,
 * sets each member's kgroups, records the words read in O->reads if set, and adds the run's
 * figures to *SUM (report_add). O has passed engine_check_opts (every op's op_begin checks it).
 * Returns 0, or 1 with a one-line message in ERR (no output, no tiling fits, a model that is
 * not the configuration's, a descriptor refused, a wrong tap sequence, the watchdog, counters
 * that disagree with the driver, out of memory); *SUM is then untouched. Owns nothing after
 * it returns. */
int engine_run(hw_t *hw, const cfg_t *c, const layer_t *lt, member_t *ms0, int nm,
               const view_t *x0, const drive_opts_t *o, report_t *sum, char *err, size_t errlen);

#endif
