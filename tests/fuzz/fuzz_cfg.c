/* fuzz_cfg: libFuzzer target of the YAML loader. Any byte string goes through cfg_load_mem
 * exactly as ./sagen gen would load a file's bytes; messages go to /dev/null. The sanitizers
 * (address, undefined) turn any out-of-bounds access, leak or undefined behaviour into a crash.
 * Built by tests/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  devnull = fopen("/dev/null", "w");
  if (!devnull) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  cfg_t c;
  memset(&c, 0xa5, sizeof c);  /* garbage in: the loader must not rely on a zeroed struct */
  int rc = cfg_load_mem("fuzz.yaml", data, size, &c, devnull);
  if (rc != 0 && rc != 1) abort();
  if (rc == 0) {
    /* A configuration that loads must be within the documented ranges, with consistent
     * derived fields: emit_rtl and the driver rely on them. */
    if (c.rows < 1 || c.rows > 256 || c.cols < 1 || c.cols > 256) abort();
    if ((long)c.rows * c.cols > 65536) abort();
    /* a col2im line: none, or rows of 3 words (16 in floating point) */
    if (c.line_words != 0 && c.line_words < (c.fp ? 16 : 3)) abort();
    if (c.fp) {   /* a float format: the encodings' widths */
      if (c.input_bits != 1 + c.in_ew + c.in_fw || c.weight_bits != c.input_bits) abort();
      if (c.acc_bits != 1 + c.acc_ew + c.acc_fw) abort();
      if ((c.input_bits != 16 && c.input_bits != 32) || (c.acc_bits != 16 && c.acc_bits != 32))
        abort();
    } else {
      if (c.input_bits < 2 || c.input_bits > 16 || c.weight_bits < 2 || c.weight_bits > 16)
        abort();
      if (c.acc_bits < c.input_bits + c.weight_bits || c.acc_bits > 64) abort();
    }
    if (c.bus_elems < 2 || c.bus_elems > 256 || (c.bus_elems & (c.bus_elems - 1))) abort();
    if (c.fifo_depth < c.regs_per_lane) abort();
    if (c.banks != (c.double_buffer ? 2 : 1)) abort();
    if (c.if_words < 1 || c.wt_words < 1 || c.out_words < 1) abort();
    if (c.if_word_bits != c.bus_elems * c.input_bits) abort();
    if (c.wt_word_bits != c.cols * c.weight_bits) abort();
    if (c.out_word_bits != c.cols * c.acc_bits) abort();
    if (strnlen(c.name, sizeof c.name) >= sizeof c.name || c.name[0] == '\0') abort();
  }
  return 0;
}
