/* replay: run the record of a driver's run through Icarus Verilog and place the output words it
 * read the way the driver placed Verilator's, so that the two simulators' results can each be
 * checked against the golden model. */
#ifndef SAGEN_REPLAY_H
#define SAGEN_REPLAY_H

#include <stddef.h>

#include "cfg.h"
#include "driver.h"
#include "tensor.h"

/* Replay REC (written by hw_record or hw_open during a drive_* run of configuration C, finished
 * with hw_record_end or hw_close) through the RTL that model_build generated in RTL_DIR, with
 * sim/sagen_replay_tb.v, in Icarus Verilog. The replay itself checks every status and output word
 * the driver relied on against what Verilator gave, and that no control output is X. Then Y
 * (the run's result tensor) is cleared and filled from the words Icarus read, placed as READS
 * (the drive_opts_t.reads of the run) says: Y is then Icarus's result, outputs no word carries
 * zero. VCD: a waveform to dump, or NULL. Returns 0, or 1 with a one-line message in ERR (a
 * tool missing, a compile error, a replay mismatch, another count of words than READS). */
int replay_icarus(const cfg_t *c, const char *rtl_dir, const char *rec,
                  const drive_reads_t *reads, tensor_t *y, const char *vcd, char *err,
                  size_t errlen);

#endif
