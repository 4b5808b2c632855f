/* random_layer: the random layers and tensors of the randomized co-simulations
 * (tests/cosim_random.c, tests/xcheck_run.c), drawn from a seed so that a case can be run again
 * from the seed it prints (tb/rng.h). */
#ifndef SAGEN_TESTS_RANDOM_LAYER_H
#define SAGEN_TESTS_RANDOM_LAYER_H

#include <stdint.h>

#include "cfg.h"
#include "driver.h"
#include "tensor.h"

/* A random layer for configuration C into *L, from the generator state *S: batch 1-2, channels
 * 1-40 (mostly up to 9), sizes 1-19 (widths up to 3 x rows + 5, so wider than the lanes and
 * smaller than the array both come), filters up to 3 x cols + 3, kernels 1x1 to 5x5 and
 * rectangular, strides 1-3, dilation 1-3, padding 0-2 per axis; drawn again until the output has
 * at least one pixel. */
void random_layer(uint64_t *s, const cfg_t *c, layer_t *l);

/* *T allocated with the 4-d SHAPE and filled with random signed BITS-bit values, 3 in 10 of
 * them extreme: 0, the lowest or the highest. */
void random_tensor(uint64_t *s, tensor_t *t, const long *shape, int bits);

#endif
