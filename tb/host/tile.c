/* tile: tiling geometry (see tile.h). */
#include "tile.h"

#include <math.h>

#include "hmath.h"

long tile_read_lanes(const cfg_t *c, const tiling_t *t)
{
  if (t->c2i) return t->c2i_wl;
  return lmin(c->cols, (t->groups - 1) * t->gw + lmin(t->gw, t->kt));
}

int tile_read_bits(const cfg_t *c, const tiling_t *t)
{
  return (int)(tile_read_lanes(c, t) * c->acc_bits);
}

long tile_lanes(const cfg_t *c, int groups) { return (long)c->rows * groups; }

long tile_virt_width(long lanes, long owt, int virt)
{
  return virt ? (owt + lanes - 1) / lanes * lanes : owt;
}

long tile_stored_pix(long oht, long owt, long owv)
{
  return oht * owv - (owv - owt);
}

double tile_out_words(const cfg_t *c, int groups, double npix, double nkg)
{
  if (groups <= 1) return nkg * npix;
  long lanes = tile_lanes(c, groups);
  return nkg * ceil(npix / lanes) * c->rows;
}

long tile_win_h(const layer_t *l, long oht, long rt) { return (oht - 1) * l->sh + (rt - 1) * l->dh + 1; }
long tile_win_w(const layer_t *l, long owt, long st) { return (owt - 1) * l->sw + (st - 1) * l->dw + 1; }

long tile_pitch(const cfg_t *c, long tile_w, long tile_h, int lin, long owt, int al, long lead)
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

long tile_plane(const cfg_t *c, int c2i, long th, long pitch)
{
  return c2i ? cdiv(th * pitch, c->bus_elems) * c->bus_elems : th * pitch;
}

long tile_lead(const cfg_t *c, int al, long pad_l)
{
  return al ? ((pad_l % c->bus_elems) + c->bus_elems) % c->bus_elems : 0;
}

long tile_window_base(long pitch, long pad_t, long pad_l, long lead, long sub_y, long sub_x)
{
  return -(pad_t * pitch + pad_l) + lead + sub_y * pitch + sub_x;
}

int tile_same(const tiling_t *a, const tiling_t *b)
{
  return a->ct == b->ct && a->kt == b->kt && a->oht == b->oht && a->owt == b->owt &&
         a->rt == b->rt && a->st == b->st && a->virt == b->virt && a->lin == b->lin &&
         a->groups == b->groups && a->gw == b->gw && a->al == b->al && a->fill == b->fill &&
         a->c2i == b->c2i && a->c2i_kg0 == b->c2i_kg0 && a->c2i_wl == b->c2i_wl;
}
