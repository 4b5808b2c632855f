/* emit: write the RTL of a validated configuration. */
#ifndef SAGEN_EMIT_H
#define SAGEN_EMIT_H

#include <stdio.h>
#include "cfg.h"

/* Write into directory OUTDIR (created if missing) the Verilog of configuration C: every
 * template with its modules renamed sagen_<name>_* and the register map's include inlined
 * (regmap.h), the top sagen_<name>_top.v, the filelist sagen_<name>.f, the C header
 * sagen_<name>_params.h, the FuseSoC CAPI2 core sagen_<name>.core (targets default, lint, sim),
 * the Yosys script sagen_<name>.ys (synthesis keeping the SRAMs as memories, with checks) and
 * the register map for a user's driver and testbench, sagen_<name>_regmap.h and .vh. Every file is first written to a temporary name; only when all are
 * written are they renamed into place, so a failure leaves no partial file and no mix of two
 * generations. Output is deterministic: the same configuration gives the same bytes. Returns 0,
 * or 1 after one message on ERR. */
int emit_rtl(const cfg_t *c, const char *outdir, FILE *err);

/* Name of the top module for C, written into BUF (at least CFG_NAME_MAX + 16 bytes). */
void emit_top_name(const cfg_t *c, char *buf, size_t len);

/* Create the directory DIR and its missing parents. Returns 0, or -1 (errno set). */
int emit_mkdirs(const char *dir);

#endif
