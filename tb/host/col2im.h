/* col2im: the input gradient as one matrix product of dy's pixels (K channels, the reduction)
 * and the (tap, channel of dx) filters, whose products the partial-sums manager adds into dx as
 * they leave the array (sagen_psum_manager, its overlap-add line and route table). Needs
 * memory.line_kib and a kernel that reaches at most the next super-pixel ((R-1)*D < 2*S per
 * axis); one run per group of channels of dx that a word holds. */
#ifndef SAGEN_HOST_COL2IM_H
#define SAGEN_HOST_COL2IM_H

#include <stddef.h>

#include "cfg.h"
#include "driver.h"
#include "hw.h"

/* The estimated cycles of the input gradient of forward layer L (dy DY, kernel W, result DX)
 * as col2im runs (one per group of channels of dx; the full groups alike, so one is estimated
 * for all); -1 if it cannot run so (*OOM set if for want of memory). */
double c2i_cost(const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
                tensor_t *dx, const drive_opts_t *o, int *oom);

/* Run the input gradient of L as col2im on HW, one run per group of channels of dx, the results
 * into DX, the figures added to *REP. Returns 0, or 1 with ERR ("col2im cannot run this layer"
 * where c2i_cost says -1, out of memory, or the run's errors). */
int c2i_runs(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
             tensor_t *dx, const drive_opts_t *o, report_t *rep, char *err, size_t errlen);

#endif
