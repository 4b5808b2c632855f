/* model_skew: reference model and stimulus for sagen_skew (a delay line of DEPTH enabled
 * registers; DEPTH 0 is a wire) and for sagen_skew_tap with a tap that changes at run time.
 *
 * Modelled behaviour: after a rising edge, q is the input taken DEPTH enabled cycles ago
 * (counting this one), or zero if fewer enabled cycles happened since the last reset; the
 * active-low reset clears the line at once. With DEPTH 0, q follows d in the same cycle.
 * sagen_skew_tap with a fixed tap is sagen_skew of depth min(tap, DEPTH).
 *
 * Run-time tap ("tap" after DEPTH): the stimulus also drives tap_i, changed every few cycles to
 * a value in 0 .. DEPTH + 2, and the delay is min(tap, DEPTH) of the tap taken at the last
 * rising edge (the block registers it, reset or not). q is checked twice a cycle: before the
 * edge (this cycle's inputs applied, the tap of the previous cycle in force; not in the first
 * cycle, before any edge) and after it (the tap just taken), so a tap used in the cycle it
 * arrives, or a cycle later than that, is a mismatch.
 *
 * Usage: model_skew WIDTH DEPTH [tap] SEED OUT.vec [inject]
 * Vector file: "WIDTH DEPTH NCYC", then one line per cycle (hex): rst_n en d | q, or with a
 * run-time tap rst_n en d tap | pre q_pre q, where q is the value expected 1 unit after the
 * rising edge (inputs still applied) and q_pre before it when pre is 1. With "inject" one
 * expected q is wrong on purpose. */
#include "vec_common.h"

/* stage k of the line: 0 the input itself, k the input taken k enabled cycles ago */
static uint64_t stage(const uint64_t *hist, int nh, int k, uint64_t d)
{
  if (k == 0) return d;
  return nh >= k ? hist[nh - k] : 0;
}

int main(int argc, char **argv)
{
  int tapped = argc >= 4 && strcmp(argv[3], "tap") == 0;
  int a = tapped ? 4 : 3;   /* the seed's argument */
  if (argc < a + 2 || argc > a + 3) {
    fprintf(stderr, "usage: %s WIDTH DEPTH [tap] SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int width = (int)arg_long(argv[1], "WIDTH");
  int depth = (int)arg_long(argv[2], "DEPTH");
  uint64_t seed = (uint64_t)arg_long(argv[a], "SEED");
  int inject = argc == a + 3 && strcmp(argv[a + 2], "inject") == 0;
  if (width < 1 || width > 60 || depth < 0 || depth > 64 || (tapped && depth < 1)) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int ncyc = 1500;
  int bad = inject ? (int)vrng_range(&g, ncyc / 2, ncyc - 1) : -1;

  /* Everything taken since the last reset, newest last. */
  uint64_t *hist = malloc(sizeof(uint64_t) * (size_t)ncyc);
  if (!hist) return 2;
  int nh = 0;
  int p_en = 50;
  int tap = 0, t_reg = 0;   /* the tap driven, and the one the block holds */
  FILE *f = open_out(argv[a + 1]);
  fprintf(f, "%d %d %d\n", width, depth, ncyc);
  for (int t = 0; t < ncyc; t++) {
    if (t % 100 == 0) p_en = (int)vrng_range(&g, 10, 100);
    int rst_n = !(t < 2 || (t > 10 && vrng_pct(&g, 1)));
    int en = vrng_pct(&g, p_en);
    uint64_t d = vrng_u64(&g) & bits_mask(width);
    if (tapped && vrng_pct(&g, 20)) tap = (int)vrng_range(&g, 0, depth + 2);
    if (!rst_n) nh = 0;   /* at once, before the edge */
    uint64_t q_pre = tapped ? stage(hist, nh, t_reg, d) : 0;
    if (rst_n && en) hist[nh++] = d;
    t_reg = tap < depth ? tap : depth;
    uint64_t q = stage(hist, nh, tapped ? t_reg : depth, d);
    if (t == bad) q ^= 1u;
    if (tapped)
      fprintf(f, "%x %x %llx %x  %x %llx %llx\n", (unsigned)rst_n, (unsigned)en,
              (unsigned long long)d, (unsigned)tap, (unsigned)(t > 0),
              (unsigned long long)q_pre, (unsigned long long)q);
    else
      fprintf(f, "%x %x %llx  %llx\n", (unsigned)rst_n, (unsigned)en, (unsigned long long)d,
              (unsigned long long)q);
  }
  close_out(f, argv[a + 1]);
  free(hist);
  return 0;
}
