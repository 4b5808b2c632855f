/* hw: the simulated accelerator as the host driver sees it: one clock cycle at a time, with the
 * inputs of that cycle, optionally recorded for the Icarus replay. */
#ifndef SAGEN_HW_H
#define SAGEN_HW_H

#include <stdint.h>
#include <stdio.h>

#include "sagen_sim.h"

typedef struct hw {
  void *dl;                 /* the model library */
  sim_model_t *m;
  sim_cycle_fn cycle_fn;
  sim_close_fn close_fn;
  sim_io_t io;              /* inputs of the next cycle, outputs of the last */
  int hp_dw, out_dw;        /* port widths in bits */
  uint64_t cycles;          /* cycles run since hw_open */
  FILE *rec;                /* record of the cycles, or NULL */
  long rec_idle;            /* idle cycles not yet written to the record */
  int rec_reset;            /* the pending run is reset cycles */
} hw_t;

/* Load the model library LIB and create the model (TRACE: waveform path or NULL; REC: path of a
 * replay record to write, or NULL). HP_DW and OUT_DW are the host port widths in bits. Returns 0,
 * or 1 with a one-line message in ERR. */
int hw_open(hw_t *h, const char *lib, const char *trace, const char *rec, int hp_dw, int out_dw,
            char *err, size_t errlen);
/* Finish the record and the model; safe on a zeroed or already closed hw_t. Returns 0, or 1 if
 * the record could not be written completely. */
int hw_close(hw_t *h);
/* Start recording the cycles from now on into REC (a new file), finishing any record under way
 * first. A record replays on its own only from a reset: start it before a run (every run of the
 * driver begins with hw_reset). Returns 0, or 1 with a one-line message in ERR. */
int hw_record(hw_t *h, const char *rec, char *err, size_t errlen);
/* Finish the record under way (its end line, the file closed); a no-op without one. Returns 0,
 * or 1 if the record could not be written completely. */
int hw_record_end(hw_t *h);
/* Hold reset for N cycles. */
void hw_reset(hw_t *h, int n);
/* Set the inputs of the next cycle to idle: no strobe, csr_addr = STATUS. */
void hw_idle_inputs(hw_t *h);
/* Run one cycle with the inputs in h->io, then set the inputs back to idle. */
void hw_cycle(hw_t *h);
/* Record that the driver relied on csr_rdata (S) or hp_rdata (H) of the last cycle. */
void hw_expect_csr(hw_t *h);
void hw_expect_hp(hw_t *h);
/* Read CSR ADDR: the address in one cycle, the answer READ_LATENCY cycles later (the register
 * map's constant: the controller's read pipeline); the value is recorded as an expectation. */
uint32_t hw_csr_read(hw_t *h, unsigned addr);
/* Write CSR ADDR (one cycle). */
void hw_csr_write(hw_t *h, unsigned addr, uint32_t value);

#endif
