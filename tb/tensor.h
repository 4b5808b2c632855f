/* tensor: a dense tensor in C order (row-major), rank 1..4, values held as int64: integers, or
 * the bit patterns of IEEE floats (FBITS 16: binary16, 32: binary32) as .npy files hold them. */
#ifndef SAGEN_TENSOR_H
#define SAGEN_TENSOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct tensor {
  int ndim;          /* 1..4 */
  long shape[4];     /* unused dims are 1 */
  int64_t *data;     /* numel() values, C order */
  int fbits;         /* 0: integers; 16 or 32: float16 or float32 bit patterns (unsigned) */
} tensor_t;

/* Number of elements. */
long tensor_numel(const tensor_t *t);
/* Allocate a zeroed tensor of rank NDIM and SHAPE. Returns 0, or -1 if out of memory. */
int tensor_alloc(tensor_t *t, int ndim, const long *shape);
/* Free the data; tensor_free(NULL) and a double free of a released tensor are no-ops. */
void tensor_free(tensor_t *t);

#endif
