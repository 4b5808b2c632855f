/* desc: the descriptor that programs one pass, in the register map's layout. */
#ifndef SAGEN_HOST_DESC_H
#define SAGEN_HOST_DESC_H

#include <stdint.h>

#include "driver.h"
#include "plan.h"

/* The register map (CSR addresses, descriptor fields, flag and DEBUG bits, counters, MAGIC):
 * build/gen/sagen_regmap.h, generated from gen/regmap.c (docs/regmap.md). */
#include "sagen_regmap.h"

/* The descriptor of pass P of a member whose layer is L into D[0..SAGEN_NDESC). ZERO_FILL: the
 * pass steps through every dense tap position (the backward ops' zero_fill). */
void desc_program(const layer_t *l, const pass_t *p, int zero_fill, uint32_t *d);

#endif
