/* desc: a pass's descriptor (see desc.h). */
#include "desc.h"


#include "hmath.h"

/* The dense tap sequence of one axis of a pass that takes taps T0..T0+TN-1 of the N taps of
 * the axis: the dense positions from its first tap (from 0 for the first pass) to the one
 * before the next pass's first tap (to the end for the last pass), where its first tap sits
 * and the distance between taps. */
typedef struct dense_axis {
  long n, off, gap, nz;
} dense_axis_t;

/* Field F (a SAGEN_D_ name without the prefix) of the descriptor D set to V, masked to its
 * width. */
#define SET(F, v) SAGEN_DESC_SET(d, SAGEN_D_##F, (uint32_t)(v))

static dense_axis_t dense_axis(long t0, long tn, long ntaps, long lead, long gap, long dense,
                               int no_ops)
{
  dense_axis_t a;
  if (dense == 0) {
    lead = 0;
    gap = 1;
    dense = ntaps;
  }
  if (no_ops) {
    a.n = dense;
    a.off = 0;
    a.gap = 1;
    a.nz = 0;
    return a;
  }
  long u0 = t0 == 0 ? 0 : lead + t0 * gap;
  long u1 = t0 + tn == ntaps ? dense - 1 : lead + (t0 + tn) * gap - 1;
  a.n = u1 - u0 + 1;
  a.off = lead + t0 * gap - u0;
  a.gap = gap;
  a.nz = tn;
  return a;
}

void desc_program(const layer_t *l, const pass_t *p, int zero_fill, uint32_t *d)
{
  /* A context is LANES consecutive pixels of the tile, row-major (LANES = ROWS, or ROWS per
   * column group): it advances by LANES div owt rows and LANES mod owt columns, wrapping into
   * the next row. */
  long npix = p->oht * p->owv;
  long lanes = p->lanes;
  long ctx_rows = lanes / p->owv, ctx_cols = lanes % p->owv;
  for (int i = 0; i < SAGEN_NDESC; i++) d[i] = 0;
  SET(N_CH, p->ct);
  SET(N_KR, p->rt);
  SET(N_KG, cdiv(p->kt, p->gw));
  SET(N_CTX, cdiv(npix, lanes));
  /* the pixels stored per filter group: lanes past the last row's last pixel write nothing */
  SET(NPIX, tile_stored_pix(p->oht, p->owt, p->owv));
  SET(K_ACT, p->kt);
  if (p->groups > 1) {
    SET(GRP_N, p->groups);
    SET(GRP_W, p->gw);
  }
  SET(PLANE, p->plane);
  SET(KR_STEP, l->dh * p->pitch);
  SET(OY_STEP, l->sh * p->pitch);
  SET(CTX_XS, ctx_cols * l->sw);
  SET(OW_XS, p->owv * l->sw);
  /* the pass's window starts SUB_Y rows and SUB_X columns into the loaded tile (members of a
   * run share the union of their windows): it sees the tile from there on */
  SET(BASE, (int32_t)tile_window_base(p->pitch, p->pad_t, p->pad_l, p->lead, p->sub_y, p->sub_x));
  SET(DIL_H, l->dh);
  SET(STR_H, l->sh);
  SET(STR_W, l->sw);
  SET(CTX_Y, ctx_rows * l->sh);
  SET(PAD_T, p->pad_t);
  SET(PAD_L, p->pad_l);
  SET(TILE_H, p->tile_h - p->sub_y);
  SET(TILE_W, p->tile_w - p->sub_x);
  /* the kernel row: S taps, dilation_w apart */
  SET(TAPS, p->st);
  SET(TAP_GAP, l->dw);
  SET(LEN, p->ct * p->rt * p->st);
  /* linear contexts: one segment, lanes - 1 elements plus a kernel row's span */
  SET(LAST_XS, p->lin ? lanes - 1 : ((lanes - 1) % p->owv) * l->sw);
  /* and no context reads a segment below the tile's last output row (the lanes of pixels
   * past the tile copy lane 0) */
  SET(LAST_SEG, p->lin ? 0 : (lanes - 1) / p->owv);
  SET(OH_LAST, p->oht - 1);
  SET(CTX_PY, ctx_rows * l->sh * p->pitch);
  SET(ACC, p->acc);
  SET(IF_BANK, p->if_bank);
  SET(WT_BANK, p->wt_bank);
  SET(OUT_BANK, p->out_bank);
  SET(ZERO_FILL, zero_fill != 0);
  SET(LIN, p->lin);
  SET(C2I, p->c2i);
  SET(LINE_FIRST, p->line_first);
  SET(LINE_ACC, p->line_acc);
  SET(LINE_KG0, p->line_kg0);
  SET(CTX_ROWS, ctx_rows);
  SET(OW_REAL, p->owt);
  SET(OW_VIRT, p->owv);
  dense_axis_t ah = dense_axis(p->r0, p->rt, l->r, l->lead_h, l->gap_h, l->dense_h, l->no_ops);
  dense_axis_t aw = dense_axis(p->s0, p->st, l->s, l->lead_w, l->gap_w, l->dense_w, l->no_ops);
  SET(DN_R, ah.n);
  SET(DN_S, aw.n);
  SET(OFF_H, ah.off);
  SET(OFF_W, aw.off);
  SET(GAP_H, ah.gap);
  SET(GAP_W, aw.gap);
  SET(NZ_R, ah.nz);
  SET(NZ_S, aw.nz);
}
