/* model_hp_bytes: reference model and stimulus for sagen_hp_bytes (the bytes a host-port
 * transfer moves).
 *
 * Modelled behaviour (from the block's description, with a plain product): a write moves
 * ceil(IF_W / 8) bytes (ifmap) or ceil(WT_W / 8) (weight); otherwise a read moves
 * ceil(COLS * ACC_BITS / 8) bytes if read_lanes is 0 or >= COLS, else
 * ceil(read_lanes * ACC_BITS / 8); neither: 0. Counts mod 2^16.
 *
 * Stimulus: every read_lanes value below COLS + 2 with every combination of we, mem and re,
 * then random transfers with read_lanes anywhere in 16 bits.
 *
 * Usage: model_hp_bytes COLS ACC_BITS IF_W WT_W SEED OUT.vec [inject]
 * Vector file: "COLS ACC_BITS IF_W WT_W NCASE", then one line per case (hex):
 *   "we mem re read_lanes | bytes". With "inject" one expected count is wrong on purpose. */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 7 || argc > 8) {
    fprintf(stderr, "usage: %s COLS ACC_BITS IF_W WT_W SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int64_t cols = arg_long(argv[1], "COLS");
  int64_t acc = arg_long(argv[2], "ACC_BITS");
  int64_t if_w = arg_long(argv[3], "IF_W");
  int64_t wt_w = arg_long(argv[4], "WT_W");
  uint64_t seed = (uint64_t)arg_long(argv[5], "SEED");
  int inject = argc == 8 && strcmp(argv[7], "inject") == 0;
  if (cols < 1 || cols > 256 || acc < 2 || acc > 64 || if_w < 1 || wt_w < 1) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int nsweep = (int)(cols + 2) * 8, ncase = nsweep + 2000;
  int bad = inject ? (int)vrng_range(&g, 0, ncase - 1) : -1;
  FILE *f = open_out(argv[6]);
  fprintf(f, "%lld %lld %lld %lld %d\n", (long long)cols, (long long)acc, (long long)if_w,
          (long long)wt_w, ncase);
  for (int t = 0; t < ncase; t++) {
    int we, mem, re;
    int64_t lanes;
    if (t < nsweep) {
      we = t & 1;
      mem = (t >> 1) & 1;
      re = (t >> 2) & 1;
      lanes = t >> 3;
    } else {
      we = vrng_pct(&g, 30);
      mem = vrng_pct(&g, 50);
      re = vrng_pct(&g, 60);
      lanes = vrng_pct(&g, 70) ? vrng_range(&g, 0, cols) : vrng_range(&g, 0, 0xffff);
    }
    int64_t bytes;
    if (we) bytes = mem ? (wt_w + 7) / 8 : (if_w + 7) / 8;
    else if (re) bytes = (lanes == 0 || lanes >= cols) ? (cols * acc + 7) / 8 : (lanes * acc + 7) / 8;
    else bytes = 0;
    bytes &= 0xffff;
    if (t == bad) bytes ^= 1;
    fprintf(f, "%x %x %x %llx  %llx\n", we, mem, re, (unsigned long long)lanes,
            (unsigned long long)bytes);
  }
  close_out(f, argv[6]);
  return 0;
}
