/* ops: what the op lowerings (op_forward.c, op_input_grad.c, op_weight_grad.c: drive_conv2d,
 * drive_conv2d_input_grad, drive_conv2d_weight_grad in driver.h) share. */
#ifndef SAGEN_HOST_OPS_H
#define SAGEN_HOST_OPS_H

#include <stddef.h>

#include "driver.h"

/* Start an op on configuration C with options O: reset *REP (its op name OP, its backward mode
 * BP_MODE or NULL for the forward op, its form's default), check the options (engine_check_opts)
 * and that forward layer L has an output, allocate the result *OUT of SHAPE (zeroed; the caller
 * frees it). Returns 0, or 1 with ERR (options the configuration cannot run, no output, out of
 * memory; *OUT is then not allocated). */
int op_begin(const cfg_t *c, const drive_opts_t *o, report_t *rep, const char *op,
             const char *bp_mode, const layer_t *l, tensor_t *out, const long *shape, char *err,
             size_t errlen);

#endif
