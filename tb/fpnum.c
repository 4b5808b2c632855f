/* fpnum: the IEEE formats of data.format in tensors (see fpnum.h). The conversions work on the
 * bit patterns: a binary32 significand shifted to the target's last place, rounded to nearest
 * even on the bits shifted out. */
#include "fpnum.h"

#include <math.h>
#include <string.h>

#include "rng.h"

int fpnum_format(const char *name)
{
  if (!strcmp(name, "fp16")) return FPNUM_FP16;
  if (!strcmp(name, "bf16")) return FPNUM_BF16;
  if (!strcmp(name, "fp32")) return FPNUM_FP32;
  return -1;
}

uint32_t fpnum_f16_to_f32(uint32_t h)
{
  uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return sign | 0x7f800000u | (m << 13);      /* infinity, NaN */
  if (e != 0) return sign | ((e + 112u) << 23) | (m << 13);  /* normal: bias 15 -> 127 */
  if (m == 0) return sign;                                    /* zero */
  /* subnormal: m * 2^-24, normalized */
  int sh = 0;
  while (!(m & 0x400u)) {
    m <<= 1;
    sh++;
  }
  return sign | ((uint32_t)(113 - sh) << 23) | ((m & 0x3ffu) << 13);
}

/* Round the significand SIG (an integer) right by SH bits, to nearest even. */
static uint32_t shift_rne(uint32_t sig, int sh)
{
  if (sh <= 0) return sig;
  if (sh > 25) return 0;
  uint32_t q = sig >> sh, rem = sig & ((1u << sh) - 1u), half = 1u << (sh - 1);
  return q + (rem > half || (rem == half && (q & 1u)));
}

/* F (binary32) rounded into binary16. */
static uint32_t f32_to_f16(uint32_t f)
{
  uint32_t sign = (f >> 16) & 0x8000u, ef = (f >> 23) & 0xffu, m = f & 0x7fffffu;
  if (ef == 0xff) return m ? 0x7e00u : sign | 0x7c00u;       /* NaN canonical, infinity */
  if (ef == 0) return sign;      /* binary32 subnormals are below half of binary16's least */
  int e = (int)ef - 127;
  if (e > 15) return sign | 0x7c00u;
  uint32_t sig = m | 0x800000u;
  if (e >= -14) return sign | ((((uint32_t)(e + 14)) << 10) + shift_rne(sig, 13));
  return sign | shift_rne(sig, 13 + (-14 - e));              /* subnormal (or 0, or 2^-14) */
}

int fpnum_from_f32(fpnum_fmt_t fmt, uint32_t f, uint64_t *enc)
{
  uint32_t r;
  switch (fmt) {
  case FPNUM_FP32:
    *enc = f;
    return 0;
  case FPNUM_BF16:
    if ((f & 0x7fffffffu) > 0x7f800000u) r = 0x7fc0u;        /* NaN: canonical */
    else r = (f + 0x7fffu + ((f >> 16) & 1u)) >> 16;
    break;
  default:
    r = f32_to_f16(f);
    break;
  }
  *enc = r;
  return fpnum_to_f32(fmt, r) != f;
}

uint32_t fpnum_to_f32(fpnum_fmt_t fmt, uint64_t enc)
{
  if (fmt == FPNUM_FP32) return (uint32_t)enc;
  if (fmt == FPNUM_BF16) return (uint32_t)enc << 16;
  return fpnum_f16_to_f32((uint32_t)enc);
}

uint64_t fpnum_normal(fpnum_fmt_t fmt, uint64_t *s)
{
  /* Box-Muller: u1 in (0, 1], u2 in [0, 1) */
  double u1 = ((double)(rng_next(s) >> 11) + 1.0) / 9007199254740992.0;
  double u2 = (double)(rng_next(s) >> 11) / 9007199254740992.0;
  float z = (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
  uint32_t f;
  uint64_t enc;
  memcpy(&f, &z, sizeof f);
  (void)fpnum_from_f32(fmt, f, &enc);
  return enc;
}
