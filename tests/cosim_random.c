/* cosim_random: random layers through the Verilated model of each configuration, forward
 * (conv2d) and backward (conv2d_input_grad, conv2d_weight_grad), every output element compared
 * with the golden model; a sample of them replayed in Icarus Verilog and compared again.
 *
 * usage: cosim_random [--count N] [--seed S] [--ops fwd|bwd|all] [--bp-modes skip,fill]
 *                     [--icarus PCT] [--icarus-max-cycles C] [--random-configs K]
 *                     [--build-dir DIR] [CONFIG.yaml...]
 * N layers per configuration and op (default 75). --random-configs K draws K configurations
 * (small arrays of every shape the validator allows: rows, columns, column groups, bus, widths,
 * SRAM sizes, banks, line, feeder) from the seed besides the files given; each is printed as
 * YAML in a `#` comment before its cases. --icarus PCT replays cases in Icarus: on each
 * configuration every case that exercises something no case replayed there did (an op and mode,
 * a form, and per op a context mapping, row layout, images side by side, shared phases, several
 * runs, a count of column groups), and PCT% of the others (drawn from each case's seed), those whose run took at most C cycles (default 20000;
 * C x 8 / lanes on a configuration with more than 8 feed lanes (rows x column groups): Icarus
 * runs a few thousand cycles a second on a few lanes, tens on 64); the words it reads must equal
 * Verilator's and its result the golden model's (--icarus 100 replays every case). Prints `ok ...` / `not ok ...` per layer with the seed that reproduces it
 * (`--seed S --count 1`; a random configuration with `--random-configs K` and the same seed),
 * and `N passed, N failed` at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "driver.h"
#include "cosim_fp.h"
#include "golden.h"
#include "hw.h"
#include "model.h"
#include "replay.h"
#include "rng.h"

#include "lib/random_layer.h"

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

/* A random configuration K of seed SEED as YAML into BUF: small arrays (1-6 rows, 1-9 columns),
 * every bus width, element widths or a float format, SRAM sizes from the smallest that holds a word up, one or two
 * banks, a col2im line or none, any feeder the validator allows. Loaded into *C; redrawn until
 * the validator takes it. */
static void random_config(uint64_t seed, int k, cfg_t *c, char *buf, size_t len)
{
  uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)k * 0x9e3779b97f4a7c15ull + 7;
  for (;;) {
    int rows = (int)rng_range(&s, 1, 6), cols = (int)rng_range(&s, 1, 9);
    int groups = rng_range(&s, 0, 1) ? 1 : (int)rng_range(&s, 1, cols < 4 ? cols : 4);
    int bus = 1 << rng_range(&s, 1, 4);
    int ib = (int)rng_range(&s, 2, 12), wb = (int)rng_range(&s, 2, 12);
    int ab = ib + wb + (int)rng_range(&s, 0, 12);
    if (ab > 64) ab = 64;
    int regs = (int)rng_range(&s, 1, 4);
    int depth = regs + (int)rng_range(&s, rng_range(&s, 0, 1) ? 1 : 0, 4);
    if (depth < 2) depth = 2;
    int line = (int)rng_range(&s, 0, 2);   /* 0: none, else KiB */
    /* one in three: a float format (fp16, bf16, fp32; fp16 sums with fp16 half the time); its
     * col2im line, if any, holds 16 words or more (redrawn otherwise) */
    static const char *const fmts[] = {"fp16", "bf16", "fp32"};
    char data[96];
    int fmt = rng_range(&s, 0, 2) == 0 ? (int)rng_range(&s, 0, 2) : -1;
    if (fmt >= 0) {
      snprintf(data, sizeof data, "format: %s, acc_format: %s", fmts[fmt],
               fmt == 0 && rng_range(&s, 0, 1) ? "fp16" : "fp32");
    } else {
      snprintf(data, sizeof data, "input_bits: %d, weight_bits: %d, acc_bits: %d", ib, wb, ab);
    }
    int n = snprintf(buf, len,
      "name: rnd%" PRIu64 "_%d\n"
      "array: { rows: %d, cols: %d, dataflow: os, col_groups: %d }\n"
      "data: { %s }\n"
      "memory: { bus_elems: %d, ifmap_kib: %d, weight_kib: %d, output_kib: %d, line_kib: %d,\n"
      "          double_buffer: %s, dram_bytes_per_cycle: %d }\n"
      "feeder: { regs_per_lane: %d, pattern_bits: %d, fifo_depth: %d }\n",
      seed, k, rows, cols, groups, data, bus, (int)rng_range(&s, 1, 4),
      (int)rng_range(&s, 1, 4), (int)rng_range(&s, 1, 3), line,
      rng_range(&s, 0, 1) ? "true" : "false", (int)rng_range(&s, 1, 32), regs,
      (int)rng_range(&s, 13, 64), depth);
    if (n > 0 && (size_t)n < len &&
        !cfg_load_mem("random configuration", (const unsigned char *)buf, (size_t)n, c, NULL))
      return;
  }
}

typedef struct run_opts {
  long count;
  uint64_t seed0;
  const char *build_dir, *ops, *modes;
  int icarus_pct;               /* share of the cases replayed in Icarus, percent */
  uint64_t icarus_max_cycles;   /* a sampled case longer than this is not replayed */
} run_opts_t;

typedef struct tally {
  int passed, failed;
  long linear, shared, joined, blocks, aligned, side, col2im;
  long replayed, too_long;      /* cases replayed in Icarus; sampled but too long to replay */
} tally_t;

/* Whether case SEED of op OP (FILL: zero_fill) is one of the PCT% replayed in Icarus whatever it
 * ran: a draw of its own, so that the layer and its options stay what they were without one. */
static int sampled(uint64_t seed, int op, int fill, int pct)
{
  uint64_t s = seed ^ (0xa5a5a5a5ull + (uint64_t)(3 * op + fill) * 0x51ed27ull);
  return rng_range(&s, 0, 99) < pct;
}

/* The features a run exercised, for the replay's coverage, as indices into a table of
 * NFEATURES flags: the op and mode; the op's form; per op, each context mapping, row layout
 * (packed, aligned), images side by side, phases sharing runs, several runs, and each count of
 * column groups. Returns how many it wrote into F. */
#define NFEATURES (5 + 9 + 3 * (8 + 64))
static int run_features(int op, int fill, const report_t *r, int *f)
{
  static const char *forms[] = {"direct", "phases", "joined_phases", "phase_blocks", "col2im",
                                "tap_blocks", "taps", "side_by_side", "dilated"};
  int n = 0, form = 0;
  for (int i = 0; i < 9; i++)
    if (r->form && !strcmp(r->form, forms[i])) form = i;
  f[n++] = 2 * op + fill - (op > 0);     /* conv2d, then each backward op in each mode */
  f[n++] = 5 + form;
  int base = 5 + 9 + op * (8 + 64);
  for (int m = 0; m < 3; m++)
    if (r->ctx_runs[m]) f[n++] = base + m;
  if (r->aligned_runs) f[n++] = base + 3;
  if (r->aligned_runs < r->runs) f[n++] = base + 4;
  if (r->side_runs) f[n++] = base + 5;
  if (r->shared_runs) f[n++] = base + 6;
  if (r->runs > 1) f[n++] = base + 7;
  for (int g = 1; g <= 64 && g <= REPORT_MAX_GROUPS; g++)
    if (r->group_runs[g]) f[n++] = base + 8 + g - 1;
  return n;
}

/* The random layers of R on configuration C (its model built in LIB, its RTL in RTL). With
 * --icarus, every case is recorded; a case is replayed when it exercises a feature (see
 * run_features) no case replayed on this configuration did, or is one of the sampled PCT%, and
 * ran at most the cycle limit. */
static void run_config(const cfg_t *c, const char *lib, const char *rtl, const run_opts_t *r,
                       tally_t *t)
{
  char err[2048], rec[2600];
  hw_t hw;
  int hp_dw = c->if_word_bits > c->wt_word_bits ? c->if_word_bits : c->wt_word_bits;
  snprintf(rec, sizeof rec, "%s/../random-%ld.rec", rtl, (long)getpid());
  if (hw_open(&hw, lib, NULL, NULL, hp_dw, c->out_word_bits, err, sizeof err)) {
    printf("not ok cosim %s: %s\n", c->name, err);
    t->failed++;
    return;
  }
  char covered[NFEATURES] = {0};
  /* Icarus's time per cycle grows with the feed lanes: past 8 lanes, the cycle limit shrinks */
  long lanes = (long)c->rows * c->col_groups;
  uint64_t max_cycles = lanes > 8 ? r->icarus_max_cycles * 8 / (uint64_t)lanes : r->icarus_max_cycles;
  int op_lo = !strcmp(r->ops, "bwd") ? 1 : 0, op_hi = !strcmp(r->ops, "fwd") ? 0 : 2;
  for (int op = op_lo; op <= op_hi; op++)
  for (int fill = 0; fill < 2; fill++)
  for (long i = 0; i < r->count; i++) {
    /* the backward ops in each mode asked for; the forward op once */
    if (op == 0 ? fill : !strstr(r->modes, fill ? "fill" : "skip")) continue;
    uint64_t seed = r->seed0 + (uint64_t)i, s = seed;
    layer_t l;
    random_layer(&s, c, &l);
    long oh = layer_out_h(&l), ow = layer_out_w(&l);
    tensor_t a = {0}, b = {0}, y = {0}, ref = {0};
    long xs[4] = {l.n, l.c, l.h, l.w}, ws[4] = {l.k, l.c, l.r, l.s}, dys[4] = {l.n, l.k, oh, ow};
    if (c->fp) {   /* float formats: standard normal values */
      cosim_fp_random(c, &a, op == 1 ? dys : xs, &s);
      cosim_fp_random(c, &b, op == 2 ? dys : ws, &s);
    } else {
      random_tensor(&s, &a, op == 1 ? dys : xs, c->input_bits);
      random_tensor(&s, &b, op == 2 ? dys : ws, c->weight_bits);
    }
    static const char *names[] = {"conv2d", "conv2d_input_grad", "conv2d_weight_grad"};
    char desc[400];
    snprintf(desc, sizeof desc, "%s %s seed=%" PRIu64 " x=%ldx%ldx%ldx%ld w=%ldx%ldx%ldx%ld stride=%ld,%ld "
             "pad=%ld,%ld dil=%ld,%ld", names[op], c->name, seed, l.n, l.c, l.h, l.w, l.k, l.c, l.r,
             l.s, l.sh, l.sw, l.ph, l.pw, l.dh, l.dw);
    size_t dl = strlen(desc);
    /* the driver's choice, or either context mapping and either orientation forced */
    drive_opts_t o = {0, 1, NULL, (int)rng_range(&s, 0, 3), fill, 0, 0, 0, 0, 0, NULL, NULL};
    o.orientation = (int)rng_range(&s, 0, 2);
    o.rows = (int)rng_range(&s, 0, 2);   /* the driver's choice, packed or aligned rows */
    /* the images of the batch: the driver's choice, apart, or side by side where allowed */
    o.images = (int)rng_range(&s, 0, 2);
    /* with column groups: the driver's choice or any number of groups forced */
    o.col_groups = c->col_groups > 1 ? (int)rng_range(&s, 0, c->col_groups) : 0;
    /* the input gradient's phases: the driver's choice, sharing runs wherever they can, one
     * run each, joined into one convolution (zero_skip, two or more phases with taps), in
     * blocks, some joined (three or more phases), or the op as col2im (zero_skip, where the
     * configuration has the line and every tap reaches at most the next super-pixel) */
    if (op == 1) o.phases = (int)rng_range(&s, 0, 5);
    char groups[32] = "";
    if (c->col_groups > 1) {
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
    /* every case keeps where its output words went and the words, to check the placement
     * another simulator's words take; with --icarus every case records its cycles too: whether
     * to replay it is known once it ran */
    int replay = r->icarus_pct > 0;
    drive_reads_t reads = {0};
    reads.capture = 1;
    o.reads = &reads;
    drive_slices_t slices = {0};
    o.slices = &slices;
    drive_runs_t runs = {0};
    o.runs = c->fp && op != 0 ? &runs : NULL;
    if (replay && hw_record(&hw, rec, err, sizeof err)) {
      printf("not ok cosim %s: %s\n", desc, err);
      t->failed++;
      replay = 0;
    }
    report_t rep;
    int bad = op == 0   ? drive_conv2d(&hw, c, &l, &a, &b, &y, &o, &rep, err, sizeof err)
              : op == 1 ? drive_conv2d_input_grad(&hw, c, &l, &a, &b, &y, &o, &rep, err, sizeof err)
                        : drive_conv2d_weight_grad(&hw, c, &l, &a, &b, &y, &o, &rep, err, sizeof err);
    if (replay && hw_record_end(&hw) && !bad) {
      snprintf(err, sizeof err, "%.1000s: the replay record could not be written", rec);
      bad = 1;
    }
    if (bad) {
      printf("not ok cosim %s: %s\n", desc, err);
      t->failed++;
    } else {
      golden_conv_t g = {l.n, l.c, l.h, l.w, l.k, l.r, l.s, l.sh, l.sw, l.ph, l.pw, l.dh, l.dw, c->acc_bits};
      /* float formats: bit for bit in the plan's order (conv2d from its slices, a backward op
       * from its runs as data), and within the error bound */
      long fbad = 0, ffirst = -1;
      if (c->fp) {
        fbad = cosim_fp_bound(c, op, &l, &a, &b, &y, &ffirst);
        if (op == 0 ? cosim_fp_golden(c, &l, &a, &b, &slices, &ref)
                    : cosim_fp_golden_runs(c, &runs, &y, &ref)) {
          fbad = -1;   /* (its message is printed) */
          tensor_free(&ref);
          tensor_alloc(&ref, 4, y.shape);
          memcpy(ref.data, y.data, sizeof(int64_t) * (size_t)tensor_numel(&y));
        }
      } else {
        tensor_alloc(&ref, 4, y.shape);
        if (op == 0) golden_conv2d(&g, a.data, b.data, ref.data);
        else if (op == 1) golden_conv2d_input_grad(&g, a.data, b.data, ref.data);
        else golden_conv2d_weight_grad(&g, a.data, b.data, ref.data);
      }
      long n = tensor_numel(&y), nbad = 0, first = -1;
      for (long e = 0; e < n; e++)
        if (y.data[e] != ref.data[e] && nbad++ == 0) first = e;
      uint64_t parts = rep.step_valid + rep.zero_steps + rep.bubble + rep.fill + rep.stall +
                       rep.drain;
      /* the words read, placed as a replay places Icarus's, must give the driver's result */
      long pbad = 0, pfirst = -1;
      tensor_t placed = {0};
      if (tensor_alloc(&placed, 4, y.shape) == 0) {
        memset(placed.data, 0, sizeof(int64_t) * (size_t)n);
        drive_reads_apply(&reads, c, reads.words, &placed);
        for (long e = 0; e < n; e++)
          if (placed.data[e] != y.data[e] && pbad++ == 0) pfirst = e;
        tensor_free(&placed);
      }
      /* the same run in Icarus: its words read must be Verilator's (the replay checks each),
       * and its result the golden model's */
      long ibad = 0, ifirst = -1;
      int ran_icarus = 0;
      if (replay) {
        int feat[NFEATURES], nf = run_features(op, fill, &rep, feat), fresh = 0;
        for (int k = 0; k < nf; k++) fresh |= !covered[feat[k]];
        replay = fresh || sampled(seed, op, fill, r->icarus_pct);
        if (replay && rep.cycles > max_cycles) {
          t->too_long++;
          replay = 0;
        } else if (replay) {
          for (int k = 0; k < nf; k++) covered[feat[k]] = 1;
        }
      }
      if (!nbad && replay) {
        ran_icarus = 1;
        uint32_t *iwords = NULL;
        int rbad = replay_icarus(c, rtl, rec, reads.nwords, &iwords, NULL, err, sizeof err);
        if (!rbad) drive_reads_place(&reads, c, iwords, &y);
        free(iwords);
        if (rbad) {
          ibad = -1;
        } else {
          for (long e = 0; e < n; e++)
            if (y.data[e] != ref.data[e] && ibad++ == 0) ifirst = e;
        }
      }
      if (!nbad && (parts != rep.busy || (!fill && rep.zero_steps) || (fill && op && rep.zero_pe &&
                    !rep.zero_steps))) {
        printf("not ok cosim %s: cycle accounting: busy %" PRIu64 " != steps %" PRIu64
               " + zero steps %" PRIu64 " + bubbles + fill + stall + drain = %" PRIu64 "\n",
               desc, rep.busy, rep.step_valid, rep.zero_steps, parts);
        t->failed++;
      } else if (!nbad && !dy_traffic_ok(c, op, &rep)) {
        printf("not ok cosim %s: dy's traffic: host %" PRIu64 " of %" PRIu64 " bytes in, SRAM %"
               PRIu64 " bytes (ifmap words %" PRIu64 ", weight words %" PRIu64 ")\n", desc,
               rep.dy_host_bytes, rep.host_bytes_in, rep.dy_sram_bytes, rep.sram_if, rep.sram_wt);
        t->failed++;
      } else if (nbad) {
        printf("not ok cosim %s: %ld of %ld elements differ, first at flat index %ld: expected %"
               PRId64 ", got %" PRId64 "\n", desc, nbad, n, first, ref.data[first], y.data[first]);
        t->failed++;
      } else if (fbad) {
        printf("not ok cosim %s: %ld of %ld elements outside the error bound of the double-precision "
               "result (-1: out of memory), first at flat index %ld\n", desc, fbad, n, ffirst);
        t->failed++;
      } else if (pbad) {
        printf("not ok cosim %s: the words read, placed as for a replay, differ from the driver's "
               "result at %ld of %ld elements, first at flat index %ld\n", desc, pbad, n, pfirst);
        t->failed++;
      } else if (ibad < 0) {
        printf("not ok cosim %s: icarus (--icarus 100 replays it): %s\n", desc, err);
        t->failed++;
      } else if (ibad) {
        printf("not ok cosim %s: icarus (--icarus 100 replays it): %ld of %ld elements differ from "
               "the golden model, first at flat index %ld: expected %" PRId64 ", got %" PRId64
               " (Verilator's were right)\n", desc, ibad, n, ifirst, ref.data[ifirst],
               y.data[ifirst]);
        t->failed++;
      } else {
        int jn = rep.form && !strcmp(rep.form, "joined_phases");
        int bl = rep.form && !strcmp(rep.form, "phase_blocks");
        int ci = rep.form && !strcmp(rep.form, "col2im");
        printf("ok cosim %s (%ld elements, %" PRIu64 " cycles%s%s)\n", desc, n, rep.cycles,
               bl ? ", phases in blocks" : rep.shared_runs ? ", phases sharing runs" :
               jn ? ", phases joined" : ci ? ", col2im" : "",
               ran_icarus ? ", Icarus too" : "");
        t->col2im += ci;
        t->passed++;
        t->replayed += ran_icarus;
        t->shared += rep.shared_runs > 0;
        t->joined += jn;
        t->blocks += bl;
        t->linear += rep.ctx_runs[2] > 0;
        t->aligned += rep.aligned_runs > 0;
        t->side += rep.side_runs > 0;
      }
    }
    fflush(stdout);
    drive_reads_free(&reads);
    free(slices.s);
    drive_runs_free(&runs);
    tensor_free(&a);
    tensor_free(&b);
    tensor_free(&y);
    tensor_free(&ref);
  }
  hw_close(&hw);
  remove(rec);
}

/* Build the model of C and run its layers. */
static void run_built(const cfg_t *c, const char *what, const run_opts_t *r, tally_t *t)
{
  char lib[2400], rtl[2400], err[2048];
  if (model_build(c, r->build_dir, 0, 1, lib, sizeof lib, rtl, sizeof rtl, err, sizeof err)) {
    printf("not ok cosim %s: cannot build the model: %s\n", what, err);
    t->failed++;
    return;
  }
  run_config(c, lib, rtl, r, t);
}

static void usage(void)
{
  fprintf(stderr, "usage: cosim_random [--count N] [--seed S] [--ops fwd|bwd|all] [--bp-modes skip,fill] "
          "[--icarus PCT] [--icarus-max-cycles C] [--random-configs K] [--build-dir DIR] "
          "[CONFIG.yaml...]\n");
}

int main(int argc, char **argv)
{
  run_opts_t r = {75, 1, "build/models", "fwd", "skip,fill", 0, 20000};
  tally_t t = {0};
  int nrand = 0;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] != '-') continue;
    if (i + 1 >= argc) {
      usage();
      return 2;
    }
    if (!strcmp(argv[i], "--count")) r.count = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seed")) r.seed0 = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--build-dir")) r.build_dir = argv[++i];
    else if (!strcmp(argv[i], "--ops")) r.ops = argv[++i];
    else if (!strcmp(argv[i], "--bp-modes")) r.modes = argv[++i];
    else if (!strcmp(argv[i], "--icarus")) r.icarus_pct = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--icarus-max-cycles")) r.icarus_max_cycles = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--random-configs")) nrand = atoi(argv[++i]);
    else {
      usage();
      return 2;
    }
  }
  for (int a = 1; a < argc; a++) {
    if (argv[a][0] == '-') {
      a++;
      continue;
    }
    cfg_t c;
    if (cfg_load(argv[a], &c, stderr)) {
      printf("not ok cosim %s: not a valid configuration\n", argv[a]);
      t.failed++;
      continue;
    }
    run_built(&c, argv[a], &r, &t);
  }
  for (int k = 0; k < nrand; k++) {
    cfg_t c;
    char yaml[1024];
    random_config(r.seed0, k, &c, yaml, sizeof yaml);
    printf("# random configuration %d of seed %" PRIu64 ":\n", k, r.seed0);
    for (char *line = strtok(yaml, "\n"); line; line = strtok(NULL, "\n")) printf("#   %s\n", line);
    fflush(stdout);
    run_built(&c, c.name, &r, &t);
  }
  /* how often the mappings that only some layers allow ran (a drift to zero would leave them
   * untested), and how many cases Icarus replayed */
  printf("# %ld cases ran linear contexts, %ld aligned rows, %ld images side by side, %ld input "
         "gradients ran phases sharing runs, %ld joined, %ld in blocks, %ld as col2im; %ld replayed "
         "in Icarus (%ld sampled but longer than %" PRIu64 " cycles)\n", t.linear, t.aligned, t.side,
         t.shared, t.joined, t.blocks, t.col2im, t.replayed, t.too_long, r.icarus_max_cycles);
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}
