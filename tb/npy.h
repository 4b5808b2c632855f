/* npy: read and write NumPy .npy files (format versions 1.0, 2.0 and 3.0) of integer tensors
 * and of float16 / float32 tensors (kept as their bit patterns, tensor_t.fbits). */
#ifndef SAGEN_NPY_H
#define SAGEN_NPY_H

#include <stddef.h>
#include "tensor.h"

/* Read PATH into *T (rank 1..4, any integer or bool dtype, or float16 / float32 (T->fbits 16 or
 * 32, the bit patterns), little- or big-endian, C order). Returns 0, or 1 with a one-line
 * lowercase message in ERR ("<path>: ...", naming what is wrong and what is allowed): not an
 * .npy file, truncated, unsupported dtype (float64, complex, objects, Fortran order), rank
 * outside 1..4, or a value that does not fit int64 (uint64). */
int npy_read(const char *path, tensor_t *t, char *err, size_t errlen);

/* Parse the .npy image BUF[0..LEN) into *T, exactly as npy_read does for a file's bytes.
 * Never reads outside BUF, whatever its content (fuzzable). *T is overwritten, not freed first.
 * Returns 0 with *T allocated (free it with tensor_free), or 1 with *T empty and a one-line
 * lowercase message in ERR (without a path prefix). */
int npy_parse(const unsigned char *buf, size_t len, tensor_t *t, char *err, size_t errlen);

/* Write *T to PATH as '<i4' (BITS=32) or '<i8' (BITS=64), C order. Writes a temporary file in
 * the same directory and renames it, so a failure never leaves a partial file. Returns 0, or 1
 * with a message in ERR (cannot create, value out of range for BITS, short write). */
int npy_write(const char *path, const tensor_t *t, int bits, char *err, size_t errlen);

/* Write the bit patterns of *T to PATH as '<f2' (BITS=16) or '<f4' (BITS=32), as npy_write
 * does ('value out of range': a pattern wider than BITS). */
int npy_write_float(const char *path, const tensor_t *t, int bits, char *err, size_t errlen);

#endif
