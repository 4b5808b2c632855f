/* driver: tiling, descriptors and the cycle-level host schedule of one convolution layer. */
#include "driver.h"
#include "feed_model.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CSR addresses (sagen_ctrl.v). */
enum {
  CSR_CTRL = 0, CSR_STATUS = 1, CSR_DESC = 2, CSR_DEBUG = 28, CSR_PARAMS = 29, CSR_MAGIC = 30,
  CSR_PARAMS2 = 31, CSR_PAT = 32, CSR_ROUTE_ADDR = 40, CSR_ROUTE_DATA = 41, CSR_READ_LANES = 42,
  CSR_CNT = 64
};
/* Descriptor registers, CSR 2 + index (field layout: sagen_core.v). */
enum {
  D_N_CH, D_KG_KR, D_N_CTX, D_NPIX, D_K_ACT, D_PLANE, D_KR_STEP, D_OY_STEP, D_CTX_XS, D_OW_XS,
  D_BASE, D_STRH_DILH, D_CTXY_STRW, D_PADL_PADT, D_TILEW_TILEH, D_PATTOP_KSPAN, D_LEN,
  D_LAST_XS, D_LAST_SEG, D_CTX_PY, D_FLAGS, D_OWV_OW, D_DENSE, D_OFF, D_GAP, D_NZ, D_COUNT
};
enum {
  C_CYCLES, C_BUSY, C_STEP, C_BUBBLE, C_FILL, C_STALL, C_DRAIN, C_MACS, C_IF_RD, C_WT_RD,
  C_OUT_RD, C_OUT_WR, C_HP_BYTES, C_PAD_WORDS, C_ZERO_STEP, C_ZERO_PE, C_ZSKIP, C_LINE_RD,
  C_LINE_WR, C_COUNT
};
#define MAGIC 0x5A6E0003u
/* Filter groups a col2im pass can have (the route table's, sagen_core.v). */
#define RT_KGS 4

view_t view_of(const tensor_t *t)
{
  view_t v = {t->data, 0, {t->shape[1] * t->shape[2] * t->shape[3], t->shape[2] * t->shape[3],
                           t->shape[3], 1}, 0, 0, 0, 0, NULL, 0, 0};
  return v;
}

/* Offset of element (a, b, c, d) of V; *ABSENT (if given) set when it is a tap its filter
 * lacks (see filter_tab_t). */
static long vidx_of(const view_t *v, long a, long b, long c, long d, int *absent)
{
  long x = d * v->st[3];
  if (v->xsplit > 0) {
    long hi = d / v->xsplit;
    x = d % v->xsplit * v->st[3] +
        (v->xsplit2 > 0 ? hi % v->xsplit2 * v->xst_hi + hi / v->xsplit2 * v->xst_top : hi * v->xst_hi);
  }
  const filter_tab_t *ft = v->ft;
  if (!ft) return v->off + a * v->st[0] + b * v->st[1] + c * v->st[2] + x;
  long f = ft->fdim ? b : a;
  long at = v->off + (ft->fdim ? a * v->st[0] : b * v->st[1]) + ft->off[f];
  if (!ft->roff) return at + c * v->st[2] + x;
  long i = v->ft_swap ? d : c, j = v->ft_swap ? c : d;
  long ro = ft->roff[f * ft->nr + i], so = ft->soff[f * ft->ns + j];
  if (ro == FT_NONE || so == FT_NONE) {
    if (absent) *absent = 1;
    return -1;
  }
  return at + ro + so;
}

static long vidx(const view_t *v, long a, long b, long c, long d)
{
  return vidx_of(v, a, b, c, d, NULL);
}

/* Element (a, b, c, d) of V; zero for a tap its filter lacks. */
static int64_t vat(const view_t *v, long a, long b, long c, long d)
{
  int absent = 0;
  long i = vidx_of(v, a, b, c, d, &absent);
  return absent ? 0 : v->data[i];
}

/* Whether output view V has the elements (., B, C, D): inside filter B's extent. */
static int view_has(const view_t *v, long b, long c, long d)
{
  const filter_tab_t *ft = v->ft;
  if (!ft || !ft->rows) return 1;
  long i = v->ft_swap ? d : c, j = v->ft_swap ? c : d;
  if (ft->row0 && (i < ft->row0[b] || j < ft->col0[b])) return 0;
  return i < ft->rows[b] && j < ft->cols[b];
}

long layer_out_h(const layer_t *l)
{
  if (l->oh > 0) return l->oh;
  long num = l->h + 2 * l->ph - l->dh * (l->r - 1) - 1;
  return num < 0 ? 0 : num / l->sh + 1;
}

long layer_out_w(const layer_t *l)
{
  if (l->ow > 0) return l->ow;
  long num = l->w + 2 * l->pw - l->dw * (l->s - 1) - 1;
  return num < 0 ? 0 : num / l->sw + 1;
}

static long cdiv(long a, long b) { return (a + b - 1) / b; }
static long lmin(long a, long b) { return a < b ? a : b; }
static long lmax(long a, long b) { return a > b ? a : b; }

static long lgcd(long a, long b)
{
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

/* ---- tiling ----------------------------------------------------------------------------------- */

typedef struct tiling {
  long ct, kt, oht, owt, rt, st;
  int virt;   /* contexts stay inside an output row: virtual width = owt rounded up to lanes */
  int lin;    /* linear contexts: stride 1, whole rows, row pitch = owt, so that a context's
                 input for a kernel row is one run of the channel plane, whatever rows its
                 pixels are on (the lanes zero the taps that leave their row) */
  int groups; /* column groups (1: none): a context is groups x rows pixels (lanes) and a
                 filter group gw = cols / groups filters, repeated in every column group */
  long gw;
  int al;     /* aligned rows: each input row of the tile starts on a bus word, its left padding
                 counted in (see pitch_of), so that a row that fits a word is read as one */
  int fill;   /* zero_fill: the passes step through every dense tap position of the backward
                 operand (layer_t's dense_h, dense_w), the taps' and the created zeros' */
  int c2i;    /* col2im (see c2i_t): whole rows, every filter in one pass, an output word per
                 pixel for all filter groups, the overlap-add line's room, and a reduction
                 sliced across passes only on one-row tiles */
  int c2i_kg0;   /* col2im: the first filter group with a line segment */
  long c2i_wl;   /* col2im: the lanes of a word that hold dx */
} tiling_t;

/* The lanes of an output word that hold results in a run tiled by T, the first ones of the
 * word (the host port moves only these, READ_LANES): col2im's phases and channels; else a
 * filter group's filters, in every column group. */
static long read_lanes(const cfg_t *c, const tiling_t *t)
{
  if (t->c2i) return t->c2i_wl;
  return lmin(c->cols, (t->groups - 1) * t->gw + lmin(t->gw, t->kt));
}

/* Bits the host port moves per output word read in a run tiled by T. */
static int read_bits(const cfg_t *c, const tiling_t *t)
{
  return (int)(read_lanes(c, t) * c->acc_bits);
}

/* Pixels per context of a run with GROUPS column groups. */
static long lanes_of(const cfg_t *c, int groups) { return (long)c->rows * groups; }

/* Width of the output tile as the contexts see it. */
static long virt_width(long lanes, long owt, int virt)
{
  return virt ? (owt + lanes - 1) / lanes * lanes : owt;
}

typedef struct pass {
  long n, oy0, oht, ox0, owt, k0, kt, c0, ct, r0, rt, s0, st;
  int m;      /* member of the run (see member_t) */
  int groups, lin, al;
  long gw, lanes;   /* see tiling_t */
  long owv;   /* virtual width (see tiling_t) */
  long iy_lo, tile_h, ix_lo, tile_w, pad_t, pad_l, pitch;
  long plane;   /* elements a channel of the tile takes (plane_of) */
  long lead;  /* elements before each stored row's first (aligned rows: the left padding) */
  long sub_y, sub_x;   /* where the pass's own window starts in the loaded tile (members of a
                          run share one tile, the union of their windows) */
  long if_words, wt_words;
  int acc, last, out_tile;
  int c2i, line_first, line_acc, line_kg0;   /* col2im (see c2i_t and sagen_psum_manager) */
  int if_bank, wt_bank, out_bank, load_if, load_wt;
  long if_wait, wt_wait;   /* last earlier pass using the same bank, or -1 */
} pass_t;

typedef struct out_tile {
  long n, oy0, oht, ox0, owt, owv, k0, kt;
  int m;
  int groups, lin;
  long gw, lanes;
  long wl;   /* col2im: the lanes of a pixel's word that hold dx (0: a word per filter group) */
  int bank;
  long last_pass;
} out_tile_t;

/* One convolution of a run. The members of a run share their input and its tiling (output tile
 * size, channel slices, context mapping, column groups) but not their kernels, weights or
 * outputs: the input gradient's phases, which all read dy, run as members of one run so that
 * each tile of dy is loaded once for all of them. KGROUPS (out): filter groups per pixel. */
/* col2im (see drive_conv2d_input_grad): a run whose filters are the (tap, channel) pairs of the
 * input gradient's kernel, one pixel per super-pixel of dx, whose results the partial-sums
 * manager routes into the lanes of the pixel's word, the next pixel's, and the overlap-add line
 * (sagen_psum_manager). */
typedef struct c2i {
  long lanes;         /* lanes of a word that hold dx: phases x channels */
  int line_kg0;       /* the first filter group with a line segment */
  const uint32_t *route;   /* RT_KGS * 4 * cols entries: (kg * 4 + class) * cols + lane, {valid,
                              column} as sagen_core.v packs them (valid at bit log2(cols)) */
} c2i_t;

typedef struct member {
  layer_t l;
  view_t w, y;
  long kgroups;
  const c2i_t *c2i;   /* col2im's, or NULL */
} member_t;

/* The pixels of an output tile of OHT rows of OWT pixels laid out OWV wide (virtual width) that
 * the output memory stores per filter group: every row at the virtual width but the last, whose
 * padding past its last pixel is dropped. */
static long stored_pix(long oht, long owt, long owv)
{
  return oht * owv - (owv - owt);
}

/* Output words of a tile of NPIX pixels (stored_pix) and NKG filter groups: one per pixel, or
 * with column groups one per array row of every context (a word holds a pixel per group). */
static double out_words_of(const cfg_t *c, int groups, double npix, double nkg)
{
  if (groups <= 1) return nkg * npix;
  long lanes = lanes_of(c, groups);
  return nkg * ceil(npix / lanes) * c->rows;
}

/* Rows and pitch of the input window of a tile of OHT output rows and OWT columns. */
static long win_h(const layer_t *l, long oht, long rt) { return (oht - 1) * l->sh + (rt - 1) * l->dh + 1; }
static long win_w(const layer_t *l, long owt, long st) { return (owt - 1) * l->sw + (st - 1) * l->dw + 1; }

static long pitch_of(const cfg_t *c, long tile_w, long tile_h, int lin, long owt, int al,
                     long lead)
{
  if (lin) return owt;   /* linear contexts: the row pitch of the output tile */
  /* Aligned rows (AL) start each row on a word, LEAD elements (the window's left padding,
   * never stored) before its first element, so that the window's rows are read in the fewest
   * words: a row of up to bus_elems virtual columns in one, where packed rows straddle two words
   * more often than not. A single-row tile (1x1 layers, flattened) is always aligned, LEAD 0
   * unless AL: each channel of a context is one word. */
  if (al || tile_h == 1) return cdiv(lead + tile_w, c->bus_elems) * c->bus_elems;
  return tile_w;
}

/* The elements a channel of a tile of TH rows PITCH apart takes in the ifmap memory: its rows,
 * or for col2im (C2I) as many words as they need, so that every channel starts on a bus word. A
 * col2im pass is a 1x1 product: a lane takes one element a step, so a context's pixels must sit
 * in one word of every channel (with linear contexts, on a grid as wide as the words, they do). */
static long plane_of(const cfg_t *c, int c2i, long th, long pitch)
{
  return c2i ? cdiv(th * pitch, c->bus_elems) * c->bus_elems : th * pitch;
}

/* The elements before each row's first of a tile whose window has PAD_L columns of padding on
 * the left: aligned rows put the window's first column on a word. PAD_L may be negative (a
 * phase of a loss whose padding is past its dilated kernel starts its window inside the tile):
 * the lead is then what puts column -PAD_L on a word, in [0, bus_elems) either way. */
static long lead_of(const cfg_t *c, int al, long pad_l)
{
  return al ? ((pad_l % c->bus_elems) + c->bus_elems) % c->bus_elems : 0;
}

/* The estimated cycles of a tiling in parts: the array's, and the host port's for the ifmap
 * tiles, and for the weight tiles if they stay in the banks (WT_TILES of them, WT_ONCE cycles)
 * or are loaded for every pass (WT_EACH), and for the results; FIRST: the first tiles' load,
 * before any compute; LAST: the last output tile's read-out, after all of it. */
typedef struct cost_parts {
  double compute, ifmap, wt_tiles, wt_once, wt_each, out, first, last;
  int out_bits;        /* bits the host port moves per output word read (read_bits) */
  double reductions;   /* passes per output tile (channel and kernel slices) */
} cost_parts_t;

/* The host port's cycles of PARTS: the ifmap tiles, the weights (kept in the banks if they fit),
 * the results. */
static double dram_of(const cfg_t *c, const cost_parts_t *p)
{
  return p->ifmap + (p->wt_tiles <= c->banks ? p->wt_once : p->wt_each) + p->out;
}

/* Cycles the host port takes for a word of BITS at BPC bytes a cycle: one word a cycle at most. */
static double word_cycles(int bits, double bpc) { return fmax(1.0, ((bits + 7) / 8) / bpc); }

/* The host-port bytes of PARTS, whose cycles dram_of counts at BPC bytes a cycle (at a high BPC
 * the cycles count words, not bytes). */
static double bytes_of(const cfg_t *c, const cost_parts_t *p, double bpc)
{
  return p->ifmap / word_cycles(c->if_word_bits, bpc) * ((c->if_word_bits + 7) / 8) +
         (p->wt_tiles <= c->banks ? p->wt_once : p->wt_each) /
             word_cycles(c->wt_word_bits, bpc) * ((c->wt_word_bits + 7) / 8) +
         p->out / word_cycles(p->out_bits, bpc) * ((p->out_bits + 7) / 8);
}

/* The cycles of PARTS: with two banks, loading overlaps computing after the first tiles and
 * before the last read-out. */
static double cost_of(const cfg_t *c, const cost_parts_t *p)
{
  if (c->banks > 1) return fmax(p->compute, dram_of(c, p)) + p->first + p->last;
  return p->compute + dram_of(c, p);
}

/* The tiles of V by T: CNT[0] of SZ[0] = T, and CNT[1] (0 or 1) of the remainder SZ[1]. */
static void slice_mix(long v, long t, long sz[2], double cnt[2])
{
  long n = cdiv(v, t), rem = v - (n - 1) * t;
  sz[0] = t;
  sz[1] = rem;
  cnt[0] = rem == t ? (double)n : (double)(n - 1);
  cnt[1] = rem == t ? 0.0 : 1.0;
}

/* Where a tile's input window sits in the ifmap memory, as the index counters see it: the row
 * pitch, the rows, and the element offset of the window's virtual origin (BASE, see
 * window_base). */
typedef struct win_layout {
  long pitch, th, base, plane;
} win_layout_t;

/* The element offset of a window's virtual origin in its tile of rows PITCH apart: back by its
 * PAD_T rows and PAD_L columns of padding (never stored), on by the LEAD elements before each
 * stored row and by SUB_Y rows and SUB_X columns where the window starts inside a shared tile.
 * The index counters' base (program_descriptor). */
static long window_base(long pitch, long pad_t, long pad_l, long lead, long sub_y, long sub_x)
{
  return -(pad_t * pitch + pad_l) + lead + sub_y * pitch + sub_x;
}

/* The window layout of an output tile OHT x OWT of tiling T with ST kernel columns: of the
 * first tile along an axis (FIRST_Y, FIRST_X: it takes the layer's padding), or of one inside
 * the layer (no padding). As pass_window lays a pass's out. */
static win_layout_t layout_of(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht,
                              long owt, long st, int first_y, int first_x)
{
  long pad_t = first_y ? l->ph : 0, pad_l = first_x ? l->pw : 0;
  long th = lmin(l->h, win_h(l, oht, t->rt) - pad_t);
  long tw = lmin(l->w, win_w(l, owt, st) - pad_l);
  long lead = lead_of(c, t->al, pad_l);
  win_layout_t w = {pitch_of(c, tw, th, t->lin, owt, t->al, lead), th, 0, 0};
  w.base = window_base(w.pitch, pad_t, pad_l, lead, 0, 0);
  w.plane = plane_of(c, t->c2i, th, w.pitch);
  return w;
}

/* Cycles per channel and kernel row of a context of tiling T, in a tile OWV output pixels wide
 * (virtual width) and OHT rows whose window W lays out: the feeder's, replayed word by word on
 * the tile's first contexts (feed_row_cycles), or the array's STEPS if more (zero_fill steps
 * through the kernel row's dense positions, where created zeros take no element). */
static double per_cr_of(const cfg_t *c, const layer_t *l, const tiling_t *t, long st,
                        double steps, long lanes, long owv, long oht, const win_layout_t *w)
{
  feed_shape_t s = {
    .lanes = lanes, .owv = owv, .oht = oht, .st = st, .dw = l->dw, .sw = l->sw, .lin = t->lin,
    .base = w->base, .plane = w->plane, .kr_step = l->dh * w->pitch,
    .oy_step = l->sh * w->pitch, .rows = t->ct * t->rt, .rt = t->rt};
  return fmax(steps, feed_row_cycles(c, &s));
}

/* Cycles a pass takes besides its contexts' steps: its fill and drain (the reserve chains and
 * the deskew). Measured on 30 random layers: 42 to 55 a pass on a 16x16 array, 50 on average. */
#define PASS_OVERHEAD(c) (2.0 * (c)->rows + (c)->cols + 2)

/* Cycles per channel and kernel row of a context of tiling T on an output tile OHT x OWT whose
 * kernel slice is ST taps wide (see per_cr_of); zero_fill adds the steps on the dense rows
 * between tap rows, where no word is read. */
static double cr_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht, long owt,
                        long st, const win_layout_t *w)
{
  long lanes = lanes_of(c, t->groups);
  long owv = virt_width(lanes, owt, t->virt);
  /* zero_fill: a slice of st taps steps through about st * dense_w / s positions, and the
   * dense rows between tap rows are steps on created zeros, no word read */
  double sd = t->fill && l->dense_w > 0 ? (double)st * l->dense_w / l->s : st;
  double fr = t->fill && l->dense_h > 0 ? (double)l->dense_h / l->r : 1.0;
  return per_cr_of(c, l, t, st, sd, lanes, owv, oht, w) + (fr - 1.0) * sd;
}

/* The array's cycles of a pass of tiling T on an output tile OHT x OWT with CT channels, RT
 * kernel rows of ST taps and NKG filter groups, its window laid out as W: every context's
 * steps (at least 2 rows - 1, the reserve chains' turn, but for the last context, whose results
 * leave in the pass's drain), and the pass's fill and drain. */
static double pass_cycles(const cfg_t *c, const layer_t *l, const tiling_t *t, long oht,
                          long owt, long ct, long rt, long st, long nkg, const win_layout_t *w)
{
  long lanes = lanes_of(c, t->groups);
  long nctx = cdiv(oht * virt_width(lanes, owt, t->virt), lanes);
  double work = (double)ct * rt * cr_cycles(c, l, t, oht, owt, st, w);
  double ctx = fmax(work, 2.0 * c->rows - 1);
  return (double)nkg * nctx * ctx - (ctx - work) + PASS_OVERHEAD(c);
}

/* The parts of the estimated cycles of a tiling into PARTS; -1 if it does not fit. */
static double tiling_parts(const cfg_t *c, const layer_t *l, long oh, long ow, const tiling_t *t,
                           double bpc, cost_parts_t *parts)
{
  long th = lmin(l->h, win_h(l, t->oht, t->rt));
  long tw = lmin(l->w, win_w(l, t->owt, t->st));
  long lead = lead_of(c, t->al, l->pw);   /* the left edge tile's */
  long pitch = pitch_of(c, tw, th, t->lin, t->owt, t->al, lead);
  long lanes = lanes_of(c, t->groups);
  long nkg = cdiv(t->kt, t->gw);
  long owv = virt_width(lanes, t->owt, t->virt);
  long plane = plane_of(c, t->c2i, th, pitch);
  if ((double)t->ct * plane > (double)c->if_words * c->bus_elems) return -1;
  if ((double)nkg * t->ct * t->rt * t->st > (double)c->wt_words) return -1;
  /* col2im: every filter group adds into one word per pixel, each with a line segment from
   * c2i_kg0 on (a row of the tile each), and a line word is read again a row later */
  long nkg_out = t->c2i ? 1 : nkg;
  if (out_words_of(c, t->groups, (double)stored_pix(t->oht, t->owt, owv), (double)nkg_out) >
      (double)c->out_words)
    return -1;
  if (t->c2i && (t->owt != ow || owv < 3 || (t->ct < l->c && t->oht > 1) ||
                 (double)lmax(0, nkg - t->c2i_kg0) * owv > (double)c->line_words))
    return -1;
  long kspan = (t->st - 1) * l->dw + 1;
  long ctx_y = (lanes / owv) * l->sh;
  if (kspan > 65535 || th > 65535 || tw > 65535 || t->ct > 65535 || t->oht > 65535 ||
      ctx_y > 65535 || owv > 65535)
    return -1;
  if ((double)t->ct * plane > 2e9) return -1;
  /* linear contexts only pay off across rows: a one-row tile keeps its bus-aligned pitch */
  if (t->lin && t->oht < 2) return -1;
  if (cdiv(t->oht * owv, lanes) * nkg > 65535) return -1;   /* the tap sequencer's count */
  double n_sp = (double)l->n * cdiv(oh, t->oht) * cdiv(ow, t->owt);
  double n_kt = (double)cdiv(l->k, t->kt);
  double n_red = (double)cdiv(l->c, t->ct) * cdiv(l->r, t->rt) * cdiv(l->s, t->st);
  double passes = n_sp * n_kt * n_red;
  /* The last tile of each axis may be smaller than T's: the contexts, filter groups and ifmap
   * words are summed over the tiles as they are (charging every tile as a full one would make
   * a tiling that divides the layer evenly look faster than one that does not), and so are the
   * steps of the last slice of each reduction axis (a 7-tap row in slices of 4 is 4 + 3). */
  long hs[2], ws[2], cs[2], rs[2], ss[2];
  double hn[2], wn[2], cn[2], rn[2], sn[2];
  slice_mix(oh, t->oht, hs, hn);
  slice_mix(ow, t->owt, ws, wn);
  slice_mix(l->c, t->ct, cs, cn);
  slice_mix(l->r, t->rt, rs, rn);
  slice_mix(l->s, t->st, ss, sn);
  double steps = 0, ifw_all = 0;   /* over the spatial tiles of one image */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double n_ij = hn[i] * wn[j];
      if (n_ij == 0) continue;
      long owv_j = virt_width(lanes, ws[j], t->virt);
      long th_i = lmin(l->h, win_h(l, hs[i], t->rt)), tw_j = lmin(l->w, win_w(l, ws[j], t->st));
      double red_steps = 0;   /* a context's steps over every reduction slice */
      for (int si = 0; si < 2; si++) {
        if (sn[si] == 0) continue;
        win_layout_t w = layout_of(c, l, t, hs[i], ws[j], ss[si], hn[0] + hn[1] <= 1.0,
                                   wn[0] + wn[1] <= 1.0);
        double per_cr = cr_cycles(c, l, t, hs[i], ws[j], ss[si], &w);
        for (int ci = 0; ci < 2; ci++)
          for (int ri = 0; ri < 2; ri++)
            if (cn[ci] * rn[ri] > 0)
              red_steps += sn[si] * cn[ci] * rn[ri] *
                           fmax((double)cs[ci] * rs[ri] * per_cr, 2.0 * c->rows - 1);
      }
      steps += n_ij * (double)cdiv(hs[i] * owv_j, lanes) * red_steps;
      ifw_all += n_ij * (double)cdiv(t->ct * plane_of(c, t->c2i, th_i,
                                                        pitch_of(c, tw_j, th_i, t->lin, ws[j],
                                                                 t->al, lead)),
                                     c->bus_elems);
    }
  /* filter groups over the filter tiles */
  double kg_all = (n_kt - 1) * nkg + (double)cdiv(l->k - ((long)n_kt - 1) * t->kt, t->gw);
  double compute = l->n * kg_all * steps + passes * PASS_OVERHEAD(c);
  /* The host port moves at most one word per cycle, and bpc bytes per cycle. */
  double ifw = (double)cdiv(t->ct * plane, c->bus_elems);
  double wtw = (double)nkg * t->ct * t->rt * t->st;
  double outw = (double)l->n * (t->c2i ? 1 : cdiv(l->k, t->gw)) * oh * ow / t->groups;
  double ifb = word_cycles(c->if_word_bits, bpc), wtb = word_cycles(c->wt_word_bits, bpc);
  double ifc = ifw * ifb, wtc = wtw * wtb;
  double wt_all = kg_all * t->ct * t->rt * t->st * wtb;   /* every filter tile's, once */
  double outc = outw * word_cycles(read_bits(c, t), bpc);
  /* each spatial tile is loaded once per reduction slice if the banks hold them all, else once
   * per pass */
  double if_loads = n_red <= c->banks ? n_red : n_red * n_kt;
  parts->compute = compute;
  parts->ifmap = l->n * if_loads * ifw_all * ifb;
  parts->wt_tiles = n_kt * n_red;
  parts->wt_once = n_red * wt_all;
  parts->wt_each = n_sp * n_red * wt_all;
  parts->out = outc;
  parts->out_bits = read_bits(c, t);
  parts->first = ifc + wtc;
  parts->last = outc / (n_sp * n_kt);
  parts->reductions = n_red;
  return 0;
}

/* Distinct values of ceil(V / n) for n = 1..V, largest first, into OUT; returns the count. */
static long splits(long v, long *out, long max)
{
  long k = 0, last = -1;
  /* every n up to 32, then n doubling, so that the list always ends with 1 (the smallest
   * slice, which always fits) however large V is */
  for (long n = 1; n <= v && k < max; n = n < 32 ? n + 1 : 2 * n) {
    long q = cdiv(v, n);
    if (q != last) out[k++] = q;
    last = q;
  }
  if (k > 0 && out[k - 1] != 1) {
    if (k == max) k--;
    out[k++] = 1;
  }
  return k;
}

/* Linear contexts need stride 1 and whole output rows at least as wide as the input window of
 * a pass taking ST kernel columns (so that the row pitch can be the output width). */
static int linear_ok(const layer_t *l, long ow, long st)
{
  return l->sh == 1 && l->sw == 1 && lmin(l->w, win_w(l, ow, st)) <= ow && ow <= 65535;
}

/* The parts of the estimated cycles of members MS[0..NM) sharing one run tiled by T for their
 * union U into SUM: each member's compute, the union's ifmap tiles loaded once, every member's
 * weights and results; -1 if it does not fit. */
static double shared_parts(const cfg_t *c, const layer_t *u, const member_t *ms, int nm,
                           const tiling_t *t, double bpc, cost_parts_t *sum)
{
  cost_parts_t pu, pm;
  *sum = (cost_parts_t){0};
  if (tiling_parts(c, u, u->oh, u->ow, t, bpc, &pu) < 0) return -1;
  for (int m = 0; m < nm; m++) {
    tiling_t tm = *t;
    tm.rt = ms[m].l.r;
    tm.st = ms[m].l.s;
    if (tiling_parts(c, &ms[m].l, u->oh, u->ow, &tm, bpc, &pm) < 0) return -1;
    sum->compute += pm.compute;
    sum->out += pm.out;
    sum->wt_tiles += pm.wt_tiles;   /* they stay in the banks only if every member's fit */
    sum->wt_once += pm.wt_once;
    sum->wt_each += pm.wt_each;
  }
  /* the union's ifmap tiles stay while the members take turns only if they fit the banks */
  sum->ifmap = pu.reductions <= c->banks ? pu.ifmap : nm * pu.ifmap;
  sum->first = pu.first;
  sum->out_bits = pu.out_bits;
  sum->last = pm.last;   /* the last member's */
  return 0;
}

static int same_tiling(const tiling_t *a, const tiling_t *b)
{
  return a->ct == b->ct && a->kt == b->kt && a->oht == b->oht && a->owt == b->owt &&
         a->rt == b->rt && a->st == b->st && a->virt == b->virt && a->lin == b->lin &&
         a->groups == b->groups && a->gw == b->gw && a->al == b->al && a->fill == b->fill &&
         a->c2i == b->c2i && a->c2i_kg0 == b->c2i_kg0 && a->c2i_wl == b->c2i_wl;
}

static int plan_passes(const cfg_t *c, const member_t *ms, int nm, long oh, long ow,
                       const tiling_t *t, pass_t **passes_out, long *np_out,
                       out_tile_t **tiles_out, long *nt_out);
static double schedule_cycles(const cfg_t *c, const member_t *ms, const tiling_t *t,
                              const pass_t *ps, long np, const out_tile_t *ts, long nt,
                              double bpc);

/* The estimated cycles of tiling T of members MS[0..NM) as the driver would run it
 * (schedule_cycles on the planned passes); FALLBACK if the plan cannot be made. */
static double planned_cycles(const cfg_t *c, const member_t *ms, int nm, long oh, long ow,
                             const tiling_t *t, double bpc, double fallback)
{
  pass_t *ps = NULL;
  out_tile_t *ts = NULL;
  long np = 0, nt = 0;
  double v = fallback;
  if (!plan_passes(c, ms, nm, oh, ow, t, &ps, &np, &ts, &nt) && np > 0) {
    v = schedule_cycles(c, ms, t, ps, np, ts, nt, bpc);
    if (v < 0) v = fallback;
  }
  free(ps);
  free(ts);
  return v;
}

/* The tilings with the lowest summed estimates (cost_of) that choose_tiling plans pass by pass
 * and estimates again as they would run (planned_cycles). */
#define SCHED_CANDIDATES 24

/* Tilings whose estimated cycles are within COST_TIE of the fastest's are traded against their
 * host-port traffic, 1% of cycles for every TRAFFIC_RATE% of bytes saved. (Where the array
 * binds, many tilings tie on cycles while their traffic differs severalfold: a weight tensor
 * streamed once per small output tile, say, rather than once per large one.) 1.5%: a 1x1
 * input gradient of 1024 channels (test_cli) streams dy twice at 1.1% more cycles, or three
 * times. */
#define COST_TIE 0.015
#define TRAFFIC_RATE 10.0

/* The fastest tiling of L into BEST (its estimated cycles into COST_OUT if not NULL); 0, or 1
 * with ERR if none fits. With members MS[0..NM) (NM > 1), L is their union (union_layer) and
 * the tiling is the best for them sharing one run, no kernel sliced across passes. */
static int choose_tiling(const cfg_t *c, const layer_t *l, const member_t *ms, int nm, long oh,
                         long ow, double bpc, int contexts, int groups, int rows, int fill,
                         tiling_t *best,
                         double *cost_out, char *err, size_t errlen)
{
  static long cts[4096], kts[4096], rts[64], sts[64];
  long ncts = splits(l->c, cts, 4096);
  long nrt = splits(l->r, rts, 64);
  /* Kernel columns per pass: the pattern must hold them, and a lane may run at most S-1
   * elements ahead of another within a row pass, so the lane FIFOs must hold S elements or the
   * feeder deadlocks (a full lane waits for a pop that an empty lane blocks). Wider kernels are
   * sliced across passes whose partial sums the hardware accumulates. */
  long smax = lmin((c->pattern_bits - 1) / l->dw + 1, c->fifo_depth);
  long nst = 0;
  long tmp[64];
  long ns_all = splits(l->s, tmp, 64);
  for (long i = 0; i < ns_all; i++)
    if (tmp[i] <= smax) sts[nst++] = tmp[i];
  if (nst == 0) sts[nst++] = lmin(l->s, smax);
  /* shared runs take whole kernels, and linear contexts only if every member has the run's
   * width (the tile's row pitch) */
  int narrower = 0;
  if (nm > 1) {
    nrt = 1;
    nst = sts[0] == l->s;
    for (int m = 0; m < nm; m++) narrower |= layer_out_w(&ms[m].l) != ow;
  }
  /* Round 0 finds the fastest estimate; round 1 trades, among the tilings within COST_TIE of
   * it, cycles for host-port traffic (see TRAFFIC_RATE). */
  double best_cost = -1, bytes0 = 0, best_score = -1, chosen = -1, best_bytes = 0;
  tiling_t cand[SCHED_CANDIDATES + 1];
  double cand_cost[SCHED_CANDIDATES + 1], cand_bytes[SCHED_CANDIDATES + 1];
  int ncand = 0;
  /* Column groups: g groups of cols / g columns, each computing its own pixels with the same
   * filters; worth it when there are fewer filters than columns. */
  int g_lo = groups > 0 ? groups : 1;
  int g_hi = groups > 0 ? groups : c->col_groups;
  /* col2im (see c2i_t): one run of one member, no column groups, every filter in each pass */
  const c2i_t *c2i = nm == 1 ? ms[0].c2i : NULL;
  if (c2i) g_lo = g_hi = 1;
  for (int round = 0; round < 2 && (round == 0 || best_cost >= 0); round++)
  for (int g = g_lo; g <= g_hi; g++) {
    long gw = c->cols / g;
    /* With as many filters as columns, groups of fewer columns are tried only where they
     * leave fewer columns idle: 17 filters take 2 x 16 columns, or 3 x 8 with 2 groups. */
    if (g > 1 && groups == 0 && l->k >= c->cols &&
        cdiv(l->k, gw) * gw >= cdiv(l->k, c->cols) * c->cols)
      continue;
    long lanes = lanes_of(c, g);
    long nkt = 0;
    for (long q = cdiv(l->k, gw); q >= 1; q--) {
      long kt = lmin(l->k, q * gw);
      if (nkt == 0 || kts[nkt - 1] != kt) kts[nkt++] = kt;
      if (nkt >= 4096 || c2i) break;
    }
    for (long a = 0; a < ncts; a++)
      for (long b = 0; b < nkt; b++)
        for (long r = 0; r < nrt; r++)
          for (long s = 0; s < nst; s++) {
            for (int mode = 2; mode >= 0; mode--) {
            /* 0: contexts wrap across rows, 1: inside a row, 2: linear. On a tie of the
             * estimates the first tried wins: linear (one input run per kernel row), then
             * inside a row, then wrapping (several runs per kernel row). */
            if (contexts && mode != contexts - 1) continue;
            int lin = mode == 2;
            if (lin && (narrower || !linear_ok(l, ow, sts[s]))) continue;
            /* packed rows first (on a tie they move fewer host-port bytes), then aligned
             * rows (not for linear contexts, whose pitch is the output width, nor for shared
             * runs, whose members' windows start at different columns of one tile) */
            int al_hi = lin || nm > 1 || rows == 1 ? 0 : 1;
            for (int al = rows == 2 ? al_hi : 0; al <= al_hi; al++) {
            tiling_t t = {cts[a], kts[b], 0, 0, rts[r], sts[s], mode == 1, lin, g, gw, al, fill,
                          c2i != NULL, c2i ? c2i->line_kg0 : 0, c2i ? c2i->lanes : 0};
            long nkg = cdiv(t.kt, gw);
            /* widest output tile first: the whole row, then multiples of the lanes */
            for (long owt = ow; owt >= 1;) {
              t.owt = owt;
              long tw = lmin(l->w, win_w(l, owt, t.st));
              /* tallest output tile that fits the ifmap and output memories */
              /* (col2im: every channel rounded up to a word, see plane_of) */
              long hmax_rows = (long)(((double)c->if_words * c->bus_elems -
                                       (c2i ? (double)t.ct * (c->bus_elems - 1) : 0.0)) /
                                      ((double)t.ct * pitch_of(c, tw, 2, lin, owt, al,
                                                               lead_of(c, al, l->pw))));
              long oht_if = hmax_rows >= l->h ? oh : (hmax_rows - 1 - (t.rt - 1) * l->dh) / l->sh + 1;
              if (hmax_rows < 1 || (t.rt - 1) * l->dh + 1 > hmax_rows) oht_if = lmin(oh, 1);
              long owv = virt_width(lanes, owt, t.virt);
              /* the most rows whose stored pixels (stored_pix) fit the output memory */
              long nkg_out = c2i ? 1 : nkg;
              long oht_out = g == 1 ? (long)((c->out_words / (double)nkg_out + (owv - owt)) / owv)
                                    : (long)(c->out_words / (nkg * c->rows) * lanes / owv);
              t.oht = lmin(oh, lmin(oht_if, oht_out));
              if (c2i && t.ct < l->c) t.oht = lmin(t.oht, 1);
              cost_parts_t parts;
              if (t.oht >= 1 && (nm > 1 ? shared_parts(c, l, ms, nm, &t, bpc, &parts)
                                        : tiling_parts(c, l, oh, ow, &t, bpc, &parts)) >= 0) {
                double cost = cost_of(c, &parts), bytes = bytes_of(c, &parts, bpc);
                /* a one-row tile's contexts are inside its row whichever mapping is asked
                 * for: the same passes, kept once */
                int dup = 0;
                for (int i = 0; i < ncand && !dup && t.oht == 1; i++) {
                  tiling_t u = t;
                  u.virt = cand[i].virt;
                  dup = cand_cost[i] == cost && same_tiling(&cand[i], &u);
                }
                if (round == 0 && !dup && (ncand < SCHED_CANDIDATES ||
                                           cost < cand_cost[SCHED_CANDIDATES - 1])) {
                  int at = ncand < SCHED_CANDIDATES ? ncand++ : SCHED_CANDIDATES - 1;
                  for (; at > 0 && cand_cost[at - 1] > cost; at--) {
                    cand[at] = cand[at - 1];
                    cand_cost[at] = cand_cost[at - 1];
                    cand_bytes[at] = cand_bytes[at - 1];
                  }
                  cand[at] = t;
                  cand_cost[at] = cost;
                  cand_bytes[at] = bytes;
                }
                if (round == 0 && (best_cost < 0 || cost < best_cost)) {
                  best_cost = chosen = cost;
                  bytes0 = best_bytes = bytes;
                  *best = t;
                } else if (round == 1 && cost <= best_cost * (1 + COST_TIE) && bytes0 > 0) {
                  double score = cost / best_cost + bytes / bytes0 / TRAFFIC_RATE;
                  if (best_score < 0 || score < best_score) {
                    best_score = score;
                    chosen = cost;
                    best_bytes = bytes;
                    *best = t;
                  }
                }
              }
              long next = (owt > lanes) ? ((owt - 1) / lanes) * lanes : owt - 1;
              if (next >= owt) next = owt - 1;
              owt = lin || c2i ? 0 : next;   /* linear contexts and col2im: whole rows */
            }
            }
            }
          }
  }
  if (best_cost < 0 && contexts == 3) /* no tiling can use linear contexts: the driver's choice */
    return choose_tiling(c, l, ms, nm, oh, ow, bpc, 0, groups, rows, fill, best, cost_out, err,
                         errlen);
  if (best_cost < 0) {
    long need_if = (long)lmin(l->h, win_h(l, 1, 1)) * lmin(l->w, win_w(l, 1, 1));
    snprintf(err, errlen,
             "layer does not fit the configuration: its smallest tile needs %ld ifmap elements "
             "(memory.ifmap_kib holds %ld), %ld weight words (memory.weight_kib holds %ld) and "
             "1 output word (memory.output_kib holds %ld)",
             need_if, c->if_words * c->bus_elems, 1L, c->wt_words, c->out_words);
    return 1;
  }
  /* The candidates as they would run: the fastest, and among those within COST_TIE of it the
   * one that moves the fewest bytes (see TRAFFIC_RATE); round 1's choice is one of them. */
  int have = 0;
  for (int i = 0; i < ncand; i++) have |= same_tiling(&cand[i], best);
  if (!have) {
    cand[ncand] = *best;
    cand_cost[ncand] = chosen;
    cand_bytes[ncand] = best_bytes;
    ncand++;
  }
  double sched[SCHED_CANDIDATES + 1], fast = -1, fast_bytes = 0;
  for (int i = 0; i < ncand; i++) {
    sched[i] = planned_cycles(c, ms, nm, oh, ow, &cand[i], bpc, cand_cost[i]);
    if (fast < 0 || sched[i] < fast) {
      fast = sched[i];
      fast_bytes = cand_bytes[i];
    }
  }
  best_score = -1;
  for (int i = 0; i < ncand; i++) {
    if (sched[i] > fast * (1 + COST_TIE)) continue;
    double score = sched[i] / fast;
    if (fast_bytes > 0) score += cand_bytes[i] / fast_bytes / TRAFFIC_RATE;
    if (best_score < 0 || score < best_score) {
      best_score = score;
      chosen = sched[i];
      *best = cand[i];
    }
  }
  if (cost_out) *cost_out = chosen;
  return 0;
}

/* Geometry of the input window of pass P (clipped to the layer). */
static void pass_window(const cfg_t *c, const layer_t *l, pass_t *p)
{
  long vy_lo = p->oy0 * l->sh - l->ph + p->r0 * l->dh;
  long vy_hi = (p->oy0 + p->oht - 1) * l->sh - l->ph + (p->r0 + p->rt - 1) * l->dh;
  long vx_lo = p->ox0 * l->sw - l->pw + p->s0 * l->dw;
  long vx_hi = (p->ox0 + p->owt - 1) * l->sw - l->pw + (p->s0 + p->st - 1) * l->dw;
  long iy_lo = lmax(0, vy_lo), iy_hi = lmin(l->h - 1, vy_hi);
  long ix_lo = lmax(0, vx_lo), ix_hi = lmin(l->w - 1, vx_hi);
  if (iy_lo > iy_hi || ix_lo > ix_hi) { /* all padding: an empty tile */
    p->iy_lo = p->ix_lo = 0;
    p->tile_h = p->tile_w = 0;
    p->pad_t = p->pad_l = 0;
    p->pitch = p->lead = 0;
  } else {
    p->iy_lo = iy_lo;
    p->ix_lo = ix_lo;
    p->tile_h = iy_hi - iy_lo + 1;
    p->tile_w = ix_hi - ix_lo + 1;
    p->pad_t = iy_lo - vy_lo;
    p->pad_l = ix_lo - vx_lo;
    p->lead = lead_of(c, p->al, p->pad_l);
    p->pitch = pitch_of(c, p->tile_w, p->tile_h, p->lin, p->owt, p->al, p->lead);
  }
  p->plane = plane_of(c, p->c2i, p->tile_h, p->pitch);
  p->if_words = cdiv(p->ct * p->plane, c->bus_elems);
  p->wt_words = cdiv(p->kt, p->gw) * p->ct * p->rt * p->st;
}

static int same_if(const pass_t *a, const pass_t *b)
{
  return a->n == b->n && a->c0 == b->c0 && a->ct == b->ct && a->iy_lo == b->iy_lo &&
         a->tile_h == b->tile_h && a->ix_lo == b->ix_lo && a->tile_w == b->tile_w &&
         a->pitch == b->pitch && a->lead == b->lead;
}

static int same_wt(const pass_t *a, const pass_t *b)
{
  return a->m == b->m && a->k0 == b->k0 && a->kt == b->kt && a->c0 == b->c0 && a->ct == b->ct &&
         a->r0 == b->r0 && a->rt == b->rt && a->s0 == b->s0 && a->st == b->st;
}

/* The passes PS[0..NP) of one output tile position, every member's: the passes that take the
 * same channels load one tile, the union of their windows, and each reads its own window from
 * where it starts in it. */
static void share_windows(const cfg_t *c, pass_t *ps, long np)
{
  for (long i = 0; i < np; i++) {
    long j, y0 = 0, y1 = -1, x0 = 0, x1 = -1;
    for (j = 0; j < i; j++)
      if (ps[j].c0 == ps[i].c0) break;
    if (j < i) continue;   /* its channels' tile is placed already */
    for (j = i; j < np; j++) {
      const pass_t *q = &ps[j];
      if (q->c0 != ps[i].c0 || q->tile_h == 0) continue;
      if (y1 < y0) {
        y0 = q->iy_lo; y1 = q->iy_lo + q->tile_h - 1;
        x0 = q->ix_lo; x1 = q->ix_lo + q->tile_w - 1;
      } else {
        y0 = lmin(y0, q->iy_lo); y1 = lmax(y1, q->iy_lo + q->tile_h - 1);
        x0 = lmin(x0, q->ix_lo); x1 = lmax(x1, q->ix_lo + q->tile_w - 1);
      }
    }
    for (j = i; j < np; j++) {
      pass_t *q = &ps[j];
      if (q->c0 != ps[i].c0 || q->tile_h == 0) continue;
      q->sub_y = q->iy_lo - y0;
      q->sub_x = q->ix_lo - x0;
      q->iy_lo = y0; q->tile_h = y1 - y0 + 1;
      q->ix_lo = x0; q->tile_w = x1 - x0 + 1;
      q->pitch = pitch_of(c, q->tile_w, q->tile_h, q->lin, q->owt, q->al, q->lead);
      q->plane = plane_of(c, q->c2i, q->tile_h, q->pitch);
      q->if_words = cdiv(q->ct * q->plane, c->bus_elems);
    }
  }
}

/* Every pass of the run in order, with its banks and loads: for each output tile position and
 * filter slice, each member's passes (see member_t). */
static int plan_passes(const cfg_t *c, const member_t *ms, int nm, long oh, long ow,
                       const tiling_t *t, pass_t **passes_out, long *np_out,
                       out_tile_t **tiles_out, long *nt_out)
{
  const layer_t *l = &ms[0].l;   /* n, c, k: the same for every member */
  long n_sp = l->n * cdiv(oh, t->oht) * cdiv(ow, t->owt);
  long n_kt = cdiv(l->k, t->kt);
  long n_red = 0;
  for (int m = 0; m < nm; m++)
    n_red += cdiv(l->c, t->ct) * cdiv(ms[m].l.r, t->rt) * cdiv(ms[m].l.s, t->st);
  long np = n_sp * n_kt * n_red, nt = n_sp * n_kt * nm;
  pass_t *ps = calloc((size_t)np, sizeof *ps);
  out_tile_t *ts = calloc((size_t)nt, sizeof *ts);
  if (!ps || !ts) {
    free(ps);
    free(ts);
    return 1;
  }
  long i = 0, ti = 0;
  for (long n = 0; n < l->n; n++)
    for (long oy0 = 0; oy0 < oh; oy0 += t->oht)
      for (long ox0 = 0; ox0 < ow; ox0 += t->owt)
        for (long k0 = 0; k0 < l->k; k0 += t->kt) {
          long i_pos = i;
          for (int m = 0; m < nm; m++) {
            const layer_t *lm = &ms[m].l;
            long ohm = layer_out_h(lm), owm = layer_out_w(lm);
            if (oy0 >= ohm || ox0 >= owm) continue;   /* past this member's edge */
            out_tile_t *ot = &ts[ti];
            ot->m = m;
            ot->n = n; ot->oy0 = oy0; ot->oht = lmin(t->oht, ohm - oy0);
            ot->ox0 = ox0; ot->owt = lmin(t->owt, owm - ox0);
            ot->k0 = k0; ot->kt = lmin(t->kt, l->k - k0);
            ot->groups = t->groups;
            ot->lin = t->lin;
            ot->gw = t->gw;
            ot->lanes = lanes_of(c, t->groups);
            ot->owv = virt_width(ot->lanes, ot->owt, t->virt);
            ot->wl = ms[m].c2i ? ms[m].c2i->lanes : 0;
            ot->bank = (int)(ti % c->banks);
            int first = 1;
            for (long c0 = 0; c0 < l->c; c0 += t->ct)
              for (long r0 = 0; r0 < lm->r; r0 += t->rt)
                for (long s0 = 0; s0 < lm->s; s0 += t->st) {
                  pass_t *p = &ps[i];
                  p->m = m;
                  p->n = n; p->oy0 = oy0; p->oht = ot->oht; p->ox0 = ox0; p->owt = ot->owt;
                  p->k0 = k0; p->kt = ot->kt; p->owv = ot->owv;
                  p->groups = ot->groups; p->gw = ot->gw; p->lanes = ot->lanes;
                  p->lin = ot->lin;
                  p->al = t->al;
                  p->c0 = c0; p->ct = lmin(t->ct, l->c - c0);
                  p->r0 = r0; p->rt = lmin(t->rt, lm->r - r0);
                  p->s0 = s0; p->st = lmin(t->st, lm->s - s0);
                  p->acc = !first;
                  /* col2im: the tiles of an image's rows run in order, and the overlap-add
                   * line carries each tile's last row into the next one's first: its first
                   * reduction slice takes it (not in the image's first tile); a later slice
                   * (one-row tiles) adds its carry into it */
                  p->c2i = ms[m].c2i != NULL;
                  p->line_kg0 = p->c2i ? ms[m].c2i->line_kg0 : 0;
                  p->line_first = p->c2i && oy0 > 0 && first;
                  p->line_acc = p->c2i && !first;
                  first = 0;
                  p->out_tile = (int)ti;
                  p->out_bank = ot->bank;
                  pass_window(c, lm, p);
                  if (lm->no_ops) p->if_words = p->wt_words = 0;   /* nothing to fetch */
                  i++;
                }
            ps[i - 1].last = 1;
            ot->last_pass = i - 1;
            ti++;
          }
          if (nm > 1) share_windows(c, ps + i_pos, i - i_pos);
        }
  np = i;   /* members stop at their own edges */
  nt = ti;
  /* Banks: keep a tile where it is if the next pass needs it again, else load it into the bank
   * the previous pass did not use. */
  long if_at[2] = {-1, -1}, wt_at[2] = {-1, -1}; /* pass whose tile each bank holds */
  long if_user[2] = {-1, -1}, wt_user[2] = {-1, -1};
  for (i = 0; i < np; i++) {
    pass_t *p = &ps[i];
    int b;
    for (b = 0; b < c->banks; b++)
      if (if_at[b] >= 0 && same_if(&ps[if_at[b]], p)) break;
    if (b < c->banks) {
      p->load_if = 0;
    } else {
      b = (c->banks > 1 && i > 0) ? 1 - ps[i - 1].if_bank : 0;
      p->load_if = 1;
      if_at[b] = i;
    }
    p->if_bank = b;
    p->if_wait = p->load_if ? if_user[b] : -1;
    if_user[b] = i;
    for (b = 0; b < c->banks; b++)
      if (wt_at[b] >= 0 && same_wt(&ps[wt_at[b]], p)) break;
    if (b < c->banks) {
      p->load_wt = 0;
    } else {
      b = (c->banks > 1 && i > 0) ? 1 - ps[i - 1].wt_bank : 0;
      p->load_wt = 1;
      wt_at[b] = i;
    }
    p->wt_bank = b;
    p->wt_wait = p->load_wt ? wt_user[b] : -1;
    wt_user[b] = i;
  }
  *passes_out = ps;
  *np_out = np;
  *tiles_out = ts;
  *nt_out = nt;
  return 0;
}

/* The host's DMA jobs, in the order it runs them. */
enum { JOB_LOAD_IF, JOB_LOAD_WT, JOB_READOUT };
typedef struct job {
  int type;
  long idx;   /* pass (loads) or output tile (readout) */
} job_t;

/* The DMA jobs of passes PS[0..NP) into JOBS (room for 2 NP + 1): the loads of pass i, then the
 * read-out of the tile whose last pass is i-1; the last tile's read-out last. Returns how many. */
static long dma_jobs(const pass_t *ps, long np, job_t *jobs)
{
  long nj = 0;
  for (long i = 0; i < np; i++) {
    if (ps[i].load_if) jobs[nj++] = (job_t){JOB_LOAD_IF, i};
    if (ps[i].load_wt) jobs[nj++] = (job_t){JOB_LOAD_WT, i};
    if (i > 0 && ps[i - 1].last) jobs[nj++] = (job_t){JOB_READOUT, ps[i - 1].out_tile};
  }
  jobs[nj++] = (job_t){JOB_READOUT, ps[np - 1].out_tile};
  return nj;
}

/* Words the host reads of output tile OT (readout_words, less the words of column groups that
 * hold no real pixel, which the host skips). */
static double readout_real(const cfg_t *c, const out_tile_t *ot)
{
  long nkg = ot->wl ? 1 : cdiv(ot->kt, ot->gw);
  if (ot->groups <= 1) return (double)nkg * ot->oht * ot->owt;
  long npix = stored_pix(ot->oht, ot->owt, ot->owv), nctx = cdiv(npix, ot->lanes);
  return (double)nkg * ((nctx - 1) * c->rows + lmin(c->rows, npix - (nctx - 1) * ot->lanes));
}

/* The array's cycles of pass P of tiling T (pass_cycles), kept for the last SCHED_SHAPES shapes
 * of pass in MEMO: a run's passes come in a few (the edge tiles', the last slices'). */
#define SCHED_SHAPES 8
#define SHAPE_KEY 10
typedef struct shape_memo {
  long key[SCHED_SHAPES][SHAPE_KEY];
  double cyc[SCHED_SHAPES];
  int n, next;
} shape_memo_t;

static double pass_cost(const cfg_t *c, const member_t *ms, const tiling_t *t, const pass_t *p,
                        shape_memo_t *memo)
{
  const layer_t *l = &ms[p->m].l;
  /* the window as program_descriptor gives it to the index counters */
  win_layout_t w = {p->pitch, p->tile_h,
                    window_base(p->pitch, p->pad_t, p->pad_l, p->lead, p->sub_y, p->sub_x),
                    p->plane};
  long key[SHAPE_KEY] = {p->m, p->oht, p->owt, p->ct, p->rt, p->st, cdiv(p->kt, p->gw),
                         w.pitch, w.th, w.base};
  for (int i = 0; i < memo->n; i++)
    if (!memcmp(memo->key[i], key, sizeof key)) return memo->cyc[i];
  tiling_t tp = *t;
  if (p->rt == l->r) tp.rt = l->r;   /* a shared run's member: its whole kernel */
  double v = pass_cycles(c, l, &tp, p->oht, p->owt, p->ct, p->rt, p->st, key[6], &w);
  int slot = memo->n < SCHED_SHAPES ? memo->n++ : memo->next++ % SCHED_SHAPES;
  memcpy(memo->key[slot], key, sizeof key);
  memo->cyc[slot] = v;
  return v;
}

/* The estimated cycles of the passes PS[0..NP) of tiling T, output tiles TS[0..NT), as the
 * driver runs them: the host port moves the loads and read-outs one job at a time, in the
 * order drive_conv_oriented lists them, each waiting for the pass it depends on (a load for
 * the last pass that used its bank, a read-out for its tile's last pass); a pass starts when
 * the one before has ended, its tiles are in and the output bank it writes has been read out.
 * A pass's cycles are pass_cycles'. Where the tiles are alike this comes to cost_of's sum;
 * where they differ (a filter slice of a few filters between whole ones, say) a long read-out
 * can only hide behind the passes that follow it. -1: out of memory. */
static double schedule_cycles(const cfg_t *c, const member_t *ms, const tiling_t *t,
                              const pass_t *ps, long np, const out_tile_t *ts, long nt,
                              double bpc)
{
  double *end = malloc((size_t)np * sizeof *end);
  double *loaded = calloc((size_t)np, sizeof *loaded);   /* both loads of the pass done */
  double *read = calloc((size_t)nt, sizeof *read);
  job_t *jobs = malloc((size_t)(2 * np + nt + 1) * sizeof *jobs);
  double total = -1;
  if (!end || !loaded || !read || !jobs) goto out;
  double ifb = word_cycles(c->if_word_bits, bpc), wtb = word_cycles(c->wt_word_bits, bpc);
  double outb = word_cycles(read_bits(c, t), bpc);
  shape_memo_t memo = {.n = 0};
  double port = 0;   /* when the host port is free */
  long next = 0;     /* next pass to schedule */
  long nj = dma_jobs(ps, np, jobs);
  for (long k = 0; k < nj; k++) {
    const job_t *j = &jobs[k];
    const pass_t *q = &ps[j->type == JOB_READOUT ? ts[j->idx].last_pass : j->idx];
    long dep = j->type == JOB_LOAD_IF ? q->if_wait : j->type == JOB_LOAD_WT ? q->wt_wait
                                                                              : ts[j->idx].last_pass;
    double words = j->type == JOB_LOAD_IF ? (double)q->if_words * ifb
                 : j->type == JOB_LOAD_WT ? (double)q->wt_words * wtb
                                          : readout_real(c, &ts[j->idx]) * outb;
    for (; next <= dep; next++) {   /* the passes this job waits for */
      const pass_t *p = &ps[next];
      double start = next > 0 ? end[next - 1] : 0;
      start = fmax(start, loaded[next]);
      if (!p->acc && p->out_tile >= c->banks) start = fmax(start, read[p->out_tile - c->banks]);
      end[next] = start + pass_cost(c, ms, t, p, &memo);
    }
    port = fmax(port, dep >= 0 ? end[dep] : 0) + words;
    if (j->type == JOB_READOUT) read[j->idx] = port;
    else loaded[j->idx] = fmax(loaded[j->idx], port);
  }
  total = fmax(port, end[np - 1]);   /* the last job waits for the last pass */
out:
  free(end);
  free(loaded);
  free(read);
  free(jobs);
  return total;
}

/* ---- words --------------------------------------------------------------------------------- */

static void put_bits(uint32_t *w, long pos, int nbits, int64_t v)
{
  for (int b = 0; b < nbits; b++, pos++) {
    if ((uint64_t)v >> b & 1u) w[pos / 32] |= 1u << (pos % 32);
  }
}

static int64_t get_bits_signed(const uint32_t *w, long pos, int nbits)
{
  uint64_t v = 0;
  for (int b = 0; b < nbits; b++, pos++) v |= (uint64_t)((w[pos / 32] >> (pos % 32)) & 1u) << b;
  if (nbits < 64 && (v >> (nbits - 1) & 1u)) v |= ~0ull << nbits;
  return (int64_t)v;
}

static void ifmap_word(const cfg_t *c, const view_t *x, const pass_t *p, long a, uint32_t *w)
{
  long plane = p->plane;
  memset(w, 0, sizeof(uint32_t) * SIM_MAX_WORDS);
  for (long e = 0; e < c->bus_elems; e++) {
    long f = a * c->bus_elems + e;
    if (plane == 0 || f >= p->ct * plane) break;
    long ch = f / plane, rem = f % plane, yy = rem / p->pitch, xx = rem % p->pitch - p->lead;
    /* col2im's channels start on a word: the rest of a channel's last word is zero (a linear
     * context reads it as the grid's padding row below the tile) */
    if (xx < 0 || xx >= p->tile_w || yy >= p->tile_h) continue;
    int64_t v = vat(x, p->n, p->c0 + ch, p->iy_lo + yy, p->ix_lo + xx);
    put_bits(w, e * c->input_bits, c->input_bits, v);
  }
}

static void weight_word(const cfg_t *c, const view_t *wt, const pass_t *p, long a, uint32_t *w)
{
  long L = p->ct * p->rt * p->st;
  long kg = a / L, i = a % L;
  long ch = i / (p->rt * p->st), r = (i / p->st) % p->rt, s = i % p->st;
  memset(w, 0, sizeof(uint32_t) * SIM_MAX_WORDS);
  /* column g*gw + j of column group g holds filter j of the filter group, in every group */
  for (long col = 0; col < p->groups * p->gw; col++) {
    long k = kg * p->gw + col % p->gw;
    if (k >= p->kt) continue;
    int64_t v = vat(wt, p->k0 + k, p->c0 + ch, p->r0 + r, p->s0 + s);
    put_bits(w, col * c->weight_bits, c->weight_bits, v);
  }
}

/* ---- the host schedule --------------------------------------------------------------------- */

static uint32_t pack16(long hi, long lo) { return (uint32_t)((hi & 0xffff) << 16 | (lo & 0xffff)); }

/* The dense tap sequence of one axis of a pass that takes taps T0..T0+TN-1 of the N taps of
 * the axis: the dense positions from its first tap (from 0 for the first pass) to the one
 * before the next pass's first tap (to the end for the last pass), where its first tap sits
 * and the distance between taps. */
typedef struct dense_axis {
  long n, off, gap, nz;
} dense_axis_t;

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

static void program_descriptor(const layer_t *l, const pass_t *p, int zero_fill,
                               uint32_t *d, uint32_t *pat)
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
  d[D_NPIX] = (uint32_t)stored_pix(p->oht, p->owt, p->owv);
  d[D_K_ACT] = (uint32_t)p->kt |
               (p->groups > 1 ? (uint32_t)p->groups << 16 | (uint32_t)p->gw << 24 : 0u);
  d[D_PLANE] = (uint32_t)p->plane;
  d[D_KR_STEP] = (uint32_t)(l->dh * p->pitch);
  d[D_OY_STEP] = (uint32_t)(l->sh * p->pitch);
  d[D_CTX_XS] = (uint32_t)(ctx_cols * l->sw);
  d[D_OW_XS] = (uint32_t)(p->owv * l->sw);
  /* the pass's window starts SUB_Y rows and SUB_X columns into the loaded tile (members of a
   * run share the union of their windows): it sees the tile from there on */
  d[D_BASE] = (uint32_t)(int32_t)window_base(p->pitch, p->pad_t, p->pad_l, p->lead, p->sub_y,
                                               p->sub_x);
  d[D_STRH_DILH] = pack16(l->sh, l->dh);
  d[D_CTXY_STRW] = pack16(ctx_rows * l->sh, l->sw);
  d[D_PADL_PADT] = pack16(p->pad_l, p->pad_t);
  d[D_TILEW_TILEH] = pack16(p->tile_w - p->sub_x, p->tile_h - p->sub_y);
  d[D_PATTOP_KSPAN] = pack16((p->st - 1) * l->dw, (p->st - 1) * l->dw + 1);
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
  memset(pat, 0, 8 * sizeof *pat);
  for (long s = 0; s < p->st; s++) {
    long bit = s * l->dw;
    pat[bit / 32] |= 1u << (bit % 32);
  }
}

/* Why the hardware makes no progress, from the DEBUG register (bits: sagen_core.v). */
static void watchdog_why(uint32_t d, char *buf, size_t len)
{
  int busy = d & 1, f_ready = d >> 1 & 1, f_idle = d >> 2 & 1, w_ready = d >> 3 & 1;
  int psm_done = d >> 4 & 1, g_vld = d >> 6 & 1, g_nz = d >> 7 & 1, g_busy = d >> 8 & 1;
  int ic_vld = d >> 9 & 1, word_vld = d >> 10 & 1;
  unsigned empty = d >> 16 & 255, notdone = d >> 24 & 255;
  if (!(d >> 15 & 1)) snprintf(buf, len, "the DEBUG register reads %08x: not a sagen core", d);
  else if (!busy) snprintf(buf, len, "the core is idle, waiting for the host");
  else if (g_busy) snprintf(buf, len, "stuck block: the tap sequencer, in its prologue");
  else if (g_vld && g_nz && !f_ready)
    snprintf(buf, len, "stuck block: the data feeder (lane %u has no element; %s)", empty,
             word_vld ? "the staged word waits for a lane" :
             ic_vld ? "the index counters wait" : "its index counters have finished the pass");
  else if (g_vld && g_nz && !w_ready)
    snprintf(buf, len, "stuck block: the weight fetcher (no weight word)");
  else if (!g_vld && !f_idle)
    snprintf(buf, len, "stuck block: the data feeder holds elements the tap sequencer did not "
             "ask for (lane %u%s)", notdone == 255 ? 0u : notdone, word_vld ? ", a word staged" : "");
  else if (!g_vld && !psm_done)
    snprintf(buf, len, "stuck block: the partial-sums manager (results not all written)");
  else snprintf(buf, len, "no block is stuck (DEBUG %08x)", d);
}

/* Test hooks, from the environment: SAGEN_WATCHDOG_CYCLES (default 20000000) and
 * SAGEN_FAULT=bad_desc (pass 0's channel count written as 0), SAGEN_FAULT=hang (pass 0's
 * weight words per context one short, so the weight fetcher runs dry and the array waits for
 * ever), SAGEN_FAULT=sequence (pass 0's tap sequence one column longer than the feeder's,
 * which the hardware's cross-check of the two reports as STATUS.sequence), SAGEN_FAULT=groups
 * (pass 0 asks for 255 column groups, more than any array has: STATUS.error) or
 * SAGEN_FAULT=line (pass 0's rows 2 pixels wide: a col2im pass would read a line word again
 * before its write lands, STATUS.error). */
static uint64_t watchdog_cycles(void)
{
  const char *e = getenv("SAGEN_WATCHDOG_CYCLES");
  long long v = e ? atoll(e) : 0;
  return v > 0 ? (uint64_t)v : 20000000ull;
}

static const char *fault(void)
{
  const char *e = getenv("SAGEN_FAULT");
  return e ? e : "";
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report_add(report_t *sum, const report_t *r)
{
  sum->passes += r->passes;
  sum->runs += r->runs;
  for (int m = 0; m < 3; m++) sum->ctx_runs[m] += r->ctx_runs[m];
  sum->aligned_runs += r->aligned_runs;
  for (int g = 0; g <= REPORT_MAX_GROUPS; g++) sum->group_runs[g] += r->group_runs[g];
  sum->shared_runs += r->shared_runs;
  sum->side_runs += r->side_runs;
  sum->useful_macs += r->useful_macs;
  sum->ideal_cycles += r->ideal_cycles;
  sum->cycles += r->cycles;
  sum->est_cycles += r->est_cycles;
  sum->busy += r->busy;
  sum->step_valid += r->step_valid;
  sum->bubble += r->bubble;
  sum->fill += r->fill;
  sum->stall += r->stall;
  sum->drain += r->drain;
  sum->dram_wait += r->dram_wait;
  sum->pe_idle_cycles += r->pe_idle_cycles;
  sum->hw_macs += r->hw_macs;
  sum->sram_if += r->sram_if;
  sum->sram_wt += r->sram_wt;
  sum->sram_out_rd += r->sram_out_rd;
  sum->sram_out_wr += r->sram_out_wr;
  sum->pad_words += r->pad_words;
  sum->sram_line_rd += r->sram_line_rd;
  sum->sram_line_wr += r->sram_line_wr;
  sum->zero_steps += r->zero_steps;
  sum->zero_pe += r->zero_pe;
  sum->zero_skipped += r->zero_skipped;
  sum->host_bytes += r->host_bytes;
  sum->host_bytes_in += r->host_bytes_in;
  sum->host_bytes_out += r->host_bytes_out;
  sum->hw_host_bytes += r->hw_host_bytes;
  sum->sram_bytes += r->sram_bytes;
  sum->dy_host_bytes += r->dy_host_bytes;
  sum->dy_sram_bytes += r->dy_sram_bytes;
  sum->dram_bytes_per_cycle = r->dram_bytes_per_cycle;
  sum->kgroups = r->kgroups;
  sum->utilization = sum->cycles ? (double)sum->ideal_cycles / (double)sum->cycles : 0;
}

/* Host-port bytes per cycle of a run: the option's, or the configuration's. */
static double opts_bpc(const cfg_t *c, const drive_opts_t *o)
{
  return (o && o->dram_bytes_per_cycle > 0) ? o->dram_bytes_per_cycle : c->dram_bytes_per_cycle;
}

/* ---- the read-out of an output tile ------------------------------------------------------- */

/* Words the host reads of tile OT: one per real pixel and filter group, or with column groups
 * every word the array wrote (those without a real pixel are skipped as they come). */
static long readout_words(const cfg_t *c, const out_tile_t *ot)
{
  long nkg = ot->wl ? 1 : cdiv(ot->kt, ot->gw);
  if (ot->groups <= 1) return nkg * ot->oht * ot->owt;
  return nkg * cdiv(ot->oht * ot->owv, ot->lanes) * c->rows;
}

/* Filter group of read-out word J. */
static long readout_kg(const cfg_t *c, const out_tile_t *ot, long j)
{
  if (ot->wl) return 0;
  if (ot->groups <= 1) return j / (ot->oht * ot->owt);
  return j / (cdiv(ot->oht * ot->owv, ot->lanes) * c->rows);
}

/* Output SRAM address of read-out word J: without groups the words of real pixels, in the
 * virtual-width layout the array wrote; with groups, the words in order. */
static long readout_addr(const cfg_t *c, const out_tile_t *ot, long j)
{
  if (ot->groups > 1) return j;
  long kg = readout_kg(c, ot, j), rem = j % (ot->oht * ot->owt);
  return kg * stored_pix(ot->oht, ot->owt, ot->owv) + rem / ot->owt * ot->owv + rem % ot->owt;
}

/* The pixels (row, column of the tile) that read-out word J holds, one per column group (-1:
 * none there) into PY, PX if not NULL; returns how many are real. */
static int word_pixels(const cfg_t *c, const out_tile_t *ot, long j, long *py, long *px)
{
  int n = 0;
  if (ot->groups <= 1) {
    long rem = j % (ot->oht * ot->owt);
    if (py) py[0] = rem / ot->owt;
    if (px) px[0] = rem % ot->owt;
    return 1;
  }
  long per_kg = cdiv(ot->oht * ot->owv, ot->lanes) * c->rows, w = j % per_kg;
  long pix0 = w / c->rows * ot->lanes + w % c->rows;
  for (int g = 0; g < ot->groups; g++) {
    long p = pix0 + (long)g * c->rows;
    int real = p < ot->oht * ot->owv && p % ot->owv < ot->owt;
    if (py) py[g] = real ? p / ot->owv : -1;
    if (px) px[g] = real ? p % ot->owv : -1;
    n += real;
  }
  return n;
}

/* Room for N more entries in READS. */
static int reads_grow(drive_reads_t *rd, long n)
{
  if (rd->n + n <= rd->cap) return 0;
  long cap = rd->cap ? 2 * rd->cap : 1024;
  while (cap < rd->n + n) cap *= 2;
  long *nb = realloc(rd->base, (size_t)cap * sizeof *nb);
  if (nb) rd->base = nb;
  long *nw = realloc(rd->word, (size_t)cap * sizeof *nw);
  if (nw) rd->word = nw;
  int *nc = realloc(rd->ncols, (size_t)cap * sizeof *nc);
  if (nc) rd->ncols = nc;
  int *ns = realloc(rd->slot0, (size_t)cap * sizeof *ns);
  if (ns) rd->slot0 = ns;
  long *nk = realloc(rd->kstride, (size_t)cap * sizeof *nk);
  if (nk) rd->kstride = nk;
  if (!nb || !nw || !nc || !ns || !nk) return 1;
  rd->cap = cap;
  return 0;
}

/* Keep the output word WORD as read word RD->nwords of READS. */
static int reads_capture(drive_reads_t *rd, const cfg_t *c, const uint32_t *word)
{
  long wpw = (c->out_word_bits + 31) / 32;
  if ((rd->nwords + 1) * wpw > rd->words_cap) {
    long cap = rd->words_cap ? 2 * rd->words_cap : 1024 * wpw;
    while (cap < (rd->nwords + 1) * wpw) cap *= 2;
    uint32_t *nw = realloc(rd->words, (size_t)cap * sizeof *nw);
    if (!nw) return 1;
    rd->words = nw;
    rd->words_cap = cap;
  }
  memcpy(rd->words + rd->nwords * wpw, word, (size_t)wpw * sizeof *word);
  return 0;
}

/* A 1x1 convolution without padding whose output pixels (every image) fit one row of the tap
 * sequencer's count runs flattened, as a matrix product (see drive_conv_oriented). */
static int flattens(const layer_t *l, long oh, long ow, const view_t *y)
{
  return l->r == 1 && l->s == 1 && l->ph == 0 && l->pw == 0 && l->n * oh * ow <= 65535 &&
         y->xsplit == 0 && !(y->ft && y->ft->rows) && (oh - 1) * l->sh < l->h &&
         (ow - 1) * l->sw < l->w;
}

/* The layer a flattened 1x1 convolution L (see flattens) runs as: one row of its N * OH * OW
 * output pixels, stride 1. */
static layer_t flat_layer(const layer_t *l, long oh, long ow)
{
  layer_t f = *l;
  f.n = 1;
  f.h = 1;
  f.w = l->n * oh * ow;
  f.sh = f.sw = f.dh = f.dw = 1;
  f.oh = 1;
  f.ow = f.w;
  return f;
}

/* Run the members MS[0..NM) (see member_t; one for a plain convolution) on input X0, tiled as
 * layer LT says (a member's own layer, or the union of the members' windows). */
static int drive_conv_oriented(hw_t *hw, const cfg_t *c, const layer_t *lt, member_t *ms0, int nm,
                               const view_t *x0, const drive_opts_t *o, report_t *sum, char *err,
                               size_t errlen)
{
  int rc = 1;
  pass_t *ps = NULL;
  out_tile_t *ts = NULL;
  job_t *jobs = NULL;
  tensor_t xg = {0};
  view_t xgv;
  member_t one, *ms = ms0;
  layer_t lv = *lt;
  const layer_t *l = &lv;
  const view_t *x = x0;
  long oh = layer_out_h(lt), ow = layer_out_w(lt);
  double bpc = opts_bpc(c, o);
  report_t r1, *rep = &r1;
  memset(rep, 0, sizeof *rep);
  rep->dram_bytes_per_cycle = bpc;
  rep->runs = nm;
  rep->shared_runs = nm > 1 ? nm : 0;
  if (oh < 1 || ow < 1) {
    snprintf(err, errlen, "layer has no output (output size %ldx%ld)", oh, ow);
    return 1;
  }
  lv.oh = oh;
  lv.ow = ow;
  /* A 1x1 convolution without padding is a matrix product over the output pixels: the host
   * streams the pixels it needs (x[:, :, ::sh, ::sw]) as one long row, the images of the batch
   * one after the other, and the array runs stride 1 with every lane busy; its results go back
   * into the rows of the output view. */
  if (nm == 1 && flattens(lt, oh, ow, &ms0[0].y)) {
    const view_t *yv0 = &ms0[0].y;
    one = ms0[0];
    ms = &one;
    one.y.st[0] = 0;
    one.y.st[2] = 0;
    one.y.xsplit = ow;
    one.y.xst_hi = yv0->st[2];
    one.y.xsplit2 = oh;
    one.y.xst_top = yv0->st[0];
    long gshape[4] = {1, lt->c, 1, lt->n * oh * ow};
    if (tensor_alloc(&xg, 4, gshape)) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
    for (long n = 0; n < lt->n; n++)
      for (long ch = 0; ch < lt->c; ch++)
        for (long oy = 0; oy < oh; oy++)
          for (long ox = 0; ox < ow; ox++)
            xg.data[(ch * lt->n + n) * oh * ow + oy * ow + ox] =
                vat(x0, n, ch, oy * lt->sh, ox * lt->sw);
    lv = flat_layer(lt, oh, ow);
    xgv = view_of(&xg);
    xgv.zspace = x0->zspace;
    x = &xgv;
    oh = 1;
    ow = lv.w;
    one.l = lv;
  }

  tiling_t t = {0, 0, 0, 0, 0, 0, 0, 0, 1, c->cols, 0, 0, 0, 0, 0};
  int groups = o ? o->col_groups : 0;
  if (groups > c->col_groups) {
    snprintf(err, errlen, "%d column groups asked for: the configuration '%s' has "
             "array.col_groups = %d", groups, c->name, c->col_groups);
    goto fail;
  }
  if (choose_tiling(c, l, ms, nm, oh, ow, bpc, o ? o->contexts : 0, groups, o ? o->rows : 0,
                    o && o->zero_fill, &t, &rep->est_cycles, err, errlen))
    goto fail;
  rep->kgroups = cdiv(l->k, t.gw);
  for (int m = 0; m < nm; m++) ms0[m].kgroups = rep->kgroups;
  rep->ctx_runs[t.lin ? 2 : t.virt ? 1 : 0] = nm;
  rep->aligned_runs = t.al ? nm : 0;
  rep->group_runs[t.groups] = nm;
  long np = 0, nt = 0;
  if (plan_passes(c, ms, nm, oh, ow, &t, &ps, &np, &ts, &nt)) {
    snprintf(err, errlen, "out of memory planning %ld passes", np);
    goto fail;
  }
  rep->passes = np;

  jobs = calloc((size_t)(2 * np + nt + 1), sizeof *jobs);
  if (!jobs) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  long nj = dma_jobs(ps, np, jobs);

  /* Check that the model is the configuration's. */
  hw_reset(hw, 4);
  uint32_t magic = hw_csr_read(hw, CSR_MAGIC);
  uint32_t params = hw_csr_read(hw, CSR_PARAMS);
  uint32_t params2 = hw_csr_read(hw, CSR_PARAMS2);
  uint32_t want = (uint32_t)((c->rows - 1) & 255) | (uint32_t)((c->cols - 1) & 255) << 8 |
                  (uint32_t)((c->bus_elems - 1) & 255) << 16 | (uint32_t)((c->pattern_bits - 1) & 255) << 24;
  uint32_t want2 = (uint32_t)((c->col_groups - 1) & 255) | (uint32_t)c->line_words << 8;
  if (magic != MAGIC || params != want || params2 != want2) {
    snprintf(err, errlen, "the simulated model does not match the configuration '%s' "
             "(magic %08x, params %08x %08x, expected %08x %08x)", c->name, magic, params,
             params2, want, want2);
    goto fail;
  }
  hw_csr_write(hw, CSR_CTRL, 2); /* clear the counters */
  if (ms[0].c2i) {   /* col2im: the route table, two entries a write */
    long n = (long)RT_KGS * 4 * c->cols;
    hw_csr_write(hw, CSR_ROUTE_ADDR, 0);
    for (long e = 0; e < n; e += 2)
      hw_csr_write(hw, CSR_ROUTE_DATA, ms[0].c2i->route[e] |
                                           (e + 1 < n ? ms[0].c2i->route[e + 1] << 16 : 0u));
  }

  int if_bytes = (c->if_word_bits + 7) / 8, wt_bytes = (c->wt_word_bits + 7) / 8;
  int out_bytes = (c->out_word_bits + 7) / 8;
  /* the host reads each output word's first lanes, those that hold results */
  long rlanes = read_lanes(c, &t);
  int rd_bytes = (read_bits(c, &t) + 7) / 8;
  hw_csr_write(hw, CSR_READ_LANES, rlanes < c->cols ? (uint32_t)rlanes : 0u);
  double credit_cap = fmax(bpc, (double)(if_bytes > wt_bytes ? (if_bytes > out_bytes ? if_bytes : out_bytes)
                                                             : (wt_bytes > out_bytes ? wt_bytes : out_bytes)));
  double credit = 0;
  long jc = 0, jword = 0;              /* current DMA job and its next word */
  long passes_done = 0;                /* from STATUS */
  int pending = 0, busy = 0, error = 0;
  char *loaded = calloc((size_t)np, 2);
  char *read_out = calloc((size_t)nt, 1);
  if (!loaded || !read_out) {
    free(loaded);
    free(read_out);
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  long next_prog = 0;                   /* next pass to program */
  int prog_word = -1;                   /* -1: not started; 0..D_COUNT+npat-1: writing */
  int npat = (c->pattern_bits + 31) / 32;
  uint32_t desc[D_COUNT], pat[8];
  uint64_t start_cycle = hw->cycles, last_progress = hw->cycles, wd_cycles = watchdog_cycles();
  uint64_t out_wr_before = 0;
  long ro_row = -1;                     /* readout in flight: destination of the last hp read */
  const out_tile_t *ro_tile = NULL;
  double t0 = now_s(), t_last = t0;
  int tty = isatty(2) && !(o && o->quiet);
  uint64_t bytes_in = 0, bytes_out = 0, bytes_dy = 0;
  (void)out_wr_before;

  while (jc < nj || next_prog < np || passes_done < np) {
    credit = fmin(credit + bpc, credit_cap);
    /* -- CSR engine: program the next pass once the hardware has latched the previous one -- */
    if (next_prog < np && !pending) {
      pass_t *p = &ps[next_prog];
      if (prog_word < 0) {
        program_descriptor(&ms[p->m].l, p, o && o->zero_fill, desc, pat);
        if (next_prog == 0 && !strcmp(fault(), "bad_desc")) desc[D_N_CH] = 0;
        if (next_prog == 0 && !strcmp(fault(), "hang")) desc[D_LEN] -= 1;
        if (next_prog == 0 && !strcmp(fault(), "sequence")) desc[D_NZ] += 1u << 16;
        if (next_prog == 0 && !strcmp(fault(), "groups")) desc[D_K_ACT] |= 0xffu << 16 | 1u << 24;
        if (next_prog == 0 && !strcmp(fault(), "line"))
          desc[D_OWV_OW] = (desc[D_OWV_OW] & 0xffffu) | 2u << 16;
        prog_word = 0;
      }
      if (prog_word < D_COUNT + npat) {
        if (prog_word < D_COUNT) {
          hw->io.csr_we = 1;
          hw->io.csr_addr = CSR_DESC + (uint32_t)prog_word;
          hw->io.csr_wdata = desc[prog_word];
        } else {
          hw->io.csr_we = 1;
          hw->io.csr_addr = CSR_PAT + (uint32_t)(prog_word - D_COUNT);
          hw->io.csr_wdata = pat[prog_word - D_COUNT];
        }
        prog_word++;
      } else {
        int ok = loaded[2 * next_prog] || !p->load_if;
        ok = ok && (loaded[2 * next_prog + 1] || !p->load_wt);
        if (!p->acc && p->out_tile >= c->banks) ok = ok && read_out[p->out_tile - c->banks];
        if (ok) {
          hw->io.csr_we = 1;
          hw->io.csr_addr = CSR_CTRL;
          hw->io.csr_wdata = 1;
          next_prog++;
          prog_word = -1;
          pending = 1; /* until STATUS says the hardware took it */
        }
      }
    }
    /* -- DMA engine: one word per cycle, as the DRAM bandwidth allows -- */
    int hp_read = 0;
    if (jc < nj) {
      job_t *j = &jobs[jc];
      if (j->type == JOB_READOUT) {
        const out_tile_t *ot = &ts[j->idx];
        long nw = readout_words(c, ot);
        if (passes_done > ot->last_pass && credit >= rd_bytes) {
          /* with column groups, words that hold no real pixel are not read */
          while (ot->groups > 1 && jword < nw && !word_pixels(c, ot, jword, NULL, NULL)) jword++;
          if (jword < nw) {
            hw->io.hp_re = 1;
            hw->io.hp_bank = ot->bank;
            hw->io.hp_addr = (uint32_t)readout_addr(c, ot, jword);
            credit -= rd_bytes;
            bytes_out += (uint64_t)rd_bytes;
            hp_read = 1;
            ro_tile = ot;
            ro_row = jword;
            jword++;
          }
          if (jword == nw) {
            read_out[j->idx] = 1;
            jc++;
            jword = 0;
          }
        }
      } else {
        pass_t *p = &ps[j->idx];
        int is_if = j->type == JOB_LOAD_IF;
        long wait = is_if ? p->if_wait : p->wt_wait;
        long nw = is_if ? p->if_words : p->wt_words;
        int bytes = is_if ? if_bytes : wt_bytes;
        if (nw == 0) {
          loaded[2 * j->idx + !is_if] = 1;
          jc++;
        } else if (passes_done > wait && credit >= bytes) {
          hw->io.hp_we = 1;
          hw->io.hp_mem = !is_if;
          hw->io.hp_bank = is_if ? p->if_bank : p->wt_bank;
          hw->io.hp_addr = (uint32_t)jword;
          if (is_if) ifmap_word(c, x, p, jword, hw->io.hp_wdata);
          else weight_word(c, &ms[p->m].w, p, jword, hw->io.hp_wdata);
          credit -= bytes;
          bytes_in += (uint64_t)bytes;
          if (is_if ? x->zspace : ms[p->m].w.zspace) bytes_dy += (uint64_t)bytes;
          if (++jword == nw) {
            loaded[2 * j->idx + !is_if] = 1;
            jc++;
            jword = 0;
          }
        }
      }
    }
    int status_valid = !hw->io.csr_we && hw->io.csr_addr == CSR_STATUS;
    hw_cycle(hw);
    if (hp_read) {
      hw_expect_hp(hw);
      long py[256], px[256];
      int np_w = word_pixels(c, ro_tile, ro_row, py, px);
      long kg = readout_kg(c, ro_tile, ro_row);
      long k0c = ro_tile->k0 + kg * ro_tile->gw;
      int ncols = ro_tile->wl ? (int)ro_tile->wl
                              : (int)lmin(ro_tile->gw, ro_tile->k0 + ro_tile->kt - k0c);
      const view_t *yv = &ms[ro_tile->m].y;
      /* filters that sit apart (yv->ft): one entry per column, as each has its own place */
      int per_col = yv->ft != NULL;
      if (o && o->reads) {
        drive_reads_t *rd = o->reads;
        if (reads_grow(rd, per_col ? (long)np_w * ncols : np_w) ||
            (rd->capture && reads_capture(rd, c, hw->io.hp_rdata))) {
          snprintf(err, errlen, "out of memory");
          free(loaded);
          free(read_out);
          goto fail;
        }
        rd->nwords++;
      }
      for (int g = 0; g < ro_tile->groups; g++) {
        if (py[g] < 0) continue;
        long yy = ro_tile->oy0 + py[g], xx = ro_tile->ox0 + px[g];
        for (int j0 = 0; j0 < ncols; j0 += per_col ? 1 : ncols) {
          if (!view_has(yv, k0c + j0, yy, xx)) continue;
          if (o && o->reads) {
            drive_reads_t *rd = o->reads;
            rd->base[rd->n] = vidx(yv, ro_tile->n, k0c + j0, yy, xx);
            rd->word[rd->n] = rd->nwords - 1;
            rd->slot0[rd->n] = (int)(g * ro_tile->gw + j0);
            rd->ncols[rd->n] = per_col ? 1 : ncols;
            rd->kstride[rd->n] = yv->st[1];
            rd->n++;
          }
          for (int j = j0; j < (per_col ? j0 + 1 : ncols); j++) {
            long col = g * ro_tile->gw + j;
            int64_t v = get_bits_signed(hw->io.hp_rdata, col * c->acc_bits, c->acc_bits);
            yv->data[vidx(yv, ro_tile->n, k0c + j, yy, xx)] = v;
          }
        }
      }
    }
    if (status_valid) {
      uint32_t st = hw->io.csr_rdata;
      long done = (long)(st >> 8);
      int was_pending = pending;
      pending = (st >> 1) & 1;
      busy = st & 1;
      error = (st >> 2) & 1;
      if (done != passes_done || pending != was_pending) {
        hw_expect_csr(hw);
        last_progress = hw->cycles;
      }
      passes_done = done;
      if (error) {
        snprintf(err, errlen, "the hardware refused the descriptor of pass %ld (STATUS.error)",
                 passes_done - 1);
        free(loaded);
        free(read_out);
        goto fail;
      }
      if ((st >> 3) & 1) {
        snprintf(err, errlen, "the tap sequencer and the data feeder disagree on where a context "
                 "of pass %ld ends (STATUS.sequence): the pass descriptor or the hardware is wrong",
                 passes_done);
        free(loaded);
        free(read_out);
        goto fail;
      }
    }
    if (jword > 0) last_progress = hw->cycles;
    if (hw->cycles - last_progress > wd_cycles) {
      char why[200];
      watchdog_why(hw_csr_read(hw, CSR_DEBUG), why, sizeof why);
      snprintf(err, errlen, "watchdog: no progress for %" PRIu64 " cycles at pass %ld of %ld: %s "
               "(busy=%d pending=%d, host job %ld of %ld)", wd_cycles, passes_done, np, why, busy,
               pending, jc, nj);
      free(loaded);
      free(read_out);
      goto fail;
    }
    if (tty && (hw->cycles & 0xffff) == 0) {
      double tnow = now_s();
      if (tnow - t_last > 0.5) {
        double frac = (double)(passes_done + 1) / (double)(np + 1);
        fprintf(stderr, "\rsagen: pass %ld/%ld, %" PRIu64 " cycles, %.1f s, eta %.0f s   ",
                passes_done, np, hw->cycles - start_cycle, tnow - t0,
                (tnow - t0) * (1 - frac) / (frac > 0 ? frac : 1));
        t_last = tnow;
      }
    }
  }
  if (tty && now_s() - t0 > 0.5) fprintf(stderr, "\r%70s\r", "");
  free(loaded);
  free(read_out);
  uint64_t total = hw->cycles - start_cycle;

  uint64_t cnt[C_COUNT];
  for (int i = 0; i < C_COUNT; i++) {
    uint64_t lo = hw_csr_read(hw, CSR_CNT + 2 * (unsigned)i);
    uint64_t hi = hw_csr_read(hw, CSR_CNT + 2 * (unsigned)i + 1);
    cnt[i] = lo | hi << 32;
  }
  for (int m = 0; m < nm; m++) {
    const layer_t *lm = &ms0[m].l;
    if (!lm->no_ops)
      rep->useful_macs += (uint64_t)lm->n * lm->k * layer_out_h(lm) * layer_out_w(lm) * lm->c *
                          lm->r * lm->s;
  }
  uint64_t pes = (uint64_t)c->rows * c->cols;
  rep->ideal_cycles = (rep->useful_macs + pes - 1) / pes;
  rep->cycles = total;
  rep->busy = cnt[C_BUSY];
  rep->step_valid = cnt[C_STEP];
  rep->bubble = cnt[C_BUBBLE];
  rep->fill = cnt[C_FILL];
  rep->stall = cnt[C_STALL];
  rep->drain = cnt[C_DRAIN];
  rep->dram_wait = total > rep->busy ? total - rep->busy : 0;
  rep->hw_macs = cnt[C_MACS];
  rep->pe_idle_cycles = rep->step_valid - rep->hw_macs / pes;
  rep->sram_if = cnt[C_IF_RD];
  rep->sram_wt = cnt[C_WT_RD];
  rep->sram_out_rd = cnt[C_OUT_RD];
  rep->sram_out_wr = cnt[C_OUT_WR];
  rep->pad_words = cnt[C_PAD_WORDS];
  rep->sram_line_rd = cnt[C_LINE_RD];
  rep->sram_line_wr = cnt[C_LINE_WR];
  rep->zero_steps = cnt[C_ZERO_STEP];
  rep->zero_pe = cnt[C_ZERO_PE];
  rep->zero_skipped = cnt[C_ZSKIP];
  rep->host_bytes_in = bytes_in;
  rep->host_bytes_out = bytes_out;
  rep->host_bytes = bytes_in + bytes_out;
  rep->hw_host_bytes = cnt[C_HP_BYTES];
  rep->sram_bytes = cnt[C_IF_RD] * (uint64_t)if_bytes + cnt[C_WT_RD] * (uint64_t)wt_bytes +
                    (cnt[C_OUT_RD] + cnt[C_LINE_RD]) * (uint64_t)out_bytes;
  /* dy sits in the ifmap memory (the input gradient) or in the weight memory (the weight
   * gradient's kernel): the members of a run share their input, and their weights are all of
   * one tensor */
  rep->dy_host_bytes = bytes_dy;
  rep->dy_sram_bytes = (x->zspace ? cnt[C_IF_RD] * (uint64_t)if_bytes : 0) +
                       (ms[0].w.zspace ? cnt[C_WT_RD] * (uint64_t)wt_bytes : 0);
  if (rep->hw_macs != rep->useful_macs) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " MACs, the layer has %" PRIu64,
             rep->hw_macs, rep->useful_macs);
    goto fail;
  }
  if (rep->hw_host_bytes != rep->host_bytes) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " host-port bytes, the driver moved %" PRIu64,
             rep->hw_host_bytes, rep->host_bytes);
    goto fail;
  }
  report_add(sum, rep);
  rc = 0;
fail:
  tensor_free(&xg);
  free(ps);
  free(ts);
  free(jobs);
  return rc;
}

/* Start an op: reset REP, check that L has an output, allocate the result OUT of SHAPE. */
static int op_begin(report_t *rep, const char *op, const char *bp_mode, const layer_t *l,
                    tensor_t *out, const long *shape, char *err, size_t errlen)
{
  long oh = layer_out_h(l), ow = layer_out_w(l);
  memset(rep, 0, sizeof *rep);
  rep->op = op;
  rep->bp_mode = bp_mode;
  rep->form = !bp_mode ? "direct" : strcmp(op, "conv2d_input_grad") ? "dilated" : "phases";
  if (oh < 1 || ow < 1) {
    snprintf(err, errlen, "layer has no output (output size %ldx%ld)", oh, ow);
    return 1;
  }
  if (tensor_alloc(out, 4, shape)) {
    snprintf(err, errlen, "out of memory for the result (%ld elements)",
             shape[0] * shape[1] * shape[2] * shape[3]);
    return 1;
  }
  return 0;
}

/* The layer with its two spatial axes exchanged (its views exchange the strides of H and W). */
static layer_t layer_transposed(const layer_t *l)
{
  layer_t t = *l;
  t.h = l->w; t.w = l->h;
  t.r = l->s; t.s = l->r;
  t.sh = l->sw; t.sw = l->sh;
  t.ph = l->pw; t.pw = l->ph;
  t.dh = l->dw; t.dw = l->dh;
  t.oh = l->ow; t.ow = l->oh;
  t.lead_h = l->lead_w; t.lead_w = l->lead_h;
  t.gap_h = l->gap_w; t.gap_w = l->gap_h;
  t.dense_h = l->dense_w; t.dense_w = l->dense_h;
  return t;
}

static view_t view_transposed(const view_t *v)
{
  view_t t = *v;
  t.st[2] = v->st[3];
  t.st[3] = v->st[2];
  t.ft_swap = !v->ft_swap;
  return t;
}

/* The layer whose windows are the union of the members' (all stride 1, with the same input):
 * rows oy - ph .. oy - ph + (r - 1) * dh of every member, likewise columns, as one dense
 * kernel, and the largest output. The run is tiled for it, so a tile that holds its window
 * holds each member's. */
static layer_t union_layer(const member_t *ms, int nm)
{
  layer_t u = ms[0].l;
  long top = 0, bottom = 0, left = 0, right = 0;
  for (int m = 0; m < nm; m++) {
    const layer_t *l = &ms[m].l;
    long t = -l->ph, b = (l->r - 1) * l->dh - l->ph;
    long le = -l->pw, ri = (l->s - 1) * l->dw - l->pw;
    top = m ? lmin(top, t) : t;
    bottom = m ? lmax(bottom, b) : b;
    left = m ? lmin(left, le) : le;
    right = m ? lmax(right, ri) : ri;
  }
  u.oh = u.ow = 0;
  for (int m = 0; m < nm; m++) {
    u.oh = lmax(u.oh, layer_out_h(&ms[m].l));
    u.ow = lmax(u.ow, layer_out_w(&ms[m].l));
  }
  u.r = bottom - top + 1;
  u.s = right - left + 1;
  u.ph = -top;
  u.pw = -left;
  u.dh = u.dw = 1;
  u.lead_h = u.gap_h = u.dense_h = u.lead_w = u.gap_w = u.dense_w = 0;
  u.no_ops = 0;
  return u;
}

/* Whether members A and B can share a run: the same input, stride 1, taps to run. Their
 * output sizes may differ (the phases of an odd-sized dx): the run's tiles cover the largest,
 * and a member's tiles stop at its own edge. */
static int can_share(const layer_t *a, const layer_t *b)
{
  return a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w && a->k == b->k &&
         a->sh == 1 && a->sw == 1 && b->sh == 1 && b->sw == 1 && !a->no_ops && !b->no_ops;
}

/* Member M's layer as the run sees it: H and W exchanged if SWAP, the output size explicit. */
static layer_t member_layer(const member_t *m, int swap)
{
  layer_t l = swap ? layer_transposed(&m->l) : m->l;
  long oh = layer_out_h(&m->l), ow = layer_out_w(&m->l);
  l.oh = swap ? ow : oh;
  l.ow = swap ? oh : ow;
  return l;
}

/* Members MS[0..NM) as a run in orientation SWAP sees them, into MO; their union (or the one
 * member's layer) into U. */
static void orient_members(const member_t *ms, int nm, int swap, member_t *mo, layer_t *u)
{
  for (int m = 0; m < nm; m++) {
    mo[m].l = member_layer(&ms[m], swap);
    mo[m].w = swap ? view_transposed(&ms[m].w) : ms[m].w;
    mo[m].y = swap ? view_transposed(&ms[m].y) : ms[m].y;
    mo[m].c2i = ms[m].c2i;   /* never swapped (see orientation) */
  }
  *u = nm > 1 ? union_layer(mo, nm) : mo[0].l;
}

/* Estimated cycles of members MS[0..NM) run together in orientation SWAP; -1 if they cannot. */
static double run_cost(const cfg_t *c, const member_t *ms, int nm, int swap, const drive_opts_t *o)
{
  double cost = -1;
  tiling_t t;
  char e[8];
  layer_t u;
  member_t *mo = calloc((size_t)nm + 1, sizeof *mo);
  if (!mo) return -1;
  orient_members(ms, nm, swap, mo, &u);
  /* estimated as drive_conv_oriented runs it: a 1x1 layer flattened */
  if (nm == 1 && flattens(&u, u.oh, u.ow, &mo[0].y)) mo[0].l = u = flat_layer(&u, u.oh, u.ow);
  if (choose_tiling(c, &u, mo, nm, u.oh, u.ow, opts_bpc(c, o), o ? o->contexts : 0,
                    o ? o->col_groups : 0, o ? o->rows : 0, o && o->zero_fill, &t, &cost, e,
                    sizeof e))
    cost = -1;
  free(mo);
  return cost;
}

/* The orientation members MS[0..NM) run in (1: H and W exchanged) into SWAP, and its estimated
 * cycles (-1 if they cannot run together). Exchanged only for a clear gain, since the estimate
 * is a model, not a measurement, or if the options force it. */
static double orientation(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
                          const drive_opts_t *o, int *swap)
{
  int orient = o ? o->orientation : 0;
  long oh = layer_out_h(&ms[0].l), ow = layer_out_w(&ms[0].l);
  int can_swap = x->xsplit == 0 && oh > 0 && ow > 0 &&
                 !(nm == 1 && flattens(&ms[0].l, oh, ow, &ms[0].y));
  for (int m = 0; m < nm; m++)
    can_swap = can_swap && ms[m].w.xsplit == 0 && ms[m].y.xsplit == 0 && !ms[m].c2i;
  *swap = 0;
  double cost = orient == 2 && can_swap ? -1 : run_cost(c, ms, nm, 0, o);
  if (orient != 1 && can_swap) {
    double c1 = run_cost(c, ms, nm, 1, o);
    *swap = orient == 2 ? nm == 1 || c1 >= 0 : c1 >= 0 && (cost < 0 || c1 < 0.95 * cost);
    if (*swap) cost = c1;
  }
  return cost;
}

/* Images side by side. A convolution of stride 1 across whose batch has two or more images can
 * run as one image N times as wide, the images' columns interleaved: column x * N + n is image
 * n's column x, in the input and in the output. Output column ox * N + n reads input columns
 * (ox + j * dw - pw) * N + n, so this is a stride-1 convolution of the wide image whose kernel
 * columns are N times as far apart and whose padding is N times as wide, and still virtual: the
 * columns left and right of the wide image are every image's padding. The lanes then fill with
 * the pixels of all the images: a 7 x 7 output (49 pixels) leaves 15 of 64 lane slots idle per
 * image, 4 images side by side 12 of 208. The host addresses column x * N + n as the pair (x, n)
 * (the views' xsplit), no copy. Not for zero_fill, whose passes step through the dense positions
 * between the kernel's columns, nor for views already split or with per-filter tables. */
static int side_ok(const member_t *m, const view_t *x, const drive_opts_t *o)
{
  const layer_t *l = &m->l;
  long oh = layer_out_h(l), ow = layer_out_w(l);
  return l->n >= 2 && l->sw == 1 && !(o && o->zero_fill) && !l->no_ops && oh > 0 && ow > 0 &&
         !m->c2i &&
         x->xsplit == 0 && m->w.xsplit == 0 && m->y.xsplit == 0 && !m->w.ft && !m->y.ft &&
         !flattens(l, oh, ow, &m->y) && l->n * (l->w + 2 * l->pw) <= 65535 &&
         (l->s - 1) * l->dw * l->n < 65535;
}

/* How member M's images can sit side by side: 0 not, 1 their columns interleaved, 2 their rows
 * (the same with H and W exchanged, for a layer of stride 1 down but not across). */
static int side_axis(const member_t *m, const view_t *x, const drive_opts_t *o)
{
  if (side_ok(m, x, o)) return 1;
  if (m->l.sh != 1 || m->l.n < 2) return 0;
  member_t t;
  layer_t u;
  view_t tx = view_transposed(x);
  orient_members(m, 1, 1, &t, &u);
  return side_ok(&t, &tx, o) ? 2 : 0;
}

/* Member M with input X as its images side by side along AXIS (see side_axis): into SM, SX. */
static void side_member(const member_t *m0, const view_t *x0, int axis, member_t *sm, view_t *sx)
{
  member_t mt = *m0;
  layer_t u;
  view_t xt = axis == 2 ? view_transposed(x0) : *x0;
  if (axis == 2) orient_members(m0, 1, 1, &mt, &u);
  const member_t *m = &mt;
  const view_t *x = &xt;
  const layer_t *l = &m->l;
  long n = l->n;
  *sm = *m;
  sm->l.oh = layer_out_h(l);
  sm->l.ow = layer_out_w(l) * n;
  sm->l.n = 1;
  sm->l.w = l->w * n;
  sm->l.dw = l->dw * n;
  sm->l.pw = l->pw * n;
  *sx = (view_t){x->data, x->off, {0, x->st[1], x->st[2], x->st[0]}, n, x->st[3], 0, 0, NULL, 0,
                 x->zspace};
  sm->y = (view_t){m->y.data, m->y.off, {0, m->y.st[1], m->y.st[2], m->y.st[0]}, n, m->y.st[3],
                   0, 0, NULL, 0, 0};
}

/* A side-by-side run is taken where its estimate is below this fraction of the images apart'
 * (the model's figures, not measurements; the options can force either). */
#define SIDE_GAIN 0.98

/* The estimated cycles of one convolution M as drive_members runs it, -1 if it cannot run;
 * *SIDE: the axis its images run side by side along (see side_axis; 0: apart), *SWAP: its
 * orientation apart. */
static double single_cost(const cfg_t *c, const member_t *m, const view_t *x,
                          const drive_opts_t *o, int *side, int *swap)
{
  int images = o ? o->images : 0;
  int axis = images != 1 ? side_axis(m, x, o) : 0;
  double cs = -1;
  *side = 0;
  if (axis) {
    member_t sm;
    view_t sx;
    int sw;
    side_member(m, x, axis, &sm, &sx);
    cs = orientation(c, &sm, 1, &sx, o, &sw);
    if (cs >= 0 && images == 2) {
      *side = axis;
      *swap = 0;
      return cs;
    }
  }
  double cost = orientation(c, m, 1, x, o, swap);
  if (cs >= 0 && (cost < 0 || cs < SIDE_GAIN * cost)) {
    *side = axis;
    *swap = 0;
    cost = cs;
  }
  return cost;
}

/* The estimated cycles of members MS[0..NM) as drive_members runs them, -1 if they cannot run;
 * *APART (if given): 1 if they run one at a time, each in its own orientation; *SWAP (if
 * given): the orientation they run in together; *SIDE (if given): the axis one member's images
 * run side by side along (0: apart). Together only if the model says it pays (or the options
 * force it). */
static double members_cost(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
                           const drive_opts_t *o, int *apart_out, int *swap_out, int *side_out)
{
  int swap, swap1, side1;
  if (apart_out) *apart_out = 0;
  if (side_out) *side_out = 0;
  if (nm == 1) {
    double cost = single_cost(c, ms, x, o, &side1, &swap);
    if (swap_out) *swap_out = swap;
    if (side_out) *side_out = side1;
    return cost;
  }
  double cost = orientation(c, ms, nm, x, o, &swap), apart = 0;
  if (swap_out) *swap_out = swap;
  for (int m = 0; m < nm && apart >= 0; m++) {
    double a = single_cost(c, &ms[m], x, o, &side1, &swap1);
    apart = a < 0 ? -1 : apart + a;
  }
  if (cost < 0 || (apart >= 0 && apart < cost && !(o && o->phases == 1))) {
    if (apart_out) *apart_out = 1;
    return apart;
  }
  return cost;
}

/* Members MS[0..NM) (NM = 1: one convolution; more: they share their input, see can_share) in
 * the orientation that runs faster. The feeder reads a kernel row's elements of a context as
 * one segment of bus words, so a kernel taller than wide (an input-gradient phase with 2 x 1
 * taps, a 3 x 1 layer) reads R segments for R x 1 steps per channel and waits on the bus;
 * exchanging H and W (strides of the views, no copy) turns it into 1 x R. The tiling cost model
 * decides which orientation is cheaper, and whether the members run together (one orientation
 * for all, the input loaded once) or one at a time (each in its own). */
static int drive_members(hw_t *hw, const cfg_t *c, member_t *ms, int nm, const view_t *x,
                         const drive_opts_t *o, report_t *sum, char *err, size_t errlen)
{
  int swap, apart, side;
  members_cost(c, ms, nm, x, o, &apart, &swap, &side);
  if (apart) {
    for (int m = 0; m < nm; m++)
      if (drive_members(hw, c, &ms[m], 1, x, o, sum, err, errlen)) return 1;
    return 0;
  }
  if (side) {
    member_t sm;
    view_t sx;
    side_member(ms, x, side, &sm, &sx);
    int rc = drive_conv_oriented(hw, c, &sm.l, &sm, 1, &sx, o, sum, err, errlen);
    if (!rc) sum->side_runs++;
    ms[0].kgroups = sm.kgroups;
    return rc;
  }
  member_t *mo = calloc((size_t)nm + 1, sizeof *mo);
  if (!mo) {
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  layer_t u;
  orient_members(ms, nm, swap, mo, &u);
  view_t xo = swap ? view_transposed(x) : *x;
  int rc = drive_conv_oriented(hw, c, &u, mo, nm, &xo, o, sum, err, errlen);
  for (int m = 0; m < nm; m++) ms[m].kgroups = mo[m].kgroups;
  free(mo);
  return rc;
}

int drive_conv(hw_t *hw, const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
               const view_t *y, const drive_opts_t *o, report_t *sum, char *err, size_t errlen)
{
  member_t m = {*l, *w, *y, 0, NULL};
  int rc = drive_members(hw, c, &m, 1, x, o, sum, err, errlen);
  return rc;
}

/* The estimated cycles of convolution L of X by W into Y in the orientation drive_conv would
 * run it in; -1 if no tiling fits. */
static double conv_cost(const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
                        const view_t *y, const drive_opts_t *o)
{
  member_t m = {*l, *w, *y, 0, NULL};
  int swap, side;
  return single_cost(c, &m, x, o, &side, &swap);
}

int drive_conv2d(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                 const tensor_t *w, tensor_t *y, const drive_opts_t *o, report_t *rep,
                 char *err, size_t errlen)
{
  long yshape[4] = {l->n, l->k, layer_out_h(l), layer_out_w(l)};
  if (op_begin(rep, "conv2d", NULL, l, y, yshape, err, errlen)) return 1;
  view_t xv = view_of(x), wv = view_of(w), yv = view_of(y);
  if (drive_conv(hw, c, l, &xv, &wv, &yv, o, rep, err, errlen)) {
    tensor_free(y);
    return 1;
  }
  return 0;
}

/* Kernel taps of one axis that reach output phase PH of the input gradient: r with
 * r*d = (ph + p) mod s, i.e. an arithmetic progression r0, r0+step, ... of N taps. */
static long phase_taps(long ph, long p, long s, long d, long ktaps, long *r0, long *step)
{
  long n = 0;
  *r0 = -1;
  *step = 1;
  for (long r = 0; r < ktaps; r++) {
    if (((r * d - ph - p) % s + s) % s == 0) {
      if (*r0 < 0) *r0 = r;
      else if (n == 1) *step = r - *r0;
      n++;
    }
  }
  return n;
}

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

/* The useful MACs of a backward op of L: the products of the definition, every (output, tap)
 * pair whose input position is inside the input, no operand from a zero-space. */
static void backward_ideal(report_t *rep, const cfg_t *c, const layer_t *l)
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

/* The host-port traffic of an explicit matrix product on this configuration: the lane operand A
 * (M pixels, A_BYTES in all) times the column operand B (N filters, B_BYTES), in output tiles of
 * MT pixels x NT filters that one output bank holds (a word per pixel and group of cols filters),
 * the reduction streamed through each tile: A goes in once per column of tiles, B once per row
 * of tiles. The tile is the one that moves the fewest bytes; *A_TIMES, *B_TIMES say how often
 * each went in. */
static uint64_t gemm_host_bytes(const cfg_t *c, uint64_t m, uint64_t n, uint64_t a_bytes,
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

/* What an explicit im2col with zero-space reorganization moves for the backward op of L (the
 * input gradient if INPUT_GRAD, else the weight gradient) on this configuration, from the shapes,
 * into REP's explicit_* fields. The zero-spaced operand is formed in memory and the op is one
 * matrix product: for the input gradient the lowered matrix of the zero-inserted, zero-padded dy
 * (a row of K x R x S operands under the taps for each of the N x H x W pixels of dx) times the
 * weights (C filters); for the weight gradient x lowered at every dense position of dy
 * zero-inserted (C x R x S pixels, a row of N x OHz x OWz operands each, OHz = (OH - 1) * stride
 * + 1) times dy zero-inserted as the kernel (K filters). Over the host port the operands go in as
 * gemm_host_bytes tiles them and the results come back once. The buffers are read as this
 * output-stationary array reads the product: the lane operand once per group of columns, the
 * other once per group of rows. Elements at the configuration's widths, packed. */
static void explicit_traffic(report_t *rep, const cfg_t *c, const layer_t *l, int input_grad)
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
  rep->explicit_host_bytes = gemm_host_bytes(c, m, n, a, b, &at, &bt) +
                             packed_bytes(m * n, c->acc_bits);
  uint64_t a_rd = a * ((n + (uint64_t)c->cols - 1) / (uint64_t)c->cols);
  uint64_t b_rd = b * ((m + (uint64_t)c->rows - 1) / (uint64_t)c->rows);
  rep->explicit_sram_bytes = a_rd + b_rd;
  rep->explicit_dy_host_bytes = input_grad ? a * at : b * bt;
  rep->explicit_dy_sram_bytes = input_grad ? a_rd : b_rd;
}

/* The hardware's zero-space counters against the shapes: WANT zero-space operands (one per
 * pixel and filter group) over the op and, in zero_fill, WANT_PE PE-cycles fed a created zero
 * (every zero-space operand of a pixel meets every filter once). */
static int backward_zero_check(const report_t *rep, uint64_t want, uint64_t want_pe, char *err,
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

/* An output phase of the input gradient: (py, px) and its taps, the kernel rows ry_last -
 * j*rys (j < its member's r), likewise columns. */
typedef struct phase {
  long py, px, ry_last, rys, rx_last, rxs;
} phase_t;

/* The phases joined into one convolution: its filters are (phase, channel of dx), its kernel
 * the union of the phases' tap offsets, each filter's taps its phase's (the others absent,
 * read as zero in words that carry the other phases' weights), its output every phase's grid. */
typedef struct joined {
  member_t m;
  filter_tab_t wt, yt;
  long *tab;   /* one allocation behind the tables */
  uint64_t absent_macs;   /* MACs on taps a filter's phase lacks or past its phase's grid */
  uint64_t zero_ops;      /* zero-space operands of the transposed convolution's lowered
                             matrix (one row per pixel of dx), none fetched */
} joined_t;

/* One axis (W if COLS, else H) of the joined kernel: the union of the tap offsets -pad +
 * j*dil (j < taps) of the NM phases MS, as taps -*JPAD + i * *JDIL, i < *N. */
static void joined_axis(const member_t *ms, int nm, int cols, long *n, long *jpad, long *jdil)
{
  long lo = 0, hi = 0, g = 0;
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    long a = -(cols ? pl->pw : pl->ph);
    long b = a + ((cols ? pl->s : pl->r) - 1) * (cols ? pl->dw : pl->dh);
    lo = m ? lmin(lo, a) : a;
    hi = m ? lmax(hi, b) : b;
  }
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    g = lgcd(g, -(cols ? pl->pw : pl->ph) - lo);
    if ((cols ? pl->s : pl->r) > 1) g = lgcd(g, cols ? pl->dw : pl->dh);
  }
  if (g == 0) g = 1;
  *n = (hi - lo) / g + 1;
  *jpad = -lo;
  *jdil = g;
}

/* Build the joined form of the NM phases MS (PH: theirs) of the input gradient of L into J;
 * 1 if out of memory. */
static int joined_build(const layer_t *l, const member_t *ms, const phase_t *ph, int nm,
                        const tensor_t *w, tensor_t *dx, joined_t *j)
{
  memset(j, 0, sizeof *j);
  long nr, ns, jph, jpw, jdh, jdw;
  joined_axis(ms, nm, 0, &nr, &jph, &jdh);
  joined_axis(ms, nm, 1, &ns, &jpw, &jdw);
  long nf = (long)nm * l->c, th = 0, tw = 0;
  for (int m = 0; m < nm; m++) {
    th = lmax(th, ms[m].l.oh);
    tw = lmax(tw, ms[m].l.ow);
  }
  j->tab = malloc(sizeof(long) * (size_t)(nf * (4 + nr + ns)));
  if (!j->tab) return 1;
  long *woff = j->tab, *yoff = woff + nf, *rows = yoff + nf, *cols = rows + nf;
  long *roff = cols + nf, *soff = roff + nf * nr;
  view_t wv0 = view_of(w), dxv0 = view_of(dx);
  int extent = 0;   /* a phase's grid smaller than the joined one */
  for (int m = 0; m < nm; m++) {
    const layer_t *pl = &ms[m].l;
    uint64_t pix = (uint64_t)pl->oh * pl->ow;
    extent |= pl->oh != th || pl->ow != tw;
    j->absent_macs += (uint64_t)l->n * l->k * l->c *
                      ((uint64_t)th * tw * nr * ns - pix * pl->r * pl->s);
    j->zero_ops += (uint64_t)l->n * pix * l->k * (uint64_t)(l->r * l->s - pl->r * pl->s);
    for (long ch = 0; ch < l->c; ch++) {
      long f = m * l->c + ch;
      woff[f] = ch * wv0.st[1];
      yoff[f] = ch * dxv0.st[1] + ph[m].py * dxv0.st[2] + ph[m].px * dxv0.st[3];
      rows[f] = pl->oh;
      cols[f] = pl->ow;
      for (long i = 0; i < nr; i++) roff[f * nr + i] = FT_NONE;
      for (long i = 0; i < ns; i++) soff[f * ns + i] = FT_NONE;
      for (long t = 0; t < pl->r; t++)
        roff[f * nr + (-pl->ph + t * pl->dh + jph) / jdh] = (ph[m].ry_last - t * ph[m].rys) * wv0.st[2];
      for (long t = 0; t < pl->s; t++)
        soff[f * ns + (-pl->pw + t * pl->dw + jpw) / jdw] = (ph[m].rx_last - t * ph[m].rxs) * wv0.st[3];
    }
  }
  j->wt = (filter_tab_t){0, woff, nr, ns, roff, soff, NULL, NULL, NULL, NULL};
  j->yt = (filter_tab_t){1, yoff, 0, 0, NULL, NULL, extent ? rows : NULL, extent ? cols : NULL,
                         NULL, NULL};
  layer_t jl = {l->n, l->k, ms[0].l.h, ms[0].l.w, nf, nr, ns, 1, 1, jph, jpw, jdh, jdw, th, tw,
                0, 0, 0, 0, 0, 0, 0};
  view_t wj = {w->data, wv0.off, {0, wv0.st[0], 0, 0}, 0, 0, 0, 0, &j->wt, 0, 0};
  view_t yj = {dx->data, dxv0.off, {dxv0.st[0], 0, l->sh * dxv0.st[2], l->sw * dxv0.st[3]},
               0, 0, 0, 0, &j->yt, 0, 0};
  j->m = (member_t){jl, wj, yj, 0, NULL};
  return 0;
}

/* A partition of the NPH phases into blocks (BLK[i]: the block of phase i, blocks numbered in
 * the order of their first phase): a block of one phase runs as that phase's convolution, a
 * larger one as its phases joined (joined_t). MEM: one member per block. */
typedef struct blocks {
  long nb;
  member_t *mem;
  joined_t *jn;   /* one per block (no table for a block of one phase) */
} blocks_t;

static void blocks_free(blocks_t *b)
{
  for (long k = 0; b->jn && k < b->nb; k++) free(b->jn[k].tab);
  free(b->jn);
  free(b->mem);
  memset(b, 0, sizeof *b);
}

/* Block K of partition BLK of the NPH phases MS (PH: theirs) as a member into *MEM: the phase
 * itself, or its phases joined into *JN (which then owns a table); 1 if out of memory. */
static int block_member(const layer_t *l, const member_t *ms, const phase_t *ph, long nph,
                        const int *blk, int k, const tensor_t *w, tensor_t *dx, joined_t *jn,
                        member_t *mem)
{
  memset(jn, 0, sizeof *jn);
  member_t *sub = calloc((size_t)nph, sizeof *sub);
  phase_t *sph = calloc((size_t)nph, sizeof *sph);
  int n = 0, rc = !sub || !sph;
  for (long i = 0; !rc && i < nph; i++)
    if (blk[i] == k) {
      sub[n] = ms[i];
      sph[n++] = ph[i];
    }
  if (!rc && n == 1) *mem = sub[0];
  else if (!rc && !(rc = joined_build(l, sub, sph, n, w, dx, jn))) *mem = jn->m;
  free(sph);
  free(sub);
  return rc;
}

/* The members of partition BLK of the NPH phases MS (PH: theirs) into B; 1 if out of memory. */
static int blocks_build(const layer_t *l, const member_t *ms, const phase_t *ph, long nph,
                        const int *blk, const tensor_t *w, tensor_t *dx, blocks_t *b)
{
  memset(b, 0, sizeof *b);
  for (long i = 0; i < nph; i++) b->nb = lmax(b->nb, blk[i] + 1);
  b->mem = calloc((size_t)b->nb, sizeof *b->mem);
  b->jn = calloc((size_t)b->nb, sizeof *b->jn);
  int rc = !b->mem || !b->jn;
  for (long k = 0; !rc && k < b->nb; k++)
    rc = block_member(l, ms, ph, nph, blk, (int)k, w, dx, &b->jn[k], &b->mem[k]);
  if (rc) blocks_free(b);
  return rc;
}

/* BLK with blocks A < B joined (numbered again in the order of their first phase) into OUT. */
static void blocks_join(const int *blk, long nph, int a, int b, int *out)
{
  int map[16], next = 0;   /* the search's 16 phases at most */
  for (int k = 0; k < 16; k++) map[k] = -1;
  for (long i = 0; i < nph; i++) {
    int k = blk[i] == b ? a : blk[i];
    if (map[k] < 0) map[k] = next++;
    out[i] = map[k];
  }
}

/* The NPH phases MS run apart: members of as few runs as share dy's tiles (one run each if
 * SEPARATE), each run as drive_members chooses. HW NULL: only the estimated cycles into *COST
 * (-1 if some run cannot). */
static int phase_runs(hw_t *hw, const cfg_t *c, member_t *ms, long nph, const view_t *dyv,
                      int separate, const drive_opts_t *o, report_t *rep, double *cost,
                      char *err, size_t errlen)
{
  if (!hw) *cost = 0;
  for (long i = 0, j; i < nph; i = j) {
    for (j = i + 1; j < nph && !separate && can_share(&ms[i].l, &ms[j].l); j++) continue;
    if (!hw) {
      double ci = members_cost(c, ms + i, (int)(j - i), dyv, o, NULL, NULL, NULL);
      *cost = ci < 0 || *cost < 0 ? -1 : *cost + ci;
    } else if (drive_members(hw, c, ms + i, (int)(j - i), dyv, o, rep, err, errlen)) {
      return 1;
    }
  }
  return 0;
}

/* Partition BLK (NB blocks) of the phases PH as text: "(0,0)+(0,1) (1,0)+(1,1)". */
static void blocks_name(const phase_t *ph, long nph, const int *blk, long nb, char *buf,
                        size_t len)
{
  size_t at = 0;
  buf[0] = 0;
  for (long k = 0; k < nb; k++)
    for (long i = 0, first = 1; i < nph; i++) {
      if (blk[i] != k) continue;
      char one[48];
      int n = snprintf(one, sizeof one, "%s(%ld,%ld)", first ? (k ? " " : "") : "+", ph[i].py,
                       ph[i].px);
      first = 0;
      if (at + (size_t)n + 4 >= len) {
        snprintf(buf + at, len - at, "...");
        return;
      }
      memcpy(buf + at, one, (size_t)n + 1);
      at += (size_t)n;
    }
}

/* Estimated cycles of the phases in partition BLK (see blocks_t) into *COST (-1 if some run
 * cannot); 1 if out of memory. */
static int blocks_cost(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                       long nph, const int *blk, const tensor_t *w, tensor_t *dx,
                       const view_t *dyv, const drive_opts_t *o, double *cost)
{
  blocks_t bs;
  char e[8];
  if (blocks_build(l, ms, ph, nph, blk, w, dx, &bs)) return 1;
  phase_runs(NULL, c, bs.mem, bs.nb, dyv, 0, o, NULL, cost, e, sizeof e);
  blocks_free(&bs);
  return 0;
}

/* Estimated cycles of the block of phases MASK run alone (-1 if it cannot), cached in BC. */
static double block_cost(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                         long nph, unsigned mask, const tensor_t *w, tensor_t *dx,
                         const view_t *dyv, const drive_opts_t *o, double *bc, int *oom)
{
  if (bc[mask] > -2) return bc[mask];
  int in[16];   /* block 0: the phases of MASK */
  for (long i = 0; i < nph; i++) in[i] = mask >> i & 1u ? 0 : 1;
  joined_t jn;
  member_t m;
  if (block_member(l, ms, ph, nph, in, 0, w, dx, &jn, &m)) {
    *oom = 1;
    return -1;
  }
  bc[mask] = members_cost(c, &m, 1, dyv, o, NULL, NULL, NULL);
  free(jn.tab);
  return bc[mask];
}

/* The sum of the cached estimates of the blocks of partition BLK, each run alone (-1 if one
 * cannot run). */
static double blocks_sum(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                         long nph, const int *blk, const tensor_t *w, tensor_t *dx,
                         const view_t *dyv, const drive_opts_t *o, double *bc, int *oom)
{
  unsigned masks[16] = {0};
  int nb = 0;
  for (long i = 0; i < nph; i++) {
    masks[blk[i]] |= 1u << i;
    if (blk[i] + 1 > nb) nb = blk[i] + 1;
  }
  double sum = 0;
  for (int k = 0; k < nb && sum >= 0 && !*oom; k++) {
    double b = block_cost(c, l, ms, ph, nph, masks[k], w, dx, dyv, o, bc, oom);
    sum = b < 0 ? -1 : sum + b;
  }
  return sum;
}

/* A partition into blocks, some of them joined, replaces all joined or all apart only for a
 * clear gain in the estimate: the model is least sure of blocks (on a 5x5 stride-2 loss with 3
 * channels it estimated them 8% below all joined, and they ran 17% slower). Over 24 random
 * strided losses with 1-8 channels of dx (default, small8x8, rect4x8), blocks chosen at any
 * gain ran 0.932x the cycles of the earlier forms (geometric mean; 1.069x at worst), at 10%
 * 0.939x with none slower, at 20% 0.979x; at 10% on 24 more, 0.932x with none slower. Since
 * partitions of up to 6 phases are all searched and column groups serve joined phases of 16
 * filters or more, 5% and 10% ran alike over 70 random losses with 1-24 channels of
 * dx (within 0.3%), and 5% keeps the blocks of a 7x7 stride-3 loss with 2 channels, which all
 * joined on 2 column groups came within 9% of and ran 13% slower than. */
#define BLOCKS_GAIN 0.95

/* Up to this many phases (a stride of 2 x 3), choose_blocks tries every partition as it would
 * run (203 of 6 phases, 15 of the 4 of a stride of 2 x 2). */
#define BLOCKS_EXACT 6

/* The partition of the NPH phases into two or more blocks, one of them joined, that runs
 * fastest by the cost model, each as it would run (blocks sharing dy's tiles where that pays:
 * a partition's blocks share the first loads and the last read-out, which estimates of blocks
 * alone would count once per block), into BLK; its estimate into *COST (-1 if none runs).
 * Partitions are walked as restricted growth strings (phase i in a block at most one past the
 * highest of the phases before it). 1 if out of memory. */
static int blocks_exact(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                        long nph, const tensor_t *w, tensor_t *dx, const view_t *dyv,
                        const drive_opts_t *o, int *blk, double *cost)
{
  int rg[16] = {0}, hi[16] = {0};   /* hi[i]: the highest block of phases 0..i */
  *cost = -1;
  for (;;) {
    int nb = hi[nph - 1] + 1, joined = nb < nph;
    if (nb >= 2 && joined) {
      double ct;
      if (blocks_cost(c, l, ms, ph, nph, rg, w, dx, dyv, o, &ct)) return 1;
      if (ct >= 0 && (*cost < 0 || ct < *cost)) {
        *cost = ct;
        memcpy(blk, rg, sizeof *blk * (size_t)nph);
      }
    }
    long i = nph - 1;   /* the next string: the last phase that can move to a higher block */
    while (i > 0 && rg[i] > hi[i - 1]) i--;
    if (i == 0) return 0;
    rg[i]++;
    hi[i] = rg[i] > hi[i - 1] ? rg[i] : hi[i - 1];
    for (long j = i + 1; j < nph; j++) {
      rg[j] = 0;
      hi[j] = hi[i];
    }
  }
}

/* The partition of the NPH phases MS (PH: theirs) into blocks that the cost model finds
 * fastest, into BLK (the phases apart on entry). Up to BLOCKS_EXACT phases, every partition
 * (blocks_exact); beyond, from the phases apart, join the two blocks whose joining lowers the
 * estimate most (each block estimated alone), as long as one does. Then compare the partition
 * found, all phases joined and all apart, each as it would run (blocks sharing dy's tiles where
 * that pays). A block joins phases whose taps mostly coincide (a 7x7 stride-3 kernel's phases
 * of 3 x 3, 3 x 2 and 2 x 2 taps) and gives few channels of dx more columns. JOIN: all joined.
 * PARTIAL: the partition found, if it has two or more blocks and one joined (tests force it).
 * Up to 16 phases are searched (a stride up to 4 x 4); more run joined or apart, whichever the
 * model finds faster. 1 if out of memory. */
static int choose_blocks(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                         long nph, const tensor_t *w, tensor_t *dx, const view_t *dyv,
                         const drive_opts_t *o, int join, int partial, int *blk,
                         double *cost_out)
{
  *cost_out = -1;
  int *all = calloc((size_t)nph * 4, sizeof *all);
  double *bc = nph <= 16 ? malloc(sizeof *bc << nph) : NULL;
  int oom = !all || (nph <= 16 && !bc);
  if (oom) {
    free(all);
    free(bc);
    return 1;
  }
  for (long i = 0; bc && i < 1L << nph; i++) bc[i] = -2;
  int *cur = all + nph, *tmp = cur + nph, *step = tmp + nph;   /* all: every phase in block 0 */
  memcpy(cur, blk, sizeof *cur * (size_t)nph);
  int exact = !join && nph >= 3 && nph <= BLOCKS_EXACT;
  double cpart = -1;
  if (exact && blocks_exact(c, l, ms, ph, nph, w, dx, dyv, o, cur, &cpart)) oom = 1;
  int found = exact && cpart >= 0;
  double ccur = bc && !exact ? blocks_sum(c, l, ms, ph, nph, cur, w, dx, dyv, o, bc, &oom) : -1;
  for (long nb = nph; bc && !oom && !join && !exact && nb > 2; nb--) {
    double cstep = -1;
    for (int a = 0; !oom && a < nb; a++)
      for (int b = a + 1; !oom && b < nb; b++) {
        blocks_join(cur, nph, a, b, tmp);
        double ct = blocks_sum(c, l, ms, ph, nph, tmp, w, dx, dyv, o, bc, &oom);
        if (ct >= 0 && (cstep < 0 || ct < cstep)) {
          cstep = ct;
          memcpy(step, tmp, sizeof *step * (size_t)nph);
        }
      }
    if (oom || cstep < 0 || (ccur >= 0 && cstep >= ccur && (found || !partial))) break;
    ccur = cstep;
    memcpy(cur, step, sizeof *cur * (size_t)nph);
    found = 1;
  }
  /* as they would run: the partition found, all joined, all apart */
  double call = -1, capart = -1;
  char e[8];
  if (!oom && found && !exact && blocks_cost(c, l, ms, ph, nph, cur, w, dx, dyv, o, &cpart))
    oom = 1;
  if (!oom && !join && blocks_cost(c, l, ms, ph, nph, all, w, dx, dyv, o, &call)) oom = 1;
  if (!oom && !join && !(partial && found))
    phase_runs(NULL, c, (member_t *)ms, nph, dyv, 0, o, NULL, &capart, e, sizeof e);
  if (!oom) {
    double other = call < 0 ? capart : capart < 0 ? call : fmin(call, capart);
    if (found && cpart >= 0 && (partial || other < 0 || cpart < BLOCKS_GAIN * other)) {
      memcpy(blk, cur, sizeof *blk * (size_t)nph);
      *cost_out = cpart;
    } else if (join || (call >= 0 && (capart < 0 || call < capart))) {
      memset(blk, 0, sizeof *blk * (size_t)nph);
      *cost_out = call;
    } else {
      *cost_out = capart;
    }
  }
  free(bc);
  free(all);
  return oom;
}

/* ---- col2im ---------------------------------------------------------------------------------- */

/* Floor and ceiling of A / B (B > 0), for negative A too. */
static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static long ceil_div(long a, long b) { return -floor_div(-a, b); }

/* The input gradient as col2im: one matrix product of dy's pixels (K channels, the reduction)
 * and the (tap, channel of dx) filters, whose products the partial-sums manager adds into dx as
 * they leave the array (sagen_psum_manager). dx is cut into super-pixels of S_h x S_w positions:
 * super-pixel I of an axis holds rows h with floor((h + P) / S) = I, at phase (h + P) mod S. Tap
 * r of dy row i lands on row i*S + r*D - P: super-pixel i + floor(r*D / S), phase r*D mod S. With
 * (R-1)*D < 2*S every tap lands on super-pixel i or i+1, so the products of dy pixel (i, j) go to
 * the words of (i, j), (i, j+1), (i+1, j) and (i+1, j+1): the four classes of the route table. The
 * run's pixels are a grid of super-pixels (a word each: a lane per phase and channel), dy's pixel
 * (i, j) at grid position (i - gy0, j - gx0); grid positions past dy read as padding. Every
 * product of the definition is computed once and no zero of a zero-space is stored, moved or
 * multiplied: each dy operand serves all its (tap, channel) products at once, so few channels of
 * dx (a first layer's 3, an image generator's last layer) fill the columns (R*S*C of them) where
 * the phases apart fill C and joined phases waste the taps a phase lacks. A word holds S_h*S_w
 * phases of cols / (S_h*S_w) channels; more channels of dx run as several runs. */
typedef struct c2i_run {
  c2i_t info;
  member_t m;
  view_t x;               /* dy from the grid's first row and column */
  filter_tab_t wt, yt;
  long *tab;              /* one allocation behind the tables */
  uint32_t *route;
} c2i_run_t;

static void c2i_free(c2i_run_t *r)
{
  free(r->tab);
  free(r->route);
  memset(r, 0, sizeof *r);
}

/* Bits of a column index in the route table (sagen_core.v's LB). */
static int route_lb(int cols)
{
  int b = 1;
  while (cols > 1 && (1 << b) < cols) b++;
  return b;
}

/* The grid of one axis: super-pixels gy0 .. gy0 + *n - 1 of dx (size SIZE, padding P, stride S),
 * from the one before dx's first (its products reach it) unless that is before dy's first. */
static long c2i_axis(long size, long p, long s, long *n)
{
  long lo = floor_div(p, s), hi = floor_div(size - 1 + p, s);
  long g0 = lmax(0, lo - 1);
  *n = hi - g0 + 1;
  return g0;
}

/* Build into RUN the col2im run of the input gradient of L for the CGN channels of dx from CG0;
 * 0, or -1 if the configuration or the layer does not allow it, or 1 if out of memory. */
static int c2i_build(const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
                     tensor_t *dx, long cg0, long cgn, c2i_run_t *run)
{
  memset(run, 0, sizeof *run);
  long sh = l->sh, sw = l->sw, nph = sh * sw;
  long R = l->r, S = l->s, nf = cgn * R * S, lanes = nph * cgn;
  long nkg = cdiv(nf, c->cols);
  long oh = layer_out_h(l), ow = layer_out_w(l), gh, gw;
  long gy0 = c2i_axis(l->h, l->ph, sh, &gh), gx0 = c2i_axis(l->w, l->pw, sw, &gw);
  if (c->line_words < 3 || (R - 1) * l->dh >= 2 * sh || (S - 1) * l->dw >= 2 * sw ||
      lanes > c->cols || nkg > RT_KGS || gy0 >= oh || gx0 >= ow || gw < 3 || gh < 1)
    return -1;
  long nrt = (long)RT_KGS * 4 * c->cols;
  run->tab = malloc(sizeof(long) * (size_t)(nf + 5 * lanes));
  run->route = calloc((size_t)nrt, sizeof *run->route);
  if (!run->tab || !run->route) {
    c2i_free(run);
    return 1;
  }
  long *woff = run->tab, *yoff = woff + nf, *rows = yoff + lanes, *cols = rows + lanes;
  long *row0 = cols + lanes, *col0 = row0 + lanes;
  view_t dyv0 = view_of(dy), wv0 = view_of(w), dxv0 = view_of(dx);
  int lb = route_lb(c->cols);
  long f_line = nf;   /* the first filter whose products go a row down */
  for (long r = 0; r < R; r++)
    for (long s = 0; s < S; s++)
      for (long ch = 0; ch < cgn; ch++) {
        long f = (r * S + s) * cgn + ch;
        long di = r * l->dh / sh, dj = s * l->dw / sw;
        long lane = ((r * l->dh % sh) * sw + s * l->dw % sw) * cgn + ch;
        long kg = f / c->cols, col = f % c->cols;
        woff[f] = (cg0 + ch) * wv0.st[1] + r * wv0.st[2] + s * wv0.st[3];
        run->route[(kg * 4 + di * 2 + dj) * c->cols + lane] = 1u << lb | (uint32_t)col;
        if (di) f_line = lmin(f_line, f);
      }
  for (long a = 0; a < sh; a++)
    for (long b = 0; b < sw; b++)
      for (long ch = 0; ch < cgn; ch++) {
        long lane = (a * sw + b) * cgn + ch;
        yoff[lane] = (cg0 + ch) * dxv0.st[1] + (gy0 * sh + a - l->ph) * dxv0.st[2] +
                     (gx0 * sw + b - l->pw) * dxv0.st[3];
        /* grid rows whose dx row at this phase is inside dx */
        row0[lane] = lmax(0, ceil_div(l->ph - a, sh) - gy0);
        rows[lane] = lmax(row0[lane], lmin(gh, floor_div(l->h - 1 + l->ph - a, sh) - gy0 + 1));
        col0[lane] = lmax(0, ceil_div(l->pw - b, sw) - gx0);
        cols[lane] = lmax(col0[lane], lmin(gw, floor_div(l->w - 1 + l->pw - b, sw) - gx0 + 1));
      }
  run->info = (c2i_t){lanes, (int)(f_line / c->cols), run->route};
  run->wt = (filter_tab_t){0, woff, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL};
  run->yt = (filter_tab_t){1, yoff, 0, 0, NULL, NULL, rows, cols, row0, col0};
  layer_t ml = {l->n, l->k, oh - gy0, ow - gx0, nf, 1, 1, 1, 1, 0, 0, 1, 1, gh, gw,
                0, 0, 0, 0, 0, 0, 0};
  view_t wv = {w->data, wv0.off, {0, wv0.st[0], 0, 0}, 0, 0, 0, 0, &run->wt, 0, 0};
  view_t yv = {dx->data, dxv0.off, {dxv0.st[0], 0, sh * dxv0.st[2], sw * dxv0.st[3]},
               0, 0, 0, 0, &run->yt, 0, 0};
  run->x = dyv0;
  run->x.off += gy0 * dyv0.st[2] + gx0 * dyv0.st[3];
  run->x.zspace = 1;
  run->m = (member_t){ml, wv, yv, 0, &run->info};
  return 0;
}

/* Channels of dx per col2im run of L on C (a word holds every phase of them). */
static long c2i_channels(const cfg_t *c, const layer_t *l)
{
  return lmin(l->c, c->cols / (l->sh * l->sw));
}

/* The estimated cycles of the input gradient of L as col2im runs (one per group of channels
 * of dx; the full groups alike, so one is estimated for all); -1 if it cannot run so. */
static double c2i_cost(const cfg_t *c, const layer_t *l, const tensor_t *dy, const tensor_t *w,
                       tensor_t *dx, const drive_opts_t *o, int *oom)
{
  long cg = c2i_channels(c, l);
  if (cg < 1) return -1;
  long full = l->c / cg, rest = l->c % cg;
  double cost = 0;
  for (int part = 0; part < 2 && cost >= 0; part++) {
    long n = part ? (rest ? 1 : 0) : full, cgn = part ? rest : cg;
    if (n == 0) continue;
    c2i_run_t run;
    int rc = c2i_build(c, l, dy, w, dx, 0, cgn, &run);
    if (rc) {
      *oom |= rc > 0;
      return -1;
    }
    double one = members_cost(c, &run.m, 1, &run.x, o, NULL, NULL, NULL);
    cost = one < 0 ? -1 : cost + n * one;
    c2i_free(&run);
  }
  return cost;
}

/* The col2im runs of the input gradient of L, one per group of channels of dx. */
static int c2i_runs(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy,
                    const tensor_t *w, tensor_t *dx, const drive_opts_t *o, report_t *rep,
                    char *err, size_t errlen)
{
  long cg = c2i_channels(c, l);
  for (long c0 = 0; c0 < l->c; c0 += cg) {
    c2i_run_t run;
    int rc = c2i_build(c, l, dy, w, dx, c0, lmin(cg, l->c - c0), &run);
    if (rc) {
      snprintf(err, errlen, rc > 0 ? "out of memory" : "col2im cannot run this layer");
      return 1;
    }
    rc = drive_members(hw, c, &run.m, 1, &run.x, o, rep, err, errlen);
    c2i_free(&run);
    if (rc) return 1;
  }
  return 0;
}

/* col2im replaces the phases' best form only below this fraction of its estimate. */
#define C2I_GAIN 0.97

int drive_conv2d_input_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy,
                            const tensor_t *w, tensor_t *dx, const drive_opts_t *o,
                            report_t *rep, char *err, size_t errlen)
{
  long oh = layer_out_h(l), ow = layer_out_w(l);
  long xshape[4] = {l->n, l->c, l->h, l->w};
  int fill = o && o->zero_fill;
  if (op_begin(rep, "conv2d_input_grad", fill ? "zero_fill" : "zero_skip", l, dx, xshape, err,
               errlen))
    return 1;
  uint64_t unrun = 0;   /* zero-space operands of the phases zero_skip does not run */
  /* The operands of the lowered matrix that fall in the zero-insertions: for each pixel of
   * phase (py, px), the K x (R*S - taps of the phase) operands of its column, once per filter
   * group of the phase's run (filters = C); each meets the C filters once as a created zero in
   * zero_fill. */
  uint64_t want = 0, want_pe = 0;
  view_t dyv = view_of(dy), wv0 = view_of(w), dxv0 = view_of(dx);
  dyv.zspace = 1;
  /* the phases with taps, run as members of as few runs as share dy's tiles (see below) */
  long nph = 0;
  member_t *ms = calloc((size_t)(l->sh * l->sw), sizeof *ms);
  phase_t *phs = calloc((size_t)(l->sh * l->sw), sizeof *phs);
  if (!ms || !phs) {
    free(phs);
    free(ms);
    tensor_free(dx);
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  /* Output phase (py, px): rows iy = py + sh*t. Row iy takes dy row oy = (iy + ph - r*dh)/sh
   * for the taps r with r*dh = (py + ph) mod sh: r = ry0 + i*ry_step, i < nry, and
   * oy = t - m(i), m(i) = (ry0 + i*ry_step)*dh - py - ph) / sh, rising by ry_step*dh/sh. With
   * the taps reversed (j = nry-1-i) this is a stride-1 convolution of dy with dilation
   * ry_step*dh/sh and top padding m(nry-1). */
  for (long py = 0; py < l->sh && py < l->h; py++)
    for (long px = 0; px < l->sw && px < l->w; px++) {
      long ry0, rys, rx0, rxs;
      long nry = phase_taps(py, l->ph, l->sh, l->dh, l->r, &ry0, &rys);
      long nrx = phase_taps(px, l->pw, l->sw, l->dw, l->s, &rx0, &rxs);
      long th = (l->h - py + l->sh - 1) / l->sh, tw = (l->w - px + l->sw - 1) / l->sw;
      if (th < 1 || tw < 1) continue;
      if (nry == 0 || nrx == 0) {
        /* no tap reaches the phase: its dx is zero. zero_skip does not run it; zero_fill, like
         * BP-im2col, feeds every dense tap to the array as a created zero. */
        uint64_t ops = (uint64_t)l->n * th * tw * cdiv(l->c, c->cols) * l->k * l->r * l->s;
        if (!fill) {
          unrun += ops;
          want += ops;
          continue;
        }
        layer_t el = {l->n, l->k, oh, ow, l->c, 1, 1, 1, 1, 0, 0, 1, 1, th, tw,
                      0, 1, l->r, 0, 1, l->s, 1};
        view_t dxe = {dx->data, dxv0.off + py * dxv0.st[2] + px * dxv0.st[3],
                      {dxv0.st[0], dxv0.st[1], l->sh * dxv0.st[2], l->sw * dxv0.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
        view_t we = {w->data, wv0.off, {wv0.st[1], wv0.st[0], wv0.st[2], wv0.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
        if (drive_conv(hw, c, &el, &dyv, &we, &dxe, o, rep, err, errlen)) {
          free(phs);
          free(ms);
          tensor_free(dx);
          return 1;
        }
        want += (uint64_t)l->n * th * tw * rep->kgroups * l->k * l->r * l->s;
        want_pe += (uint64_t)l->n * th * tw * l->c * l->k * l->r * l->s;
        continue;
      }
      layer_t pl = {l->n, l->k, oh, ow, l->c, nry, nrx, 1, 1, 0, 0, 1, 1, th, tw,
                    0, 0, 0, 0, 0, 0, 0};
      pl.dh = nry > 1 ? rys * l->dh / l->sh : 1;
      pl.dw = nrx > 1 ? rxs * l->dw / l->sw : 1;
      long ry_last = ry0 + (nry - 1) * rys, rx_last = rx0 + (nrx - 1) * rxs;
      pl.ph = (ry_last * l->dh - py - l->ph) / l->sh;
      pl.pw = (rx_last * l->dw - px - l->pw) / l->sw;
      /* the reversed taps j = 0..nry-1 are kernel rows ry_last - j*rys: dense positions
       * (R-1-ry_last) + j*rys of the R kernel rows walked from the last (likewise columns) */
      pl.lead_h = l->r - 1 - ry_last;
      pl.gap_h = rys;
      pl.dense_h = l->r;
      pl.lead_w = l->s - 1 - rx_last;
      pl.gap_w = rxs;
      pl.dense_w = l->s;
      /* weight view (C as filters, K as channels, taps reversed): w[k][c][ry_last - j*rys][...] */
      view_t wv = {w->data, wv0.off + ry_last * wv0.st[2] + rx_last * wv0.st[3],
                   {wv0.st[1], wv0.st[0], -rys * wv0.st[2], -rxs * wv0.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
      view_t dxv = {dx->data, dxv0.off + py * dxv0.st[2] + px * dxv0.st[3],
                    {dxv0.st[0], dxv0.st[1], l->sh * dxv0.st[2], l->sw * dxv0.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
      phs[nph] = (phase_t){py, px, ry_last, rys, rx_last, rxs};
      ms[nph++] = (member_t){pl, wv, dxv, 0, NULL};
    }
  /* Every phase reads all of dy: the phases run together, each tile of dy loaded once for all
   * of them, where the cost model finds it pays (see drive_members; the options can ask for
   * one run per phase). Or phases run joined as one convolution (see joined_t): each dy operand
   * then serves every joined phase's filters, at the price of the taps a phase lacks (a
   * stride-2 3x3 kernel: 9 of the 16 joined tap-phase pairs have a weight). With few channels
   * of dx, the phases apart leave most columns idle and joined phases fill them; the cost model
   * chooses which phases to join, all, some (see choose_blocks) or none (zero_skip only:
   * zero_fill walks the phases as BP-im2col does). Or, where the configuration has the
   * overlap-add line and every tap reaches at most the next super-pixel, the whole op runs as
   * col2im (see c2i_run_t): no tap is absent and R*S*C filters fill the columns. */
  int separate = o && o->phases == 2, shared = o && o->phases == 1;
  int want_join = o && o->phases == 3, want_blocks = o && o->phases == 4;
  int want_c2i = o && o->phases == 5;
  int *blk = calloc((size_t)nph + 1, sizeof *blk);
  blocks_t bs = {0};
  long nb = nph;
  int rc = !blk, use_c2i = 0;
  double phase_cost = -1;
  for (long i = 0; !rc && i < nph; i++) blk[i] = (int)i;
  if (!rc && !fill && nph > 1 && !separate && !shared && !want_c2i)
    rc = choose_blocks(c, l, ms, phs, nph, w, dx, &dyv, o, want_join, want_blocks, blk,
                       &phase_cost);
  if (!rc && !fill && nph > 0 && !separate && !shared && !want_join && !want_blocks) {
    int oom = 0;
    double cc = c2i_cost(c, l, dy, w, dx, o, &oom);
    rc = oom;
    if (!rc && cc >= 0 && !want_c2i && phase_cost < 0) {
      char e[8];
      phase_runs(NULL, c, ms, nph, &dyv, 0, o, NULL, &phase_cost, e, sizeof e);
    }
    use_c2i = !rc && cc >= 0 && (want_c2i || phase_cost < 0 || cc < C2I_GAIN * phase_cost);
    /* forced where it cannot run: the cost model's choice among the phases' forms */
    if (!rc && want_c2i && !use_c2i && nph > 1)
      rc = choose_blocks(c, l, ms, phs, nph, w, dx, &dyv, o, 0, 0, blk, &phase_cost);
  }
  if (!rc && use_c2i) {
    rep->form = "col2im";
    rc = c2i_runs(hw, c, l, dy, w, dx, o, rep, err, errlen);
    /* every phase's zero-space operands: the col2im product has none to walk */
    for (long i = 0; !rc && i < nph; i++) {
      const layer_t *pl = &ms[i].l;
      uint64_t ops = (uint64_t)l->n * pl->oh * pl->ow * l->k *
                     (uint64_t)(l->r * l->s - pl->r * pl->s);
      want += ops;
      unrun += ops;
    }
    nph = 0;   /* nothing of the phases' forms runs */
  }
  if (!rc) {
    nb = 0;
    for (long i = 0; i < nph; i++) nb = lmax(nb, blk[i] + 1);
    if (nb < nph) rc = blocks_build(l, ms, phs, nph, blk, w, dx, &bs);
  }
  if (rc && !use_c2i) snprintf(err, errlen, "out of memory");
  /* the blocks' members (some phases joined), or the phases */
  member_t *runm = nb < nph ? bs.mem : ms;
  long nrun = nb < nph ? nb : nph;
  if (!rc && nb < nph) {
    rep->form = nb == 1 ? "joined_phases" : "phase_blocks";
    blocks_name(phs, nph, blk, nb, rep->phase_blocks, sizeof rep->phase_blocks);
  }
  if (!rc) rc = phase_runs(hw, c, runm, nrun, &dyv, separate, o, rep, NULL, err, errlen);
  for (long k = 0; !rc && k < nrun; k++) {
    if (nb < nph && bs.jn[k].tab) {
      rep->absent_macs += bs.jn[k].absent_macs;
      want += bs.jn[k].zero_ops;
      unrun += bs.jn[k].zero_ops;
      continue;
    }
    const layer_t *pl = &runm[k].l;
    uint64_t zt = (uint64_t)(l->r * l->s - pl->r * pl->s);
    uint64_t pix = (uint64_t)l->n * pl->oh * pl->ow;
    want += pix * runm[k].kgroups * l->k * zt;
    want_pe += pix * l->c * l->k * zt;
  }
  blocks_free(&bs);
  free(blk);
  if (rc) {
    free(phs);
    free(ms);
    tensor_free(dx);
    return 1;
  }
  free(phs);
  free(ms);
  backward_ideal(rep, c, l);
  explicit_traffic(rep, c, l, 1);
  /* the zero-inserted, zero-padded dy of the transposed convolution, minus the real dy */
  long vh = l->h + l->dh * (l->r - 1), vw = l->w + l->dw * (l->s - 1);
  rep->zero_space = (uint64_t)l->n * l->k * ((uint64_t)vh * vw - (uint64_t)oh * ow);
  rep->zero_skipped += unrun;
  if (backward_zero_check(rep, want, want_pe, err, errlen)) {
    tensor_free(dx);
    return 1;
  }
  return 0;
}

/* The output positions [*lo, *hi) (of OUT) at which tap T of an axis (dilation DIL) reads the
 * input (extent IN, padding PAD, stride STRIDE) inside; empty (*lo == *hi) if only padding. */
static void tap_inside(long t, long in, long out, long stride, long pad, long dil, long *lo,
                       long *hi)
{
  long a = 0, b = out;
  while (a < out && a * stride - pad + t * dil < 0) a++;
  while (b > a && (b - 1) * stride - pad + t * dil >= in) b--;
  *lo = a;
  *hi = b;
}

/* The layer of the matrix product of L's weight gradient for the kernel taps [r0, r0+rn) x
 * [s0, s0+sn) into ML, and the view of DW it writes into MO; returns its positions m (0: the
 * taps only meet padding, no product). See weight_grad_product. */
static long product_layer(const layer_t *l, const tensor_t *dw, long r0, long rn, long s0,
                          long sn, layer_t *ml, view_t *mo, long *oy0, long *ox0, long *ny,
                          long *nx)
{
  view_t dwv = view_of(dw);
  long oh = layer_out_h(l), ow = layer_out_w(l), r1 = r0 + rn - 1, s1 = s0 + sn - 1;
  /* [oy0, oy1): every tap's x row inside (the first tap's start, the last tap's end) */
  long oy1, ox1, unused;
  tap_inside(r0, l->h, oh, l->sh, l->ph, l->dh, oy0, &unused);
  tap_inside(r1, l->h, oh, l->sh, l->ph, l->dh, &unused, &oy1);
  tap_inside(s0, l->w, ow, l->sw, l->pw, l->dw, ox0, &unused);
  tap_inside(s1, l->w, ow, l->sw, l->pw, l->dw, &unused, &ox1);
  *ny = lmax(oy1 - *oy0, 0);
  *nx = lmax(ox1 - *ox0, 0);
  long m = l->n * *ny * *nx, np = l->c * rn * sn;
  *ml = (layer_t){1, m, 1, np, l->k, 1, 1, 1, 1, 0, 0, 1, 1, 1, np, 0, 0, 0, 0, 0, 0, 0};
  /* pixel q = (c * rn + r - r0) * sn + s - s0 of the block is dw[k][c][r][s]: q split into
   * (c, r, s) */
  *mo = (view_t){dw->data, r0 * dwv.st[2] + s0 * dwv.st[3], {0, dwv.st[0], 0, dwv.st[3]},
                 sn, dwv.st[2], rn, dwv.st[1], NULL, 0, 0};
  return m;
}

/* One matrix product of the weight gradient, for the kernel taps [r0, r0+rn) x [s0, s0+sn):
 * dw[k][c][r][s] = sum over the positions m = (n, oy, ox) at which every tap of the block reads
 * x inside the input of dy[n][k][oy][ox] * x[n][c][oy*sh - ph + r*dh][ox*sw - pw + s*dw]. It runs
 * as a 1x1 convolution of one image whose pixels are the outputs (c, r, s) of the block (one
 * row, c-major like dw) and whose channels are the positions, with dy as its K filters: the
 * lanes fill with C x RN x SN pixels where the dilated-kernel form has only R x S per image. The
 * host streams x at the stride once per tap and dy undilated, once for the block (the gathers a
 * strided DMA does); no zero-insertion is formed. The taps of the block must read x inside the
 * input at the same positions (tap_classes), so that dropping the others drops only padding.
 * With HW NULL, only its estimated cycles into *COST (-1: it cannot run). Returns 0, or 1 with
 * ERR. */
static int weight_grad_product(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                               const tensor_t *dy, tensor_t *dw, long r0, long rn, long s0,
                               long sn, const drive_opts_t *o, report_t *rep, double *cost,
                               char *err, size_t errlen)
{
  layer_t ml;
  view_t mo;
  long oy0, ox0, ny, nx;
  long m = product_layer(l, dw, r0, rn, s0, sn, &ml, &mo, &oy0, &ox0, &ny, &nx);
  long np = ml.w;
  if (!hw) {
    /* x gathered as [1][m][1][np], dy as [k][m][1][1], both contiguous */
    view_t mx = {NULL, 0, {m * np, np, np, 1}, 0, 0, 0, 0, NULL, 0, 0}, mk = {NULL, 0, {m, 1, 1, 1}, 0, 0, 0, 0, NULL, 0, 0};
    *cost = m == 0 ? 0 : conv_cost(c, &ml, &mx, &mk, &mo, o);
    return 0;
  }
  if (m == 0) return 0;   /* the taps only meet padding: dw stays zero */
  view_t xv = view_of(x), dyv = view_of(dy);
  long xs[4] = {1, m, 1, np}, ks[4] = {l->k, m, 1, 1};
  tensor_t xg = {0}, kg = {0};
  if (tensor_alloc(&xg, 4, xs) || tensor_alloc(&kg, 4, ks)) {
    tensor_free(&xg);
    tensor_free(&kg);
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  for (long n = 0; n < l->n; n++)
    for (long oy = oy0; oy < oy0 + ny; oy++)
      for (long ox = ox0; ox < ox0 + nx; ox++) {
        long q = (n * ny + oy - oy0) * nx + ox - ox0;
        for (long ch = 0; ch < l->c; ch++)
          for (long r = r0; r < r0 + rn; r++)
            for (long s = s0; s < s0 + sn; s++)
              xg.data[q * np + (ch * rn + r - r0) * sn + s - s0] =
                  vat(&xv, n, ch, oy * l->sh - l->ph + r * l->dh, ox * l->sw - l->pw + s * l->dw);
        for (long k = 0; k < l->k; k++) kg.data[k * m + q] = vat(&dyv, n, k, oy, ox);
      }
  view_t mx = view_of(&xg), mk = view_of(&kg);
  mk.zspace = 1;   /* dy, gathered as the kernel */
  int bad = drive_conv(hw, c, &ml, &mx, &mk, &mo, o, rep, err, errlen);
  tensor_free(&xg);
  tensor_free(&kg);
  return bad;
}

/* The taps of one axis (kernel extent TAPS, dilation DIL) in classes of consecutive taps that read
 * the input (extent IN, padding PAD, stride STRIDE) inside at the same OUT output positions:
 * class i is taps [start[i], start[i+1]). A tap's first and last such positions never rise
 * with the tap, so equal ranges are consecutive. Without padding reached, one class. Returns
 * the number of classes. */
static int tap_classes(long taps, long in, long out, long stride, long pad, long dil, long *start)
{
  int n = 0;
  long plo = -1, phi = -1;
  for (long t = 0; t < taps; t++) {
    long lo, hi;
    tap_inside(t, in, out, stride, pad, dil, &lo, &hi);
    if (t == 0 || lo != plo || hi != phi) start[n++] = t;
    plo = lo;
    phi = hi;
  }
  start[n] = taps;
  return n;
}

/* The products of L's weight gradient, one per block of rows [rc[i], rc[i+1]) x columns
 * [sc[j], sc[j+1]), run on HW or, with HW NULL, their summed estimated cycles into *COST (-1:
 * one cannot run). Returns 0, or 1 with ERR. */
static int weight_grad_products(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                                const tensor_t *dy, tensor_t *dw, const long *rc, int nrc,
                                const long *sc, int nsc, const drive_opts_t *o, report_t *rep,
                                double *cost, char *err, size_t errlen)
{
  if (cost) *cost = 0;
  for (int i = 0; i < nrc; i++)
    for (int j = 0; j < nsc; j++) {
      double one = 0;
      if (weight_grad_product(hw, c, l, x, dy, dw, rc[i], rc[i + 1] - rc[i], sc[j],
                              sc[j + 1] - sc[j], o, rep, &one, err, errlen))
        return 1;
      if (!hw && (one < 0 || *cost < 0)) *cost = -1;
      else if (!hw) *cost += one;
    }
  return 0;
}

/* The dilated-kernel form gives each image (a channel of x) an R x S output. Side by side, the C
 * images are one image C x W wide, their columns interleaved (column x * C + c is image c's
 * column x): output column s * C + c is image c's column s, so the output rows hold C x S pixels
 * at stride 1 and the lanes fill with images where one image alone fills S lanes per output
 * row, each bus word serving as many images as it holds elements. This needs the output columns
 * one apart in x (S = 1 or dilation 1 across); the kernel's columns are then C times as far
 * apart, and the padding C times as wide. Or the same with the axes exchanged (R = 1 or
 * dilation 1 down). */
/* 0: not; 1: side by side; 2: side by side with the axes exchanged. */
static int side_by_side(const layer_t *l)
{
  if (l->c < 2) return 0;
  if (l->s == 1 || l->dw == 1) return 1;
  return l->r == 1 || l->dh == 1 ? 2 : 0;
}

/* The dilated-kernel form of L's weight gradient (SIDE: 0, or side_by_side's) into GL, with the
 * views of X, DY and DW it reads and writes: a convolution whose images are the channels of x
 * (batch and channels swapped), whose channels are the batch, whose kernel is dy (taps oy, ox)
 * dilated by the stride, with stride = dilation of the layer, and an R x S output; or its images
 * side by side. */
static void dilated_layer(const layer_t *l, int side, const tensor_t *x, const tensor_t *dy,
                          const tensor_t *dw, layer_t *gl, view_t *xv, view_t *kv, view_t *ov)
{
  view_t xa = view_of(x), da = view_of(dy), wa = view_of(dw);
  layer_t lw = *l;
  if (side == 2) {   /* exchange the axes */
    lw = layer_transposed(l);
    xa = view_transposed(&xa);
    da = view_transposed(&da);
    wa = view_transposed(&wa);
  }
  long oh = layer_out_h(&lw), ow = layer_out_w(&lw);
  *xv = (view_t){x->data, 0, {xa.st[1], xa.st[0], xa.st[2], xa.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
  *kv = (view_t){dy->data, 0, {da.st[1], da.st[0], da.st[2], da.st[3]}, 0, 0, 0, 0, NULL, 0, 1};
  *ov = (view_t){dw->data, 0, {wa.st[1], wa.st[0], wa.st[2], wa.st[3]}, 0, 0, 0, 0, NULL, 0, 0};
  /* the kernel's taps sit every stride positions of the zero-inserted dy */
  *gl = (layer_t){lw.c, lw.n, lw.h, lw.w, lw.k, oh, ow, lw.dh, lw.dw, lw.ph, lw.pw, lw.sh, lw.sw,
                  lw.r, lw.s, 0, lw.sh, (oh - 1) * lw.sh + 1, 0, lw.sw, (ow - 1) * lw.sw + 1, 0};
  if (side) {
    /* column x * C + c is image c's column x: the host addresses it as the pair (x, c)
     * (xsplit), no copy; output column s * C + c is dw[k][c][r][s] */
    *xv = (view_t){x->data, 0, {0, xa.st[0], xa.st[2], xa.st[1]}, lw.c, xa.st[3], 0, 0, NULL, 0, 0};
    *ov = (view_t){dw->data, 0, {0, wa.st[0], wa.st[2], wa.st[1]}, lw.c, wa.st[3], 0, 0, NULL, 0, 0};
    gl->n = 1;
    gl->w = lw.c * lw.w;
    gl->sw = 1;
    gl->dw = lw.sw * lw.c;
    gl->pw = lw.pw * lw.c;
    gl->ow = lw.c * lw.s;
  }
}

/* Forms of the weight gradient, in the order that wins a tie of the estimates: the products
 * stream no zero-insertion, a block streams dy once where its taps stream it once each, and
 * side by side fills the lanes better than the images apart. */
enum { WG_BLOCKS, WG_TAPS, WG_SIDE, WG_DILATED, WG_FORMS };

int drive_conv2d_weight_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                             const tensor_t *dy, tensor_t *dw, const drive_opts_t *o,
                             report_t *rep, char *err, size_t errlen)
{
  long oh = layer_out_h(l), ow = layer_out_w(l);
  long wshape[4] = {l->k, l->c, l->r, l->s};
  int fill = o && o->zero_fill;
  if (op_begin(rep, "conv2d_weight_grad", fill ? "zero_fill" : "zero_skip", l, dw, wshape, err,
               errlen))
    return 1;
  /* dw[k][c][r][s] = sum over n, oy, ox of x[n][c][oy*sh-ph+r*dh][ox*sw-pw+s*dw] * dy[n][k][oy][ox]:
   * the dilated-kernel form (dilated_layer, its images apart or side by side), or matrix
   * products (weight_grad_product) over blocks of taps that see the same positions (a class of
   * rows x a class of columns: all taps when no padding is reached), or over single taps. Each
   * form's cycles are estimated by the tiling cost model and the fastest runs; zero_fill feeds
   * the zero-insertions, so it runs a dilated form. */
  uint64_t zs = (uint64_t)l->n * l->k *
                ((uint64_t)((oh - 1) * l->sh + 1) * ((ow - 1) * l->sw + 1) - (uint64_t)oh * ow);
  long rs = l->r * l->s;
  long *cls = malloc(sizeof(long) * (size_t)(2 * (l->r + l->s) + 4));
  if (!cls) {
    tensor_free(dw);
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  long *rc = cls, *sc = rc + l->r + 1, *rt = sc + l->s + 1, *st = rt + l->r + 1;
  int nrc = tap_classes(l->r, l->h, oh, l->sh, l->ph, l->dh, rc);
  int nsc = tap_classes(l->s, l->w, ow, l->sw, l->pw, l->dw, sc);
  for (long t = 0; t <= l->r; t++) rt[t] = t;
  for (long t = 0; t <= l->s; t++) st[t] = t;
  long most = 0;   /* a product's pixels are a descriptor field */
  for (int i = 0; i < nrc; i++)
    for (int j = 0; j < nsc; j++) most = lmax(most, l->c * (rc[i + 1] - rc[i]) * (sc[j + 1] - sc[j]));
  /* the products' classes of rows and columns: blocks, single taps */
  const long *pr[2] = {rc, rt}, *pc[2] = {sc, st};
  int npr[2] = {nrc, (int)l->r}, npc[2] = {nsc, (int)l->s};
  int fits[2] = {most <= 65535, l->c <= 65535};
  /* the dilated-kernel forms: side by side, images apart */
  int side = side_by_side(l);
  layer_t gl[2];
  view_t xv[2], kv[2], ov[2];
  double cost[WG_FORMS];
  for (int f = 0; f < WG_FORMS; f++) {
    cost[f] = -1;
    if (f >= WG_SIDE) {
      int i = f - WG_SIDE;
      if (f == WG_SIDE && !side) continue;
      dilated_layer(l, f == WG_SIDE ? side : 0, x, dy, dw, &gl[i], &xv[i], &kv[i], &ov[i]);
      cost[f] = conv_cost(c, &gl[i], &xv[i], &kv[i], &ov[i], o);
    } else if (!fill && fits[f]) {
      weight_grad_products(NULL, c, l, x, dy, dw, pr[f], npr[f], pc[f], npc[f], o, rep, &cost[f],
                           err, errlen);
    }
  }
  int form = WG_DILATED;   /* runs even where the model finds no tiling: its error says why */
  for (int f = WG_FORMS - 1; f >= 0; f--)
    if (cost[f] >= 0 && (cost[form] < 0 || cost[f] <= cost[form])) form = f;
  static const char *const form_name[WG_FORMS] = {"tap_blocks", "taps", "side_by_side", "dilated"};
  rep->form = form_name[form];
  int bad = form < WG_SIDE
                ? weight_grad_products(hw, c, l, x, dy, dw, pr[form], npr[form], pc[form],
                                       npc[form], o, rep, NULL, err, errlen)
                : drive_conv(hw, c, &gl[form - WG_SIDE], &xv[form - WG_SIDE], &kv[form - WG_SIDE],
                             &ov[form - WG_SIDE], o, rep, err, errlen);
  free(cls);
  if (bad) {
    tensor_free(dw);
    return 1;
  }
  backward_ideal(rep, c, l);
  explicit_traffic(rep, c, l, 0);
  /* the zeros inserted into dy to use it as a dilated kernel */
  rep->zero_space = zs;
  if (form < WG_SIDE) {   /* the products never form them */
    rep->zero_skipped += (uint64_t)l->c * rs * cdiv(l->k, c->cols) * zs / l->k;
    return 0;
  }
  /* lowered: each of the C x R x S outputs (the pixels) meets the zero-insertions of the N
   * channels of dy (its kernel), once per group of array columns (filters = K) */
  uint64_t want = (uint64_t)l->c * l->r * l->s * rep->kgroups * rep->zero_space / l->k;
  if (backward_zero_check(rep, want, (uint64_t)l->c * l->r * l->s * rep->zero_space, err, errlen)) {
    tensor_free(dw);
    return 1;
  }
  return 0;
}

void drive_reads_apply(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y)
{
  long wpw = (c->out_word_bits + 31) / 32;
  for (long i = 0; i < reads->n; i++)
    for (int col = 0; col < reads->ncols[i]; col++)
      y->data[reads->base[i] + col * reads->kstride[i]] =
          get_bits_signed(&words[reads->word[i] * wpw], (long)(reads->slot0[i] + col) * c->acc_bits,
                          c->acc_bits);
}

void drive_reads_free(drive_reads_t *reads)
{
  if (!reads) return;
  free(reads->base);
  free(reads->word);
  free(reads->ncols);
  free(reads->slot0);
  free(reads->kstride);
  free(reads->words);
  memset(reads, 0, sizeof *reads);
}

/* ---- report ---------------------------------------------------------------------------------- */

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

void report_print_text(const report_t *r, const cfg_t *c, FILE *out)
{
  uint64_t pes = (uint64_t)c->rows * c->cols;
  uint64_t mac_cycles = r->useful_macs / pes;
  fprintf(out, "%s on %s (%dx%d PEs), %ld passes, DRAM %.3g B/cycle\n", r->op, c->name, c->rows,
          c->cols, r->passes, r->dram_bytes_per_cycle);
  if (r->bp_mode) {
    fprintf(out, "  %s, form %s: %ld dense convolution(s), %ld of them sharing each loaded "
            "tile; %" PRIu64 " zero-space elements never stored, moved or read\n", r->bp_mode,
            r->form, r->runs, r->shared_runs, r->zero_space);
    if (r->phase_blocks[0]) fprintf(out, "  phase blocks           %s   (phases (py,px) of dx, '+' joined)\n", r->phase_blocks);
    fprintf(out, "  zero-space operands    %14" PRIu64 "   not fetched (lowered matrix, one per "
            "PE row)\n", r->zero_skipped);
    fprintf(out, "  created zeros          %14" PRIu64 "   PE-cycles fed a zero made at the "
            "array edge\n", r->zero_pe);
  }
  fprintf(out, "  contexts               wrapping %ld, in a row %ld, linear %ld   (runs by how the "
          "lanes' pixels sit in the output rows)\n", r->ctx_runs[0], r->ctx_runs[1], r->ctx_runs[2]);
  fprintf(out, "  aligned rows           %ld of %ld runs   (input rows stored from a bus word, "
          "left padding counted in)\n", r->aligned_runs,
          r->ctx_runs[0] + r->ctx_runs[1] + r->ctx_runs[2]);
  fprintf(out, "  images side by side    %ld of %ld runs   (the batch as one wide image, its "
          "columns interleaved)\n", r->side_runs, r->ctx_runs[0] + r->ctx_runs[1] + r->ctx_runs[2]);
  fprintf(out, "  column groups          ");
  for (int g = 1, first = 1; g <= REPORT_MAX_GROUPS; g++)
    if (r->group_runs[g]) {
      fprintf(out, "%s%d: %ld run%s", first ? "" : ", ", g, r->group_runs[g],
              r->group_runs[g] == 1 ? "" : "s");
      first = 0;
    }
  fprintf(out, "   (runs by the groups their columns split into, 1: none)\n");
  fprintf(out, "  useful MACs            %14" PRIu64 "\n", r->useful_macs);
  fprintf(out, "  ideal cycles           %14" PRIu64 "   (useful MACs / %" PRIu64 " PEs)\n", r->ideal_cycles, pes);
  fprintf(out, "  cycles                 %14" PRIu64 "\n", r->cycles);
  fprintf(out, "  utilization            %13.1f%%\n", 100.0 * r->utilization);
  fprintf(out, "  estimated cycles       %14.0f   (the cost model's for the plan run, %+.1f%%)\n",
          r->est_cycles, r->cycles ? 100.0 * (r->est_cycles / (double)r->cycles - 1.0) : 0.0);
  fprintf(out, "  where the cycles went:\n");
  fprintf(out, "    useful MACs          %14" PRIu64 "   %5.1f%%\n", mac_cycles, pct(mac_cycles, r->cycles));
  if (r->hw_macs > r->useful_macs + r->absent_macs) {
    uint64_t pad = (r->hw_macs - r->useful_macs - r->absent_macs) / pes;
    fprintf(out, "    padding taps         %14" PRIu64 "   %5.1f%%   (MACs on the padding of a phase's convolution)\n",
            pad, pct(pad, r->cycles));
  }
  if (r->absent_macs) {
    uint64_t ab = r->absent_macs / pes;
    fprintf(out, "    absent taps          %14" PRIu64 "   %5.1f%%   (joined phases: MACs on a tap a "
            "phase lacks, or past its grid)\n", ab, pct(ab, r->cycles));
  }
  if (r->zero_steps)
    fprintf(out, "    zero steps           %14" PRIu64 "   %5.1f%%   (zero_fill: the PEs fed "
            "created zeros)\n", r->zero_steps, pct(r->zero_steps, r->cycles));
  fprintf(out, "    idle lanes/columns   %14" PRIu64 "   %5.1f%%   (steps where edge contexts leave PEs without work)\n",
          r->pe_idle_cycles, pct(r->pe_idle_cycles, r->cycles));
  fprintf(out, "    context bubbles      %14" PRIu64 "   %5.1f%%   (contexts shorter than 2*rows-1 steps)\n",
          r->bubble, pct(r->bubble, r->cycles));
  fprintf(out, "    fill                 %14" PRIu64 "   %5.1f%%   (pass start to first step)\n", r->fill, pct(r->fill, r->cycles));
  fprintf(out, "    feeder stalls        %14" PRIu64 "   %5.1f%%\n", r->stall, pct(r->stall, r->cycles));
  fprintf(out, "    drain                %14" PRIu64 "   %5.1f%%   (last element to last result written)\n",
          r->drain, pct(r->drain, r->cycles));
  fprintf(out, "    DRAM waits           %14" PRIu64 "   %5.1f%%   (array idle: loads, read-out, host)\n",
          r->dram_wait, pct(r->dram_wait, r->cycles));
  fprintf(out, "  SRAM words read        ifmap %" PRIu64 ", weight %" PRIu64 ", output %" PRIu64
          " (written %" PRIu64 "); padding words not read %" PRIu64 "\n",
          r->sram_if, r->sram_wt, r->sram_out_rd, r->sram_out_wr, r->pad_words);
  if (r->sram_line_rd || r->sram_line_wr)
    fprintf(out, "  overlap-add line       %" PRIu64 " words read, %" PRIu64 " written   (col2im)\n",
            r->sram_line_rd, r->sram_line_wr);
  fprintf(out, "  host port bytes        %14" PRIu64 "   (in %" PRIu64 ", out %" PRIu64 ")\n",
          r->host_bytes, r->host_bytes_in, r->host_bytes_out);
  fprintf(out, "  SRAM bytes read        %14" PRIu64 "   (the words above in bytes)\n", r->sram_bytes);
  if (r->bp_mode) {
    fprintf(out, "  of them dy's           host port %" PRIu64 ", SRAM %" PRIu64 "   (the "
            "operand with the zero-spaces)\n", r->dy_host_bytes, r->dy_sram_bytes);
    fprintf(out, "  explicit im2col        host port %" PRIu64 " (dy %" PRIu64 "), SRAM %" PRIu64
            " (dy %" PRIu64 ")   (zero-space reorganization: from the shapes)\n",
            r->explicit_host_bytes, r->explicit_dy_host_bytes, r->explicit_sram_bytes,
            r->explicit_dy_sram_bytes);
    fprintf(out, "  below explicit         host port %.1f%% (dy %.1f%%), SRAM %.1f%% (dy %.1f%%)\n",
            100 - pct(r->host_bytes, r->explicit_host_bytes),
            100 - pct(r->dy_host_bytes, r->explicit_dy_host_bytes),
            100 - pct(r->sram_bytes, r->explicit_sram_bytes),
            100 - pct(r->dy_sram_bytes, r->explicit_dy_sram_bytes));
  }
}

void report_print_json(const report_t *r, const cfg_t *c, FILE *out)
{
  fprintf(out,
          "{\"op\": \"%s\", \"config\": \"%s\", \"rows\": %d, \"cols\": %d, \"passes\": %ld, "
          "\"cycles\": %" PRIu64 ", \"useful_macs\": %" PRIu64 ", \"ideal_cycles\": %" PRIu64 ", "
          "\"utilization\": %.6f, \"busy_cycles\": %" PRIu64 ", \"step_cycles\": %" PRIu64 ", "
          "\"idle_pe_cycles\": %" PRIu64 ", \"bubble_cycles\": %" PRIu64 ", \"fill_cycles\": %" PRIu64 ", "
          "\"stall_cycles\": %" PRIu64 ", \"drain_cycles\": %" PRIu64 ", \"dram_wait_cycles\": %" PRIu64 ", "
          "\"host_bytes\": %" PRIu64 ", \"host_bytes_in\": %" PRIu64 ", \"host_bytes_out\": %" PRIu64 ", "
          "\"sram_reads\": {\"ifmap\": %" PRIu64 ", \"weight\": %" PRIu64 ", \"output\": %" PRIu64 ", "
          "\"line\": %" PRIu64 "}, "
          "\"sram_writes\": {\"output\": %" PRIu64 ", \"line\": %" PRIu64 "}, "
          "\"padding_words_skipped\": %" PRIu64 ", "
          "\"dram_bytes_per_cycle\": %g, \"runs\": %ld, \"bp_mode\": \"%s\", \"zero_space_skipped\": %" PRIu64 ", "
          "\"hw_macs\": %" PRIu64 ", \"zero_steps\": %" PRIu64 ", \"zero_pe_cycles\": %" PRIu64 ", "
          "\"zero_operands_skipped\": %" PRIu64 ", "
          "\"contexts\": {\"wrap\": %ld, \"row\": %ld, \"linear\": %ld}, \"aligned_runs\": %ld, "
          "\"shared_runs\": %ld, \"side_runs\": %ld, "
          "\"form\": \"%s\", \"phase_blocks\": \"%s\", \"absent_macs\": %" PRIu64 ", "
          "\"estimated_cycles\": %.0f, \"sram_bytes\": %" PRIu64 ", \"dy_host_bytes\": %" PRIu64 ", "
          "\"dy_sram_bytes\": %" PRIu64 ", \"explicit_host_bytes\": %" PRIu64 ", "
          "\"explicit_sram_bytes\": %" PRIu64 ", \"explicit_dy_host_bytes\": %" PRIu64 ", "
          "\"explicit_dy_sram_bytes\": %" PRIu64 ", \"column_groups\": {",
          r->op, c->name, c->rows, c->cols, r->passes, r->cycles, r->useful_macs, r->ideal_cycles,
          r->utilization, r->busy, r->step_valid, r->pe_idle_cycles, r->bubble, r->fill, r->stall,
          r->drain, r->dram_wait, r->host_bytes, r->host_bytes_in, r->host_bytes_out, r->sram_if,
          r->sram_wt, r->sram_out_rd, r->sram_line_rd, r->sram_out_wr, r->sram_line_wr,
          r->pad_words, r->dram_bytes_per_cycle,
          r->runs, r->bp_mode ? r->bp_mode : "none", r->zero_space, r->hw_macs, r->zero_steps,
          r->zero_pe, r->zero_skipped, r->ctx_runs[0], r->ctx_runs[1], r->ctx_runs[2],
          r->aligned_runs, r->shared_runs, r->side_runs, r->form ? r->form : "direct",
          r->phase_blocks, r->absent_macs, r->est_cycles, r->sram_bytes, r->dy_host_bytes,
          r->dy_sram_bytes, r->explicit_host_bytes, r->explicit_sram_bytes,
          r->explicit_dy_host_bytes, r->explicit_dy_sram_bytes);
  const char *sep = "";
  for (int g = 1; g <= REPORT_MAX_GROUPS; g++)
    if (r->group_runs[g]) {
      fprintf(out, "%s\"%d\": %ld", sep, g, r->group_runs[g]);
      sep = ", ";
    }
  fprintf(out, "}}\n");
}
