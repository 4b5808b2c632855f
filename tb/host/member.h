/* member: one convolution of a run (member_t), the unit that the pass planner, the cost model,
 * the run engine and the op lowerings pass each other. Types only. */
#ifndef SAGEN_HOST_MEMBER_H
#define SAGEN_HOST_MEMBER_H

#include <stdint.h>

#include "driver.h"

/* col2im (see col2im.h and drive_conv2d_input_grad): a run whose filters are the (tap, channel)
 * pairs of the input gradient's kernel, one pixel per super-pixel of dx, whose results the
 * partial-sums manager routes into the lanes of the pixel's word, the next pixel's, and the
 * overlap-add line (sagen_psum_manager). */
typedef struct c2i {
  long lanes;         /* lanes of a word that hold dx: phases x channels */
  int line_kg0;       /* the first filter group with a line segment */
  const uint32_t *route;   /* SAGEN_ROUTE_KGS * 4 * cols entries: (kg * 4 + class) * cols + lane, {valid,
                              column} as sagen_core.v packs them (valid at bit log2(cols)) */
} c2i_t;

/* One convolution of a run. The members of a run share their input and its tiling (output tile
 * size, channel slices, context mapping, column groups) but not their kernels, weights or
 * outputs: the input gradient's phases, which all read dy, run as members of one run so that
 * each tile of dy is loaded once for all of them. A member borrows its views' data and C2I. */
typedef struct member {
  layer_t l;          /* its layer (output size explicit where the run sets it) */
  view_t w, y;        /* its kernel (K,C,R,S) and output (N,K,OH,OW) views */
  long kgroups;       /* out: filter groups per pixel of the run that ran it */
  const c2i_t *c2i;   /* col2im's, or NULL */
} member_t;

#endif
