/* model_fp: reference results and stimulus for the floating-point blocks, sagen_fp_add (a + b
 * in a binary format of EW exponent and FW fraction bits) and sagen_fp_mul (a * b of a format
 * IEW/IFW rounded to a format OEW/OFW).
 *
 * The reference computes in the host's double precision and rounds once into the format, with
 * its own rounding routine (round_fmt below), not the blocks' method: every operand of these
 * formats is a double exactly; a product of two is exact in a double (at most 24 x 24
 * significand bits, exponents far inside a double's range); a sum of two is correctly rounded
 * to a double, and rounding that double again into a format of p <= 24 bits gives the correctly
 * rounded sum, as a double's 53 bits are at least 2p + 2 (double rounding is innocuous for
 * addition then: Figueroa, "When is double rounding innocuous?", 1995). IEEE rules that the
 * double arithmetic gives: the sign of an exact zero, infinities, invalid operations. On top,
 * the blocks' conventions: every NaN result is the canonical quiet NaN (sign 0, exponent all
 * ones, the fraction's top bit alone set), subnormals exact, and the multiplier's "no operand"
 * (the signaling NaN of payload 1, drawn among the operands), whose product is -0. For
 * binary32 the routine's rounding is compared with the C conversion (float)x on every vector:
 * a model that rounds wrongly stops with an error instead of writing vectors.
 *
 * Stimulus: operands drawn by class (zeros of both signs, subnormals, the least and largest
 * normal numbers, infinities, NaNs with any payload, normal numbers of any exponent), and for
 * the adder pairs made to be hard: exponents close together (cancellation), b = -a (an exact
 * zero), b half an ulp of a or just around it (a tie, rounded to even), sums near the largest
 * finite value (overflow); for the multiplier products near the overflow and underflow ends.
 *
 * Usage: model_fp add EW FW N SEED OUT.vec [inject]
 *        model_fp mul IEW IFW OEW OFW N SEED OUT.vec [inject]
 * Vector file: "add EW FW N" or "mul IEW IFW OEW OFW N", then N lines "a b r" (hex encodings):
 * r is the expected result of a and b. With "inject" one expected result is wrong on purpose. */
#include <math.h>

#include "vec_common.h"
#include "fp_ref.h"

/* The same for binary32, by the C conversion: the self-check of round_fmt. */
static uint64_t round_f32_c(double x)
{
  if (isnan(x)) return 0x7fc00000u;
  float g = (float)x;
  uint32_t b;
  memcpy(&b, &g, sizeof b);
  return b;
}

/* A second operand for the adder that makes the pair hard. */
static uint64_t draw_partner(vrng *g, fmt_t f, uint64_t a)
{
  uint64_t sbit = 1ull << (f.ew + f.fw);
  int64_t ea = (int64_t)((a >> f.fw) & fmt_emax(f));
  uint64_t frac = vrng_u64(g) & bits_mask(f.fw);
  uint64_t sgn = vrng_u64(g) & 1u ? sbit : 0;
  int64_t e;
  switch ((int)vrng_range(g, 0, 9)) {
  case 0: return a ^ sbit;                                          /* b = -a */
  case 1: return (a ^ sbit) ^ (vrng_u64(g) & 3u);                   /* nearly -a */
  case 2: case 3:                                                   /* close exponents */
    e = ea + vrng_range(g, -2, 2);
    if (e < 0) e = 0;
    if (e > (int64_t)fmt_emax(f) - 1) e = (int64_t)fmt_emax(f) - 1;
    return sgn | ((uint64_t)e << f.fw) | frac;
  case 4: case 5:                                                   /* about half an ulp of a */
    e = ea - f.fw - 1 + vrng_range(g, -1, 1);
    if (e < 0) e = 0;
    return sgn | ((uint64_t)e << f.fw) | (vrng_pct(g, 50) ? 0 : (frac & 3u));
  case 6:                                                           /* far apart */
    e = ea - vrng_range(g, f.fw + 2, f.fw + 40);
    if (e < 0) e = 0;
    return sgn | ((uint64_t)e << f.fw) | frac;
  default: return draw(g, f);
  }
}

static void usage(const char *p)
{
  fprintf(stderr, "usage: %s add EW FW N SEED OUT.vec [inject]\n"
                  "       %s mul IEW IFW OEW OFW N SEED OUT.vec [inject]\n", p, p);
  exit(2);
}

static fmt_t fmt_arg(const char *e, const char *fr)
{
  fmt_t f = {(int)arg_long(e, "exponent bits"), (int)arg_long(fr, "fraction bits")};
  if (f.ew < 2 || f.ew > 11 || f.fw < 2 || f.fw > 23) {
    fprintf(stderr, "format %d/%d out of range (exponent 2..11, fraction 2..23 bits)\n", f.ew,
            f.fw);
    exit(2);
  }
  return f;
}

int main(int argc, char **argv)
{
  if (argc < 2) usage(argv[0]);
  int mul = strcmp(argv[1], "mul") == 0;
  if (!mul && strcmp(argv[1], "add") != 0) usage(argv[0]);
  int a0 = mul ? 6 : 4;           /* the argument N */
  if (argc < a0 + 3 || argc > a0 + 4) usage(argv[0]);
  fmt_t fi = fmt_arg(argv[2], argv[3]);
  fmt_t fo = mul ? fmt_arg(argv[4], argv[5]) : fi;
  long n = arg_long(argv[a0], "N");
  uint64_t seed = (uint64_t)arg_long(argv[a0 + 1], "SEED");
  const char *out = argv[a0 + 2];
  int inject = argc == a0 + 4 && strcmp(argv[a0 + 3], "inject") == 0;
  if (n < 1 || n > 1000000) usage(argv[0]);
  vrng g;
  vrng_seed(&g, seed);
  long bad = inject ? (long)vrng_range(&g, 0, n - 1) : -1;

  FILE *f = open_out(out);
  if (mul) fprintf(f, "mul %d %d %d %d %ld\n", fi.ew, fi.fw, fo.ew, fo.fw, n);
  else fprintf(f, "add %d %d %ld\n", fi.ew, fi.fw, n);
  int f32 = fo.ew == 8 && fo.fw == 23;
  for (long t = 0; t < n; t++) {
    uint64_t a = draw(&g, fi), b;
    if (mul) {
      b = draw(&g, fi);
      /* products near the ends of the output's range: exponents summing near its limits */
      if (vrng_pct(&g, 20)) {
        int64_t tgt = vrng_pct(&g, 50) ? (int64_t)fmt_emax(fo) - 1 - fmt_bias(fo)  /* largest */
                                       : 1 - fmt_bias(fo);                         /* least */
        int64_t ea = (int64_t)((a >> fi.fw) & fmt_emax(fi)) - fmt_bias(fi);
        int64_t eb = tgt - ea + vrng_range(&g, -fo.fw - 2, 2) + fmt_bias(fi);
        if (eb >= 1 && eb < (int64_t)fmt_emax(fi))
          b = (b & ~(fmt_emax(fi) << fi.fw)) | ((uint64_t)eb << fi.fw);
      }
    } else {
      b = vrng_pct(&g, 60) ? draw_partner(&g, fi, a) : draw(&g, fi);
      if (vrng_pct(&g, 50)) {
        uint64_t s = a;
        a = b;
        b = s;
      }
    }
    double x = decode(fi, a), y = decode(fi, b);
    double r = mul ? x * y : x + y;
    uint64_t e = mul ? mul_fmt(fi, fo, a, b) : round_fmt(fo, r);
    int none = mul && e != round_fmt(fo, r);   /* "no operand": -0 */
    if (f32 && !none && e != round_f32_c(r)) {
      fprintf(stderr, "model_fp: round_fmt(%a) = %08llx, the C conversion %08llx\n", r,
              (unsigned long long)e, (unsigned long long)round_f32_c(r));
      return 1;
    }
    if (isfinite(x) && isfinite(y)) {
      uint64_t emask = fmt_emax(fo) << fo.fw, mmask = bits_mask(fo.ew + fo.fw);
      cov[C_OVF] += (e & emask) == emask;
      cov[C_ZERO] += (e & mmask) == 0 && x != 0.0 && y != 0.0;
      if (!mul && r != 0.0 && isfinite(r)) {
        int ex, ey, er;
        (void)frexp(x, &ex);
        (void)frexp(y, &ey);
        (void)frexp(r, &er);
        cov[C_CANCEL] += (ex > ey ? ex : ey) - er >= 2;
      }
    }
    cov[C_NAN] += e == fmt_qnan(fo);
    cov[C_INF] += (e & bits_mask(fo.ew + fo.fw)) == fmt_inf(fo, 0);
    if (t == bad) e ^= 1u;
    fprintf(f, "%llx %llx %llx\n", (unsigned long long)a, (unsigned long long)b,
            (unsigned long long)e);
  }
  close_out(f, out);
  /* A run of 5 000 vectors or more reaches every case, or the stimulus is broken; but a product
   * exact in the output format (binary16 into binary32: 22 significand bits, exponents from
   * -48 to 31) is never rounded, subnormal or too large. */
  int bias_i = fmt_bias(fi), bias_o = fmt_bias(fo);
  int exact = mul && 2 * fi.fw + 2 <= fo.fw + 1 &&
              2 * ((int)fmt_emax(fi) - 1 - bias_i) + 1 <= (int)fmt_emax(fo) - 1 - bias_o &&
              2 * (1 - bias_i - fi.fw) >= 1 - bias_o;
  if (exact && cov[C_INEXACT] != 0) {
    fprintf(stderr, "model_fp: %ld products of %d/%d rounded into %d/%d\n", cov[C_INEXACT],
            fi.ew, fi.fw, fo.ew, fo.fw);
    return 1;
  }
  for (int c = 0; c < C_N && n >= 5000; c++) {
    if (mul && c == C_CANCEL) continue;
    if (exact && c != C_NAN && c != C_INF) continue;
    if (cov[c] == 0) {
      fprintf(stderr, "model_fp: %ld vectors of seed %llu reach no %s\n", n,
              (unsigned long long)seed, cov_name[c]);
      return 1;
    }
  }
  printf("# %ld vectors: %ld ties, %ld rounded up, %ld subnormal results, %ld overflows\n", n,
         cov[C_TIE], cov[C_UP], cov[C_SUBN], cov[C_OVF]);
  return 0;
}
