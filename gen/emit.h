/* emit: write the RTL of a validated configuration. */
#ifndef SAGEN_EMIT_H
#define SAGEN_EMIT_H

#include <stdio.h>
#include "cfg.h"

/* Write into directory OUTDIR (created if missing) the Verilog of configuration C: every
 * template with its modules renamed sagen_<name>_*, the top sagen_<name>_top.v, the filelist
 * sagen_<name>.f and the C header sagen_<name>_params.h. Each file is written to a temporary
 * name and renamed, so a failure leaves no partial file. Output is deterministic: the same
 * configuration gives the same bytes. Returns 0, or 1 after one message on ERR. */
int emit_rtl(const cfg_t *c, const char *outdir, FILE *err);

/* Name of the top module for C, written into BUF (at least CFG_NAME_MAX + 16 bytes). */
void emit_top_name(const cfg_t *c, char *buf, size_t len);

#endif
