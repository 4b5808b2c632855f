/* replay: run the record of a driver's run through Icarus Verilog and return the output words it
 * read, for the driver's record of where it placed Verilator's (drive_reads_place), so that the
 * two simulators' results can each be checked against the golden model. An adapter of the
 * simulators: it uses no code of the driver. */
#ifndef SAGEN_REPLAY_H
#define SAGEN_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

/* Replay REC (written by hw_record or hw_open during a drive_* run of configuration C, finished
 * with hw_record_end or hw_close) through the RTL that model_build generated in RTL_DIR, with
 * sim/sagen_replay_tb.v, in Icarus Verilog. The replay itself checks every status and output word
 * the driver relied on against what Verilator gave, and that no control output is X. The output
 * words Icarus read, NWORDS of them (the driver's count of words read, drive_reads_t.nwords),
 * go into *WORDS: (out_word_bits + 31) / 32 uint32 each, malloc'ed, the caller's to free (also
 * on failure: NULL or words read). drive_reads_place puts them where the driver put
 * Verilator's, so that Icarus's result can be checked against the golden model. VCD: a
 * waveform to dump, or NULL. Returns 0, or 1 with a one-line message in ERR (a tool missing, a
 * compile error, a replay mismatch, another count of words than NWORDS). */
int replay_icarus(const cfg_t *c, const char *rtl_dir, const char *rec, long nwords,
                  uint32_t **words, const char *vcd, char *err, size_t errlen);

#endif
