/* tensor: a dense integer tensor in C order, rank 1..4, values held as int64. */
#include "tensor.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

/* Number of elements: the product of the first NDIM dimensions. Returns 0 for a NULL tensor or
 * a rank outside 1..4. The caller keeps the product in range (tensor_alloc checks it). */
long tensor_numel(const tensor_t *t) {
  long n = 1;
  int i;

  if (t == NULL || t->ndim < 1 || t->ndim > 4)
    return 0;
  for (i = 0; i < t->ndim; i++)
    n *= t->shape[i];
  return n;
}

/* Allocate a zeroed tensor of rank NDIM (1..4) and SHAPE (each dimension >= 1); unused
 * dimensions are set to 1. Returns 0, or -1 if NDIM or SHAPE is invalid, the element count
 * overflows, or memory runs out; on failure *T holds no data and tensor_free(T) is a no-op. */
int tensor_alloc(tensor_t *t, int ndim, const long *shape) {
  size_t n = 1;
  int i;

  if (t == NULL)
    return -1;
  t->ndim = 0;
  t->data = NULL;
  t->fbits = 0;
  for (i = 0; i < 4; i++)
    t->shape[i] = 1;
  if (ndim < 1 || ndim > 4 || shape == NULL)
    return -1;
  for (i = 0; i < ndim; i++) {
    if (shape[i] < 1)
      return -1;
    if ((size_t)shape[i] > SIZE_MAX / sizeof(int64_t) / n)
      return -1;
    n *= (size_t)shape[i];
    if (n > (size_t)LONG_MAX)
      return -1;
  }
  t->data = calloc(n, sizeof(int64_t));
  if (t->data == NULL)
    return -1;
  t->ndim = ndim;
  for (i = 0; i < ndim; i++)
    t->shape[i] = shape[i];
  return 0;
}

/* Free the data and leave *T empty (rank 0, no data), so freeing it again is a no-op.
 * tensor_free(NULL) is a no-op. */
void tensor_free(tensor_t *t) {
  int i;

  if (t == NULL)
    return;
  free(t->data);
  t->data = NULL;
  t->ndim = 0;
  for (i = 0; i < 4; i++)
    t->shape[i] = 1;
}
