/* cfg: load and validate a sagen array description (YAML) into a typed struct.
 *
 * Three stages, as in every config -> RTL generator worth copying: load (libyaml events into a
 * tree with marks), validate (one table of keys drives type, range, default and docs), derive
 * (memory geometry). Every error names file:line:col, the key path, the bad value in quotes and
 * what is allowed; all errors of a file are reported in one run. */
#ifndef SAGEN_CFG_H
#define SAGEN_CFG_H

#include <stddef.h>
#include <stdio.h>

#define CFG_NAME_MAX 64

typedef struct cfg {
  char path[1024];            /* file it was loaded from, as given */
  char name[CFG_NAME_MAX];    /* name: Verilog identifier used in module and file names */
  /* array */
  int rows, cols;             /* PEs: rows = output pixels (feed lanes), cols = output channels */
  char dataflow[8];           /* "os" (output-stationary); the only one for now */
  int col_groups;             /* column groups the array can form (1: none): rows x col_groups lanes */
  /* data: integers (signed two's complement) or IEEE floating point */
  char format[8];             /* "int", "fp16", "bf16" or "fp32" */
  char acc_format[8];         /* float formats: the sums' format, "fp32" or "fp16" */
  int input_bits, weight_bits, acc_bits;  /* float formats: the encodings' widths (derived) */
  /* memory */
  int bus_elems;              /* ifmap SRAM word, in input elements (power of two) */
  int ifmap_kib, weight_kib, output_kib;  /* capacity of one bank, KiB */
  int line_kib;               /* col2im overlap-add line, KiB (0: none) */
  int double_buffer;          /* 1: two banks per memory, host fills one while the array uses the other */
  int dram_bytes_per_cycle;   /* host port bandwidth, bytes per clock cycle */
  /* feeder */
  int regs_per_lane;          /* M: elements a lane can take from one bus word per cycle */
  int pattern_bits;           /* the widest kernel row a pass spans: (S-1)*dilation_w + 1 */
  int fifo_depth;             /* elements per lane FIFO (>= regs_per_lane) */

  /* derived by cfg_load (not keys) */
  int fp;                     /* 1: a float format (input_bits..acc_bits follow the formats) */
  int in_ew, in_fw;           /* float operands: exponent and fraction bits */
  int acc_ew, acc_fw;         /* float sums: exponent and fraction bits */
  int banks;                  /* 2 if double_buffer else 1 */
  int if_word_bits;           /* bus_elems * input_bits */
  int wt_word_bits;           /* cols * weight_bits: one weight per array column */
  int out_word_bits;          /* cols * acc_bits: one result per array column */
  long if_words, wt_words, out_words;  /* words per bank = kib*8192 / word_bits (floor) */
  int if_aw, wt_aw, out_aw;   /* address bits per bank: max(1, ceil(log2(words))) */
  long line_words;            /* words of out_word_bits in the col2im line (0: no col2im) */
  int line_aw;                /* its address bits */
} cfg_t;

/* Load and validate PATH into *C. Returns 0 on success. On failure returns 1 (bad input) after
 * printing every problem found, one line each, to ERR as "file:line:col: message"; *C is then
 * unspecified. Never exits, never crashes on any input bytes. */
int cfg_load(const char *path, cfg_t *c, FILE *err);

/* Load and validate the yaml text BUF[0..LEN) exactly as cfg_load does a file's bytes (cfg_load
 * reads the file, at most 1 MiB, and calls this). NAME (NULL: "<memory>") prefixes every message
 * and is copied to c->path. BUF may hold any bytes, NULs included, and need not be terminated;
 * it is never read past LEN nor written (fuzzable). ERR may be NULL to print nothing. Returns 0
 * with *C filled (derived fields too), or 1 after printing every problem as cfg_load does. */
int cfg_load_mem(const char *name, const unsigned char *buf, size_t len, cfg_t *c, FILE *err);

/* cfg_load with overrides: SETS[0..NSETS) are "key=value" strings, e.g. "array.rows=8" (the
 * command lines' --set). KEY is a full key path as `sagen keys` lists it (not a section);
 * VALUE is taken as a plain (unquoted) yaml scalar. Each is applied to the loaded tree before
 * validation, in order (a later --set of the same key wins), replacing the key's value in the
 * file or adding the key (and its section) when the file lacks it; then every check of cfg_load
 * runs on the result, so an override can never make a configuration cfg_load would refuse.
 * A malformed --set, an unknown key or a bad value is reported as
 *   "FILE: --set 'array.rows=0': array.rows: '0' is out of range: allowed 1..256"
 * (unknown keys list the allowed ones), together with every problem of the file, one line each,
 * on ERR (may be NULL). Returns 0 with *C filled (derived fields too), 1 on any problem (*C is
 * then unspecified). NSETS <= 0 (SETS may then be NULL) is exactly cfg_load. */
int cfg_load_overrides(const char *path, const char *const *sets, int nsets, cfg_t *c, FILE *err);

/* Print the table of keys (key, type, default, allowed, meaning) as a Markdown table: the same
 * table the validator uses, so the README cannot drift from the code. */
void cfg_print_keys_markdown(FILE *out);

#endif
