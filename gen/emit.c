/* emit: configuration -> Verilog. Logic lives in the hand-written templates; this file only
 * renames their modules with the configuration's prefix and writes a thin top wrapper, the
 * filelist, the parameters header, and the flow files: a FuseSoC core and a Yosys script. */
#include "emit.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regmap.h"
#include "templates.h"

typedef struct buf {
  char *p;
  size_t len, cap;
  int oom;
} buf_t;

static void buf_put(buf_t *b, const char *s, size_t n)
{
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void buf_printf(buf_t *b, const char *fmt, ...)
{
  char tmp[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->oom = 1;
    return;
  }
  if ((size_t)n < sizeof tmp) {
    buf_put(b, tmp, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    b->oom = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  buf_put(b, big, (size_t)n);
  free(big);
}

/* 1 if identifier ID[0..n) is the module name of a template. */
static int is_template_module(const char *id, size_t n)
{
  for (const template_t *t = templates; t->name; t++) {
    size_t m = strlen(t->name) - 2; /* drop ".v" */
    if (m == n && strncmp(t->name, id, n) == 0) return 1;
  }
  return 0;
}

/* Copy TEXT renaming every template module identifier sagen_X to sagen_<name>_X. */
static void rename_modules(buf_t *b, const char *text, const char *name)
{
  const char *p = text;
  while (*p) {
    if (isalpha((unsigned char)*p) || *p == '_') {
      const char *s = p;
      while (isalnum((unsigned char)*p) || *p == '_' || *p == '$') p++;
      size_t n = (size_t)(p - s);
      if (n > 6 && strncmp(s, "sagen_", 6) == 0 && is_template_module(s, n)) {
        buf_printf(b, "sagen_%s_", name);
        buf_put(b, s + 6, n - 6);
      } else {
        buf_put(b, s, n);
      }
    } else {
      buf_put(b, p, 1);
      p++;
    }
  }
}

/* The include line of the register map in a template; emit_template replaces it with the
 * map's localparams, so that the files written stand alone (no include path in a user's flow). */
#define REGMAP_INCLUDE "`include \"sagen_regmap.vh\""

/* One rendering of the register map (EMIT: a regmap_emit_* function) appended to B. */
static void put_regmap(buf_t *b, void (*emit)(FILE *))
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    b->oom = 1;
    return;
  }
  emit(f);
  if (fclose(f) != 0 || !text) b->oom = 1;
  else buf_put(b, text, len);
  free(text);
}

/* Template TEXT with its modules renamed for configuration NAME (rename_modules) and every
 * line that is the register map's include (leading blanks allowed) replaced by the map. */
static void emit_template(buf_t *b, const char *text, const char *name)
{
  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
    const char *s = p;
    while (s < p + n && (*s == ' ' || *s == '\t')) s++;
    size_t m = strlen(REGMAP_INCLUDE);
    const char *e = s + m;
    if ((size_t)(p + n - s) >= m && strncmp(s, REGMAP_INCLUDE, m) == 0 &&
        (e == p + n || *e == '\n' || *e == '\r')) {
      put_regmap(b, regmap_emit_verilog);
    } else {
      char *line = strndup(p, n);
      if (!line) {
        b->oom = 1;
        return;
      }
      rename_modules(b, line, name);
      free(line);
    }
    p += n;
  }
}

/* The files of one generation: written to temporary names first, renamed into place only
 * when every one was written, so that a failure (disk full, a read-only file) leaves the
 * directory as it was, without a partial or a mixed generation. */
typedef struct out_file {
  char name[512];
  buf_t b;
  int tmp_written;
} out_file_t;

static void tmp_path(char *buf, size_t len, const char *dir, const char *file)
{
  snprintf(buf, len, "%s/%s.tmp.%ld", dir, file, (long)getpid());
}

static int write_tmp(const char *dir, out_file_t *o, FILE *err)
{
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/%s", dir, o->name);
  if (o->b.oom) {
    fprintf(err, "%s: out of memory\n", path);
    return 1;
  }
  tmp_path(tmp, sizeof tmp, dir, o->name);
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    fprintf(err, "%s: cannot write: %s\n", path, strerror(errno));
    return 1;
  }
  o->tmp_written = 1;
  size_t w = fwrite(o->b.p, 1, o->b.len, f);
  int bad = (w != o->b.len);
  int e = errno;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    fprintf(err, "%s: cannot write: %s\n", path, strerror(e));
    return 1;
  }
  return 0;
}

/* Write every file of FILES[0..N) to a temporary name, then rename them all into place. */
static int write_all(const char *dir, out_file_t *files, size_t n, FILE *err)
{
  char path[4096], tmp[4200];
  size_t i;
  int bad = 0;
  for (i = 0; i < n && !bad; i++) bad = write_tmp(dir, &files[i], err);
  /* A destination that exists but is not a regular file (a directory, say) would make its
   * rename fail after others were done: refuse before renaming anything. */
  for (i = 0; i < n && !bad; i++) {
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
      fprintf(err, "%s: cannot write: %s\n", path,
              S_ISDIR(st.st_mode) ? "is a directory" : "exists and is not a regular file");
      bad = 1;
    }
  }
  for (i = 0; i < n && !bad; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
    tmp_path(tmp, sizeof tmp, dir, files[i].name);
    if (rename(tmp, path) != 0) {
      fprintf(err, "%s: cannot write: %s\n", path, strerror(errno));
      bad = 1;
      break;
    }
    files[i].tmp_written = 0;
  }
  for (i = 0; i < n; i++) {
    if (files[i].tmp_written) {
      tmp_path(tmp, sizeof tmp, dir, files[i].name);
      remove(tmp);
    }
  }
  return bad;
}

int emit_mkdirs(const char *dir)
{
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
  struct stat st;
  return (stat(tmp, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

static int log2i(int v)
{
  int l = 0;
  while ((1 << l) < v) l++;
  return l;
}

static int imax(int a, int b) { return a > b ? a : b; }

void emit_top_name(const cfg_t *c, char *buf, size_t len)
{
  snprintf(buf, len, "sagen_%s_top", c->name);
}

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static void header_line(buf_t *b, const cfg_t *c, const char *comment)
{
  buf_printf(b, "%s Generated by sagen from %s; do not edit.\n", comment, base_name(c->path));
}

/* What the data are, for comments: "8-bit inputs, 8-bit weights, 32-bit accumulators" or
 * "bf16 inputs and weights, fp32 sums". */
static const char *data_text(const cfg_t *c, char *buf, size_t n)
{
  if (c->fp)
    snprintf(buf, n, "%s inputs and weights, %s sums", c->format, c->acc_format);
  else
    snprintf(buf, n, "%d-bit inputs, %d-bit weights, %d-bit accumulators", c->input_bits,
             c->weight_bits, c->acc_bits);
  return buf;
}

static void emit_top(buf_t *b, const cfg_t *c)
{
  int hp_aw = imax(c->if_aw, imax(c->wt_aw, c->out_aw));
  int hp_dw = imax(c->if_word_bits, c->wt_word_bits);
  char dtext[96], fp_params[160] = "\n";
  if (c->fp)
    snprintf(fp_params, sizeof fp_params,
             ",\n    .FP        (1),\n    .IEW       (%d),\n    .IFW       (%d),\n"
             "    .AEW       (%d),\n    .AFW       (%d)\n",
             c->in_ew, c->in_fw, c->acc_ew, c->acc_fw);
  header_line(b, c, "//");
  buf_printf(b,
    "// sagen_%s_top: %dx%d output-stationary array, %s;\n"
    "// %d-element ifmap bus; %d bank(s) of %d KiB ifmap, %d KiB weight, %d KiB\n"
    "// output SRAM. Register map: sagen_%s_regmap.h (docs/regmap.md of sagen).\n"
    "`default_nettype none\n\n"
    "module sagen_%s_top (\n"
    "  input  wire         clk_i,\n"
    "  input  wire         rst_ni,\n"
    "  input  wire         csr_we_i,\n"
    "  input  wire [6:0]   csr_addr_i,\n"
    "  input  wire [31:0]  csr_wdata_i,\n"
    "  output wire [31:0]  csr_rdata_o,\n"
    "  input  wire         hp_we_i,\n"
    "  input  wire         hp_mem_i,\n"
    "  input  wire         hp_bank_i,\n"
    "  input  wire [%d:0]  hp_addr_i,\n"
    "  input  wire [%d:0] hp_wdata_i,\n"
    "  input  wire         hp_re_i,\n"
    "  output wire [%d:0] hp_rdata_o,\n"
    "  output wire         busy_o,\n"
    "  output wire         irq_o\n"
    ");\n\n",
    c->name, c->rows, c->cols, data_text(c, dtext, sizeof dtext), c->bus_elems,
    c->banks, c->ifmap_kib, c->weight_kib, c->output_kib, c->name, c->name,
    hp_aw - 1, hp_dw - 1, c->out_word_bits - 1);
  buf_printf(b,
    "  sagen_%s_core #(\n"
    "    .ROWS      (%d),\n    .COLS      (%d),\n    .IN_BITS   (%d),\n"
    "    .W_BITS    (%d),\n    .ACC_BITS  (%d),\n    .BUS       (%d),\n"
    "    .LG_BUS    (%d),\n    .M         (%d),\n    .PAT_BITS  (%d),\n"
    "    .FIFO_DEPTH(%d),\n    .BANKS     (%d),\n    .IF_WORDS  (%ld),\n"
    "    .WT_WORDS  (%ld),\n    .OUT_WORDS (%ld),\n    .IF_AW     (%d),\n"
    "    .WT_AW     (%d),\n    .OUT_AW    (%d),\n    .HP_AW     (%d),\n"
    "    .HP_DW     (%d),\n    .GROUPS    (%d),\n    .LINE_WORDS(%ld),\n"
    "    .LINE_AW   (%d)%s"
    "  ) u_core (\n"
    "    .clk_i      (clk_i),\n    .rst_ni     (rst_ni),\n    .csr_we_i   (csr_we_i),\n"
    "    .csr_addr_i (csr_addr_i),\n    .csr_wdata_i(csr_wdata_i),\n"
    "    .csr_rdata_o(csr_rdata_o),\n    .hp_we_i    (hp_we_i),\n    .hp_mem_i   (hp_mem_i),\n"
    "    .hp_bank_i  (hp_bank_i),\n    .hp_addr_i  (hp_addr_i),\n    .hp_wdata_i (hp_wdata_i),\n"
    "    .hp_re_i    (hp_re_i),\n    .hp_rdata_o (hp_rdata_o),\n    .busy_o     (busy_o),\n"
    "    .irq_o      (irq_o)\n"
    "  );\n\nendmodule\n\n`resetall\n",
    c->name, c->rows, c->cols, c->input_bits, c->weight_bits, c->acc_bits, c->bus_elems,
    log2i(c->bus_elems), c->regs_per_lane, c->pattern_bits, c->fifo_depth, c->banks,
    c->if_words, c->wt_words, c->out_words, c->if_aw, c->wt_aw, c->out_aw, hp_aw, hp_dw,
    c->col_groups, c->line_words, c->line_aw, fp_params);
}

static void emit_params(buf_t *b, const cfg_t *c)
{
  char up[CFG_NAME_MAX];
  size_t i;
  for (i = 0; c->name[i] && i + 1 < sizeof up; i++) up[i] = (char)toupper((unsigned char)c->name[i]);
  up[i] = '\0';
  header_line(b, c, "/*");
  b->len -= 1; /* join the closing of the comment to the generated line */
  buf_put(b, " */\n", 4);
  buf_printf(b, "#ifndef SAGEN_%s_PARAMS_H\n#define SAGEN_%s_PARAMS_H\n\n", up, up);
  struct { const char *k; long v; } kv[] = {
    {"ROWS", c->rows}, {"COLS", c->cols}, {"COL_GROUPS", c->col_groups},
    {"INPUT_BITS", c->input_bits},
    {"WEIGHT_BITS", c->weight_bits}, {"ACC_BITS", c->acc_bits}, {"BUS_ELEMS", c->bus_elems},
    {"IFMAP_KIB", c->ifmap_kib}, {"WEIGHT_KIB", c->weight_kib}, {"OUTPUT_KIB", c->output_kib},
    {"BANKS", c->banks}, {"DRAM_BYTES_PER_CYCLE", c->dram_bytes_per_cycle},
    {"REGS_PER_LANE", c->regs_per_lane}, {"PATTERN_BITS", c->pattern_bits},
    {"FIFO_DEPTH", c->fifo_depth}, {"IF_WORDS", c->if_words}, {"WT_WORDS", c->wt_words},
    {"OUT_WORDS", c->out_words}, {"LINE_WORDS", c->line_words},
    {"IF_WORD_BITS", c->if_word_bits},
    {"WT_WORD_BITS", c->wt_word_bits}, {"OUT_WORD_BITS", c->out_word_bits},
    {"FP", c->fp}, {"IN_EXP_BITS", c->in_ew}, {"IN_FRAC_BITS", c->in_fw},
    {"ACC_EXP_BITS", c->acc_ew}, {"ACC_FRAC_BITS", c->acc_fw},
  };
  for (size_t k = 0; k < sizeof kv / sizeof kv[0]; k++)
    buf_printf(b, "#define SAGEN_%s_%s %ld\n", up, kv[k].k, kv[k].v);
  buf_printf(b, "\n#endif\n");
}

/* sagen_<name>.core: a FuseSoC CAPI2 core of the generated RTL (FILES[0..NV) are the .v files,
 * in filelist order). The first line must be "CAPI=2:" (FuseSoC reads it to pick the format),
 * so the "Generated by" line comes second. Targets: default (the files and the top), lint
 * (Verilator, lint-only, -Wall) and sim (Icarus, Verilog-2005). */
static void emit_core(buf_t *b, const cfg_t *c, const out_file_t *files, size_t nv)
{
  char top[CFG_NAME_MAX + 16], dtext[96];
  emit_top_name(c, top, sizeof top);
  buf_printf(b, "CAPI=2:\n");
  header_line(b, c, "#");
  buf_printf(b,
    "# FuseSoC core of the generated accelerator: `fusesoc library add sagen_%s .` in this\n"
    "# directory, then `fusesoc run --target=lint sagen:accel:%s` (or --target=sim).\n\n"
    "name: sagen:accel:%s:0.1\n"
    "description: \"%dx%d output-stationary convolution array, %s (sagen)\"\n\n"
    "filesets:\n"
    "  rtl:\n"
    "    file_type: verilogSource-2005\n"
    "    files:\n",
    c->name, c->name, c->name, c->rows, c->cols, data_text(c, dtext, sizeof dtext));
  for (size_t i = 0; i < nv; i++) buf_printf(b, "      - %s\n", files[i].name);
  buf_printf(b,
    "\n"
    "targets:\n"
    "  default:\n"
    "    filesets: [rtl]\n"
    "    toplevel: %s\n"
    "  lint:\n"
    "    filesets: [rtl]\n"
    "    toplevel: %s\n"
    "    default_tool: verilator\n"
    "    tools:\n"
    "      verilator:\n"
    "        mode: lint-only\n"
    "        verilator_options: [-Wall]\n"
    "  sim:\n"
    "    filesets: [rtl]\n"
    "    toplevel: %s\n"
    "    default_tool: icarus\n"
    "    tools:\n"
    "      icarus:\n"
    "        iverilog_options: [-g2005]\n",
    top, top, top);
}

/* sagen_<name>.ys: Yosys synthesis of the design, run from this directory (yosys -s FILE). The
 * flow of tests/lint_synth.sh: `synth` without memory_map, so that every SRAM bank stays one
 * $mem_v2 cell (a memory compiler's job) and the rest becomes gates; then the checks. */
static void emit_ys(buf_t *b, const cfg_t *c, const out_file_t *files, size_t nv)
{
  char top[CFG_NAME_MAX + 16];
  emit_top_name(c, top, sizeof top);
  header_line(b, c, "#");
  buf_printf(b,
    "# Yosys synthesis of %s; run in this directory: yosys -s sagen_%s.ys\n"
    "# The script of `synth` (Yosys 0.23, `help synth`) without memory_map: each SRAM bank stays\n"
    "# one $mem_v2 cell (1 write port, 1 registered read port) for a memory compiler, everything\n"
    "# else becomes gates. Replace the fine steps with your technology mapping.\n\n",
    top, c->name);
  for (size_t i = 0; i < nv; i++) buf_printf(b, "read_verilog %s\n", files[i].name);
  buf_printf(b,
    "\n"
    "# begin and coarse of synth (hierarchy -check -top, proc, opt, fsm, wreduce, alumacc, share,\n"
    "# memory -nomap): memories become $mem_v2 cells.\n"
    "synth -top %s -run begin:fine\n"
    "\n"
    "# fine of synth, without memory_map (which would turn the SRAM banks into flip-flops).\n"
    "opt -fast -full\n"
    "opt -full\n"
    "techmap\n"
    "opt -fast\n"
    "abc -fast\n"
    "opt -fast\n"
    "\n"
    "# check of synth, with the assertions.\n"
    "hierarchy -check\n"
    "check -assert\n"
    "# no latch of any kind\n"
    "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr t:$_DLATCH_* t:$_DLATCHSR_* t:$_SR_*\n"
    "# every memory: 1 write port, 1 registered read port\n"
    "select -assert-none t:$mem_v2 t:$mem_v2 r:RD_PORTS=1 r:WR_PORTS=1 r:RD_CLK_ENABLE=1'1 %%i %%i %%i %%d\n"
    "# the design: gates, plus %d $mem_v2 cells (3 memories x %d bank(s)) under the sram module\n"
    "stat -top %s\n",
    top, 3 * c->banks, c->banks, top);
}

/* The technology of template FILE when it is a replacement of another template for that
 * technology's flow ("sagen_X_<tech>.v", module sagen_X: written to DIR/<tech>/ under the
 * replaced file's name, not in the filelist), else NULL. */
static const char *tech_template(const char *file)
{
  static const char *const techs[] = {"ecp5"};
  for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++) {
    char suffix[32];
    snprintf(suffix, sizeof suffix, "_%s.v", techs[i]);
    size_t n = strlen(file), m = strlen(suffix);
    if (n > m + 6 && strcmp(file + n - m, suffix) == 0) return techs[i];
  }
  return NULL;
}

/* 1 if the design of C instantiates template FILE: the filelist holds what the design uses.
 * The tapped delay lines serve column groups; the floating-point adder and multiplier (and the
 * leading-zero counter inside them) serve the float PEs and the float partial-sums manager,
 * which no integer design has. */
static int template_used(const cfg_t *c, const char *file)
{
  if (strcmp(file, "sagen_skew_tap.v") == 0) return c->col_groups > 1;
  if (strncmp(file, "sagen_fp_", 9) == 0 || strcmp(file, "sagen_lzc.v") == 0 ||
      strcmp(file, "sagen_pe_fp.v") == 0)
    return c->fp;
  /* (sagen_pe.v stays in a float design: Yosys elaborates the array with its default, integer
   * parameters too, and wants the module its g_int branch names) */
  return 1;
}

int emit_rtl(const cfg_t *c, const char *outdir, FILE *err)
{
  int rc = 1;
  size_t nt = 0, n = 0;
  for (const template_t *t = templates; t->name; t++) nt++;
  /* the templates, the top, then the filelist, the header, the FuseSoC core, the Yosys script,
   * the register map for C and for Verilog */
  size_t nfiles = nt + 7;
  out_file_t *files = calloc(nfiles, sizeof *files);
  if (!files) {
    fprintf(err, "%s: out of memory\n", outdir);
    return 1;
  }
  if (emit_mkdirs(outdir) != 0) {
    fprintf(err, "%s: cannot create output directory: %s\n", outdir, strerror(errno));
    free(files);
    return 1;
  }
  for (const template_t *t = templates; t->name; t++) {
    if (!template_used(c, t->name) || tech_template(t->name)) continue;
    snprintf(files[n].name, sizeof files[n].name, "sagen_%s_%s", c->name, t->name + 6);
    header_line(&files[n].b, c, "//");
    emit_template(&files[n].b, t->text, c->name);
    n++;
  }
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s_top.v", c->name);
  emit_top(&files[n].b, c);
  n++;
  size_t nv = n;
  out_file_t *list = &files[n++];
  snprintf(list->name, sizeof list->name, "sagen_%s.f", c->name);
  header_line(&list->b, c, "//");
  for (size_t i = 0; i < nv; i++) buf_printf(&list->b, "%s\n", files[i].name);
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s_params.h", c->name);
  emit_params(&files[n].b, c);
  n++;
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s.core", c->name);
  emit_core(&files[n].b, c, files, nv);
  n++;
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s.ys", c->name);
  emit_ys(&files[n].b, c, files, nv);
  n++;
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s_regmap.h", c->name);
  header_line(&files[n].b, c, "/*");
  files[n].b.len -= 1; /* close the comment on the generated line */
  buf_put(&files[n].b, " */\n", 4);
  put_regmap(&files[n].b, regmap_emit_c);
  n++;
  snprintf(files[n].name, sizeof files[n].name, "sagen_%s_regmap.vh", c->name);
  header_line(&files[n].b, c, "//");
  put_regmap(&files[n].b, regmap_emit_verilog);
  n++;
  /* a technology's replacements of filelist files: DIR/<tech>/ under the same file names */
  char sub[512] = "";
  int made_sub = 0;
  for (const template_t *t = templates; t->name; t++) {
    const char *tech = tech_template(t->name);
    if (!tech || !template_used(c, t->name)) continue;
    snprintf(sub, sizeof sub, "%s/%s", outdir, tech);
    if (mkdir(sub, 0777) == 0) {
      made_sub = 1;
    } else if (errno != EEXIST) {
      fprintf(err, "%s: cannot create output directory: %s\n", sub, strerror(errno));
      rc = 1;
      goto out;
    }
    size_t base = strlen(t->name) - strlen(tech) - 3; /* "sagen_X" of "sagen_X_<tech>.v" */
    snprintf(files[n].name, sizeof files[n].name, "%s/sagen_%s_%.*s.v", tech, c->name,
             (int)(base - 6), t->name + 6);
    header_line(&files[n].b, c, "//");
    emit_template(&files[n].b, t->text, c->name);
    n++;
  }
  rc = write_all(outdir, files, n, err);
out:
  if (rc && made_sub) rmdir(sub); /* (a failed generation leaves the directory as it was) */
  for (size_t i = 0; i < nfiles; i++) free(files[i].b.p);
  free(files);
  return rc;
}
