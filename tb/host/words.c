/* words: the bus words of the host port (see words.h). */
#include "words.h"

#include <string.h>

#include "sagen_sim.h"
#include "view.h"

void words_put(uint32_t *w, long pos, int nbits, int64_t v)
{
  for (int b = 0; b < nbits; b++, pos++) {
    if ((uint64_t)v >> b & 1u) w[pos / 32] |= 1u << (pos % 32);
  }
}

int64_t words_get_signed(const uint32_t *w, long pos, int nbits)
{
  uint64_t v = 0;
  for (int b = 0; b < nbits; b++, pos++) v |= (uint64_t)((w[pos / 32] >> (pos % 32)) & 1u) << b;
  if (nbits < 64 && (v >> (nbits - 1) & 1u)) v |= ~0ull << nbits;
  return (int64_t)v;
}

int64_t words_result(const cfg_t *c, const uint32_t *w, long col)
{
  int64_t v = words_get_signed(w, col * c->acc_bits, c->acc_bits);
  return c->fp ? (int64_t)((uint64_t)v & ((1ull << c->acc_bits) - 1u)) : v;
}

int64_t words_operand(const cfg_t *c, int64_t v, int absent)
{
  if (!c->fp) return absent ? 0 : v;
  uint64_t emax = (1ull << c->in_ew) - 1, e = ((uint64_t)v >> c->in_fw) & emax;
  uint64_t m = (uint64_t)v & ((1ull << c->in_fw) - 1);
  if (absent) return (int64_t)(emax << c->in_fw | 1u);                  /* no operand */
  if (e == emax && m) return (int64_t)(emax << c->in_fw | 1ull << (c->in_fw - 1));   /* NaN */
  return v;
}

void words_ifmap(const cfg_t *c, const view_t *x, const pass_t *p, long a, uint32_t *w)
{
  long plane = p->plane;
  memset(w, 0, sizeof(uint32_t) * SIM_MAX_WORDS);
  for (long e = 0; e < c->bus_elems; e++) {
    long f = a * c->bus_elems + e;
    long ch = plane ? f / plane : 0, rem = plane ? f % plane : 0;
    long yy = rem / p->pitch, xx = rem % p->pitch - p->lead;
    /* outside the tile (a row's lead and tail; col2im's channels start on a word: the rest of
     * a channel's last word, which a linear context reads as the grid's padding row below the
     * tile): padding, 0 or a float design's no operand */
    if (plane == 0 || f >= p->ct * plane || xx < 0 || xx >= p->tile_w || yy >= p->tile_h) {
      words_put(w, e * c->input_bits, c->input_bits, words_operand(c, 0, 1));
      continue;
    }
    int64_t v = view_at(x, p->n, p->c0 + ch, p->iy_lo + yy, p->ix_lo + xx);
    words_put(w, e * c->input_bits, c->input_bits, words_operand(c, v, 0));
  }
}

void words_weight(const cfg_t *c, const view_t *wt, const pass_t *p, long a, uint32_t *w)
{
  long L = p->ct * p->rt * p->st;
  long kg = a / L, i = a % L;
  long ch = i / (p->rt * p->st), r = (i / p->st) % p->rt, s = i % p->st;
  memset(w, 0, sizeof(uint32_t) * SIM_MAX_WORDS);
  /* column g*gw + j of column group g holds filter j of the filter group, in every group */
  for (long col = 0; col < p->groups * p->gw; col++) {
    long k = kg * p->gw + col % p->gw;
    if (k >= p->kt) continue;
    int absent = 0;
    long at = view_index_of(wt, p->k0 + k, p->c0 + ch, p->r0 + r, p->s0 + s, &absent);
    int64_t v = words_operand(c, absent ? 0 : wt->data[at], absent);
    words_put(w, col * c->weight_bits, c->weight_bits, v);
  }
}
