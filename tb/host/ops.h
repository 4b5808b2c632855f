/* ops: what the op lowerings (op_forward.c, op_input_grad.c, op_weight_grad.c: drive_conv2d,
 * drive_conv2d_input_grad, drive_conv2d_weight_grad in driver.h) share. */
#ifndef SAGEN_HOST_OPS_H
#define SAGEN_HOST_OPS_H

#include <stddef.h>

#include "driver.h"

/* Start an op: reset *REP (its op name OP, its backward mode BP_MODE or NULL for the forward op,
 * its form's default), check that forward layer L has an output, allocate the result *OUT of
 * SHAPE (zeroed; the caller frees it). Returns 0, or 1 with ERR (no output, out of memory; *OUT
 * is then not allocated). */
int op_begin(report_t *rep, const char *op, const char *bp_mode, const layer_t *l, tensor_t *out,
             const long *shape, char *err, size_t errlen);

#endif
