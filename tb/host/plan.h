/* plan: a run's passes in the order the hardware runs them, with the tiles they load, the banks
 * those go to and the output tiles they write, and the host's DMA jobs for them. */
#ifndef SAGEN_HOST_PLAN_H
#define SAGEN_HOST_PLAN_H

#include "cfg.h"
#include "member.h"
#include "tile.h"

/* One pass: an output tile of one member, one filter slice, one reduction slice (channels,
 * kernel rows and columns), as one descriptor programs it. */
typedef struct pass {
  long n, oy0, oht, ox0, owt, k0, kt, c0, ct, r0, rt, s0, st;
  int m;      /* member of the run (see member_t) */
  int groups, lin, al;
  long gw, lanes;   /* see tiling_t */
  long owv;   /* virtual width (see tiling_t) */
  long iy_lo, tile_h, ix_lo, tile_w, pad_t, pad_l, pitch;
  long plane;   /* elements a channel of the tile takes (tile_plane) */
  long lead;  /* elements before each stored row's first (aligned rows: the left padding) */
  long sub_y, sub_x;   /* where the pass's own window starts in the loaded tile (members of a
                          run share one tile, the union of their windows) */
  long if_words, wt_words;
  int acc, last, out_tile;
  int c2i, line_first, line_acc, line_kg0;   /* col2im (see c2i_t and sagen_psum_manager) */
  int if_bank, wt_bank, out_bank, load_if, load_wt;
  long if_wait, wt_wait;   /* last earlier pass using the same bank, or -1 */
} pass_t;

/* One output tile: the pixels and filters that the passes up to LAST_PASS accumulate in output
 * bank BANK, read out once that pass is done. */
typedef struct out_tile {
  long n, oy0, oht, ox0, owt, owv, k0, kt;
  int m;
  int groups, lin;
  long gw, lanes;
  long wl;   /* col2im: the lanes of a pixel's word that hold dx (0: a word per filter group) */
  int bank;
  long last_pass;
} out_tile_t;

/* The host's DMA jobs, in the order it runs them. */
enum { JOB_LOAD_IF, JOB_LOAD_WT, JOB_READOUT };
typedef struct job {
  int type;
  long idx;   /* pass (loads) or output tile (readout) */
} job_t;

/* Every pass of the run of members MS[0..NM) (see member_t; the first member's n, c and k are
 * every member's) tiled by T over an output of OH x OW, in order: for each output tile position
 * and filter slice, each member's passes (members stop at their own edges; members of a run
 * load one tile, the union of their windows). Each pass gets its input window, its banks (a
 * tile stays in its bank while the next pass needs it again, else it is loaded into the bank
 * the previous pass did not use) and the pass it waits for. Returns 0 with *PASSES_OUT (NP_OUT
 * of them) and *TILES_OUT (NT_OUT) allocated, the caller's to free; 1 if out of memory
 * (nothing allocated). */
int plan_passes(const cfg_t *c, const member_t *ms, int nm, long oh, long ow, const tiling_t *t,
                pass_t **passes_out, long *np_out, out_tile_t **tiles_out, long *nt_out);

/* The DMA jobs of passes PS[0..NP) (NP >= 1) into JOBS (room for 2 NP + 1): the loads of pass
 * i, then the read-out of the tile whose last pass is i-1; the last tile's read-out last.
 * Returns how many. */
long plan_dma_jobs(const pass_t *ps, long np, job_t *jobs);

#endif
