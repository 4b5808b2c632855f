/* cosim_random: random layers through the Verilated model of each configuration, forward
 * (conv2d) and backward (conv2d_input_grad, conv2d_weight_grad), every output element compared
 * with the golden model.
 *
 * usage: cosim_random [--count N] [--seed S] [--ops fwd|bwd|all] [--build-dir DIR] CONFIG.yaml...
 * N layers per configuration and op (default 75). Prints `ok ...` / `not ok ...` per layer with
 * the seed that reproduces it (`--seed S --count 1`), and `N passed, N failed` at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "driver.h"
#include "golden.h"
#include "hw.h"
#include "model.h"
#include "rng.h"

static void random_layer(uint64_t *s, const cfg_t *c, layer_t *l)
{
  memset(l, 0, sizeof *l);
  for (;;) {
    l->n = rng_range(s, 1, 2);
    l->c = rng_range(s, 1, rng_range(s, 0, 3) == 0 ? 40 : 9);
    /* odd, rectangular, and smaller than the array */
    l->h = rng_range(s, 1, 19);
    l->w = rng_range(s, 1, rng_range(s, 0, 2) == 0 ? 3 * c->rows + 5 : 19);
    l->k = rng_range(s, 1, rng_range(s, 0, 2) == 0 ? 3 * c->cols + 3 : c->cols + 1);
    l->r = rng_range(s, 1, 5);
    l->s = rng_range(s, 1, 5);
    l->sh = rng_range(s, 1, 3);
    l->sw = rng_range(s, 1, 3);
    l->dh = rng_range(s, 0, 3) == 0 ? rng_range(s, 2, 3) : 1;
    l->dw = rng_range(s, 0, 3) == 0 ? rng_range(s, 2, 3) : 1;
    l->ph = rng_range(s, 0, 2);
    l->pw = rng_range(s, 0, 2);
    if (layer_out_h(l) >= 1 && layer_out_w(l) >= 1) return;
  }
}

static void random_tensor(uint64_t *s, tensor_t *t, const long *shape, int bits)
{
  tensor_alloc(t, 4, shape);
  int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
  for (long i = 0; i < tensor_numel(t); i++) {
    int pick = (int)rng_range(s, 0, 9);
    t->data[i] = pick == 0 ? 0 : pick == 1 ? lo : pick == 2 ? hi : rng_range(s, lo, hi);
  }
}

/* dy's traffic, counted apart: a forward op has none; dy is every word a loss reads from the
 * ifmap memory and every word a gradient reads from the weight memory, and crosses the host port
 * in part of the bytes that go in (some, if it is read at all). A tile of dy may be loaded and
 * never read: where every product of a loss falls outside dx (x 6 x 1, a 3 x 2 kernel dilated
 * 3 x 2 with padding 1: dx's one column meets no tap), its windows read padding only. */
static int dy_traffic_ok(const cfg_t *c, int op, const report_t *r)
{
  uint64_t words = op == 1 ? r->sram_if : op == 2 ? r->sram_wt : 0;
  uint64_t bytes = (uint64_t)((op == 1 ? c->if_word_bits : c->wt_word_bits) + 7) / 8;
  return r->dy_sram_bytes == words * bytes && r->dy_host_bytes <= r->host_bytes_in &&
         (words == 0 || r->dy_host_bytes > 0) && (op != 0 || r->dy_host_bytes == 0);
}

int main(int argc, char **argv)
{
  long count = 75;
  uint64_t seed0 = 1;
  const char *build_dir = "build/models";
  const char *ops = "fwd";
  const char *modes = "skip,fill";
  int passed = 0, failed = 0;
  long linear = 0, shared = 0, joined = 0, blocks = 0, aligned = 0, side = 0, col2im = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed0 = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--build-dir") && i + 1 < argc) build_dir = argv[++i];
    else if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = argv[++i];
    else if (!strcmp(argv[i], "--bp-modes") && i + 1 < argc) modes = argv[++i];
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: cosim_random [--count N] [--seed S] [--ops fwd|bwd|all] [--bp-modes skip,fill] "
              "[--build-dir DIR] CONFIG.yaml...\n");
      return 2;
    }
  }
  for (int a = 1; a < argc; a++) {
    if (argv[a][0] == '-') {
      a++;
      continue;
    }
    cfg_t c;
    char lib[2400], rtl[2400], err[2048];
    if (cfg_load(argv[a], &c, stderr) ||
        model_build(&c, build_dir, 0, 1, lib, sizeof lib, rtl, sizeof rtl, err, sizeof err)) {
      printf("not ok cosim %s: cannot build the model: %s\n", argv[a], err);
      failed++;
      continue;
    }
    hw_t hw;
    int hp_dw = c.if_word_bits > c.wt_word_bits ? c.if_word_bits : c.wt_word_bits;
    if (hw_open(&hw, lib, NULL, NULL, hp_dw, c.out_word_bits, err, sizeof err)) {
      printf("not ok cosim %s: %s\n", argv[a], err);
      failed++;
      continue;
    }
    int op_lo = !strcmp(ops, "bwd") ? 1 : 0, op_hi = !strcmp(ops, "fwd") ? 0 : 2;
    for (int op = op_lo; op <= op_hi; op++)
    for (int fill = 0; fill < 2; fill++)
    for (long i = 0; i < count; i++) {
      /* the backward ops in each mode asked for; the forward op once */
      if (op == 0 ? fill : !strstr(modes, fill ? "fill" : "skip")) continue;
      uint64_t seed = seed0 + (uint64_t)i, s = seed;
      layer_t l;
      random_layer(&s, &c, &l);
      long oh = layer_out_h(&l), ow = layer_out_w(&l);
      tensor_t a = {0}, b = {0}, y = {0}, ref = {0};
      long xs[4] = {l.n, l.c, l.h, l.w}, ws[4] = {l.k, l.c, l.r, l.s}, dys[4] = {l.n, l.k, oh, ow};
      random_tensor(&s, &a, op == 1 ? dys : xs, c.input_bits);
      random_tensor(&s, &b, op == 2 ? dys : ws, c.weight_bits);
      static const char *names[] = {"conv2d", "conv2d_input_grad", "conv2d_weight_grad"};
      char desc[320];
      snprintf(desc, sizeof desc, "%s %s seed=%" PRIu64 " x=%ldx%ldx%ldx%ld w=%ldx%ldx%ldx%ld stride=%ld,%ld "
               "pad=%ld,%ld dil=%ld,%ld", names[op], c.name, seed, l.n, l.c, l.h, l.w, l.k, l.c, l.r, l.s,
               l.sh, l.sw, l.ph, l.pw, l.dh, l.dw);
      size_t dl = strlen(desc);
      /* the driver's choice, or either context mapping and either orientation forced */
      drive_opts_t o = {0, 1, NULL, (int)rng_range(&s, 0, 3), fill, 0, 0, 0, 0, 0};
      o.orientation = (int)rng_range(&s, 0, 2);
      o.rows = (int)rng_range(&s, 0, 2);   /* the driver's choice, packed or aligned rows */
      /* the images of the batch: the driver's choice, apart, or side by side where allowed */
      o.images = (int)rng_range(&s, 0, 2);
      /* with column groups: the driver's choice or any number of groups forced */
      o.col_groups = c.col_groups > 1 ? (int)rng_range(&s, 0, c.col_groups) : 0;
      /* the input gradient's phases: the driver's choice, sharing runs wherever they can, one
       * run each, joined into one convolution (zero_skip, two or more phases with taps), in
       * blocks, some joined (three or more phases), or the op as col2im (zero_skip, where the
       * configuration has the line and every tap reaches at most the next super-pixel) */
      if (op == 1) o.phases = (int)rng_range(&s, 0, 5);
      char groups[32] = "";
      if (c.col_groups > 1) {
        if (o.col_groups) snprintf(groups, sizeof groups, " groups=%d", o.col_groups);
        else snprintf(groups, sizeof groups, " groups=auto");
      }
      snprintf(desc + dl, sizeof desc - dl, " contexts=%s rows=%s orient=%s images=%s%s%s",
               o.contexts == 0 ? "auto" : o.contexts == 1 ? "wrapped" : o.contexts == 2 ? "in-row" : "linear",
               o.rows == 0 ? "auto" : o.rows == 1 ? "packed" : "aligned",
               o.orientation == 0 ? "auto" : o.orientation == 1 ? "as-given" : "swapped",
               o.images == 0 ? "auto" : o.images == 1 ? "apart" : "side", groups,
               op == 0 ? "" : fill ? " zero_fill" : " zero_skip");
      if (o.phases) {
        dl = strlen(desc);
        snprintf(desc + dl, sizeof desc - dl, " phases=%s",
                 o.phases == 1 ? "shared" : o.phases == 2 ? "separate" :
                 o.phases == 3 ? "joined" : o.phases == 4 ? "blocks" : "col2im");
      }
      report_t rep;
      int bad = op == 0   ? drive_conv2d(&hw, &c, &l, &a, &b, &y, &o, &rep, err, sizeof err)
                : op == 1 ? drive_conv2d_input_grad(&hw, &c, &l, &a, &b, &y, &o, &rep, err, sizeof err)
                          : drive_conv2d_weight_grad(&hw, &c, &l, &a, &b, &y, &o, &rep, err, sizeof err);
      if (bad) {
        printf("not ok cosim %s: %s\n", desc, err);
        failed++;
      } else {
        golden_conv_t g = {l.n, l.c, l.h, l.w, l.k, l.r, l.s, l.sh, l.sw, l.ph, l.pw, l.dh, l.dw, c.acc_bits};
        tensor_alloc(&ref, 4, y.shape);
        if (op == 0) golden_conv2d(&g, a.data, b.data, ref.data);
        else if (op == 1) golden_conv2d_input_grad(&g, a.data, b.data, ref.data);
        else golden_conv2d_weight_grad(&g, a.data, b.data, ref.data);
        long n = tensor_numel(&y), nbad = 0, first = -1;
        for (long e = 0; e < n; e++)
          if (y.data[e] != ref.data[e] && nbad++ == 0) first = e;
        uint64_t parts = rep.step_valid + rep.zero_steps + rep.bubble + rep.fill + rep.stall +
                         rep.drain;
        if (!nbad && (parts != rep.busy || (!fill && rep.zero_steps) || (fill && op && rep.zero_pe &&
                      !rep.zero_steps))) {
          printf("not ok cosim %s: cycle accounting: busy %" PRIu64 " != steps %" PRIu64
                 " + zero steps %" PRIu64 " + bubbles + fill + stall + drain = %" PRIu64 "\n",
                 desc, rep.busy, rep.step_valid, rep.zero_steps, parts);
          failed++;
        } else if (!nbad && !dy_traffic_ok(&c, op, &rep)) {
          printf("not ok cosim %s: dy's traffic: host %" PRIu64 " of %" PRIu64 " bytes in, SRAM %"
                 PRIu64 " bytes (ifmap words %" PRIu64 ", weight words %" PRIu64 ")\n", desc,
                 rep.dy_host_bytes, rep.host_bytes_in, rep.dy_sram_bytes, rep.sram_if, rep.sram_wt);
          failed++;
        } else if (nbad) {
          printf("not ok cosim %s: %ld of %ld elements differ, first at flat index %ld: expected %"
                 PRId64 ", got %" PRId64 "\n", desc, nbad, n, first, ref.data[first], y.data[first]);
          failed++;
        } else {
          int jn = rep.form && !strcmp(rep.form, "joined_phases");
          int bl = rep.form && !strcmp(rep.form, "phase_blocks");
          int ci = rep.form && !strcmp(rep.form, "col2im");
          printf("ok cosim %s (%ld elements, %" PRIu64 " cycles%s)\n", desc, n, rep.cycles,
                 bl ? ", phases in blocks" : rep.shared_runs ? ", phases sharing runs" :
                 jn ? ", phases joined" : ci ? ", col2im" : "");
          col2im += ci;
          passed++;
          shared += rep.shared_runs > 0;
          joined += jn;
          blocks += bl;
          linear += rep.ctx_runs[2] > 0;
          aligned += rep.aligned_runs > 0;
          side += rep.side_runs > 0;
        }
      }
      fflush(stdout);
      tensor_free(&a);
      tensor_free(&b);
      tensor_free(&y);
      tensor_free(&ref);
    }
    hw_close(&hw);
  }
  /* how often the two mappings that only some layers allow ran (a drift to zero would leave
   * them untested) */
  printf("# %ld cases ran linear contexts, %ld aligned rows, %ld images side by side, %ld input "
         "gradients ran phases sharing runs, %ld joined, %ld in blocks, %ld as col2im\n", linear,
         aligned, side, shared, joined, blocks, col2im);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
