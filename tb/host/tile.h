/* tile: a tiling of a convolution (tiling_t) and the geometry that follows from it on a
 * configuration: lanes, virtual widths, input windows, row pitches and channel planes in the
 * ifmap memory, output words, the lanes the host reads. Pure functions, shared by the cost model,
 * the tiling search, the pass planner and the descriptor. */
#ifndef SAGEN_HOST_TILE_H
#define SAGEN_HOST_TILE_H

#include "cfg.h"
#include "driver.h"

/* How a run is tiled: output tiles OHT x OWT of KT filters, reductions sliced into CT channels,
 * RT kernel rows and ST kernel columns a pass, and how the pixels of a tile map onto the lanes. */
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
                 counted in (see tile_pitch), so that a row that fits a word is read as one */
  int fill;   /* zero_fill: the passes step through every dense tap position of the backward
                 operand (layer_t's dense_h, dense_w), the taps' and the created zeros' */
  int c2i;    /* col2im (see c2i_t): whole rows, every filter in one pass, an output word per
                 pixel for all filter groups, the overlap-add line's room, and a reduction
                 sliced across passes only on one-row tiles */
  int c2i_kg0;   /* col2im: the first filter group with a line segment */
  long c2i_wl;   /* col2im: the lanes of a word that hold dx */
} tiling_t;

/* The fewest pixels of a col2im row (and tile) the controller takes: 4, or 16 in floating point
 * (a line word is read again a row later, after its write has landed: an integer word is
 * written 3 cycles after its pixel, a float one after the adders' path; in floating point a
 * word is read again by the next filter group a tile later too, where integers forward it). */
static inline long c2i_min_row(const cfg_t *c) { return c->fp ? 16 : 4; }

/* The lanes of an output word that hold results in a run tiled by T, the first ones of the
 * word (the host port moves only these, READ_LANES): col2im's phases and channels; else a
 * filter group's filters, in every column group. */
long tile_read_lanes(const cfg_t *c, const tiling_t *t);

/* Bits the host port moves per output word read in a run tiled by T. */
int tile_read_bits(const cfg_t *c, const tiling_t *t);

/* Pixels per context of a run with GROUPS column groups. */
long tile_lanes(const cfg_t *c, int groups);

/* Width of the output tile as the contexts see it. */
long tile_virt_width(long lanes, long owt, int virt);

/* The pixels of an output tile of OHT rows of OWT pixels laid out OWV wide (virtual width) that
 * the output memory stores per filter group: every row at the virtual width but the last, whose
 * padding past its last pixel is dropped. */
long tile_stored_pix(long oht, long owt, long owv);

/* Output words of a tile of NPIX pixels (tile_stored_pix) and NKG filter groups: one per pixel, or
 * with column groups one per array row of every context (a word holds a pixel per group). */
double tile_out_words(const cfg_t *c, int groups, double npix, double nkg);

/* The input rows and columns that the window of an output tile of OHT rows (OWT columns) with
 * RT kernel rows (ST kernel columns) of layer L spans, padding included. */
long tile_win_h(const layer_t *l, long oht, long rt);
long tile_win_w(const layer_t *l, long owt, long st);

/* The row pitch (elements from one stored row to the next) of an input tile of TILE_H rows of
 * TILE_W elements in the ifmap memory: the output tile's width OWT for linear contexts (LIN);
 * rounded up to whole bus words, LEAD elements in, for aligned rows (AL) and for a single-row
 * tile; else TILE_W (packed rows). */
long tile_pitch(const cfg_t *c, long tile_w, long tile_h, int lin, long owt, int al, long lead);

/* The elements a channel of a tile of TH rows PITCH apart takes in the ifmap memory: its rows,
 * or for col2im (C2I) as many words as they need, so that every channel starts on a bus word. A
 * col2im pass is a 1x1 product: a lane takes one element a step, so a context's pixels must sit
 * in one word of every channel (with linear contexts, on a grid as wide as the words, they do). */
long tile_plane(const cfg_t *c, int c2i, long th, long pitch);

/* The elements before each row's first of a tile whose window has PAD_L columns of padding on
 * the left: aligned rows put the window's first column on a word. PAD_L may be negative (a
 * phase of a loss whose padding is past its dilated kernel starts its window inside the tile):
 * the lead is then what puts column -PAD_L on a word, in [0, bus_elems) either way. */
long tile_lead(const cfg_t *c, int al, long pad_l);

/* The element offset of a window's virtual origin in its tile of rows PITCH apart: back by its
 * PAD_T rows and PAD_L columns of padding (never stored), on by the LEAD elements before each
 * stored row and by SUB_Y rows and SUB_X columns where the window starts inside a shared tile.
 * The index counters' base (desc_program). */
long tile_window_base(long pitch, long pad_t, long pad_l, long lead, long sub_y, long sub_x);

/* Whether tilings A and B are the same in every field. */
int tile_same(const tiling_t *a, const tiling_t *b);

#endif
