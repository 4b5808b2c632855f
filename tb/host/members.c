/* members: how a run's members run (see members.h). */
#include "members.h"

#include <stdio.h>
#include <stdlib.h>

#include "cost_tuning.h"
#include "engine.h"
#include "orient.h"
#include "side.h"
#include "view.h"

/* The estimated cycles of one convolution M as members_drive runs it, -1 if it cannot run;
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
    cs = orient_choose(c, &sm, 1, &sx, o, &sw);
    if (cs >= 0 && images == 2) {
      *side = axis;
      *swap = 0;
      return cs;
    }
  }
  double cost = orient_choose(c, m, 1, x, o, swap);
  if (cs >= 0 && (cost < 0 || cs < SIDE_GAIN * cost)) {
    *side = axis;
    *swap = 0;
    cost = cs;
  }
  return cost;
}

double members_cost(const cfg_t *c, const member_t *ms, int nm, const view_t *x,
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
  double cost = orient_choose(c, ms, nm, x, o, &swap), apart = 0;
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

int members_drive(hw_t *hw, const cfg_t *c, member_t *ms, int nm, const view_t *x,
                  const drive_opts_t *o, report_t *sum, char *err, size_t errlen)
{
  int swap, apart, side;
  members_cost(c, ms, nm, x, o, &apart, &swap, &side);
  if (apart) {
    for (int m = 0; m < nm; m++)
      if (members_drive(hw, c, &ms[m], 1, x, o, sum, err, errlen)) return 1;
    return 0;
  }
  if (side) {
    member_t sm;
    view_t sx;
    side_member(ms, x, side, &sm, &sx);
    if (o && o->slices) o->slices->swap = side == 2;   /* along H: the layer runs transposed */
    int rc = engine_run(hw, c, &sm.l, &sm, 1, &sx, o, sum, err, errlen);
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
  if (o && o->slices) o->slices->swap = swap;
  view_t xo = swap ? view_transposed(x) : *x;
  int rc = engine_run(hw, c, &u, mo, nm, &xo, o, sum, err, errlen);
  for (int m = 0; m < nm; m++) ms[m].kgroups = mo[m].kgroups;
  free(mo);
  return rc;
}

int drive_conv(hw_t *hw, const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
               const view_t *y, const drive_opts_t *o, report_t *sum, char *err, size_t errlen)
{
  member_t m = {*l, *w, *y, 0, NULL};
  int rc = members_drive(hw, c, &m, 1, x, o, sum, err, errlen);
  return rc;
}

double members_conv_cost(const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
                         const view_t *y, const drive_opts_t *o)
{
  member_t m = {*l, *w, *y, 0, NULL};
  int swap, side;
  return single_cost(c, &m, x, o, &side, &swap);
}
