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

static uint32_t pack16(long hi, long lo) { return (uint32_t)((hi & 0xffff) << 16 | (lo & 0xffff)); }

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
  d[D_N_CH] = (uint32_t)p->ct;
  d[D_KG_KR] = pack16(cdiv(p->kt, p->gw), p->rt);
  d[D_N_CTX] = (uint32_t)cdiv(npix, lanes);
  /* the pixels stored per filter group: lanes past the last row's last pixel write nothing */
  d[D_NPIX] = (uint32_t)tile_stored_pix(p->oht, p->owt, p->owv);
  d[D_K_ACT] = (uint32_t)p->kt |
               (p->groups > 1 ? (uint32_t)p->groups << 16 | (uint32_t)p->gw << 24 : 0u);
  d[D_PLANE] = (uint32_t)p->plane;
  d[D_KR_STEP] = (uint32_t)(l->dh * p->pitch);
  d[D_OY_STEP] = (uint32_t)(l->sh * p->pitch);
  d[D_CTX_XS] = (uint32_t)(ctx_cols * l->sw);
  d[D_OW_XS] = (uint32_t)(p->owv * l->sw);
  /* the pass's window starts SUB_Y rows and SUB_X columns into the loaded tile (members of a
   * run share the union of their windows): it sees the tile from there on */
  d[D_BASE] = (uint32_t)(int32_t)tile_window_base(p->pitch, p->pad_t, p->pad_l, p->lead,
                                                   p->sub_y, p->sub_x);
  d[D_STRH_DILH] = pack16(l->sh, l->dh);
  d[D_CTXY_STRW] = pack16(ctx_rows * l->sh, l->sw);
  d[D_PADL_PADT] = pack16(p->pad_l, p->pad_t);
  d[D_TILEW_TILEH] = pack16(p->tile_w - p->sub_x, p->tile_h - p->sub_y);
  /* the kernel row: S taps, dilation_w apart */
  d[D_GAP_TAPS] = pack16(l->dw, p->st);
  d[D_LEN] = (uint32_t)(p->ct * p->rt * p->st);
  /* linear contexts: one segment, lanes - 1 elements plus a kernel row's span */
  d[D_LAST_XS] = (uint32_t)(p->lin ? lanes - 1 : ((lanes - 1) % p->owv) * l->sw);
  /* and no context reads a segment below the tile's last output row (the lanes of pixels
   * past the tile copy lane 0) */
  d[D_LAST_SEG] = pack16(p->oht - 1, p->lin ? 0 : (lanes - 1) / p->owv);
  d[D_CTX_PY] = (uint32_t)(ctx_rows * l->sh * p->pitch);
  d[D_FLAGS] = (uint32_t)(p->acc | p->if_bank << 1 | p->wt_bank << 2 | p->out_bank << 3 |
                         (zero_fill != 0) << 4 | p->lin << 5 | p->c2i << 6 |
                         p->line_first << 7 | p->line_acc << 8 | (p->line_kg0 & 7) << 9 |
                         (uint32_t)ctx_rows << 16);
  d[D_OWV_OW] = pack16(p->owv, p->owt);
  dense_axis_t ah = dense_axis(p->r0, p->rt, l->r, l->lead_h, l->gap_h, l->dense_h, l->no_ops);
  dense_axis_t aw = dense_axis(p->s0, p->st, l->s, l->lead_w, l->gap_w, l->dense_w, l->no_ops);
  d[D_DENSE] = pack16(aw.n, ah.n);
  d[D_OFF] = pack16(aw.off, ah.off);
  d[D_GAP] = pack16(aw.gap, ah.gap);
  d[D_NZ] = pack16(aw.nz, ah.nz);
}
