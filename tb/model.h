/* model: build (or find in the cache) the Verilated model library of a configuration. */
#ifndef SAGEN_MODEL_H
#define SAGEN_MODEL_H

#include <stddef.h>
#include "cfg.h"

/* Generate the RTL of C under BUILD_DIR/<name>-<hash>/rtl and build the Verilator model library
 * there, unless a library of the same RTL, shim and options already exists. TRACE: 0 none,
 * 1 VCD, 2 FST. Writes the library path into LIB and the RTL directory into RTL_DIR. Progress
 * goes to stderr unless QUIET. Returns 0, or 1 with a one-line message in ERR. */
int model_build(const cfg_t *c, const char *build_dir, int trace, int quiet, char *lib,
                size_t liblen, char *rtl_dir, size_t rtllen, char *err, size_t errlen);

/* Run ARGV (argv[0] looked up in PATH) with stdout and stderr sent to LOG (appended). Returns
 * the exit status, or -1 if it could not be started. */
int model_run(char *const argv[], const char *log);

/* The first line of LOG that looks like an error, into BUF. */
void model_log_error(const char *log, char *buf, size_t len);

#endif
