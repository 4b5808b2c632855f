/* view: element addressing of strided views (see view.h). */
#include "view.h"

#include <stddef.h>

view_t view_of(const tensor_t *t)
{
  view_t v = {t->data, 0, {t->shape[1] * t->shape[2] * t->shape[3], t->shape[2] * t->shape[3],
                           t->shape[3], 1}, 0, 0, 0, 0, NULL, 0, 0};
  return v;
}

long view_index_of(const view_t *v, long a, long b, long c, long d, int *absent)
{
  long x = d * v->st[3];
  if (v->xsplit > 0) {
    long hi = d / v->xsplit;
    x = d % v->xsplit * v->st[3] +
        (v->xsplit2 > 0 ? hi % v->xsplit2 * v->xst_hi + hi / v->xsplit2 * v->xst_top : hi * v->xst_hi);
  }
  const filter_tab_t *ft = v->ft;
  if (!ft) return v->off + a * v->st[0] + b * v->st[1] + c * v->st[2] + x;
  long f = ft->fdim ? b : a;
  long at = v->off + (ft->fdim ? a * v->st[0] : b * v->st[1]) + ft->off[f];
  if (!ft->roff) return at + c * v->st[2] + x;
  long i = v->ft_swap ? d : c, j = v->ft_swap ? c : d;
  long ro = ft->roff[f * ft->nr + i], so = ft->soff[f * ft->ns + j];
  if (ro == FT_NONE || so == FT_NONE) {
    if (absent) *absent = 1;
    return -1;
  }
  return at + ro + so;
}

long view_index(const view_t *v, long a, long b, long c, long d)
{
  return view_index_of(v, a, b, c, d, NULL);
}

int64_t view_at(const view_t *v, long a, long b, long c, long d)
{
  int absent = 0;
  long i = view_index_of(v, a, b, c, d, &absent);
  return absent ? 0 : v->data[i];
}

int view_has(const view_t *v, long b, long c, long d)
{
  const filter_tab_t *ft = v->ft;
  if (!ft || !ft->rows) return 1;
  long i = v->ft_swap ? d : c, j = v->ft_swap ? c : d;
  if (ft->row0 && (i < ft->row0[b] || j < ft->col0[b])) return 0;
  return i < ft->rows[b] && j < ft->cols[b];
}

view_t view_transposed(const view_t *v)
{
  view_t t = *v;
  t.st[2] = v->st[3];
  t.st[3] = v->st[2];
  t.ft_swap = !v->ft_swap;
  return t;
}
