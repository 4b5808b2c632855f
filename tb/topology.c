/* topology: SCALE-Sim topology CSVs. See topology.h. */
#include "topology.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES (16L << 20) /* a layer list is a few KiB */
#define SHOW_MAX 40                /* bytes of a bad value quoted in a message */
#define SIZE_MAX_VAL 1000000L      /* what `sagen sim --random` takes */
#define STEP_MAX_VAL 65535L        /* what `sagen sim --stride/--padding/--dilation` take */

enum { C_NAME, C_H, C_W, C_R, C_S, C_C, C_K, C_STRIDE, C_PAD, C_DIL, C_BATCH, NCOLS };

static const struct {
  const char *title;   /* as written in SCALE-Sim's files, and in messages */
  const char *keys[3]; /* the title and aliases, lowercase without spaces */
  int required;
  long min, max, def;
} cols[NCOLS] = {
    [C_NAME] = {"Layer name", {"layername"}, 1, 0, 0, 0},
    [C_H] = {"IFMAP Height", {"ifmapheight"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_W] = {"IFMAP Width", {"ifmapwidth"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_R] = {"Filter Height", {"filterheight"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_S] = {"Filter Width", {"filterwidth"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_C] = {"Channels", {"channels"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_K] = {"Num Filter", {"numfilter", "numfilters"}, 1, 1, SIZE_MAX_VAL, 0},
    [C_STRIDE] = {"Strides", {"strides", "stride"}, 1, 1, STEP_MAX_VAL, 1},
    [C_PAD] = {"Padding", {"padding"}, 0, 0, STEP_MAX_VAL, 0},
    [C_DIL] = {"Dilation", {"dilation"}, 0, 1, STEP_MAX_VAL, 1},
    [C_BATCH] = {"Batch", {"batch"}, 0, 1, SIZE_MAX_VAL, 1},
};

typedef struct rd {
  const char *file;
  FILE *err;
  int bad;
} rd_t;

static void say(rd_t *r, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(rd_t *r, long line, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;

  r->bad = 1;
  if (!r->err)
    return;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  for (const char *p = r->file; *p; p++) /* a file name with odd bytes stays one line */
    fputc((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f ? *p : '?', r->err);
  if (line > 0)
    fprintf(r->err, ":%ld", line);
  fprintf(r->err, ": %s\n", buf);
}

/* A quotable one-line rendering of S[0..N): printable ASCII kept, other bytes as \xNN. */
typedef struct shown {
  char s[SHOW_MAX * 4 + 8];
} shown_t;

static const char *show(shown_t *b, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, o = 0;

  for (i = 0; i < n && i < SHOW_MAX; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch < 0x7f && ch != '\'') {
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

typedef struct field {
  const char *p;
  size_t n;
} field_t;

/* Split LINE[0..N) at commas into at most MAX trimmed fields (spaces, tabs and one pair of
 * surrounding double quotes removed). Returns the number of fields, or -1 if there are more. */
static int split(const char *line, size_t n, field_t *f, int max)
{
  int nf = 0;
  size_t i = 0;

  for (;;) {
    size_t j = i;
    while (j < n && line[j] != ',')
      j++;
    if (nf == max)
      return -1;
    const char *p = line + i;
    size_t len = j - i;
    while (len && (*p == ' ' || *p == '\t')) {
      p++;
      len--;
    }
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      len--;
    if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
      p++;
      len -= 2;
    }
    f[nf].p = p;
    f[nf].n = len;
    nf++;
    if (j >= n)
      return nf;
    i = j + 1;
  }
}

/* The column a header field names, or -1. Case and spaces do not matter. */
static int column_of(const field_t *f)
{
  char key[64];
  size_t o = 0;

  for (size_t i = 0; i < f->n; i++) {
    char ch = f->p[i];
    if (ch == ' ' || ch == '\t')
      continue;
    if (o + 1 >= sizeof key)
      return -1;
    key[o++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  }
  key[o] = '\0';
  for (int c = 0; c < NCOLS; c++)
    for (int a = 0; a < 3 && cols[c].keys[a]; a++)
      if (!strcmp(key, cols[c].keys[a]))
        return c;
  return -1;
}

static const char *allowed_columns(char *buf, size_t n)
{
  size_t o = 0;
  buf[0] = '\0';
  for (int c = 0; c < NCOLS && o < n; c++) {
    int w = snprintf(buf + o, n - o, "%s%s%s", c ? ", " : "", cols[c].title,
                     cols[c].required ? "" : " (optional)");
    o += w > 0 ? (size_t)w : 0;
  }
  return buf;
}

long topo_out_h(const topo_layer_t *l)
{
  long span = l->dh * (l->r - 1) + 1, in = l->h + 2 * l->ph;
  return in < span ? 0 : (in - span) / l->sh + 1;
}

long topo_out_w(const topo_layer_t *l)
{
  long span = l->dw * (l->s - 1) + 1, in = l->w + 2 * l->pw;
  return in < span ? 0 : (in - span) / l->sw + 1;
}

static int name_ok(const field_t *f)
{
  if (f->n == 0 || f->n >= TOPO_NAME_MAX || f->p[0] == '.' || f->p[0] == '-')
    return 0;
  for (size_t i = 0; i < f->n; i++) {
    char ch = f->p[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          ch == '_' || ch == '-' || ch == '.'))
      return 0;
  }
  return 1;
}

/* Parse the value of column C in F into *V; report and return 1 if it is not allowed. */
static int value_of(rd_t *r, long line, int c, const field_t *f, long *v)
{
  shown_t s;
  long acc = 0;
  size_t i;

  if (f->n == 0) {
    say(r, line, "%s: missing value: allowed an integer %ld..%ld", cols[c].title, cols[c].min,
        cols[c].max);
    return 1;
  }
  for (i = 0; i < f->n; i++) {
    if (f->p[i] < '0' || f->p[i] > '9') {
      say(r, line, "%s: '%s' is not an integer: allowed a decimal integer %ld..%ld",
          cols[c].title, show(&s, f->p, f->n), cols[c].min, cols[c].max);
      return 1;
    }
    if (acc <= cols[c].max)
      acc = acc * 10 + (f->p[i] - '0');
  }
  if (acc < cols[c].min || acc > cols[c].max) {
    say(r, line, "%s: '%s' is out of range: allowed %ld..%ld", cols[c].title,
        show(&s, f->p, f->n), cols[c].min, cols[c].max);
    return 1;
  }
  *v = acc;
  return 0;
}

void topo_free(topo_t *t)
{
  free(t->layer);
  t->layer = NULL;
  t->n = 0;
}

#define MAX_FIELDS 64

/* The header, fields F[0..USED) of line LINE: the field index of each column it names into
 * WHERE (-1 on entry for every column). Every problem is reported into R. */
static void header_row(rd_t *r, long line, const field_t *f, int used, int *where)
{
  char list[512];
  shown_t s;

  for (int k = 0; k < used; k++) {
    int c = f[k].n ? column_of(&f[k]) : -1;
    if (!f[k].n) {
      say(r, line, "column %d of the header has no name: allowed %s", k + 1,
          allowed_columns(list, sizeof list));
    } else if (c < 0) {
      say(r, line, "unknown column '%s': allowed %s (case and spaces do not matter)",
          show(&s, f[k].p, f[k].n), allowed_columns(list, sizeof list));
    } else if (where[c] >= 0) {
      say(r, line, "column '%s' appears twice (columns %d and %d)", cols[c].title,
          where[c] + 1, k + 1);
    } else {
      where[c] = k;
    }
  }
  for (int c = 0; c < NCOLS; c++)
    if (cols[c].required && where[c] < 0)
      say(r, line, "missing column '%s': the header needs %s", cols[c].title,
          allowed_columns(list, sizeof list));
}

/* A layer row, fields F[0..NF) of line LINE (USED: up to the last non-empty one), whose columns
 * the header (NCOLUMNS fields) put at WHERE, into *L. Returns 0, or 1 after reporting into R
 * every reason the row is not a layer (T: the layers before it, whose names it must not
 * repeat). */
static int layer_row(rd_t *r, long line, const field_t *f, int nf, int used, int ncolumns,
                     const int *where, const topo_t *t, topo_layer_t *l)
{
  shown_t s;
  int rowbad = 0;

  if (used > ncolumns) {
    say(r, line, "field %d '%s' has no column: the header has %d columns", used,
        show(&s, f[used - 1].p, f[used - 1].n), ncolumns);
    return 1;
  }
  memset(l, 0, sizeof *l);
  l->line = line;
  long v[NCOLS];
  for (int c = 0; c < NCOLS; c++) {
    v[c] = cols[c].def;
    if (c == C_NAME || where[c] < 0)
      continue;
    field_t empty = {"", 0};
    const field_t *fc = where[c] < nf ? &f[where[c]] : &empty;
    if (value_of(r, line, c, fc, &v[c]))
      rowbad = 1;
  }
  const field_t *nm = where[C_NAME] < nf ? &f[where[C_NAME]] : NULL;
  if (!nm || !nm->n) {
    say(r, line, "Layer name: missing value: allowed a name of letters, digits, '_', '-', "
                 "'.' (they become file names)");
    rowbad = 1;
  } else if (!name_ok(nm)) {
    say(r, line, "Layer name: '%s' is not allowed: allowed 1..%d letters, digits, '_', '-', "
                 "'.', not starting with '.' or '-' (names become file names)",
        show(&s, nm->p, nm->n), TOPO_NAME_MAX - 1);
    rowbad = 1;
  } else {
    memcpy(l->name, nm->p, nm->n);
    l->name[nm->n] = '\0';
    for (size_t k = 0; k < t->n; k++) {
      if (!strcmp(t->layer[k].name, l->name)) {
        say(r, line, "Layer name: '%s' is already the name of line %ld: allowed a name used "
                     "once", l->name, t->layer[k].line);
        rowbad = 1;
        break;
      }
    }
  }
  if (rowbad)
    return 1;
  l->n = v[C_BATCH];
  l->c = v[C_C];
  l->h = v[C_H];
  l->w = v[C_W];
  l->k = v[C_K];
  l->r = v[C_R];
  l->s = v[C_S];
  l->sh = l->sw = v[C_STRIDE];
  l->ph = l->pw = v[C_PAD];
  l->dh = l->dw = v[C_DIL];
  long oh = topo_out_h(l), ow = topo_out_w(l);
  if (oh < 1 || ow < 1) {
    say(r, line, "layer '%s' has no output: ifmap %ldx%ld, filter %ldx%ld, padding %ld, "
                 "dilation %ld give %ldx%ld: allowed (filter-1)*dilation+1 <= ifmap + "
                 "2*padding in both dimensions", l->name, l->h, l->w, l->r, l->s, l->ph, l->dh,
        oh < 0 ? 0 : oh, ow < 0 ? 0 : ow);
    return 1;
  }
  return 0;
}

int topo_load_mem(const char *name, const char *buf, size_t len, topo_t *t, FILE *err)
{
  rd_t r = {name ? name : "<memory>", err, 0};
  field_t f[MAX_FIELDS];
  int where[NCOLS]; /* field index of each column, -1: absent */
  int ncolumns = 0, have_header = 0;
  long header_line = 0;
  size_t cap = 0, i = 0;
  long line = 0;
  char list[512];

  t->layer = NULL;
  t->n = 0;
  for (int c = 0; c < NCOLS; c++)
    where[c] = -1;
  if (!buf)
    len = 0;
  if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
    i = 3;
  while (i < len) {
    size_t j = i, n;
    line++;
    while (j < len && buf[j] != '\n')
      j++;
    n = j - i;
    if (n && buf[i + n - 1] == '\r')
      n--;
    const char *text = buf + i;
    i = j + 1;
    if (memchr(text, '\0', n)) {
      say(&r, line, "NUL byte: a topology file is text (comma-separated values)");
      continue;
    }
    int nf = split(text, n, f, MAX_FIELDS);
    if (nf < 0) {
      say(&r, line, "more than %d fields: allowed the columns %s", MAX_FIELDS,
          allowed_columns(list, sizeof list));
      continue;
    }
    int used = 0; /* fields up to the last non-empty one */
    for (int k = 0; k < nf; k++)
      if (f[k].n)
        used = k + 1;
    if (!used)
      continue; /* blank row, or only commas */
    if (!have_header) {
      have_header = 1;
      header_line = line;
      ncolumns = used;
      header_row(&r, line, f, used, where);
      if (r.bad)
        return 1;
      continue;
    }
    topo_layer_t l;
    if (layer_row(&r, line, f, nf, used, ncolumns, where, t, &l))
      continue;
    if (t->n == cap) {
      size_t ncap = cap ? 2 * cap : 32;
      topo_layer_t *p = realloc(t->layer, ncap * sizeof *p);
      if (!p) {
        say(&r, line, "out of memory");
        break;
      }
      t->layer = p;
      cap = ncap;
    }
    t->layer[t->n++] = l;
  }
  if (!have_header)
    say(&r, 0, "no header: expected a first line naming the columns %s",
        allowed_columns(list, sizeof list));
  else if (!r.bad && t->n == 0)
    say(&r, header_line, "no layers: the file has a header and no layer rows");
  if (r.bad) {
    topo_free(t);
    return 1;
  }
  return 0;
}

int topo_load(const char *path, topo_t *t, FILE *err)
{
  rd_t r = {path, err, 0};
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, got;
  int rc = 1;

  t->layer = NULL;
  t->n = 0;
  if (!f) {
    say(&r, 0, "cannot open: %s", strerror(errno));
    return 1;
  }
  buf = malloc(MAX_FILE_BYTES + 1);
  if (!buf) {
    say(&r, 0, "out of memory while reading");
    goto done;
  }
  while (len <= MAX_FILE_BYTES && (got = fread(buf + len, 1, MAX_FILE_BYTES + 1 - len, f)) > 0)
    len += got;
  if (ferror(f)) {
    say(&r, 0, "cannot read: %s", strerror(errno));
    goto done;
  }
  if (len > MAX_FILE_BYTES) {
    say(&r, 0, "file is larger than %ld bytes: not a layer list", MAX_FILE_BYTES);
    goto done;
  }
  rc = topo_load_mem(path, buf, len, t, err);
done:
  fclose(f);
  free(buf);
  return rc;
}

void topo_print(const topo_t *t, FILE *out)
{
  for (size_t i = 0; i < t->n; i++) {
    const topo_layer_t *l = &t->layer[i];
    fprintf(out, "%s %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", l->name, l->n, l->c,
            l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw, l->dh, l->dw);
  }
}
