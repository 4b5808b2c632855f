/* driver: runs a convolution layer on the simulated accelerator.
 *
 * The driver tiles the layer to fit the configuration's SRAMs (output tiles onto the array,
 * input channels and kernel slices across passes whose partial sums the hardware accumulates),
 * streams each tile through the host port at the configured DRAM bandwidth, overlaps loading
 * with compute when the memories are double-buffered, programs one descriptor per pass and reads
 * the results back. It shares no code with the golden model. */
#ifndef SAGEN_DRIVER_H
#define SAGEN_DRIVER_H

#include <stdint.h>

#include "cfg.h"
#include "hw.h"
#include "tensor.h"

typedef struct layer {
  long n, c, h, w;     /* input */
  long k, r, s;        /* filters, kernel */
  long sh, sw, ph, pw, dh, dw;
} layer_t;

typedef struct report {
  const char *op;
  long passes;
  uint64_t useful_macs;      /* N*K*OH*OW*C*R*S */
  uint64_t ideal_cycles;     /* ceil(useful_macs / PEs) */
  uint64_t cycles;           /* from the first host transfer to the last result read */
  double utilization;        /* ideal_cycles / cycles */
  /* where the cycles went: cycles = busy + dram_wait; busy = the five below */
  uint64_t busy, step_valid, bubble, fill, stall, drain, dram_wait;
  uint64_t pe_idle_cycles;   /* step_valid - useful_macs/PEs: lanes/columns without work */
  uint64_t hw_macs;          /* useful MACs counted by the hardware */
  uint64_t sram_if, sram_wt, sram_out_rd, sram_out_wr, pad_words;
  uint64_t host_bytes, host_bytes_in, host_bytes_out, hw_host_bytes;
  double dram_bytes_per_cycle;
} report_t;

/* Where each word read from the output SRAM went: y index of column 0, columns used; column j
 * goes to base + j * kstride. Kept so that another simulator's words can be placed the same way. */
typedef struct drive_reads {
  long n, cap;
  long *base;
  int *ncols;
  long kstride;
} drive_reads_t;

typedef struct drive_opts {
  double dram_bytes_per_cycle;   /* <= 0: the configuration's */
  int quiet;                     /* no progress on stderr */
  drive_reads_t *reads;          /* if set, filled with the destination of every word read */
  int contexts;                  /* 0: the driver chooses; 1: contexts wrap across output rows;
                                    2: contexts stay inside a row (tests use it to force one) */
} drive_opts_t;

/* Place words WORDS (one per read, (out_word_bits+31)/32 uint32 each) into Y as READS says. */
void drive_reads_apply(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y);
void drive_reads_free(drive_reads_t *reads);

/* Output size of L (forward); <= 0 if none. */
long layer_out_h(const layer_t *l);
long layer_out_w(const layer_t *l);

/* Run y = conv2d(x, w) on HW. X is N,C,H,W, W is K,C,R,S; Y is allocated (N,K,OH,OW). The
 * results are those the hardware wrote, bit for bit. Returns 0, or 1 with a one-line message in
 * ERR (layer too large for the configuration, hardware refused a descriptor, hang). */
int drive_conv2d(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                 const tensor_t *w, tensor_t *y, const drive_opts_t *o, report_t *rep,
                 char *err, size_t errlen);

/* Print REP as a table (text) or as one JSON object. */
void report_print_text(const report_t *rep, const cfg_t *c, FILE *out);
void report_print_json(const report_t *rep, const cfg_t *c, FILE *out);

#endif
