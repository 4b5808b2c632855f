/* icarus: replay a cycle record of the host driver through Icarus Verilog (iverilog + vvp) with
 * sim/sagen_replay_tb.v, as a second, independent simulator next to Verilator.
 *
 * The record format is the one sim/sagen_replay_tb.v documents (R, I, C, S, H and E lines). */
#ifndef SAGEN_ICARUS_H
#define SAGEN_ICARUS_H

#include <stddef.h>
#include <stdint.h>

/* Replay record REC through Icarus Verilog: compile the RTL files listed in filelist FLIST
 * (paths relative to the filelist's directory; empty lines and lines starting with // or # are
 * skipped) with TB_PATH (sim/sagen_replay_tb.v) and top module TOP of the given port widths,
 * run vvp, write the observed hp_rdata words to OUT_HEX (NULL: not written; an old file is
 * removed first) and a waveform to VCD (NULL or "": none).
 *
 * BUILD_DIR (created if missing) holds the compiled replay.vvp, its cache key replay.key, the
 * rewritten filelist replay.f, iverilog.log (iverilog's output) and replay.log (vvp's output).
 * replay.vvp is rebuilt when TOP, a width, TB_PATH or the file list changed, or when FLIST,
 * TB_PATH or any listed file is newer than it (files pulled in with `include are not
 * tracked). Two replays may share BUILD_DIR one after the other, not at the same time.
 *
 * Returns 0 when the replay passed (every S and H check matched, no X/Z on busy_o, irq_o and
 * csr_rdata_o), 1 with a one-line message in ERR otherwise: a tool missing, a bad filelist, a
 * compile error (the first line of iverilog's output), a malformed record ("replay: error: ...")
 * or mismatches (the replay summary line "replay: <c> cycles, <k> checks, <m> mismatches, <x>
 * x-checks failed"), both followed by " (see <BUILD_DIR>/replay.log)". */
int icarus_replay(const char *top, int hp_aw, int hp_dw, int out_dw, const char *flist,
                  const char *tb_path, const char *build_dir, const char *rec,
                  const char *out_hex, const char *vcd, char *err, size_t errlen);

/* Read OUT_HEX back: *WORDS gets n_words x ((out_dw+31)/32) uint32 little-end words (word 0 =
 * bits 31:0), malloc'ed (NULL when there are none; free it either way). One hex value per line,
 * at most (out_dw+3)/4 digits; blank lines are skipped. Returns 0, or 1 with *WORDS NULL, *N_WORDS
 * 0 and a message in ERR ("<path>:<line>: ...": an x or z digit, not a hex number, too wide). */
int icarus_read_words(const char *out_hex, int out_dw, uint32_t **words, long *n_words,
                      char *err, size_t errlen);

#endif
