/* fp_ref: the reference floating-point arithmetic of the block models of tests/rtl (model_fp,
 * model_pe_fp): binary formats of any exponent and fraction width, an encoding's exact value as
 * a double, and a double rounded into a format (to nearest, ties to even, subnormals kept,
 * overflow to infinity, NaN canonical), with counters of what the roundings reached.
 * Header-only, included after vec_common.h. Every operand of a format of up to 11 exponent and
 * 23 fraction bits is a double exactly, so is a product of two; a sum of two is rounded to a
 * double first, which is innocuous when rounded again into p <= 24 bits (53 >= 2p + 2). */
#ifndef SAGEN_TESTS_RTL_FP_REF_H
#define SAGEN_TESTS_RTL_FP_REF_H

#include <math.h>

typedef struct {
  int ew, fw;
} fmt_t;

static inline uint64_t fmt_emax(fmt_t f) { return bits_mask(f.ew); }
static inline int fmt_bias(fmt_t f) { return (1 << (f.ew - 1)) - 1; }
static inline uint64_t fmt_qnan(fmt_t f) { return (fmt_emax(f) << f.fw) | (1ull << (f.fw - 1)); }
static inline uint64_t fmt_inf(fmt_t f, int neg)
{
  return ((uint64_t)neg << (f.ew + f.fw)) | (fmt_emax(f) << f.fw);
}

/* The value of an encoding, exactly, as a double. */
static inline double decode(fmt_t f, uint64_t v)
{
  int neg = (int)((v >> (f.ew + f.fw)) & 1u);
  uint64_t e = (v >> f.fw) & fmt_emax(f);
  uint64_t m = v & bits_mask(f.fw);
  double r;
  if (e == fmt_emax(f)) r = m ? NAN : INFINITY;
  else if (e == 0) r = ldexp((double)m, 1 - fmt_bias(f) - f.fw);
  else r = ldexp((double)(m | (1ull << f.fw)), (int)e - fmt_bias(f) - f.fw);
  return neg ? -r : r;
}

/* What the vectors reached (counted by round_fmt and the models): each must come up in a long
 * run. */
enum { C_TIE, C_INEXACT, C_UP, C_SUBN, C_OVF, C_NAN, C_INF, C_ZERO, C_CANCEL, C_N };
static const char *const cov_name[C_N] = {
  "a tie", "an inexact result", "a rounding up", "a subnormal result",
  "an overflow of finite operands", "a NaN", "an infinity", "a zero of nonzero operands",
  "a cancellation of 2 or more binades"};
static long cov[C_N];

/* x rounded to nearest, ties to even, into the format: subnormals kept, overflow to infinity,
 * NaN canonical. */
static inline uint64_t round_fmt(fmt_t f, double x)
{
  if (isnan(x)) return fmt_qnan(f);
  int neg = signbit(x) != 0;
  uint64_t sgn = (uint64_t)neg << (f.ew + f.fw);
  if (isinf(x)) return fmt_inf(f, neg);
  if (x == 0.0) return sgn;
  double a = fabs(x);
  int e2;
  (void)frexp(a, &e2);           /* a = m * 2^e2, m in [0.5, 1): a's exponent is e2 - 1 */
  int emin = 1 - fmt_bias(f);
  int ex = e2 - 1 < emin ? emin : e2 - 1;   /* the binade, or the subnormals' */
  /* a in units of the last place of that binade: at most FW + 1 bits above the point, and the
   * scaling by a power of two is exact; the rounding to an integer is the format's */
  double u = ldexp(a, f.fw - ex);
  double n = u;
  double fl = floor(u), fr = u - fl;
  if (fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0.0)) n = fl + 1.0;
  else n = fl;
  cov[C_TIE] += fr == 0.5;
  cov[C_INEXACT] += fr != 0.0;
  cov[C_UP] += n > fl;
  uint64_t q = (uint64_t)n;
  if (q >> (f.fw + 1)) {          /* rounded up into the next binade */
    q >>= 1;
    ex++;
  }
  uint64_t efld;
  if (q >> f.fw) efld = (uint64_t)(ex + fmt_bias(f));   /* normal (or rounded up to normal) */
  else efld = 0;                                        /* subnormal */
  cov[C_SUBN] += efld == 0;
  if (efld >= fmt_emax(f)) return fmt_inf(f, neg);
  return sgn | (efld << f.fw) | (q & bits_mask(f.fw));
}

/* "No operand" (sagen_fp_mul): the signaling NaN of payload 1, which the design feeds for a
 * padding position and stores for an absent tap; its product is -0 whatever the other operand. */
static inline uint64_t fmt_none(fmt_t f) { return (fmt_emax(f) << f.fw) | 1u; }

/* sagen_fp_mul's product of A and B (format FI) in format FA. */
static inline uint64_t mul_fmt(fmt_t fi, fmt_t fa, uint64_t a, uint64_t b)
{
  if (a == fmt_none(fi) || b == fmt_none(fi)) return 1ull << (fa.ew + fa.fw);
  return round_fmt(fa, decode(fi, a) * decode(fi, b));
}

/* A random encoding of the format, by class. */
static inline uint64_t draw(vrng *g, fmt_t f)
{
  uint64_t sgn = (uint64_t)(vrng_u64(g) & 1u) << (f.ew + f.fw);
  uint64_t frac = vrng_u64(g) & bits_mask(f.fw);
  uint64_t emax = fmt_emax(f);
  switch ((int)vrng_range(g, 0, 19)) {
  case 0: return sgn;                                               /* zero */
  case 1: return sgn | (frac ? frac : 1u);                          /* subnormal */
  case 2: return sgn | (vrng_range(g, 0, 3) & frac);                /* tiny subnormal */
  case 3: return sgn | (1ull << f.fw);                              /* least normal */
  case 4: return sgn | ((emax - 1) << f.fw) | bits_mask(f.fw);      /* largest finite */
  case 5: return sgn | (emax << f.fw);                              /* infinity */
  case 6: return sgn | (emax << f.fw) | (frac ? frac : 1u);         /* NaN, any payload */
  case 7: return sgn | ((uint64_t)vrng_range(g, 1, 3) << f.fw) | frac;         /* small */
  case 8: return sgn | ((emax - (uint64_t)vrng_range(g, 1, 3)) << f.fw) | frac; /* large */
  case 9: return sgn | ((uint64_t)fmt_bias(f) << f.fw) | (frac & ~bits_mask(f.fw / 2)); /* ~1 */
  case 10: return vrng_u64(g) & 1u ? fmt_none(f) : sgn | ((uint64_t)fmt_bias(f) << f.fw);
           /* no operand, or +-1 */
  default: return sgn | ((uint64_t)vrng_range(g, 1, (int64_t)emax - 1) << f.fw) | frac;
  }
}

/* The sum of sagen_pe_fp over a context of N operand pairs A[k], B[k] of format FI: each
 * product rounded into FA (mul_fmt), product k into partial sum k mod 8 (from -0, in order),
 * the partials reduced as ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)), every sum rounded
 * into FA. */
static inline uint64_t fp_pe_dot(fmt_t fi, fmt_t fa, const uint64_t *a, const uint64_t *b,
                                 int n)
{
  uint64_t s[8];
  for (int j = 0; j < 8; j++) s[j] = 1ull << (fa.ew + fa.fw);
  for (int k = 0; k < n; k++) {
    uint64_t p = mul_fmt(fi, fa, a[k], b[k]);
    s[k % 8] = round_fmt(fa, decode(fa, s[k % 8]) + decode(fa, p));
  }
  for (int w = 1; w < 8; w *= 2)
    for (int j = 0; j + w < 8; j += 2 * w)
      s[j] = round_fmt(fa, decode(fa, s[j]) + decode(fa, s[j + w]));
  return s[0];
}

#endif
