/* orient: the orientation a run's members run in (as given, or H and W exchanged through the
 * views, no copy), chosen by the cost model, and the layer their shared run is tiled for. */
#ifndef SAGEN_HOST_ORIENT_H
#define SAGEN_HOST_ORIENT_H

#include "cfg.h"
#include "driver.h"
#include "member.h"

/* The layer whose windows are the union of the members MS[0..NM)' (all stride 1, with the same
 * input): rows oy - ph .. oy - ph + (r - 1) * dh of every member, likewise columns, as one
 * dense kernel, and the largest output. The run is tiled for it, so a tile that holds its
 * window holds each member's. */
layer_t orient_union(const member_t *ms, int nm);

/* Whether members A and B can share a run: the same input, stride 1, taps to run. Their output
 * sizes may differ (the phases of an odd-sized dx): the run's tiles cover the largest, and a
 * member's tiles stop at its own edge. */
int orient_can_share(const layer_t *a, const layer_t *b);

/* Members MS[0..NM) as a run in orientation SWAP (1: H and W exchanged) sees them, into
 * MO[0..NM) (layers with explicit output sizes, views transposed; kgroups left alone); their
 * union (or the one member's layer) into *U. */
void orient_members(const member_t *ms, int nm, int swap, member_t *mo, layer_t *u);

/* The orientation members MS[0..NM) with input X run in (1: H and W exchanged) into *SWAP, and
 * its estimated cycles (-1 if they cannot run together). Exchanged only for a clear gain
 * (ORIENT_GAIN), since the estimate is a model, not a measurement, or if O->orientation forces
 * it; never for split views, col2im or a flattened 1x1 layer. */
double orient_choose(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
                     const drive_opts_t *o, int *swap);

#endif
