/* model_skew: reference model and stimulus for sagen_skew (a delay line of DEPTH enabled
 * registers; DEPTH 0 is a wire).
 *
 * Modelled behaviour: after a rising edge, q is the input taken DEPTH enabled cycles ago
 * (counting this one), or zero if fewer enabled cycles happened since the last reset; the
 * active-low reset clears the line at once. With DEPTH 0, q follows d in the same cycle.
 *
 * Usage: model_skew WIDTH DEPTH SEED OUT.vec [inject]
 * Vector file: "WIDTH DEPTH NCYC", then one line per cycle (hex): rst_n en d | q
 * (q: the value expected 1 unit after the rising edge, inputs still applied). With "inject"
 * one expected q is wrong on purpose. */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s WIDTH DEPTH SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int width = (int)arg_long(argv[1], "WIDTH");
  int depth = (int)arg_long(argv[2], "DEPTH");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (width < 1 || width > 60 || depth < 0 || depth > 64) {
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
  FILE *f = open_out(argv[4]);
  fprintf(f, "%d %d %d\n", width, depth, ncyc);
  for (int t = 0; t < ncyc; t++) {
    if (t % 100 == 0) p_en = (int)vrng_range(&g, 10, 100);
    int rst_n = !(t < 2 || (t > 10 && vrng_pct(&g, 1)));
    int en = vrng_pct(&g, p_en);
    uint64_t d = vrng_u64(&g) & bits_mask(width);
    uint64_t q;
    if (!rst_n) nh = 0;
    else if (en) hist[nh++] = d;
    if (depth == 0) q = d;
    else q = nh >= depth ? hist[nh - depth] : 0;
    if (t == bad) q ^= 1u;
    fprintf(f, "%x %x %llx  %llx\n", (unsigned)rst_n, (unsigned)en, (unsigned long long)d,
            (unsigned long long)q);
  }
  close_out(f, argv[4]);
  free(hist);
  return 0;
}
