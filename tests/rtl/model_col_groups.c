/* model_col_groups: reference model and stimulus for sagen_col_groups (the column-group map).
 *
 * Modelled behaviour (from the block's description, with plain products). grouped = GROUPS > 1
 * and grp_n > 1; then g = grp_n and w = grp_w, else g = 1 and w = COLS.
 *   grp_w = w; lanes = grp_n * ROWS if grp_n is in 2..GROUPS, else ROWS (likewise f_lanes for
 *   f_grp_n); kg_words = 0 in col2im, else n_ctx * ROWS if grouped, else npix.
 *   Column c: its group k is the largest k in 1..min(g, GROUPS)-1 with k * w <= c (else 0), its
 *   start s = k * w (0 for group 0); col_j = c - s; dtap = w - 1 - col_j if col_j < w, else 0;
 *   inj bit k of column c is set iff k >= 1 and s == c.
 *
 * Stimulus: descriptors the controller accepts (0..GROUPS groups whose columns fit, n_ctx below
 * 2^16) and, one in five, any group count and width (what the block does with them is defined
 * too); the feeder's group count drawn apart.
 *
 * Usage: model_col_groups ROWS COLS GROUPS SEED OUT.vec [inject]
 * Vector file: "ROWS COLS GROUPS NCASE", then per case a line (hex) "grp_n grp_w f_grp_n n_ctx
 * npix c2i | grp_w lanes f_lanes kg_words" and COLS lines (hex) "col_j dtap inj" (inj: the
 * column's GROUPS bits, bit k for group k). With "inject" one expected value is wrong on
 * purpose. */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 6 || argc > 7) {
    fprintf(stderr, "usage: %s ROWS COLS GROUPS SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int64_t rows = arg_long(argv[1], "ROWS");
  int64_t cols = arg_long(argv[2], "COLS");
  int64_t groups = arg_long(argv[3], "GROUPS");
  uint64_t seed = (uint64_t)arg_long(argv[4], "SEED");
  int inject = argc == 7 && strcmp(argv[6], "inject") == 0;
  if (rows < 1 || rows > 256 || cols < 1 || cols > 256 || groups < 1 || groups > 64 ||
      groups > cols || rows * groups > 256) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int ncase = 400;
  int bad = inject ? (int)vrng_range(&g, 0, ncase - 1) : -1;
  FILE *f = open_out(argv[5]);
  fprintf(f, "%lld %lld %lld %d\n", (long long)rows, (long long)cols, (long long)groups, ncase);
  long n_grouped = 0, n_inj = 0;
  for (int t = 0; t < ncase; t++) {
    int64_t grp_n, grp_w, f_grp_n;
    if (vrng_pct(&g, 80)) {
      grp_n = vrng_range(&g, 0, groups);
      grp_w = grp_n > 1 ? vrng_range(&g, 1, cols / grp_n) : vrng_range(&g, 0, 255);
      f_grp_n = vrng_pct(&g, 50) ? grp_n : vrng_range(&g, 0, groups);
    } else {
      grp_n = vrng_range(&g, 0, 255);
      grp_w = vrng_range(&g, 0, 255);
      f_grp_n = vrng_range(&g, 0, 255);
    }
    int64_t n_ctx = vrng_pct(&g, 70) ? vrng_range(&g, 1, 300) : vrng_range(&g, 0, 0xffff);
    int64_t npix = vrng_pct(&g, 70) ? vrng_range(&g, 1, 5000) : vrng_range(&g, 0, 0xffffffffll);
    int c2i = vrng_pct(&g, 15);

    int grouped = groups > 1 && grp_n > 1;
    int64_t gn = grouped ? grp_n : 1, w = grouped ? grp_w : cols;
    int64_t lanes = (grp_n >= 2 && grp_n <= groups) ? grp_n * rows : rows;
    int64_t f_lanes = (f_grp_n >= 2 && f_grp_n <= groups) ? f_grp_n * rows : rows;
    uint64_t kg_words = c2i ? 0 : grouped ? (uint64_t)(n_ctx * rows) : (uint64_t)npix;
    int bad_field = t == bad ? (int)vrng_range(&g, 0, 4 + 3 * cols - 1) : -1;
    uint64_t e[4] = {(uint64_t)w, (uint64_t)lanes, (uint64_t)f_lanes, kg_words & 0xffffffffu};
    if (bad_field >= 0 && bad_field < 4) e[bad_field] ^= 1u;
    n_grouped += grouped;
    fprintf(f, "%llx %llx %llx %llx %llx %x  %llx %llx %llx %llx\n", (unsigned long long)grp_n,
            (unsigned long long)grp_w, (unsigned long long)f_grp_n, (unsigned long long)n_ctx,
            (unsigned long long)npix, c2i, (unsigned long long)e[0], (unsigned long long)e[1],
            (unsigned long long)e[2], (unsigned long long)e[3]);
    for (int64_t c = 0; c < cols; c++) {
      int64_t k_c = 0, s = 0;
      for (int64_t k = 1; k < gn && k < groups; k++)
        if (k * w <= c) {
          k_c = k;
          s = k * w;
        }
      uint64_t col_j = (uint64_t)(c - s);
      uint64_t dtap = (int64_t)col_j < w ? (uint64_t)(w - 1 - (int64_t)col_j) : 0;
      uint64_t inj = (k_c >= 1 && s == c) ? 1ull << k_c : 0;
      n_inj += inj != 0;
      uint64_t o[3] = {col_j, dtap, inj};
      int fi = bad_field - 4 - 3 * (int)c;
      if (fi >= 0 && fi < 3) o[fi] ^= 1u;
      fprintf(f, "%llx %llx %llx\n", (unsigned long long)o[0], (unsigned long long)o[1],
              (unsigned long long)o[2]);
    }
  }
  close_out(f, argv[5]);
  if (groups > 1 && (n_grouped < 50 || n_inj < 50)) {
    fprintf(stderr, "weak stimulus: %ld grouped cases, %ld group starts\n", n_grouped, n_inj);
    return 1;
  }
  return 0;
}
