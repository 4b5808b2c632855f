/* bwd_traffic: the accounting of the backward ops from their shapes: the useful MACs (no
 * operand from a zero-space), what an explicit im2col with zero-space reorganization would move
 * over the host port and read from the buffers (the figure BP-im2col compares against), and the
 * hardware's zero-space counters checked against the shapes. */
#ifndef SAGEN_HOST_BWD_TRAFFIC_H
#define SAGEN_HOST_BWD_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "driver.h"

/* The useful MACs of a backward op of forward layer L into REP (every (output, tap) pair whose
 * input position is inside the input, times N x K x C), its ideal cycles on C's PEs and its
 * utilization against REP->cycles. */
void bwd_ideal(report_t *rep, const cfg_t *c, const layer_t *l);

/* The host-port bytes of an explicit matrix product on C: the lane operand A (M pixels,
 * A_BYTES in all) times the column operand B (N filters, B_BYTES), in output tiles of MT pixels
 * x NT filters that one output bank holds (a word per pixel and group of cols filters), the
 * reduction streamed through each tile: A goes in once per column of tiles, B once per row of
 * tiles. The tile is the one that moves the fewest bytes; returns its bytes, and how often each
 * operand went in into *A_TIMES and *B_TIMES (untouched if N is 0). */
uint64_t bwd_gemm_host_bytes(const cfg_t *c, uint64_t m, uint64_t n, uint64_t a_bytes,
                             uint64_t b_bytes, uint64_t *a_times, uint64_t *b_times);

/* What an explicit im2col with zero-space reorganization moves for the backward op of L (the
 * input gradient if INPUT_GRAD, else the weight gradient) on C, from the shapes, into REP's
 * explicit_* fields. The zero-spaced operand is formed in memory and the op is one matrix
 * product: for the input gradient the lowered matrix of the zero-inserted, zero-padded dy (a
 * row of K x R x S operands under the taps for each of the N x H x W pixels of dx) times the
 * weights (C filters); for the weight gradient x lowered at every dense position of dy
 * zero-inserted (C x R x S pixels, a row of N x OHz x OWz operands each, OHz = (OH - 1) *
 * stride + 1) times dy zero-inserted as the kernel (K filters). Over the host port the operands
 * go in as bwd_gemm_host_bytes tiles them and the results come back once. The buffers are read
 * as this output-stationary array reads the product: the lane operand once per group of
 * columns, the other once per group of rows. Elements at the configuration's widths, packed. */
void bwd_explicit_traffic(report_t *rep, const cfg_t *c, const layer_t *l, int input_grad);

/* The hardware's zero-space counters in REP against the shapes: WANT zero-space operands (one
 * per pixel and filter group) over the op and, in zero_fill (REP->bp_mode), WANT_PE PE-cycles
 * fed a created zero (every zero-space operand of a pixel meets every filter once). Returns 0,
 * or 1 with ERR naming the counter that differs. */
int bwd_zero_check(const report_t *rep, uint64_t want, uint64_t want_pe, char *err,
                   size_t errlen);

#endif
