/* model_walk_len: reference model and stimulus for sagen_walk_len (the contexts of a pass's
 * walk, added up from go on).
 *
 * Modelled behaviour (from the block's description, with a plain product): in the t-th cycle
 * after a go (t >= 1), walk = min(t, n_kg) * n_ctx; before the first go, 0. The counts hold
 * from go to the next go and their product is below 2^16 (the controller refuses others).
 *
 * Stimulus: passes of 1..300 cycles between gos (sometimes go in back-to-back cycles), counts
 * small or up to the limit, and a reset now and then (walk 0 until the next go).
 *
 * Usage: model_walk_len SEED OUT.vec [inject]
 * Vector file: "NCYC", then one line per cycle (hex): "rst_n go n_ctx n_kg | walk" (walk: the
 * output of the cycle, before its rising edge). With "inject" one expected walk is wrong on
 * purpose. */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  uint64_t seed = (uint64_t)arg_long(argv[1], "SEED");
  int inject = argc == 4 && strcmp(argv[3], "inject") == 0;
  vrng g;
  vrng_seed(&g, seed);
  const int ncyc = 20000;
  int bad = inject ? (int)vrng_range(&g, ncyc / 2, ncyc - 1) : -1;
  FILE *f = open_out(argv[2]);
  fprintf(f, "%d\n", ncyc);
  int64_t n_ctx = 1, n_kg = 1;      /* the counts on the inputs */
  int64_t p_ctx = 0, p_kg = 0;      /* ... as they were at the last go */
  int64_t since = -1;               /* cycles since the last go (-1: none since reset) */
  int64_t left = 3;
  long n_full = 0;
  for (int t = 0; t < ncyc; t++) {
    int rst_n = !(t < 2 || (t > 10 && vrng_range(&g, 0, 999) == 0));
    int go = 0;
    if (--left <= 0) {
      go = 1;
      left = vrng_pct(&g, 10) ? 1 : vrng_range(&g, 1, 300);
      switch (vrng_range(&g, 0, 2)) {
      case 0:
        n_ctx = vrng_range(&g, 1, 20);
        n_kg = vrng_range(&g, 1, 20);
        break;
      case 1:
        n_kg = vrng_range(&g, 1, 400);
        n_ctx = vrng_range(&g, 1, 65535 / n_kg);
        break;
      default:
        n_ctx = vrng_range(&g, 1, 65535);
        n_kg = vrng_range(&g, 1, 65535 / n_ctx);
        break;
      }
    }
    if (!rst_n) since = -1;
    uint64_t walk = since < 1 ? 0 : (uint64_t)((since < p_kg ? since : p_kg) * p_ctx);
    n_full += since >= p_kg && p_kg > 1;
    if (t == bad) walk ^= 1u;
    fprintf(f, "%x %x %llx %llx  %llx\n", rst_n, go, (unsigned long long)n_ctx,
            (unsigned long long)n_kg, (unsigned long long)walk);
    /* the rising edge */
    if (rst_n) {
      if (go) {
        since = 1;
        p_ctx = n_ctx;
        p_kg = n_kg;
      } else if (since >= 1) {
        since++;
      }
    }
  }
  close_out(f, argv[2]);
  if (n_full < 100) {
    fprintf(stderr, "weak stimulus: %ld cycles with a complete sum\n", n_full);
    return 1;
  }
  return 0;
}
