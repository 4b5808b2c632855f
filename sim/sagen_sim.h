/* sagen_sim: the C API of a simulated sagen accelerator (one per generated configuration).
 *
 * The Verilated model of a configuration is built into a shared library that exports the three
 * functions below with C linkage (sim/shim.cpp is the only C++ in the project); ./sagen loads it
 * with dlopen, so the testbench never includes a Verilator header.
 *
 * One cycle = drive the inputs of IO while the clock is low, one rising edge, then read the
 * outputs back into IO. Outputs read after a cycle are those right after its rising edge
 * (hp_rdata holds the word of an hp_re of the same cycle). */
#ifndef SAGEN_SIM_H
#define SAGEN_SIM_H

#include <stdint.h>

#define SIM_MAX_WORDS 512   /* 32-bit words of the widest port: 16384 bits */

typedef struct sim_io {
  /* inputs */
  int rst_n;
  int csr_we;
  uint32_t csr_addr;
  uint32_t csr_wdata;
  int hp_we;
  int hp_mem;                 /* 0 ifmap, 1 weight */
  int hp_bank;
  uint32_t hp_addr;
  uint32_t hp_wdata[SIM_MAX_WORDS];
  int hp_re;
  /* outputs */
  uint32_t csr_rdata;         /* combinational read of csr_addr */
  uint32_t hp_rdata[SIM_MAX_WORDS];
  int busy;
  int irq;
} sim_io_t;

typedef struct sim_model sim_model_t;

/* Create the model. TRACE: NULL, or a .vcd/.fst path to dump waveforms into (only when the
 * library was built with tracing). Returns NULL on failure. */
typedef sim_model_t *(*sim_open_fn)(const char *trace);
/* Run one clock cycle with the inputs of IO and store the outputs into IO. */
typedef void (*sim_cycle_fn)(sim_model_t *m, sim_io_t *io);
/* Finish the model (final blocks, flush the trace) and free it; NULL is a no-op. */
typedef void (*sim_close_fn)(sim_model_t *m);

#define SIM_OPEN_SYM  "sagen_model_open"
#define SIM_CYCLE_SYM "sagen_model_cycle"
#define SIM_CLOSE_SYM "sagen_model_close"

#endif
