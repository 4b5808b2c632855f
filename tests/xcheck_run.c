/* xcheck_run: one configuration, one X seed: the default (fast) and the unique-X builds of the
 * Verilated model side by side (tests/xcheck.sh runs it; the Makefile builds it).
 *
 * usage: xcheck_run CONFIG.yaml BUILD_DIR XSEED LAYERS LAYER_SEED0
 * After reset, the output SRAM words never written are read back through the host port: all
 * zero in the default build, random in the unique one ("uninit"); then LAYERS random layers
 * (tests/lib/random_layer.c, seeds LAYER_SEED0...) run on both builds, whose outputs must equal
 * the golden model and whose cycles and counters must agree ("layer"). Prints `ok`/`not ok` per
 * check, a `# fingerprint CONFIG XSEED HEX` line of the unwritten words, and `# N passed, N
 * failed`. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "driver.h"
#include "cosim_fp.h"
#include "golden.h"
#include "hw.h"
#include "model.h"
#include "rng.h"

#include "lib/random_layer.h"

static int passed, failed;

/* Reset, then read output bank 0 words 0..n-1 (never written): bits set and a fingerprint. */
static void probe_uninit(hw_t *hw, const cfg_t *c, long n, long *ones, uint64_t *fp)
{
  int nw = (c->out_word_bits + 31) / 32;
  *ones = 0;
  *fp = 1469598103934665603ull;
  hw_reset(hw, 4);
  for (long a = 0; a < n; a++) {
    hw->io.hp_re = 1;
    hw->io.hp_bank = 0;
    hw->io.hp_addr = (uint32_t)a;
    hw_cycle(hw);
    for (int i = 0; i < nw; i++) {
      uint32_t v = hw->io.hp_rdata[i];
      if (i == nw - 1 && c->out_word_bits % 32) v &= (1u << (c->out_word_bits % 32)) - 1;
      *ones += __builtin_popcount(v);
      for (int b = 0; b < 4; b++) {
        *fp ^= (v >> (8 * b)) & 0xff;
        *fp *= 1099511628211ull;
      }
    }
  }
}

static int same_report(const report_t *a, const report_t *b, char *why, size_t len)
{
#define CMP(f)                                                                              \
  if (a->f != b->f) {                                                                       \
    snprintf(why, len, #f " %" PRIu64 " (default build) vs %" PRIu64 " (unique X)",         \
             (uint64_t)a->f, (uint64_t)b->f);                                               \
    return 0;                                                                               \
  }
  CMP(cycles) CMP(busy) CMP(step_valid) CMP(bubble) CMP(fill) CMP(stall) CMP(drain)
  CMP(dram_wait) CMP(hw_macs) CMP(sram_if) CMP(sram_wt) CMP(sram_out_rd) CMP(sram_out_wr)
  CMP(pad_words) CMP(hw_host_bytes) CMP(passes)
#undef CMP
  return 1;
}

int main(int argc, char **argv)
{
  if (argc != 6) {
    fprintf(stderr, "usage: xcheck_run CONFIG.yaml BUILD_DIR XSEED LAYERS LAYER_SEED0\n");
    return 2;
  }
  const char *yaml = argv[1], *bdir = argv[2];
  long xseed = atol(argv[3]), nlayers = atol(argv[4]);
  uint64_t seed0 = strtoull(argv[5], NULL, 10);
  cfg_t c;
  char err[2048], lib_f[2400], lib_u[2400], rtl[2400];
  if (cfg_load(yaml, &c, stderr)) {
    printf("not ok setup:%s: cannot load\n", yaml);
    return 1;
  }
  if (model_build_x(&c, bdir, 0, MODEL_X_FAST, 1, lib_f, sizeof lib_f, rtl, sizeof rtl, err, sizeof err) ||
      model_build_x(&c, bdir, 0, MODEL_X_UNIQUE, 1, lib_u, sizeof lib_u, rtl, sizeof rtl, err, sizeof err)) {
    printf("not ok build:%s: %s\n", c.name, err);
    return 1;
  }
  int hp_dw = c.if_word_bits > c.wt_word_bits ? c.if_word_bits : c.wt_word_bits;
  hw_t hf, hu;
  /* the unique build's random state (model.h); open it first, before anything else could draw
   * from lrand48 */
  model_x_seed(xseed);
  if (hw_open(&hu, lib_u, NULL, NULL, hp_dw, c.out_word_bits, err, sizeof err) ||
      hw_open(&hf, lib_f, NULL, NULL, hp_dw, c.out_word_bits, err, sizeof err)) {
    printf("not ok open:%s: %s\n", c.name, err);
    return 1;
  }

  long nprobe = c.out_words < 64 ? c.out_words : 64, bits = nprobe * c.out_word_bits;
  long ones_f, ones_u;
  uint64_t fp_f, fp_u;
  probe_uninit(&hf, &c, nprobe, &ones_f, &fp_f);
  probe_uninit(&hu, &c, nprobe, &ones_u, &fp_u);
  /* random bits: about half set (sigma = sqrt(bits)/2); the margin is about 6 sigma */
  double half = bits / 2.0, tol = 3.0 * __builtin_sqrt((double)bits) + 4;
  if (ones_f == 0 && ones_u > half - tol && ones_u < half + tol) {
    printf("ok uninit:%s:x%ld: %ld unwritten output words (%ld bits): default build %ld bits set, "
           "unique X %ld bits set, fingerprint %016" PRIx64 "\n", c.name, xseed, nprobe, bits,
           ones_f, ones_u, fp_u);
    passed++;
  } else {
    printf("not ok uninit:%s:x%ld: %ld unwritten output words (%ld bits): default build %ld bits "
           "set (want 0), unique X %ld bits set (want about %.0f): +verilator+rand+reset+2 or "
           "--x-initial unique did not take effect\n", c.name, xseed, nprobe, bits, ones_f, ones_u, half);
    failed++;
  }
  printf("# fingerprint %s %ld %016" PRIx64 "\n", c.name, xseed, fp_u);

  for (long i = 0; i < nlayers; i++) {
    uint64_t lseed = seed0 + (uint64_t)i, s = lseed;
    layer_t l;
    random_layer(&s, &c, &l);
    tensor_t x = {0}, w = {0}, yf = {0}, yu = {0}, ref = {0};
    long xs[4] = {l.n, l.c, l.h, l.w}, ws[4] = {l.k, l.c, l.r, l.s};
    if (c.fp) {   /* float formats: standard normal values */
      cosim_fp_random(&c, &x, xs, &s);
      cosim_fp_random(&c, &w, ws, &s);
    } else {
      random_tensor(&s, &x, xs, c.input_bits);
      random_tensor(&s, &w, ws, c.weight_bits);
    }
    drive_slices_t slices = {0};
    char desc[300];
    snprintf(desc, sizeof desc, "layer:%s:x%ld:%" PRIu64 " x=%ldx%ldx%ldx%ld w=%ldx%ldx%ldx%ld "
             "stride=%ld,%ld pad=%ld,%ld dil=%ld,%ld", c.name, xseed, lseed, l.n, l.c, l.h, l.w,
             l.k, l.c, l.r, l.s, l.sh, l.sw, l.ph, l.pw, l.dh, l.dw);
    drive_opts_t o = {0, 1, NULL, 0, 0, 0, 0, 0, 0, 0, &slices, NULL};
    report_t rf, ru;
    char why[2600] = "";
    if (drive_conv2d(&hf, &c, &l, &x, &w, &yf, &o, &rf, err, sizeof err)) {
      snprintf(why, sizeof why, "default build: %s", err);
    } else if (drive_conv2d(&hu, &c, &l, &x, &w, &yu, &o, &ru, err, sizeof err)) {
      snprintf(why, sizeof why, "unique X: %s", err);
    } else {
      golden_conv_t g = {l.n, l.c, l.h, l.w, l.k, l.r, l.s, l.sh, l.sw, l.ph, l.pw, l.dh, l.dw, c.acc_bits};
      /* (a float format: the bit-exact golden of the slices the default build's run logged;
       * the unique-X build's run planned the same passes again) */
      if (c.fp) {
        slices.n /= 2;
        if (cosim_fp_golden(&c, &l, &x, &w, &slices, &ref)) tensor_alloc(&ref, 4, yf.shape);
      } else {
        tensor_alloc(&ref, 4, yf.shape);
        golden_conv2d(&g, x.data, w.data, ref.data);
      }
      long n = tensor_numel(&ref), bf = 0, bu = 0, first = -1;
      for (long e = 0; e < n; e++) {
        if (yf.data[e] != ref.data[e]) bf++;
        if (yu.data[e] != ref.data[e] && bu++ == 0) first = e;
      }
      if (bf || bu) {
        snprintf(why, sizeof why, "%ld (default build) and %ld (unique X) of %ld elements differ "
                 "from the golden model%s", bf, bu, n, first >= 0 ? ", first unique-X mismatch at "
                 "flat index" : "");
        if (first >= 0) {
          size_t k = strlen(why);
          snprintf(why + k, sizeof why - k, " %ld: expected %" PRId64 ", got %" PRId64, first,
                   ref.data[first], yu.data[first]);
        }
      } else if (!same_report(&rf, &ru, why, sizeof why)) {
        /* why says which counter */
      } else {
        printf("ok %s: both builds equal the golden model (%ld elements), %" PRIu64 " cycles each\n",
               desc, n, rf.cycles);
        passed++;
      }
    }
    if (why[0]) {
      printf("not ok %s: %s\n", desc, why);
      failed++;
    }
    fflush(stdout);
    tensor_free(&x);
    tensor_free(&w);
    tensor_free(&yf);
    tensor_free(&yu);
    tensor_free(&ref);
    free(slices.s);
  }
  hw_close(&hf);
  hw_close(&hu);
  printf("# %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
