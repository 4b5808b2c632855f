/* sagen: YAML -> convolution accelerator RTL, and its co-simulation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cosim.h"
#include "emit.h"
#include "regmap.h"
#include "topology.h"

static void usage(FILE *out)
{
  fprintf(out,
    "usage: sagen COMMAND ...\n"
    "\n"
    "commands:\n"
    "  gen CONFIG.yaml [-o DIR] [--set KEY=VALUE]...\n"
    "                               write the configuration's Verilog, filelist and C header\n"
    "  sim CONFIG.yaml OP [...]     co-simulate a layer on the generated hardware (sagen sim --help)\n"
    "  keys                         print the table of YAML keys (Markdown)\n"
    "  regmap [c|verilog|markdown]  print the register map as a C header (default), a Verilog\n"
    "                               include or Markdown (docs/regmap.md)\n"
    "  layers FILE.csv              check a SCALE-Sim topology CSV, print its layers normalized\n"
    "\n"
    "exit status: 0 success, 1 bad input or a failed check, 2 bad usage\n");
}

static void gen_usage(FILE *out)
{
  fprintf(out,
    "usage: sagen gen CONFIG.yaml [-o DIR] [--set KEY=VALUE]...\n"
    "\n"
    "Validate CONFIG.yaml and write into DIR (default build/rtl/<name>):\n"
    "  sagen_<name>_top.v and every block (sagen_<name>_*.v), one module per file\n"
    "  sagen_<name>.f        the filelist, file names relative to DIR\n"
    "  sagen_<name>_params.h the configuration's parameters for C\n"
    "  sagen_<name>_regmap.h the register map for C (sagen_<name>_regmap.vh: for Verilog)\n"
    "  sagen_<name>.core     a FuseSoC core; sagen_<name>.ys: a Yosys synthesis script\n"
    "The same YAML gives the same bytes.\n"
    "\n"
    "  --set KEY=VALUE       override one key of CONFIG.yaml (repeatable; KEY as `sagen keys`\n"
    "                        lists it, e.g. --set array.rows=8); applied before validation\n");
}

static int gen_args(int argc, char **argv, const char **cfgpp, const char **outp,
                    const char **sets, int *nsets);

static int cmd_gen(int argc, char **argv)
{
  const char *cfgp = NULL, *out = NULL;
  const char **sets = calloc((size_t)argc, sizeof *sets);
  int nsets = 0, rc;
  if (!sets) {
    fprintf(stderr, "sagen gen: out of memory\n");
    return 1;
  }
  rc = gen_args(argc, argv, &cfgp, &out, sets, &nsets);
  if (rc) {
    free(sets);
    return rc < 0 ? 0 : rc;
  }
  cfg_t c;
  rc = cfg_load_overrides(cfgp, sets, nsets, &c, stderr);
  free(sets);
  if (rc) return 1;
  char dir[1024];
  if (!out) {
    snprintf(dir, sizeof dir, "build/rtl/%s", c.name);
    out = dir;
  }
  return emit_rtl(&c, out, stderr) ? 1 : 0;
}

/* The options of `sagen gen`: 0 to go on, -1 after --help, 2 on bad usage. */
static int gen_args(int argc, char **argv, const char **cfgpp, const char **outp,
                    const char **sets, int *nsets)
{
  const char *cfgp = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      gen_usage(stdout);
      return -1;
    } else if (!strcmp(argv[i], "--set")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "sagen gen: --set needs KEY=VALUE, e.g. --set array.rows=8\n");
        return 2;
      }
      sets[(*nsets)++] = argv[++i];
    } else if (!strncmp(argv[i], "--set=", 6)) {
      sets[(*nsets)++] = argv[i] + 6;
    } else if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "sagen gen: -o needs a directory\n");
        return 2;
      }
      out = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "sagen gen: unknown option '%s' (see sagen gen --help)\n", argv[i]);
      return 2;
    } else if (!cfgp) {
      cfgp = argv[i];
    } else {
      fprintf(stderr, "sagen gen: unexpected argument '%s' (see sagen gen --help)\n", argv[i]);
      return 2;
    }
  }
  if (!cfgp) {
    fprintf(stderr, "sagen gen: expected CONFIG.yaml (see sagen gen --help)\n");
    return 2;
  }
  *cfgpp = cfgp;
  *outp = out;
  return 0;
}

static void layers_usage(FILE *out)
{
  fprintf(out,
    "usage: sagen layers FILE.csv\n"
    "\n"
    "Read a SCALE-Sim topology CSV (header: Layer name, IFMAP Height, IFMAP Width, Filter Height,\n"
    "Filter Width, Channels, Num Filter, Strides; optional Padding (default 0), Dilation\n"
    "(default 1), Batch (default 1); names match ignoring case and spaces) and print one line\n"
    "per layer:\n"
    "  name n c h w k r s sh sw ph pw dh dw\n"
    "Exit status: 0, 1 on a bad file (every problem as file:line: message), 2 on bad usage.\n");
}

static int cmd_layers(int argc, char **argv)
{
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      layers_usage(stdout);
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "sagen layers: unknown option '%s' (see sagen layers --help)\n", argv[i]);
      return 2;
    } else if (!path) {
      path = argv[i];
    } else {
      fprintf(stderr, "sagen layers: unexpected argument '%s' (see sagen layers --help)\n",
              argv[i]);
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "sagen layers: expected FILE.csv (see sagen layers --help)\n");
    return 2;
  }
  topo_t t;
  if (topo_load(path, &t, stderr)) return 1;
  topo_print(&t, stdout);
  topo_free(&t);
  return fflush(stdout) ? 1 : 0;
}

static int cmd_regmap(int argc, char **argv)
{
  const char *fmt = argc > 1 ? argv[1] : "c";
  if (argc > 2 || !strcmp(fmt, "--help") || !strcmp(fmt, "-h")) {
    fprintf(argc > 2 ? stderr : stdout, "usage: sagen regmap [c|verilog|markdown]\n");
    return argc > 2 ? 2 : 0;
  }
  if (!strcmp(fmt, "c")) regmap_emit_c(stdout);
  else if (!strcmp(fmt, "verilog")) regmap_emit_verilog(stdout);
  else if (!strcmp(fmt, "markdown")) regmap_emit_markdown(stdout);
  else {
    fprintf(stderr, "sagen regmap: '%s' is not a format: c, verilog or markdown\n", fmt);
    return 2;
  }
  return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "gen")) return cmd_gen(argc - 1, argv + 1);
  if (!strcmp(cmd, "sim")) return cosim_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "layers")) return cmd_layers(argc - 1, argv + 1);
  if (!strcmp(cmd, "keys")) {
    cfg_print_keys_markdown(stdout);
    return 0;
  }
  if (!strcmp(cmd, "regmap")) return cmd_regmap(argc - 1, argv + 1);
  fprintf(stderr, "sagen: unknown command '%s' (see sagen --help)\n", cmd);
  return 2;
}
