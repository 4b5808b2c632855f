/* cosim_fp: what `sagen sim` does differently for a float data.format (fp16, bf16, fp32):
 * tensors in and out as float16 / float32 .npy, random normal values, and the two checks of a
 * result (bit for bit in the plan's order, and within the accumulation's error bound). */
#ifndef SAGEN_COSIM_FP_H
#define SAGEN_COSIM_FP_H

#include <stdint.h>

#include "cfg.h"
#include "driver.h"
#include "tensor.h"

/* Tensor T read from PATH into the encodings of c->format: float16 or float32 values, each
 * exactly a value of the format, or rounded to nearest even when ROUND (--round-inputs).
 * Returns 0, or 1 after a one-line error naming PATH, the flat index and the value. */
int cosim_fp_operand(const cfg_t *c, tensor_t *t, const char *path, int round);

/* T allocated with SHAPE (rank 4) and filled with standard normal values of c->format from the
 * generator state *S. Returns 0, or 1 if out of memory. */
int cosim_fp_random(const cfg_t *c, tensor_t *t, const long *shape, uint64_t *s);

/* Result Y (encodings of c->acc_format) written to PATH as float32 (fp32 sums) or float16.
 * Returns 0, or 1 after an error message. */
int cosim_fp_write(const cfg_t *c, const char *path, tensor_t *y);

/* The bit-exact golden conv2d of layer L on A and B, summed in the order of SLICES (the same
 * for every output tile: golden_conv2d_fp), into REF (allocated). Returns 0, or 1 after an
 * error message (out of memory; tiles that reduce in different orders). */
int cosim_fp_golden(const cfg_t *c, const layer_t *l, const tensor_t *a, const tensor_t *b,
                    const drive_slices_t *slices, tensor_t *ref);

/* The bit-exact golden result of the backward op that ran as RUNS (its plan as data, each run
 * summed by golden_run_fp) into REF (allocated, Y's shape): an output no run writes is +0.
 * Y is the op's output, where the runs placed their results. Returns 0, or 1 after an error
 * message. */
int cosim_fp_golden_runs(const cfg_t *c, const drive_runs_t *runs, const tensor_t *y,
                         tensor_t *ref);

/* The elements of Y (op OP of L on A and B) outside the error bound of the double-precision
 * result (golden_fp_bound_check; *FIRST the first's flat index), or -1 if out of memory. */
long cosim_fp_bound(const cfg_t *c, int op, const layer_t *l, const tensor_t *a,
                    const tensor_t *b, const tensor_t *y, long *first);

/* Y of op OP (0 conv2d, 1 input gradient, 2 weight gradient) of layer L on A and B checked:
 * bit for bit, conv2d against golden_conv2d_fp in the order of SLICES (which must be the same
 * for every output tile), a backward op against its runs RUNS (cosim_fp_golden_runs); and
 * every op against the double-precision bound (golden_fp_bound_check). WHAT names the run in
 * the messages. Returns 0, or 1 after printing the first mismatches and a summary. */
int cosim_fp_check(const cfg_t *c, int op, const layer_t *l, const tensor_t *a,
                   const tensor_t *b, const tensor_t *y, const drive_slices_t *slices,
                   const drive_runs_t *runs, const char *what, int quiet);

#endif
