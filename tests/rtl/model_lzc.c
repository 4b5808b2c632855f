/* model_lzc: reference counts and stimulus for sagen_lzc (the leading zeros of a W-bit word, W
 * for a zero word).
 *
 * Words up to 12 bits are checked exhaustively; wider ones get every word with a single one
 * (each count), zero, all ones, and random words with their leading one at a random place.
 *
 * Usage: model_lzc W SEED OUT.vec [inject]
 * Vector file: "W N", then N lines "d cnt" (hex). With "inject" one expected count is wrong on
 * purpose. */
#include "vec_common.h"

static int lzc(uint64_t d, int w)
{
  int n = 0;
  for (int i = w - 1; i >= 0 && !((d >> i) & 1u); i--) n++;
  return n;
}

int main(int argc, char **argv)
{
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s W SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int w = (int)arg_long(argv[1], "W");
  uint64_t seed = (uint64_t)arg_long(argv[2], "SEED");
  int inject = argc == 5 && strcmp(argv[4], "inject") == 0;
  if (w < 1 || w > 60) {
    fprintf(stderr, "W out of range (1 .. 60)\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  long n = w <= 12 ? (1L << w) : 4000;
  long bad = inject ? (long)vrng_range(&g, 0, n - 1) : -1;
  FILE *f = open_out(argv[3]);
  fprintf(f, "%d %ld\n", w, n);
  for (long t = 0; t < n; t++) {
    uint64_t d;
    if (w <= 12) d = (uint64_t)t;
    else if (t < w) d = 1ull << t;
    else if (t == w) d = 0;
    else if (t == w + 1) d = bits_mask(w);
    else {
      int top = (int)vrng_range(&g, 0, w - 1);
      d = (vrng_u64(&g) & bits_mask(top)) | (1ull << top);
    }
    int c = lzc(d, w);
    if (t == bad) c ^= 1;
    fprintf(f, "%llx %x\n", (unsigned long long)d, (unsigned)c);
  }
  close_out(f, argv[3]);
  return 0;
}
