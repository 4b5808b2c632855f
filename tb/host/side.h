/* side: images side by side. A convolution of stride 1 across whose batch has two or more
 * images can run as one image N times as wide, the images' columns interleaved (column
 * x * N + n is image n's column x, in the input and the output): a stride-1 convolution of the
 * wide image whose kernel columns are N times as far apart and whose padding is N times as
 * wide. The lanes then fill with the pixels of all the images. The host addresses column
 * x * N + n as the pair (x, n) (the views' xsplit), no copy. */
#ifndef SAGEN_HOST_SIDE_H
#define SAGEN_HOST_SIDE_H

#include "driver.h"
#include "member.h"

/* How member M's images (input X) can sit side by side: 0 not, 1 their columns interleaved, 2
 * their rows (the same with H and W exchanged, for a layer of stride 1 down but not across).
 * Never for zero_fill (O), a flattened 1x1 layer, col2im, or views already split or with
 * per-filter tables. */
int side_axis(const member_t *m, const view_t *x, const drive_opts_t *o);

/* Member M0 with input X0 as its images side by side along AXIS (side_axis's, 1 or 2): the
 * wide member into *SM and its input view into *SX (both borrow M0's and X0's data). */
void side_member(const member_t *m0, const view_t *x0, int axis, member_t *sm, view_t *sx);

#endif
