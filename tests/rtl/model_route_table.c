/* model_route_table: reference model and stimulus for sagen_route_table (the col2im route
 * table the host writes two entries at a time).
 *
 * Modelled behaviour (from the block's description): a write puts wdata[W-1:0] into entry addr
 * and wdata[16+W-1:16] into entry addr + 1, each only if it is below N, one cycle late: the
 * write of cycle t lands at the rising edge that ends cycle t + 1 (the entries after it show it
 * from cycle t + 2). The active-low reset clears every entry at once and drops a write not yet
 * landed (one in the reset cycle is never taken).
 *
 * Stimulus: writes in 60% of the cycles, to addresses inside the table (mostly), at its last
 * entry (the second half falls off), past it and at 0xffff (nothing written), with random data
 * in all 32 bits; a reset now and then.
 *
 * Usage: model_route_table N W SEED OUT.vec [inject]
 * Vector file: "N W NCYC", then one line per cycle (hex): "rst_n we addr wdata" and N lines
 * with the expected entries after its rising edge. With "inject" one expected entry is wrong
 * on purpose. */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s N W SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int n = (int)arg_long(argv[1], "N");
  int w = (int)arg_long(argv[2], "W");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (n < 1 || n > 1024 || w < 1 || w > 16) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int ncyc = 600;
  int bad = inject ? (int)vrng_range(&g, ncyc / 2, ncyc - 1) : -1;
  uint64_t *tab = calloc((size_t)n, sizeof *tab);
  int p_we = 0;                     /* the write taken at the last edge, lands at the next */
  uint64_t p_addr = 0, p_wdata = 0;
  if (!tab) return 2;
  FILE *f = open_out(argv[4]);
  fprintf(f, "%d %d %d\n", n, w, ncyc);
  for (int t = 0; t < ncyc; t++) {
    int rst_n = !(t < 2 || (t > 10 && vrng_range(&g, 0, 199) == 0));
    int we = vrng_pct(&g, 60);
    uint64_t addr;
    switch (vrng_range(&g, 0, 9)) {
    case 0: addr = (uint64_t)(n - 1); break;
    case 1: addr = (uint64_t)vrng_range(&g, n, n + 3); break;
    case 2: addr = 0xffff; break;
    default: addr = (uint64_t)vrng_range(&g, 0, n - 1); break;
    }
    uint64_t wdata = vrng_u64(&g) & 0xffffffffu;
    fprintf(f, "%x %x %llx %llx\n", rst_n, we, (unsigned long long)addr,
            (unsigned long long)wdata);
    if (!rst_n) {
      memset(tab, 0, (size_t)n * sizeof *tab);
      p_we = 0;
    } else {
      if (p_we) {
        if (p_addr < (uint64_t)n) tab[p_addr] = p_wdata & bits_mask(w);
        if (p_addr + 1 < (uint64_t)n) tab[p_addr + 1] = (p_wdata >> 16) & bits_mask(w);
      }
      p_we = we;
      p_addr = addr;
      p_wdata = wdata;
    }
    int bad_e = t == bad ? (int)vrng_range(&g, 0, n - 1) : -1;
    for (int e = 0; e < n; e++)
      fprintf(f, "%llx\n", (unsigned long long)(e == bad_e ? tab[e] ^ 1u : tab[e]));
  }
  close_out(f, argv[4]);
  free(tab);
  return 0;
}
