/* bwd_traffic: the backward ops' accounting (see bwd_traffic.h). */
#include "bwd_traffic.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Number of (output, tap) pairs of one axis whose input position is inside [0, size). */
static long axis_terms(long out, long taps, long st, long pad, long dil, long size)
{
  long n = 0;
  for (long o = 0; o < out; o++)
    for (long t = 0; t < taps; t++) {
      long i = o * st - pad + t * dil;
      if (i >= 0 && i < size) n++;
    }
  return n;
}

void bwd_ideal(report_t *rep, const cfg_t *c, const layer_t *l)
{
  long ty = axis_terms(layer_out_h(l), l->r, l->sh, l->ph, l->dh, l->h);
  long tx = axis_terms(layer_out_w(l), l->s, l->sw, l->pw, l->dw, l->w);
  uint64_t pes = (uint64_t)c->rows * c->cols;
  rep->useful_macs = (uint64_t)l->n * l->k * l->c * ty * tx;
  rep->ideal_cycles = (rep->useful_macs + pes - 1) / pes;
  rep->utilization = rep->cycles ? (double)rep->ideal_cycles / (double)rep->cycles : 0;
}

/* Bytes of ELEMS elements of BITS bits, packed as the host port packs them. */
static uint64_t packed_bytes(uint64_t elems, int bits)
{
  return (elems * (uint64_t)bits + 7) / 8;
}

uint64_t bwd_gemm_host_bytes(const cfg_t *c, uint64_t m, uint64_t n, uint64_t a_bytes,
                             uint64_t b_bytes, uint64_t *a_times, uint64_t *b_times)
{
  uint64_t best = UINT64_MAX, groups = (n + (uint64_t)c->cols - 1) / (uint64_t)c->cols;
  for (uint64_t g = 1; g <= groups; g++) {
    uint64_t mt = (uint64_t)c->out_words / g;
    if (mt == 0 && g > 1) break;
    if (mt == 0) mt = 1;   /* a bank of less than a word still holds a pixel at a time */
    if (mt > m) mt = m;
    uint64_t at = (groups + g - 1) / g, bt = (m + mt - 1) / mt;
    uint64_t bytes = a_bytes * at + b_bytes * bt;
    if (bytes < best) {
      best = bytes;
      *a_times = at;
      *b_times = bt;
    }
  }
  return best;
}

void bwd_explicit_traffic(report_t *rep, const cfg_t *c, const layer_t *l, int input_grad)
{
  uint64_t taps = (uint64_t)l->r * l->s, w = (uint64_t)l->k * l->c * taps;
  uint64_t m, n, a, b, at = 1, bt = 1;
  if (input_grad) {
    m = (uint64_t)l->n * l->h * l->w;                     /* dx's pixels */
    n = (uint64_t)l->c;
    a = packed_bytes(m * l->k * taps, c->input_bits);     /* dy lowered, zeros in */
    b = packed_bytes(w, c->weight_bits);
  } else {
    uint64_t dense = (uint64_t)l->n * ((layer_out_h(l) - 1) * l->sh + 1) *
                     (uint64_t)((layer_out_w(l) - 1) * l->sw + 1);
    m = (uint64_t)l->c * taps;                            /* dw's pixels */
    n = (uint64_t)l->k;
    a = packed_bytes(dense * m, c->input_bits);           /* x lowered */
    b = packed_bytes(dense * n, c->weight_bits);          /* dy zero-inserted */
  }
  rep->explicit_host_bytes = bwd_gemm_host_bytes(c, m, n, a, b, &at, &bt) +
                             packed_bytes(m * n, c->acc_bits);
  uint64_t a_rd = a * ((n + (uint64_t)c->cols - 1) / (uint64_t)c->cols);
  uint64_t b_rd = b * ((m + (uint64_t)c->rows - 1) / (uint64_t)c->rows);
  rep->explicit_sram_bytes = a_rd + b_rd;
  rep->explicit_dy_host_bytes = input_grad ? a * at : b * bt;
  rep->explicit_dy_sram_bytes = input_grad ? a_rd : b_rd;
}

int bwd_zero_check(const report_t *rep, uint64_t want, uint64_t want_pe, char *err,
                   size_t errlen)
{
  if (rep->zero_skipped != want) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " zero-space operands not fetched, "
             "the shapes give %" PRIu64, rep->zero_skipped, want);
    return 1;
  }
  int fill = rep->bp_mode && !strcmp(rep->bp_mode, "zero_fill");
  if (!fill) want_pe = 0;
  if (rep->zero_pe != want_pe) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " PE-cycles fed a created zero, the "
             "shapes give %" PRIu64, rep->zero_pe, want_pe);
    return 1;
  }
  return 0;
}
