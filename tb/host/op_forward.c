/* op_forward: conv2d, and the start every op shares (see ops.h). */
#include "ops.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "members.h"

int op_begin(const cfg_t *c, const drive_opts_t *o, report_t *rep, const char *op,
             const char *bp_mode, const layer_t *l, tensor_t *out, const long *shape, char *err,
             size_t errlen)
{
  long oh = layer_out_h(l), ow = layer_out_w(l);
  memset(rep, 0, sizeof *rep);
  rep->op = op;
  rep->bp_mode = bp_mode;
  rep->form = !bp_mode ? "direct" : strcmp(op, "conv2d_input_grad") ? "dilated" : "phases";
  if (engine_check_opts(c, o, err, errlen)) return 1;
  if (oh < 1 || ow < 1) {
    snprintf(err, errlen, "layer has no output (output size %ldx%ld)", oh, ow);
    return 1;
  }
  if (tensor_alloc(out, 4, shape)) {
    snprintf(err, errlen, "out of memory for the result (%ld elements)",
             shape[0] * shape[1] * shape[2] * shape[3]);
    return 1;
  }
  return 0;
}

int drive_conv2d(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                 const tensor_t *w, tensor_t *y, const drive_opts_t *o, report_t *rep,
                 char *err, size_t errlen)
{
  long yshape[4] = {l->n, l->k, layer_out_h(l), layer_out_w(l)};
  if (op_begin(c, o, rep, "conv2d", NULL, l, y, yshape, err, errlen)) return 1;
  view_t xv = view_of(x), wv = view_of(w), yv = view_of(y);
  if (drive_conv(hw, c, l, &xv, &wv, &yv, o, rep, err, errlen)) {
    tensor_free(y);
    return 1;
  }
  return 0;
}
