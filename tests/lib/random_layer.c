/* random_layer: see random_layer.h. */
#include "random_layer.h"

#include <string.h>

#include "rng.h"

void random_layer(uint64_t *s, const cfg_t *c, layer_t *l)
{
  memset(l, 0, sizeof *l);
  for (;;) {
    l->n = rng_range(s, 1, 2);
    l->c = rng_range(s, 1, rng_range(s, 0, 3) == 0 ? 40 : 9);
    /* odd, rectangular, and smaller than the array */
    l->h = rng_range(s, 1, 19);
    l->w = rng_range(s, 1, rng_range(s, 0, 2) == 0 ? 3 * c->rows + 5 : 19);
    l->k = rng_range(s, 1, rng_range(s, 0, 2) == 0 ? 3 * c->cols + 3 : c->cols + 1);
    l->r = rng_range(s, 1, 5);
    l->s = rng_range(s, 1, 5);
    l->sh = rng_range(s, 1, 3);
    l->sw = rng_range(s, 1, 3);
    l->dh = rng_range(s, 0, 3) == 0 ? rng_range(s, 2, 3) : 1;
    l->dw = rng_range(s, 0, 3) == 0 ? rng_range(s, 2, 3) : 1;
    l->ph = rng_range(s, 0, 2);
    l->pw = rng_range(s, 0, 2);
    if (layer_out_h(l) >= 1 && layer_out_w(l) >= 1) return;
  }
}

void random_tensor(uint64_t *s, tensor_t *t, const long *shape, int bits)
{
  tensor_alloc(t, 4, shape);
  int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
  for (long i = 0; i < tensor_numel(t); i++) {
    int pick = (int)rng_range(s, 0, 9);
    t->data[i] = pick == 0 ? 0 : pick == 1 ? lo : pick == 2 ? hi : rng_range(s, lo, hi);
  }
}
