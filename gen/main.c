/* sagen: YAML -> convolution accelerator RTL, and its co-simulation. */
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cosim.h"
#include "emit.h"

static void usage(FILE *out)
{
  fprintf(out,
    "usage: sagen COMMAND ...\n"
    "\n"
    "commands:\n"
    "  gen CONFIG.yaml [-o DIR]     write the configuration's Verilog, filelist and C header\n"
    "  sim CONFIG.yaml OP [...]     co-simulate a layer on the generated hardware (sagen sim --help)\n"
    "  keys                         print the table of YAML keys (Markdown)\n"
    "\n"
    "exit status: 0 success, 1 bad input or a failed check, 2 bad usage\n");
}

static void gen_usage(FILE *out)
{
  fprintf(out,
    "usage: sagen gen CONFIG.yaml [-o DIR]\n"
    "\n"
    "Validate CONFIG.yaml and write into DIR (default build/rtl/<name>):\n"
    "  sagen_<name>_top.v and every block (sagen_<name>_*.v), one module per file\n"
    "  sagen_<name>.f        the filelist, file names relative to DIR\n"
    "  sagen_<name>_params.h the configuration's parameters for C\n"
    "The same YAML gives the same bytes.\n");
}

static int cmd_gen(int argc, char **argv)
{
  const char *cfgp = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      gen_usage(stdout);
      return 0;
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
  cfg_t c;
  if (cfg_load(cfgp, &c, stderr)) return 1;
  char dir[1024];
  if (!out) {
    snprintf(dir, sizeof dir, "build/rtl/%s", c.name);
    out = dir;
  }
  return emit_rtl(&c, out, stderr) ? 1 : 0;
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
  if (!strcmp(cmd, "keys")) {
    cfg_print_keys_markdown(stdout);
    return 0;
  }
  fprintf(stderr, "sagen: unknown command '%s' (see sagen --help)\n", cmd);
  return 2;
}
