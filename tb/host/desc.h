/* desc: the accelerator's register map as the host sees it (CSR addresses, descriptor fields,
 * performance counters: sagen_ctrl.v and sagen_core.v) and the descriptor that programs one
 * pass. */
#ifndef SAGEN_HOST_DESC_H
#define SAGEN_HOST_DESC_H

#include <stdint.h>

#include "driver.h"
#include "plan.h"

/* CSR addresses (sagen_ctrl.v). */
enum {
  CSR_CTRL = 0, CSR_STATUS = 1, CSR_DESC = 2, CSR_DEBUG = 28, CSR_PARAMS = 29, CSR_MAGIC = 30,
  CSR_PARAMS2 = 31, CSR_ROUTE_ADDR = 40, CSR_ROUTE_DATA = 41, CSR_READ_LANES = 42,
  CSR_CNT = 64
};
/* CTRL's bits (sagen_ctrl.v). */
enum { CTRL_START = 1, CTRL_CLEAR = 2, CTRL_PREPARE = 4 };
/* Descriptor registers, CSR 2 + index (field layout: sagen_core.v). */
enum {
  D_N_CH, D_KG_KR, D_N_CTX, D_NPIX, D_K_ACT, D_PLANE, D_KR_STEP, D_OY_STEP, D_CTX_XS, D_OW_XS,
  D_BASE, D_STRH_DILH, D_CTXY_STRW, D_PADL_PADT, D_TILEW_TILEH, D_GAP_TAPS, D_LEN,
  D_LAST_XS, D_LAST_SEG, D_CTX_PY, D_FLAGS, D_OWV_OW, D_DENSE, D_OFF, D_GAP, D_NZ, D_COUNT
};
/* Performance counters, 64 bits each at CSR_CNT + 2 * index (low word first). */
enum {
  C_CYCLES, C_BUSY, C_STEP, C_BUBBLE, C_FILL, C_STALL, C_DRAIN, C_MACS, C_IF_RD, C_WT_RD,
  C_OUT_RD, C_OUT_WR, C_HP_BYTES, C_PAD_WORDS, C_ZERO_STEP, C_ZERO_PE, C_ZSKIP, C_LINE_RD,
  C_LINE_WR, C_COUNT
};
/* CSR_MAGIC's value: the core's identity and register-map version. */
#define MAGIC 0x5A6E0004u
/* Filter groups a col2im pass can have (the route table's, sagen_core.v). */
#define RT_KGS 4

/* The descriptor of pass P of a member whose layer is L into D[0..D_COUNT). ZERO_FILL: the
 * pass steps through every dense tap position (the backward ops' zero_fill). */
void desc_program(const layer_t *l, const pass_t *p, int zero_fill, uint32_t *d);

#endif
