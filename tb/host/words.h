/* words: the bus words the host moves over the port: bit fields packed and unpacked, and the
 * ifmap and weight words of a pass gathered through the operands' views. */
#ifndef SAGEN_HOST_WORDS_H
#define SAGEN_HOST_WORDS_H

#include <stdint.h>

#include "cfg.h"
#include "driver.h"
#include "plan.h"

/* OR the low NBITS bits of V into the bit field at bit POS of the little-end word array W
 * (word 0 holds bits 31:0); the field must be zero before. */
void words_put(uint32_t *w, long pos, int nbits, int64_t v);

/* The NBITS-bit two's complement field at bit POS of W, sign-extended (NBITS 1..64). */
int64_t words_get_signed(const uint32_t *w, long pos, int nbits);

/* A result of the output word W at column COL: an integer sign-extended from acc_bits, or a
 * float format's encoding as it is (data.format fp16, bf16, fp32). */
int64_t words_result(const cfg_t *c, const uint32_t *w, long col);

/* Operand V as the host writes it into a bank: in floating point every NaN as the canonical
 * quiet NaN, and ABSENT (a tap the filter lacks) as "no operand", the signaling NaN of payload
 * 1 that the design reserves (its product is -0, see sagen_fp_mul; the feed lanes make it for
 * padding); an integer as it is, 0 where absent. */
int64_t words_operand(const cfg_t *c, int64_t v, int absent);

/* Ifmap word A (0 = the first) of pass P's input tile into W (SIM_MAX_WORDS uint32, cleared
 * first): bus_elems elements of input_bits each, read through view X. The tile is the pass's
 * channels one after the other, each PLANE elements of rows PITCH apart, LEAD elements before
 * each row; elements outside the tile (a row's lead and tail, a channel's last word) are
 * padding (words_operand's absent: 0, or a float design's no operand). */
void words_ifmap(const cfg_t *c, const view_t *x, const pass_t *p, long a, uint32_t *w);

/* Weight word A of pass P into W (SIM_MAX_WORDS uint32, cleared first): one weight_bits weight
 * per array column, read through kernel view WT; the words run by filter group, then channel,
 * kernel row and column, and column g * gw + j of column group g holds filter j of the group.
 * Operands (and ifmap elements) as words_operand writes them. */
void words_weight(const cfg_t *c, const view_t *wt, const pass_t *p, long a, uint32_t *w);

#endif
