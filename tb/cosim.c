/* cosim: `sagen sim CONFIG OP [options]`. */
#include "cosim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg.h"
#include "cosim_fp.h"
#include "driver.h"
#include "golden.h"
#include "hw.h"
#include "model.h"
#include "npy.h"
#include "replay.h"
#include "rng.h"

void cosim_usage(FILE *out)
{
  fprintf(out,
    "usage: sagen sim CONFIG.yaml OP [options]\n"
    "\n"
    "Build the configuration's Verilated model if it is missing or stale, run the layer through\n"
    "it and print the performance report. OP and its tensors (.npy, NCHW / KCRS, any integer\n"
    "dtype whose values fit the configuration; float16 or float32 with a float data.format):\n"
    "  conv2d              --input X.npy --weight W.npy                  -> y  (N,K,OH,OW)\n"
    "  conv2d_input_grad   --grad-output DY.npy --weight W.npy --input-shape N,C,H,W\n"
    "                                                                     -> dx (N,C,H,W)\n"
    "  conv2d_weight_grad  --input X.npy --grad-output DY.npy --weight-shape K,C,R,S\n"
    "                                                                     -> dw (K,C,R,S)\n"
    "  --random N,C,H,W:K,R,S      random tensors of the forward layer's shapes instead of files\n"
    "  --seed S                    seed of --random (default 1); float formats draw standard\n"
    "                              normal values\n"
    "  --round-inputs              float formats: round a value the format cannot hold (a\n"
    "                              float32 with more than bf16's 8 significant bits, say) to\n"
    "                              nearest even instead of refusing the tensor\n"
    "  --bp-mode zero_skip|zero_fill  backward ops. zero_skip (default): no PE cycle, fetch or\n"
    "                              store for a zero-space. zero_fill: BP-im2col's way, the\n"
    "                              zero-space taps reach the PEs as zeros created at the array\n"
    "                              edge (still never stored, moved or fetched)\n"
    "layer (PyTorch semantics):\n"
    "  --stride H,W                default 1,1 (one number sets both)\n"
    "  --padding H,W               default 0,0\n"
    "  --dilation H,W              default 1,1\n"
    "output and checks:\n"
    "  --out Y.npy                 result, NKHW, int32 (int64 when acc_bits > 32); float\n"
    "                              formats: float32 (float16 with acc_format fp16)\n"
    "  --check                     compare every element with the golden model; exit 1 on a mismatch\n"
    "                              (float formats: every bit of conv2d in the plan's order, and\n"
    "                              every op within the error bound of a double-precision sum)\n"
    "  --report text|json|none     performance report on stdout (default text)\n"
    "simulation:\n"
    "  --simulator verilator|icarus  icarus replays the same host transactions through the RTL in\n"
    "                              Icarus Verilog (4-state) and takes its output (default verilator)\n"
    "  --dram-bytes-per-cycle B    override memory.dram_bytes_per_cycle (e.g. 1e9: DRAM not limiting)\n"
    "  --col-groups G              every pass uses G column groups (1..array.col_groups; default:\n"
    "                              the driver chooses per convolution)\n"
    "  --contexts auto|wrap|row|linear  how the lanes' pixels sit in the output rows: wrap from\n"
    "                              row to row, stay inside a row, or linear (stride 1: one input\n"
    "                              run per kernel row, whatever rows; used where the layer allows\n"
    "                              it) (default auto: the driver chooses per convolution)\n"
    "  --rows auto|packed|aligned  how the input rows sit in the ifmap memory: packed, or each\n"
    "                              from a bus word with its left padding counted in (fewer\n"
    "                              words a kernel row on narrow rows; not for linear contexts)\n"
    "                              (default auto: the driver chooses per convolution)\n"
    "  --images auto|apart|side    the images of a batch one after the other, or side by side\n"
    "                              as one image N times as wide, their columns interleaved\n"
    "                              (stride 1 across, not zero_fill; fills the lanes of small\n"
    "                              outputs) (default auto: the driver chooses per convolution)\n"
    "  --phases auto|shared|separate|joined|blocks|col2im  conv2d_input_grad: the output\n"
    "                              phases share a run that loads each tile of dy once, run one\n"
    "                              after the other, each loading dy again, run joined as one\n"
    "                              convolution whose filters are (phase, channel) (zero_skip;\n"
    "                              a zero weight where a phase lacks a tap), or in blocks, some\n"
    "                              joined (the fastest such partition the driver finds; 3 or\n"
    "                              more phases); or the op runs as col2im, dy times the (tap,\n"
    "                              channel) filters, the products added into dx as they leave\n"
    "                              the array (zero_skip, memory.line_kib > 0, (R-1)*dilation <\n"
    "                              2*stride per axis; else the driver's choice) (default auto:\n"
    "                              the driver chooses per layer)\n"
    "  --build-dir DIR             cache of generated models (default build/models)\n"
    "  --set KEY=VALUE             override a key of CONFIG.yaml (repeatable), e.g. array.rows=8\n"
    "  --trace FILE.vcd|FILE.fst   dump the waveforms of the whole run (every signal of the core;\n"
    "                              the format follows the suffix; a traced model is built and\n"
    "                              cached beside the plain one; with icarus the replay dumps)\n"
    "  --quiet                     no progress or build messages on stderr\n");
}

typedef struct opts {
  const char *cfg_path, *op, *input, *weight, *out, *random, *report, *simulator, *build_dir;
  const char *grad_output, *input_shape, *weight_shape, *bp_mode, *trace;
  const char *sets[64];
  int nsets;
  long stride[2], padding[2], dilation[2];
  uint64_t seed;
  int check, quiet, round_inputs;
  double dram;
  int col_groups;   /* 0: the driver chooses */
  int contexts;     /* drive_opts_t.contexts */
  int phases;       /* drive_opts_t.phases */
  int rows;         /* drive_opts_t.rows */
  int images;       /* drive_opts_t.images */
} opts_t;

/* The index of V in NAMES (NULL-terminated), or -1 after a one-line error naming option OPT and
 * the ALLOWED values. */
static int parse_choice(const char *opt, const char *v, const char *const *names,
                        const char *allowed)
{
  for (int i = 0; names[i]; i++)
    if (!strcmp(v, names[i])) return i;
  fprintf(stderr, "sagen sim: %s: '%s' is not allowed: %s\n", opt, v, allowed);
  return -1;
}

static int parse_pair(const char *s, long *v, long lo, const char *opt)
{
  char *end;
  errno = 0;
  long a = strtol(s, &end, 10);
  long b = a;
  if (end == s || errno) goto bad;
  if (*end == ',') {
    const char *s2 = end + 1;
    b = strtol(s2, &end, 10);
    if (end == s2 || errno) goto bad;
  }
  if (*end || a < lo || b < lo || a > 65535 || b > 65535) goto bad;
  v[0] = a;
  v[1] = b;
  return 0;
bad:
  fprintf(stderr, "sagen sim: %s: '%s' is not valid: expected H,W or one integer, each %ld..65535\n",
          opt, s, lo);
  return 1;
}

static int parse_random(const char *s, long *v)
{
  /* N,C,H,W:K,R,S */
  int used = 0;
  if (sscanf(s, "%ld,%ld,%ld,%ld:%ld,%ld,%ld%n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
             &used) != 7 || s[used] != '\0') {
    fprintf(stderr, "sagen sim: --random: '%s' is not valid: expected N,C,H,W:K,R,S\n", s);
    return 1;
  }
  for (int i = 0; i < 7; i++) {
    if (v[i] < 1 || v[i] > 1000000) {
      fprintf(stderr, "sagen sim: --random: '%s': every size must be 1..1000000\n", s);
      return 1;
    }
  }
  return 0;
}

/* parse_text_opt and parse_num_opt: option A took its value V (the caller steps past it) */
enum { OPT_TOOK = 0, OPT_USAGE = 2, OPT_NOT_MINE = 3 };

#define NEEDV()                                                                  \
  do {                                                                           \
    if (!v) {                                                                    \
      fprintf(stderr, "sagen sim: %s needs a value (see sagen sim --help)\n", a); \
      return OPT_USAGE;                                                          \
    }                                                                            \
  } while (0)

/* Option A, one that takes a file, a shape or a word, with its value V (NULL: none follows)
 * into O. Returns OPT_TOOK, OPT_USAGE after a one-line error, or OPT_NOT_MINE. */
static int parse_text_opt(const char *a, const char *v, opts_t *o)
{
  if (!strcmp(a, "--input")) { NEEDV(); o->input = v; }
  else if (!strcmp(a, "--grad-output")) { NEEDV(); o->grad_output = v; }
  else if (!strcmp(a, "--input-shape")) { NEEDV(); o->input_shape = v; }
  else if (!strcmp(a, "--weight-shape")) { NEEDV(); o->weight_shape = v; }
  else if (!strcmp(a, "--bp-mode")) { NEEDV(); o->bp_mode = v; }
  else if (!strcmp(a, "--set")) {
    NEEDV();
    if (o->nsets == 64) {
      fprintf(stderr, "sagen sim: --set: at most 64 overrides\n");
      return OPT_USAGE;
    }
    o->sets[o->nsets++] = v;
  }
  else if (!strcmp(a, "--weight")) { NEEDV(); o->weight = v; }
  else if (!strcmp(a, "--out")) { NEEDV(); o->out = v; }
  else if (!strcmp(a, "--trace")) {
    NEEDV();
    size_t n = strlen(v);
    if (n < 5 || (strcmp(v + n - 4, ".vcd") != 0 && strcmp(v + n - 4, ".fst") != 0)) {
      fprintf(stderr, "sagen sim: --trace: '%s': expected a file name ending in .vcd or .fst\n", v);
      return OPT_USAGE;
    }
    o->trace = v;
  }
  else if (!strcmp(a, "--random")) { NEEDV(); o->random = v; }
  else if (!strcmp(a, "--report")) { NEEDV(); o->report = v; }
  else if (!strcmp(a, "--simulator")) { NEEDV(); o->simulator = v; }
  else if (!strcmp(a, "--build-dir")) { NEEDV(); o->build_dir = v; }
  else return OPT_NOT_MINE;
  return OPT_TOOK;
}

/* Option A, one that takes a number or a choice, with its value V (NULL: none follows) into O.
 * Returns OPT_TOOK, OPT_USAGE after a one-line error, or OPT_NOT_MINE. */
static int parse_num_opt(const char *a, const char *v, opts_t *o)
{
  if (!strcmp(a, "--seed")) {
    NEEDV();
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 10);
    if (end == v || *end || errno || v[0] == '-') {
      fprintf(stderr, "sagen sim: --seed: '%s' is not a non-negative integer\n", v);
      return OPT_USAGE;
    }
    o->seed = s;
  } else if (!strcmp(a, "--dram-bytes-per-cycle")) {
    NEEDV();
    char *end;
    o->dram = strtod(v, &end);
    if (end == v || *end || !(o->dram > 0)) {
      fprintf(stderr, "sagen sim: --dram-bytes-per-cycle: '%s' is not a positive number\n", v);
      return OPT_USAGE;
    }
  } else if (!strcmp(a, "--col-groups")) {
    NEEDV();
    char *end;
    long g = strtol(v, &end, 10);
    if (end == v || *end || g < 1 || g > 256) {
      fprintf(stderr, "sagen sim: --col-groups: '%s' is not allowed: 1..array.col_groups\n", v);
      return OPT_USAGE;
    }
    o->col_groups = (int)g;
  } else if (!strcmp(a, "--contexts")) {
    NEEDV();
    static const char *const modes[] = {"auto", "wrap", "row", "linear", NULL};
    if ((o->contexts = parse_choice(a, v, modes, "auto, wrap, row or linear")) < 0) return OPT_USAGE;
  } else if (!strcmp(a, "--rows")) {
    NEEDV();
    static const char *const modes[] = {"auto", "packed", "aligned", NULL};
    if ((o->rows = parse_choice(a, v, modes, "auto, packed or aligned")) < 0) return OPT_USAGE;
  } else if (!strcmp(a, "--images")) {
    NEEDV();
    static const char *const modes[] = {"auto", "apart", "side", NULL};
    if ((o->images = parse_choice(a, v, modes, "auto, apart or side")) < 0) return OPT_USAGE;
  } else if (!strcmp(a, "--phases")) {
    NEEDV();
    static const char *const modes[] = {"auto", "shared", "separate", "joined", "blocks",
                                        "col2im", NULL};
    if ((o->phases = parse_choice(a, v, modes, "auto, shared, separate, joined, blocks or "
                                  "col2im")) < 0) return OPT_USAGE;
  } else if (!strcmp(a, "--stride")) { NEEDV(); if (parse_pair(v, o->stride, 1, a)) return OPT_USAGE; }
  else if (!strcmp(a, "--padding")) { NEEDV(); if (parse_pair(v, o->padding, 0, a)) return OPT_USAGE; }
  else if (!strcmp(a, "--dilation")) { NEEDV(); if (parse_pair(v, o->dilation, 1, a)) return OPT_USAGE; }
  else return OPT_NOT_MINE;
  return OPT_TOOK;
}
#undef NEEDV

/* The options O as a whole: the configuration and the op given, the choices allowed, and the
 * tensors the op takes (or --random). Returns 0, or 2 after a one-line error. */
static int check_opts(const opts_t *o)
{
  if (!o->cfg_path || !o->op) {
    fprintf(stderr, "sagen sim: expected CONFIG.yaml and an operation (see sagen sim --help)\n");
    return 2;
  }
  int op = !strcmp(o->op, "conv2d") ? 0 : !strcmp(o->op, "conv2d_input_grad") ? 1
         : !strcmp(o->op, "conv2d_weight_grad") ? 2 : -1;
  if (op < 0) {
    fprintf(stderr, "sagen sim: unknown operation '%s': allowed conv2d, conv2d_input_grad, "
            "conv2d_weight_grad\n", o->op);
    return 2;
  }
  if (o->bp_mode && strcmp(o->bp_mode, "zero_skip") != 0 && strcmp(o->bp_mode, "zero_fill") != 0) {
    fprintf(stderr, "sagen sim: --bp-mode: '%s' is not valid: allowed zero_skip, zero_fill\n",
            o->bp_mode);
    return 2;
  }
  if (strcmp(o->report, "text") && strcmp(o->report, "json") && strcmp(o->report, "none")) {
    fprintf(stderr, "sagen sim: --report: '%s' is not allowed: text, json or none\n", o->report);
    return 2;
  }
  if (strcmp(o->simulator, "verilator") && strcmp(o->simulator, "icarus")) {
    fprintf(stderr, "sagen sim: --simulator: '%s' is not allowed: verilator or icarus\n", o->simulator);
    return 2;
  }
  /* the tensors each op takes */
  const char *need[3][3] = {{"--input", "--weight", NULL},
                            {"--grad-output", "--weight", "--input-shape"},
                            {"--input", "--grad-output", "--weight-shape"}};
  const char *have[3][3] = {{o->input, o->weight, NULL},
                            {o->grad_output, o->weight, o->input_shape},
                            {o->input, o->grad_output, o->weight_shape}};
  if (o->random) {
    if (o->input || o->weight || o->grad_output || o->input_shape || o->weight_shape) {
      fprintf(stderr, "sagen sim: --random cannot be combined with tensor files or shapes\n");
      return 2;
    }
  } else {
    for (int i = 0; i < 3; i++) {
      if (need[op][i] && !have[op][i]) {
        if (need[op][2])
          fprintf(stderr, "sagen sim: %s needs %s, %s and %s, or --random\n", o->op, need[op][0],
                  need[op][1], need[op][2]);
        else
          fprintf(stderr, "sagen sim: %s needs %s and %s, or --random\n", o->op, need[op][0],
                  need[op][1]);
        return 2;
      }
    }
  }
  return 0;
}

/* ARGV into O. Returns 0, -1 after printing the usage (--help), or 2 after a one-line error. */
static int parse_opts(int argc, char **argv, opts_t *o)
{
  memset(o, 0, sizeof *o);
  o->stride[0] = o->stride[1] = 1;
  o->dilation[0] = o->dilation[1] = 1;
  o->seed = 1;
  o->report = "text";
  o->simulator = "verilator";
  o->build_dir = "build/models";
  int pos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      cosim_usage(stdout);
      return -1;
    }
    if (!strcmp(a, "--check")) { o->check = 1; continue; }
    if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    if (!strcmp(a, "--round-inputs")) { o->round_inputs = 1; continue; }
    int rc = parse_text_opt(a, v, o);
    if (rc == OPT_NOT_MINE) rc = parse_num_opt(a, v, o);
    if (rc == OPT_TOOK) {
      i++;
      continue;
    }
    if (rc != OPT_NOT_MINE) return rc;
    if (a[0] == '-' && a[1]) {
      fprintf(stderr, "sagen sim: unknown option '%s' (see sagen sim --help)\n", a);
      return 2;
    } else if (pos == 0) { o->cfg_path = a; pos++; }
    else if (pos == 1) { o->op = a; pos++; }
    else {
      fprintf(stderr, "sagen sim: unexpected argument '%s' (see sagen sim --help)\n", a);
      return 2;
    }
  }
  return check_opts(o);
}

/* Values of T must fit BITS-bit signed integers. */
static int check_range(const tensor_t *t, int bits, const char *what, const char *key)
{
  int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
  long n = tensor_numel(t);
  for (long i = 0; i < n; i++) {
    if (t->data[i] < lo || t->data[i] > hi) {
      fprintf(stderr, "%s: value %" PRId64 " at flat index %ld does not fit %s=%d (allowed %" PRId64
              "..%" PRId64 ")\n", what, t->data[i], i, key, bits, lo, hi);
      return 1;
    }
  }
  return 0;
}

static int random_tensor(tensor_t *t, const long *shape, int bits, uint64_t *s)
{
  if (tensor_alloc(t, 4, shape)) return 1;
  int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
  long n = tensor_numel(t);
  for (long i = 0; i < n; i++) t->data[i] = rng_range(s, lo, hi);
  return 0;
}

static int parse_shape(const char *s, long *v, const char *opt)
{
  int used = 0;
  if (sscanf(s, "%ld,%ld,%ld,%ld%n", &v[0], &v[1], &v[2], &v[3], &used) != 4 || s[used] != '\0' ||
      v[0] < 1 || v[1] < 1 || v[2] < 1 || v[3] < 1 || v[0] > 1000000 || v[1] > 1000000 ||
      v[2] > 1000000 || v[3] > 1000000) {
    fprintf(stderr, "sagen sim: %s: '%s' is not valid: expected four sizes A,B,C,D, each 1..1000000\n",
            opt, s);
    return 1;
  }
  return 0;
}

static const char *src(const char *path, const char *what) { return path ? path : what; }

/* The output path must be writable before any simulation starts. */
static int check_out_path(const char *opt, const char *out)
{
  struct stat st;
  if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "sagen sim: %s: '%s' is a directory: expected a file path\n", opt, out);
    return 1;
  }
  char dir[2048];
  snprintf(dir, sizeof dir, "%s", out);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == dir) dir[1] = '\0';
  else *slash = '\0';
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "sagen sim: %s: '%s': directory '%s' does not exist\n", opt, out, dir);
    return 1;
  }
  if (access(dir, W_OK) != 0) {
    fprintf(stderr, "sagen sim: %s: '%s': directory '%s' is not writable\n", opt, out, dir);
    return 1;
  }
  return 0;
}

static int read_tensor(const char *path, tensor_t *t, int rank, const char *dims)
{
  char err[2048];
  if (npy_read(path, t, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (t->ndim != rank) {
    fprintf(stderr, "%s: has rank %d: expected rank %d (%s)\n", path, t->ndim, rank, dims);
    return 1;
  }
  return 0;
}

/* The operands as given into A and B (files) and the forward layer's input and weight shapes
 * into XS and WS (from the files, the shape options or --random). Returns 0, 1 after an error
 * message, or 2 after a usage error. */
static int read_operands(const opts_t *o, int op, long *xs, long *ws, tensor_t *a, tensor_t *b)
{
  if (o->random) {
    long v[7];
    if (parse_random(o->random, v)) return 2;
    xs[0] = v[0]; xs[1] = v[1]; xs[2] = v[2]; xs[3] = v[3];
    ws[0] = v[4]; ws[1] = v[1]; ws[2] = v[5]; ws[3] = v[6];
  } else if (op == 0) {
    if (read_tensor(o->input, a, 4, "N,C,H,W") || read_tensor(o->weight, b, 4, "K,C,R,S")) return 1;
    memcpy(xs, a->shape, 4 * sizeof *xs);
    memcpy(ws, b->shape, 4 * sizeof *ws);
  } else if (op == 1) {
    if (parse_shape(o->input_shape, xs, "--input-shape")) return 2;
    if (read_tensor(o->grad_output, a, 4, "N,K,OH,OW") || read_tensor(o->weight, b, 4, "K,C,R,S")) return 1;
    memcpy(ws, b->shape, 4 * sizeof *ws);
  } else {
    if (parse_shape(o->weight_shape, ws, "--weight-shape")) return 2;
    if (read_tensor(o->input, a, 4, "N,C,H,W") || read_tensor(o->grad_output, b, 4, "N,K,OH,OW")) return 1;
    memcpy(xs, a->shape, 4 * sizeof *xs);
  }
  return 0;
}

/* The forward layer of input shape XS and weight shape WS with O's stride, padding and dilation
 * into *L. Returns 0, or 1 after an error message (channels that differ, no output, padding not
 * below the dilated kernel). */
static int layer_of(const opts_t *o, int op, const long *xs, const long *ws, layer_t *l)
{
  if (xs[1] != ws[1]) {
    fprintf(stderr, "%s: weight has %ld input channels, the input has %ld\n",
            src(op == 2 ? o->weight_shape : o->weight, "--random"), ws[1], xs[1]);
    return 1;
  }
  *l = (layer_t){xs[0], xs[1], xs[2], xs[3], ws[0], ws[2], ws[3], o->stride[0], o->stride[1],
                 o->padding[0], o->padding[1], o->dilation[0], o->dilation[1], 0, 0,
                 0, 0, 0, 0, 0, 0, 0};
  long oh = layer_out_h(l), ow = layer_out_w(l);
  if (oh < 1 || ow < 1) {
    fprintf(stderr, "layer has no output: input %ldx%ld, kernel %ldx%ld, padding %ld,%ld, dilation "
            "%ld,%ld gives %ldx%ld\n", l->h, l->w, l->r, l->s, l->ph, l->pw, l->dh, l->dw, oh, ow);
    return 1;
  }
  if (l->ph >= (l->r - 1) * l->dh + 1 || l->pw >= (l->s - 1) * l->dw + 1) {
    fprintf(stderr, "layer padding %ld,%ld is not smaller than the dilated kernel %ldx%ld: "
            "allowed padding < (kernel-1)*dilation+1 per axis\n", l->ph, l->pw,
            (l->r - 1) * l->dh + 1, (l->s - 1) * l->dw + 1);
    return 1;
  }
  return 0;
}

/* The operands A and B of layer L: drawn for --random (dy of the layer's output shape), else
 * dy's shape checked against the layer's; then every value checked against the configuration's
 * widths. Returns 0, 1 after an error message, or 2 after a usage error. */
static int check_operands(const opts_t *o, int op, const cfg_t *c, const layer_t *l,
                          const long *xs, const long *ws, tensor_t *a, tensor_t *b)
{
  long dys[4] = {xs[0], ws[0], layer_out_h(l), layer_out_w(l)};
  if (o->random) {
    uint64_t s = o->seed;
    const long *sa = op == 1 ? dys : xs, *sb = op == 2 ? dys : ws;
    double na = (double)sa[0] * sa[1] * sa[2] * sa[3], nb = (double)sb[0] * sb[1] * sb[2] * sb[3];
    if (na > 4e8 || nb > 4e8) {
      fprintf(stderr, "sagen sim: --random: '%s' is too large (at most 4e8 elements a tensor)\n", o->random);
      return 2;
    }
    /* the array multiplies an input-width operand (x, or dy for the input gradient) by a
     * weight-width one (w, or dy for the weight gradient) */
    int bits_a = c->input_bits, bits_b = c->weight_bits;
    if (c->fp ? cosim_fp_random(c, a, sa, &s) || cosim_fp_random(c, b, sb, &s)
              : random_tensor(a, sa, bits_a, &s) || random_tensor(b, sb, bits_b, &s)) {
      fprintf(stderr, "sagen sim: out of memory for the random tensors\n");
      return 1;
    }
  } else if (op == 1 || op == 2) {
    const tensor_t *dy = op == 1 ? a : b;
    if (memcmp(dy->shape, dys, sizeof dys) != 0) {
      fprintf(stderr, "%s: grad-output has shape (%ld, %ld, %ld, %ld): the layer's output is "
              "(%ld, %ld, %ld, %ld)\n", o->grad_output, dy->shape[0], dy->shape[1], dy->shape[2],
              dy->shape[3], dys[0], dys[1], dys[2], dys[3]);
      return 1;
    }
  }
  /* operand widths: the array multiplies an input-width operand by a weight-width one */
  const char *na = op == 0 ? src(o->input, "input") : op == 1 ? src(o->grad_output, "grad-output") : src(o->input, "input");
  const char *nb = op == 0 ? src(o->weight, "weight") : op == 1 ? src(o->weight, "weight") : src(o->grad_output, "grad-output");
  if (c->fp)
    return o->random ? 0 : cosim_fp_operand(c, a, na, o->round_inputs) ||
                           cosim_fp_operand(c, b, nb, o->round_inputs);
  if (o->round_inputs) {
    fprintf(stderr, "sagen sim: --round-inputs: applies to a float data.format, and %s's is "
            "int\n", c->name);
    return 2;
  }
  if (a->fbits || b->fbits) {
    fprintf(stderr, "%s: holds float%d values: data.format int takes integer tensors\n",
            a->fbits ? na : nb, a->fbits ? a->fbits : b->fbits);
    return 1;
  }
  if (check_range(a, c->input_bits, na, "data.input_bits") ||
      check_range(b, c->weight_bits, nb, "data.weight_bits"))
    return 1;
  return 0;
}

/* Op OP of layer L on operands A and B through the configuration's model (built if missing),
 * opened into *HW: the result into *Y, the report into *REP; with Icarus, the run replayed and
 * Y its result (READS: where the driver placed each word read); the plan logged for the float
 * checks (SLICES; RUNS for a backward op with --check). Returns 0, or 1 after an error message. */
static int simulate(const opts_t *o, int op, const cfg_t *c, const layer_t *l, const tensor_t *a,
                    const tensor_t *b, tensor_t *y, hw_t *hw, drive_reads_t *reads, report_t *rep,
                    drive_slices_t *slices, drive_runs_t *runs)
{
  char lib[2400], rtl[2400], err[2048];
  int icarus = !strcmp(o->simulator, "icarus");
  /* Verilator traces from a model built with tracing (1 VCD, 2 FST); Icarus dumps the replay. */
  int trace_kind = (!o->trace || icarus) ? 0 : strstr(o->trace + strlen(o->trace) - 4, ".fst") ? 2 : 1;
  if (model_build(c, o->build_dir, trace_kind, o->quiet, lib, sizeof lib, rtl, sizeof rtl, err,
                  sizeof err)) {
    fprintf(stderr, "sagen sim: %s\n", err);
    return 1;
  }
  char rec[2600];
  /* the record is this process's (another may be simulating the same configuration) */
  snprintf(rec, sizeof rec, "%s/../replay-%ld.rec", rtl, (long)getpid());
  int hp_dw = c->if_word_bits > c->wt_word_bits ? c->if_word_bits : c->wt_word_bits;
  if (hw_open(hw, lib, trace_kind ? o->trace : NULL, icarus ? rec : NULL, hp_dw, c->out_word_bits, err, sizeof err)) {
    fprintf(stderr, "sagen sim: %s\n", err);
    if (icarus) remove(rec);
    return 1;
  }
  drive_opts_t dopts = {o->dram, o->quiet, icarus ? reads : NULL, o->contexts,
                        o->bp_mode && !strcmp(o->bp_mode, "zero_fill"), 0, o->col_groups,
                        o->phases, o->rows, o->images, slices,
                        c->fp && op != 0 && o->check ? runs : NULL};
  int bad = op == 0   ? drive_conv2d(hw, c, l, a, b, y, &dopts, rep, err, sizeof err)
            : op == 1 ? drive_conv2d_input_grad(hw, c, l, a, b, y, &dopts, rep, err, sizeof err)
                      : drive_conv2d_weight_grad(hw, c, l, a, b, y, &dopts, rep, err, sizeof err);
  /* (a run that stops before its replay leaves no record behind) */
  if (bad) {
    fprintf(stderr, "sagen sim: %s\n", err);
    hw_close(hw);
    if (icarus) remove(rec);
    return 1;
  }
  if (hw_close(hw)) {
    fprintf(stderr, "sagen sim: %s: cannot write the replay record\n", rec);
    if (icarus) remove(rec);
    return 1;
  }
  if (icarus) {
    if (!o->quiet) fprintf(stderr, "sagen: replaying %" PRIu64 " cycles in Icarus Verilog\n", hw->cycles);
    /* the output becomes Icarus's: the words it read, placed as the driver placed Verilator's */
    uint32_t *iwords = NULL;
    int ibad = replay_icarus(c, rtl, rec, reads->nwords, &iwords, o->trace, err, sizeof err);
    remove(rec);
    if (!ibad) drive_reads_place(reads, c, iwords, y);
    free(iwords);
    if (ibad) {
      fprintf(stderr, "sagen sim: icarus: %s\n", err);
      return 1;
    }
  }
  return 0;
}

/* Result Y of op OP on A and B against the golden model's (into REF). Returns 0, or 1 after
 * printing the first mismatches and a summary. */
static int golden_check(const opts_t *o, int op, const cfg_t *c, const layer_t *l,
                        const tensor_t *a, const tensor_t *b, const tensor_t *y, tensor_t *ref,
                        const drive_slices_t *slices, const drive_runs_t *runs)
{
  if (c->fp) {
    char what[160];
    snprintf(what, sizeof what, "%s %s, seed %" PRIu64, o->op, o->simulator, o->seed);
    return cosim_fp_check(c, op, l, a, b, y, slices, runs, what, o->quiet);
  }
  golden_conv_t g = {l->n, l->c, l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw, l->dh,
                     l->dw, c->acc_bits};
  if (tensor_alloc(ref, 4, y->shape)) {
    fprintf(stderr, "sagen sim: out of memory for the golden output\n");
    return 1;
  }
  if (op == 0) golden_conv2d(&g, a->data, b->data, ref->data);
  else if (op == 1) golden_conv2d_input_grad(&g, a->data, b->data, ref->data);
  else golden_conv2d_weight_grad(&g, a->data, b->data, ref->data);
  long n = tensor_numel(y), nbad = 0;
  const char *yn = op == 0 ? "y" : op == 1 ? "dx" : "dw";
  for (long i = 0; i < n; i++) {
    if (y->data[i] != ref->data[i]) {
      if (nbad < 10) {
        long d3 = y->shape[3], d2 = y->shape[2], d1 = y->shape[1];
        fprintf(stderr, "mismatch at %s[%ld,%ld,%ld,%ld]: expected %" PRId64 ", got %" PRId64 "\n",
                yn, i / (d3 * d2 * d1), (i / (d3 * d2)) % d1, (i / d3) % d2, i % d3,
                ref->data[i], y->data[i]);
      }
      nbad++;
    }
  }
  if (nbad) {
    fprintf(stderr, "sagen sim: %ld of %ld elements differ from the golden model (%s %s, seed %"
            PRIu64 ", layer N,C,H,W=%ld,%ld,%ld,%ld K,R,S=%ld,%ld,%ld stride %ld,%ld padding "
            "%ld,%ld dilation %ld,%ld)\n", nbad, n, o->op, o->simulator, o->seed, l->n, l->c, l->h,
            l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw, l->dh, l->dw);
    return 1;
  }
  if (!o->quiet)
    fprintf(stderr, "sagen: check passed: %ld of %ld elements equal the golden model (%s)\n", n, n,
            o->simulator);
  return 0;
}

int cosim_main(int argc, char **argv)
{
  opts_t o;
  int rc = parse_opts(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  int op = !strcmp(o.op, "conv2d") ? 0 : !strcmp(o.op, "conv2d_input_grad") ? 1 : 2;
  cfg_t c;
  if (cfg_load_overrides(o.cfg_path, o.sets, o.nsets, &c, stderr)) return 1;
  if (o.out && check_out_path("--out", o.out)) return 1;
  if (o.trace && check_out_path("--trace", o.trace)) return 1;

  /* a = first operand, b = second, y = result */
  tensor_t a = {0}, b = {0}, y = {0}, ref = {0};
  hw_t hw;
  memset(&hw, 0, sizeof hw);
  drive_reads_t reads = {0};
  drive_slices_t slices = {0};
  drive_runs_t runs = {0};
  report_t rep;
  char err[2048];
  long xs[4], ws[4];    /* forward input and weight shapes */
  layer_t l;
  memset(&l, 0, sizeof l);
  if ((rc = read_operands(&o, op, xs, ws, &a, &b)) || (rc = layer_of(&o, op, xs, ws, &l)) ||
      (rc = check_operands(&o, op, &c, &l, xs, ws, &a, &b)) ||
      (rc = simulate(&o, op, &c, &l, &a, &b, &y, &hw, &reads, &rep, &slices, &runs)) ||
      (o.check && (rc = golden_check(&o, op, &c, &l, &a, &b, &y, &ref, &slices, &runs))))
    goto done;
  rc = 1;
  if (o.out && c.fp) {
    if (cosim_fp_write(&c, o.out, &y)) goto done;
  } else if (o.out && npy_write(o.out, &y, c.acc_bits > 32 ? 64 : 32, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    goto done;
  }
  if (!strcmp(o.report, "text")) report_print_text(&rep, &c, stdout);
  else if (!strcmp(o.report, "json")) report_print_json(&rep, &c, stdout);
  rc = 0;
done:
  hw_close(&hw);
  drive_reads_free(&reads);
  free(slices.s);
  drive_runs_free(&runs);
  tensor_free(&a);
  tensor_free(&b);
  tensor_free(&y);
  tensor_free(&ref);
  return rc;
}
