/* readout: output words read back and placed (see readout.h). */
#include "readout.h"

#include <stdlib.h>
#include <string.h>

#include "hmath.h"
#include "view.h"
#include "words.h"

long readout_words(const cfg_t *c, const out_tile_t *ot)
{
  long nkg = ot->wl ? 1 : cdiv(ot->kt, ot->gw);
  if (ot->groups <= 1) return nkg * ot->oht * ot->owt;
  return nkg * cdiv(ot->oht * ot->owv, ot->lanes) * c->rows;
}

long readout_kg(const cfg_t *c, const out_tile_t *ot, long j)
{
  if (ot->wl) return 0;
  if (ot->groups <= 1) return j / (ot->oht * ot->owt);
  return j / (cdiv(ot->oht * ot->owv, ot->lanes) * c->rows);
}

long readout_addr(const cfg_t *c, const out_tile_t *ot, long j)
{
  if (ot->groups > 1) return j;
  long kg = readout_kg(c, ot, j), rem = j % (ot->oht * ot->owt);
  return kg * tile_stored_pix(ot->oht, ot->owt, ot->owv) + rem / ot->owt * ot->owv + rem % ot->owt;
}

int readout_pixels(const cfg_t *c, const out_tile_t *ot, long j, long *py, long *px)
{
  int n = 0;
  if (ot->groups <= 1) {
    long rem = j % (ot->oht * ot->owt);
    if (py) py[0] = rem / ot->owt;
    if (px) px[0] = rem % ot->owt;
    return 1;
  }
  long per_kg = cdiv(ot->oht * ot->owv, ot->lanes) * c->rows, w = j % per_kg;
  long pix0 = w / c->rows * ot->lanes + w % c->rows;
  for (int g = 0; g < ot->groups; g++) {
    long p = pix0 + (long)g * c->rows;
    int real = p < ot->oht * ot->owv && p % ot->owv < ot->owt;
    if (py) py[g] = real ? p / ot->owv : -1;
    if (px) px[g] = real ? p % ot->owv : -1;
    n += real;
  }
  return n;
}

/* Room for N more entries in READS; 1 if out of memory (READS unchanged but for the arrays
 * already grown). */
static int readout_grow(drive_reads_t *rd, long n)
{
  if (rd->n + n <= rd->cap) return 0;
  long cap = rd->cap ? 2 * rd->cap : 1024;
  while (cap < rd->n + n) cap *= 2;
  long *nb = realloc(rd->base, (size_t)cap * sizeof *nb);
  if (nb) rd->base = nb;
  long *nw = realloc(rd->word, (size_t)cap * sizeof *nw);
  if (nw) rd->word = nw;
  int *nc = realloc(rd->ncols, (size_t)cap * sizeof *nc);
  if (nc) rd->ncols = nc;
  int *ns = realloc(rd->slot0, (size_t)cap * sizeof *ns);
  if (ns) rd->slot0 = ns;
  long *nk = realloc(rd->kstride, (size_t)cap * sizeof *nk);
  if (nk) rd->kstride = nk;
  if (!nb || !nw || !nc || !ns || !nk) return 1;
  rd->cap = cap;
  return 0;
}

/* Keep the output word WORD as read word RD->nwords of READS; 1 if out of memory. */
static int readout_capture(drive_reads_t *rd, const cfg_t *c, const uint32_t *word)
{
  long wpw = (c->out_word_bits + 31) / 32;
  if ((rd->nwords + 1) * wpw > rd->words_cap) {
    long cap = rd->words_cap ? 2 * rd->words_cap : 1024 * wpw;
    while (cap < (rd->nwords + 1) * wpw) cap *= 2;
    uint32_t *nw = realloc(rd->words, (size_t)cap * sizeof *nw);
    if (!nw) return 1;
    rd->words = nw;
    rd->words_cap = cap;
  }
  memcpy(rd->words + rd->nwords * wpw, word, (size_t)wpw * sizeof *word);
  return 0;
}

int readout_place(const cfg_t *c, const out_tile_t *ot, long j, const view_t *yv,
                  const uint32_t *word, drive_reads_t *rd)
{
  long py[256], px[256];
  int np_w = readout_pixels(c, ot, j, py, px);
  long kg = readout_kg(c, ot, j);
  long k0c = ot->k0 + kg * ot->gw;
  int ncols = ot->wl ? (int)ot->wl : (int)lmin(ot->gw, ot->k0 + ot->kt - k0c);
  /* filters that sit apart (yv->ft): one entry per column, as each has its own place */
  int per_col = yv->ft != NULL;
  if (rd) {
    if (readout_grow(rd, per_col ? (long)np_w * ncols : np_w) ||
        (rd->capture && readout_capture(rd, c, word)))
      return 1;
    rd->nwords++;
  }
  for (int g = 0; g < ot->groups; g++) {
    if (py[g] < 0) continue;
    long yy = ot->oy0 + py[g], xx = ot->ox0 + px[g];
    for (int j0 = 0; j0 < ncols; j0 += per_col ? 1 : ncols) {
      if (!view_has(yv, k0c + j0, yy, xx)) continue;
      if (rd) {
        rd->base[rd->n] = view_index(yv, ot->n, k0c + j0, yy, xx);
        rd->word[rd->n] = rd->nwords - 1;
        rd->slot0[rd->n] = (int)(g * ot->gw + j0);
        rd->ncols[rd->n] = per_col ? 1 : ncols;
        rd->kstride[rd->n] = yv->st[1];
        rd->n++;
      }
      for (int jj = j0; jj < (per_col ? j0 + 1 : ncols); jj++) {
        long col = g * ot->gw + jj;
        int64_t v = words_result(c, word, col);
        yv->data[view_index(yv, ot->n, k0c + jj, yy, xx)] = v;
      }
    }
  }
  return 0;
}

void drive_reads_apply(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y)
{
  long wpw = (c->out_word_bits + 31) / 32;
  for (long i = 0; i < reads->n; i++)
    for (int col = 0; col < reads->ncols[i]; col++)
      y->data[reads->base[i] + col * reads->kstride[i]] =
          words_result(c, &words[reads->word[i] * wpw], reads->slot0[i] + col);
}

void drive_reads_place(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y)
{
  memset(y->data, 0, sizeof(int64_t) * (size_t)tensor_numel(y));
  drive_reads_apply(reads, c, words, y);
}

void drive_reads_free(drive_reads_t *reads)
{
  if (!reads) return;
  free(reads->base);
  free(reads->word);
  free(reads->ncols);
  free(reads->slot0);
  free(reads->kstride);
  free(reads->words);
  memset(reads, 0, sizeof *reads);
}
