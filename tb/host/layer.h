/* layer: the geometry of a convolution layer (layer_t, driver.h) beyond its output size
 * (layer_out_h, layer_out_w, public): the flattened form of a 1x1 layer and the layer with its
 * axes exchanged. Pure functions on values. */
#ifndef SAGEN_HOST_LAYER_H
#define SAGEN_HOST_LAYER_H

#include "driver.h"

/* Whether L (output OH x OW, written through view Y) runs flattened, as a matrix product: a 1x1
 * kernel without padding whose N * OH * OW output pixels fit one row of the tap sequencer's
 * count (65535), written back through a plain view Y (no split, no per-filter extents), and
 * whose strided pixels all lie in the input. */
int layer_flattens(const layer_t *l, long oh, long ow, const view_t *y);

/* The layer a flattened L (see layer_flattens) runs as: one image of one row of its N * OH * OW
 * output pixels, stride and dilation 1, its output size explicit. */
layer_t layer_flat(const layer_t *l, long oh, long ow);

/* L with its two spatial axes exchanged: every H quantity (size, kernel, stride, padding,
 * dilation, output, dense tap sequence) swapped with its W one. The views that go with it are
 * view_transposed's. */
layer_t layer_transposed(const layer_t *l);

#endif
