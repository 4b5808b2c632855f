/* cfg_diag: the configuration loader's diagnostics (see cfg_internal.h). Problems are
 * collected as diagnostics, sorted by position and printed together, so one run reports every
 * problem of a file. */
#include "cfg_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cfg_say(ctx_t *x, size_t line, size_t col, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  char *msg;

  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (x->nd == x->cap) {
    size_t cap = x->cap ? 2 * x->cap : 16;
    diag_t *d = realloc(x->d, cap * sizeof *d);
    if (!d) {
      x->oom = 1;
      return;
    }
    x->d = d;
    x->cap = cap;
  }
  msg = strdup(buf);
  if (!msg) {
    x->oom = 1;
    return;
  }
  x->d[x->nd].line = line;
  x->d[x->nd].col = col;
  x->d[x->nd].seq = x->nd;
  x->d[x->nd].msg = msg;
  x->nd++;
}

static int diag_cmp(const void *pa, const void *pb)
{
  const diag_t *a = pa, *b = pb;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Write S to OUT with every byte outside printable ASCII escaped, so a line stays one line. */
static void put_clean(FILE *out, const char *s)
{
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch >= 0x20 && ch < 0x7f)
      fputc(ch, out);
    else
      fprintf(out, "\\x%02x", ch);
  }
}

int cfg_flush(ctx_t *x, FILE *err)
{
  size_t i;
  int bad = x->nd > 0 || x->oom;

  if (x->nd)
    qsort(x->d, x->nd, sizeof *x->d, diag_cmp);
  for (i = 0; i < x->nd; i++) {
    if (err) {
      put_clean(err, x->file);
      if (x->d[i].line)
        fprintf(err, ":%zu:%zu", x->d[i].line, x->d[i].col);
      fputs(": ", err);
      put_clean(err, x->d[i].msg);
      fputc('\n', err);
    }
    free(x->d[i].msg);
  }
  if (x->oom && err) {
    put_clean(err, x->file);
    fputs(": out of memory while reporting problems\n", err);
  }
  free(x->d);
  x->d = NULL;
  x->nd = x->cap = 0;
  return bad;
}

const char *cfg_show(shown_t *b, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, o = 0;

  for (i = 0; i < n && i < SHOW_MAX; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch < 0x7f) {
      b->s[o++] = (char)ch;
    } else {
      b->s[o++] = '\\';
      b->s[o++] = 'x';
      b->s[o++] = hex[ch >> 4];
      b->s[o++] = hex[ch & 15];
    }
  }
  if (n > SHOW_MAX) {
    memcpy(b->s + o, "...", 3);
    o += 3;
  }
  b->s[o] = '\0';
  return b->s;
}
