/* ig_blocks: the forms of the input gradient's output phases (see op_input_grad.c): each
 * phase's own convolution, run apart or sharing dy's tiles; the phases joined into one
 * convolution whose filters are (phase, channel of dx); or in blocks, some joined. The cost
 * model chooses the partition. */
#ifndef SAGEN_HOST_IG_BLOCKS_H
#define SAGEN_HOST_IG_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "driver.h"
#include "hw.h"
#include "member.h"

/* An output phase of the input gradient: (py, px) and its taps, the kernel rows ry_last -
 * j*rys (j < its member's r), likewise columns. */
typedef struct phase {
  long py, px, ry_last, rys, rx_last, rxs;
} phase_t;

/* The phases joined into one convolution: its filters are (phase, channel of dx), its kernel
 * the union of the phases' tap offsets, each filter's taps its phase's (the others absent,
 * read as zero in words that carry the other phases' weights), its output every phase's grid.
 * Owns TAB; M's views point into its tables, W and dx. */
typedef struct joined {
  member_t m;
  filter_tab_t wt, yt;
  long *tab;   /* one allocation behind the tables */
  uint64_t absent_macs;   /* MACs on taps a filter's phase lacks or past its phase's grid */
  uint64_t zero_ops;      /* zero-space operands of the transposed convolution's lowered
                             matrix (one row per pixel of dx), none fetched */
} joined_t;

/* A partition of the NPH phases into blocks (BLK[i]: the block of phase i, blocks numbered in
 * the order of their first phase): a block of one phase runs as that phase's convolution, a
 * larger one as its phases joined (joined_t). MEM: one member per block. Owns MEM and JN (and
 * their tables): blocks_free. */
typedef struct blocks {
  long nb;
  member_t *mem;
  joined_t *jn;   /* one per block (no table for a block of one phase) */
} blocks_t;

/* Free what B owns and zero it; a zeroed B is a no-op. */
void blocks_free(blocks_t *b);

/* The members of partition BLK of the NPH phases MS (PH: theirs) of the input gradient of L
 * (kernel W, result DX: the joined members' views point into them) into *B. Returns 0, or 1 if
 * out of memory (*B then zeroed, nothing owned). */
int blocks_build(const layer_t *l, const member_t *ms, const phase_t *ph, long nph,
                 const int *blk, const tensor_t *w, tensor_t *dx, blocks_t *b);

/* The NPH members MS run apart: members of as few runs as share dy's tiles (consecutive
 * members that orient_can_share; one run each if SEPARATE), each run as members_drive chooses,
 * on HW, their figures added to *REP. With HW NULL, only their summed estimated cycles into
 * *COST (-1 if some run cannot); ERR is then not written. Returns 0, or 1 with ERR. */
int blocks_phase_runs(hw_t *hw, const cfg_t *c, member_t *ms, long nph, const view_t *dyv,
                      int separate, const drive_opts_t *o, report_t *rep, double *cost,
                      char *err, size_t errlen);

/* Partition BLK (NB blocks) of the NPH phases PH as text into BUF (LEN bytes):
 * "(0,0)+(0,1) (1,0)+(1,1)", cut short with "..." where it does not fit. */
void blocks_name(const phase_t *ph, long nph, const int *blk, long nb, char *buf, size_t len);

/* The partition of the NPH phases MS (PH: theirs) of the input gradient of L (kernel W, result
 * DX, dy's view DYV) into blocks that the cost model finds fastest, into BLK (the phases apart
 * on entry: BLK[i] = i), its estimate into *COST_OUT (-1 if none runs). Up to BLOCKS_EXACT
 * phases, every partition; beyond, from the phases apart, join the two blocks whose joining
 * lowers the estimate most (each block estimated alone), as long as one does. Then compare the
 * partition found, all phases joined and all apart, each as it would run (blocks sharing dy's
 * tiles where that pays); the partition replaces the better of the other two only below
 * BLOCKS_GAIN of it. JOIN: all joined. PARTIAL: the partition found, if it has two or more
 * blocks and one joined (tests force it). Up to 16 phases are searched (a stride up to 4 x 4);
 * more run joined or apart, whichever the model finds faster. Returns 0, or 1 if out of memory
 * (BLK then unspecified). Its scratch is its own. */
int blocks_choose(const cfg_t *c, const layer_t *l, const member_t *ms, const phase_t *ph,
                  long nph, const tensor_t *w, tensor_t *dx, const view_t *dyv,
                  const drive_opts_t *o, int join, int partial, int *blk, double *cost_out);

#endif
