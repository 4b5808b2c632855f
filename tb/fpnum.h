/* fpnum: the IEEE formats of data.format as tensors hold them (bit patterns in int64): binary16
 * (fp16), bfloat16 (bf16), binary32 (fp32). Conversion of .npy float16 / float32 values into a
 * format, exact or rounded to nearest even, and random normal values in a format. */
#ifndef SAGEN_FPNUM_H
#define SAGEN_FPNUM_H

#include <stdint.h>

typedef enum { FPNUM_FP16, FPNUM_BF16, FPNUM_FP32 } fpnum_fmt_t;

/* The format named NAME ("fp16", "bf16", "fp32"); -1 if none. */
int fpnum_format(const char *name);

/* The binary32 bit pattern of the binary16 value H (exact). */
uint32_t fpnum_f16_to_f32(uint32_t h);

/* The value of binary32 pattern F in format FMT into *ENC: returns 0 if exact; 1 if F is not a
 * value of FMT, *ENC then F rounded to nearest even (overflow to infinity, subnormals kept, a
 * NaN the format's canonical quiet NaN). */
int fpnum_from_f32(fpnum_fmt_t fmt, uint32_t f, uint64_t *enc);

/* The binary32 pattern of ENC of FMT (exact for every format here but fp32 itself, which it
 * returns as it is). */
uint32_t fpnum_to_f32(fpnum_fmt_t fmt, uint64_t enc);

/* A standard normal value drawn from the xorshift state *S, rounded to FMT. */
uint64_t fpnum_normal(fpnum_fmt_t fmt, uint64_t *s);

#endif
