/* model: build (or find in the cache) the Verilated model library of a configuration. */
#ifndef SAGEN_MODEL_H
#define SAGEN_MODEL_H

#include <stddef.h>
#include "cfg.h"

/* How X (unknown) values are modelled by the Verilated build. */
typedef enum model_xmode {
  MODEL_X_FAST = 0,   /* --x-assign fast --x-initial fast: whatever is fastest (zeros, in
                         practice): the default, for speed */
  MODEL_X_UNIQUE = 1  /* --x-assign unique --x-initial unique: every explicit X assignment and
                         every register or memory word without a reset takes its value from
                         Verilator's PRNG. The shim passes +verilator+rand+reset+2, so the
                         values are random; the PRNG is seeded from lrand48() of the host
                         process, so model_x_seed(S) before hw_open selects them. Logic that
                         depends on an uninitialised value then gives different results from
                         seed to seed (tests/xcheck.sh). */
} model_xmode_t;

/* Generate the RTL of C under BUILD_DIR/<name>-<hash>/rtl and build the Verilator model library
 * there, unless a library of the same RTL, shim and options already exists. TRACE: 0 none,
 * 1 VCD, 2 FST. Writes the library path into LIB and the RTL directory into RTL_DIR. Progress
 * goes to stderr unless QUIET. Returns 0, or 1 with a one-line message in ERR. The X modelling
 * is MODEL_X_FAST. */
int model_build(const cfg_t *c, const char *build_dir, int trace, int quiet, char *lib,
                size_t liblen, char *rtl_dir, size_t rtllen, char *err, size_t errlen);

/* model_build with the X modelling XMODE. Each mode has its own cache entry: MODEL_X_FAST is
 * the one model_build uses (the same directory as before), MODEL_X_UNIQUE goes to
 * BUILD_DIR/<name>-xunique-<hash>. */
int model_build_x(const cfg_t *c, const char *build_dir, int trace, model_xmode_t xmode,
                  int quiet, char *lib, size_t liblen, char *rtl_dir, size_t rtllen, char *err,
                  size_t errlen);

/* Wait for and take the lock of the model directory DIR (created if missing; the lock is the
 * file DIR/lock), which every process building the model there, or replaying a run in Icarus
 * from it, holds meanwhile. Returns a descriptor for model_unlock, or -1 with ERR. */
int model_lock(const char *dir, char *err, size_t errlen);

/* Release a lock of model_lock (nothing for -1). */
void model_unlock(int fd);

/* Select the random values of the next MODEL_X_UNIQUE model opened in this process (hw_open):
 * the same SEED gives the same initial state. Call it right before hw_open. */
void model_x_seed(long seed);

/* Run ARGV (argv[0] looked up in PATH) with stdout and stderr sent to LOG (appended). Returns
 * the exit status, or -1 if it could not be started. */
int model_run(char *const argv[], const char *log);

/* The first line of LOG that looks like an error, into BUF. */
void model_log_error(const char *log, char *buf, size_t len);

#endif
