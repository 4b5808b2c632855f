/* view: element addressing of the strided views (view_t, driver.h) through which the host driver
 * reads and writes every tensor, with no copy: a kernel's rot180, a channel transpose, H and W
 * exchanged, images side by side, filters with their own taps or extents. */
#ifndef SAGEN_HOST_VIEW_H
#define SAGEN_HOST_VIEW_H

#include <stdint.h>

#include "driver.h"

/* The offset in V->data of element (A, B, C, D) of V. If the element is a tap its filter lacks
 * (V->ft with FT_NONE there), returns -1 and sets *ABSENT (ABSENT may be NULL); otherwise
 * *ABSENT is left alone. Pure: no allocation, no error. */
long view_index_of(const view_t *v, long a, long b, long c, long d, int *absent);

/* view_index_of for an element known to be present. */
long view_index(const view_t *v, long a, long b, long c, long d);

/* The value of element (A, B, C, D) of V; 0 for a tap its filter lacks. */
int64_t view_at(const view_t *v, long a, long b, long c, long d);

/* Whether output view V holds the elements (., B, C, D): inside filter B's extent (its rows and
 * cols tables, see filter_tab_t); 1 for a view without extents. */
int view_has(const view_t *v, long b, long c, long d);

/* V with its last two indices exchanged (H and W): the strides swapped and ft_swap flipped, the
 * data shared. */
view_t view_transposed(const view_t *v);

#endif
