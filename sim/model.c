/* model: configuration -> RTL -> Verilator -> a shared library with the sagen_sim.h C API.
 * Libraries are cached by a hash of everything that goes into them, so a second run of the
 * same configuration starts at once and a changed template or shim rebuilds. */
#define _XOPEN_SOURCE 700 /* srand48 */
#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "templates.h"

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* The C++ optimisation of the model: the evaluation code at -O1 compiles in about half the time
 * of Verilator's default -Os (or -O2; make bench, step 3), and with -fno-reorder-blocks it
 * simulates faster than either. The evaluation is megabytes of straight-line code run through
 * once a cycle (every register of the design); GCC's block reordering moves the guarded updates
 * out of line, a taken jump there and one back for each, where in source order each is a short
 * forward branch (the default configuration: 47k -> 68k cycles/s, the same build time). The
 * run-once construction code and Verilator's runtime need no more. */
static const char model_make_flags[] = "OPT_SLOW=-O0 OPT_FAST=\"-O1 -fno-reorder-blocks\" OPT_GLOBAL=-O1";

static int file_exists(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0;
}

int model_run(char *const argv[], const char *log)
{
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) {
      dup2(nul, 0);
      close(nul);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void model_log_error(const char *log, char *buf, size_t len)
{
  FILE *f = fopen(log, "r");
  char line[1024];
  snprintf(buf, len, "see %s", log);
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "rror") || strstr(line, "%Warning") || strstr(line, "cannot run")) {
      line[strcspn(line, "\n")] = '\0';
      snprintf(buf, len, "%s (log: %s)", line, log);
      break;
    }
  }
  fclose(f);
}

static int write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  bad |= fclose(f) != 0;
  return bad;
}

static const char *sim_file(const char *name)
{
  for (const template_t *t = sim_files; t->name; t++)
    if (strcmp(t->name, name) == 0) return t->text;
  return NULL;
}

void model_x_seed(long seed)
{
  /* Verilator 5 seeds its PRNG, on the first random value a model asks for (its constructor,
   * with --x-initial unique), from lrand48() when no +verilator+seed is given. */
  srand48(seed);
}

int model_build(const cfg_t *c, const char *build_dir, int trace, int quiet, char *lib,
                size_t liblen, char *rtl_dir, size_t rtllen, char *err, size_t errlen)
{
  return model_build_x(c, build_dir, trace, MODEL_X_FAST, quiet, lib, liblen, rtl_dir, rtllen,
                       err, errlen);
}

/* The cache key of C's model: the configuration (as the generated RTL shows it), the templates,
 * the shim, the C++ flags, the tracing (TRACE) and a non-default X mode (UNIQUE). */
static uint64_t model_key(const cfg_t *c, int trace, int unique)
{
  uint64_t h = 1469598103934665603ull;
  char buf[256];
  int n = snprintf(buf, sizeof buf, "%s|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|trace%d", c->name,
                   c->rows, c->cols, c->input_bits, c->weight_bits, c->acc_bits, c->bus_elems,
                   c->ifmap_kib, c->weight_kib, c->output_kib, c->banks, c->regs_per_lane,
                   c->pattern_bits, c->fifo_depth, c->dram_bytes_per_cycle, trace);
  h = fnv(h, buf, (size_t)n);
  n = snprintf(buf, sizeof buf, "|groups%d|line%d", c->col_groups, c->line_kib);
  h = fnv(h, buf, (size_t)n);
  /* a float format only, so that the integer designs' cache entries stay valid */
  if (c->fp) {
    n = snprintf(buf, sizeof buf, "|%s|%s", c->format, c->acc_format);
    h = fnv(h, buf, (size_t)n);
  }
  h = fnv(h, model_make_flags, strlen(model_make_flags));
  /* Only a non-default mode enters the key, so that the default's cache entries stay valid. */
  if (unique) h = fnv(h, "|xunique", 8);
  for (const template_t *t = templates; t->name; t++) h = fnv(h, t->text, strlen(t->text));
  for (const template_t *t = sim_files; t->name; t++) h = fnv(h, t->text, strlen(t->text));
  return h;
}

/* The sources of C's model into DIR: the generated RTL (RTL_DIR), the shim, its API header and
 * sagen_top.h naming the top module TOP. Returns 0, or 1 with ERR. */
static int model_sources(const cfg_t *c, const char *dir, const char *rtl_dir, const char *top,
                         char *err, size_t errlen)
{
  /* emit_rtl's one-line message (which file, and why) becomes ours. */
  char *emsg = NULL;
  size_t emsg_len = 0;
  FILE *ef = open_memstream(&emsg, &emsg_len);
  int bad = emit_rtl(c, rtl_dir, ef ? ef : stderr);
  if (ef) fclose(ef);
  if (bad) {
    if (emsg && emsg[0]) {
      emsg[strcspn(emsg, "\n")] = '\0';
      snprintf(err, errlen, "cannot write the generated RTL: %s", emsg);
    } else {
      snprintf(err, errlen, "%s: cannot write the generated RTL", rtl_dir);
    }
    free(emsg);
    return 1;
  }
  free(emsg);
  char path[2300], path2[2300];
  snprintf(path, sizeof path, "%s/shim.cpp", dir);
  const char *shim = sim_file("shim.cpp"), *api = sim_file("sagen_sim.h");
  snprintf(path2, sizeof path2, "%s/sagen_sim.h", dir);
  if (!shim || !api || write_text(path, shim) || write_text(path2, api)) {
    snprintf(err, errlen, "%s: cannot write the simulation shim", dir);
    return 1;
  }
  char hpath[2400], htext[512];
  snprintf(hpath, sizeof hpath, "%s/sagen_top.h", dir);
  snprintf(htext, sizeof htext, "/* Generated by sagen; do not edit. */\n#include \"V%s.h\"\n"
           "#define SAGEN_TOP V%s\n", top, top);
  if (write_text(hpath, htext)) {
    snprintf(err, errlen, "%s: cannot write", hpath);
    return 1;
  }
  return 0;
}

/* Verilate the sources in DIR (top module TOP, file list FLIST) into the library LIB (built
 * as LIB.tmp, then moved into place), X values as XARG says, tracing as TRACE; the tools'
 * output into DIR/build.log. Returns 0, or 1 with ERR. */
static int model_verilate(const char *dir, const char *flist, char *top, const char *xarg,
                          int trace, const char *lib, char *err, size_t errlen)
{
  char path[2300], log[2300];
  snprintf(path, sizeof path, "%s/shim.cpp", dir);
  snprintf(log, sizeof log, "%s/build.log", dir);
  remove(log);
  /* verilator --cc, single-threaded model, -O3; fast X handling for speed unless XMODE asks
   * for unique (random) values. */
  char mdir[2300], inc[2400], flist_arg[2400];
  snprintf(mdir, sizeof mdir, "%s/obj", dir);
  snprintf(inc, sizeof inc, "-I%s", dir);
  snprintf(flist_arg, sizeof flist_arg, "%s", flist);
  char cflags[3000];
  snprintf(cflags, sizeof cflags, "-fPIC %s", inc);
  char *argv[40];
  int a = 0;
  argv[a++] = "verilator";
  argv[a++] = "--cc";
  /* Modules marked hier_block (the float PE) are verilated once and shared by their instances.
   * Verilator verilates each such block again, finding the files in the module search path (-y:
   * the generated files are named after their modules), which -F's paths, relative to the file
   * list, do not reach there. Not with tracing: Verilator 5.006's traced hierarchical model
   * crashes as it opens the trace (in VerilatedTrace::addModel of the block), so a traced model
   * is one flat model, slower to build. */
  char ydir[2300];
  snprintf(ydir, sizeof ydir, "%s", flist);
  char *slash = strrchr(ydir, '/');
  if (slash) *slash = '\0';
  else snprintf(ydir, sizeof ydir, ".");
  if (!trace) {
    argv[a++] = "--hierarchical";
    argv[a++] = "-y";
    argv[a++] = ydir;
  }
  argv[a++] = "--build";
  argv[a++] = "-j";
  argv[a++] = "2";
  argv[a++] = "-O3";
  argv[a++] = "--x-assign";
  argv[a++] = (char *)xarg;
  argv[a++] = "--x-initial";
  argv[a++] = (char *)xarg;
  argv[a++] = "--noassert";
  argv[a++] = "-Wno-fatal";
  argv[a++] = "--top-module";
  argv[a++] = top;
  argv[a++] = "--Mdir";
  argv[a++] = mdir;
  argv[a++] = "-CFLAGS";
  argv[a++] = cflags;
  /* The C++ optimisation levels: see model_make_flags. */
  argv[a++] = "-MAKEFLAGS";
  argv[a++] = (char *)model_make_flags;
  /* --exe with -shared: Verilator's own makefile links model, runtime and shim into a library */
  char tmp_lib[2400];
  snprintf(tmp_lib, sizeof tmp_lib, "%s.tmp", lib);
  argv[a++] = "--exe";
  argv[a++] = "-LDFLAGS";
  argv[a++] = trace == 2 ? "-shared -pthread -lz" : "-shared -pthread";
  argv[a++] = "-o";
  argv[a++] = tmp_lib;
  if (trace == 1) argv[a++] = "--trace";
  if (trace == 2) argv[a++] = "--trace-fst";
  argv[a++] = "-F";
  argv[a++] = flist_arg;
  argv[a++] = path;
  argv[a] = NULL;
  int rc = model_run(argv, log);
  if (rc != 0) {
    char first[1024];
    model_log_error(log, first, sizeof first);
    snprintf(err, errlen, "verilator failed (status %d): %s", rc, first);
    return 1;
  }
  if (rename(tmp_lib, lib) != 0) {
    snprintf(err, errlen, "%s: cannot move the model library into place: %s", lib, strerror(errno));
    remove(tmp_lib);
    return 1;
  }
  return 0;
}

int model_lock(const char *dir, char *err, size_t errlen)
{
  char path[2400];
  if (emit_mkdirs(dir) != 0) {
    snprintf(err, errlen, "%s: cannot create output directory: %s", dir, strerror(errno));
    return -1;
  }
  snprintf(path, sizeof path, "%s/lock", dir);
  int fd = open(path, O_RDWR | O_CREAT, 0666);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  struct flock fl = {0};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  while (fcntl(fd, F_SETLKW, &fl) != 0) {
    if (errno == EINTR) continue;
    snprintf(err, errlen, "cannot lock %s: %s", path, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

void model_unlock(int fd)
{
  if (fd >= 0) close(fd); /* closing the file releases the process's lock on it */
}

int model_build_x(const cfg_t *c, const char *build_dir, int trace, model_xmode_t xmode,
                  int quiet, char *lib, size_t liblen, char *rtl_dir, size_t rtllen, char *err,
                  size_t errlen)
{
  if (xmode != MODEL_X_FAST && xmode != MODEL_X_UNIQUE) {
    snprintf(err, errlen, "model_build_x: unknown X mode %d", (int)xmode);
    return 1;
  }
  const char *xarg = xmode == MODEL_X_UNIQUE ? "unique" : "fast";
  uint64_t h = model_key(c, trace, xmode == MODEL_X_UNIQUE);
  char dir[2048], top[CFG_NAME_MAX + 16], flist[2300];
  char cwd[1024] = "";
  if (build_dir[0] != '/' && !getcwd(cwd, sizeof cwd)) {
    snprintf(err, errlen, "cannot resolve the build directory: %s", strerror(errno));
    return 1;
  }
  snprintf(dir, sizeof dir, "%s%s%s/%s-%s%016llx", cwd, cwd[0] ? "/" : "", build_dir, c->name,
           xmode == MODEL_X_UNIQUE ? "xunique-" : "", (unsigned long long)h);
  snprintf(rtl_dir, rtllen, "%s/rtl", dir);
  snprintf(lib, liblen, "%s/libsagen_model.so", dir);
  if (file_exists(lib)) return 0;
  /* Another process may be building the same model (scripts run several simulations at once):
   * one builds, the others wait for it and take its library. */
  int lock = model_lock(dir, err, errlen);
  if (lock < 0) return 1;
  if (file_exists(lib)) {
    model_unlock(lock);
    return 0;
  }

  if (!quiet)
    fprintf(stderr, "sagen: building the Verilator model of '%s'%s in %s\n", c->name,
            xmode == MODEL_X_UNIQUE ? " (X values: unique)" : "", dir);
  emit_top_name(c, top, sizeof top);
  int rc = model_sources(c, dir, rtl_dir, top, err, errlen);
  snprintf(flist, sizeof flist, "%s/sagen_%s.f", rtl_dir, c->name);
  if (!rc) rc = model_verilate(dir, flist, top, xarg, trace, lib, err, errlen);
  model_unlock(lock);
  return rc;
}
