/* npy: read and write NumPy .npy files (format versions 1.0, 2.0 and 3.0) of integer tensors.
 *
 * Layout of an .npy file: the magic "\x93NUMPY", a major and a minor version byte, the header
 * length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), the header (a Python dict
 * literal with the keys 'descr', 'fortran_order' and 'shape', padded with spaces and ended by a
 * newline), then the raw array data. The reader parses everything from one memory buffer and
 * checks every length before it reads, so that any byte string is safe to hand it. */
#include "npy.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_HEADER_MAX (1024L * 1024L) /* longest header accepted, bytes */
#define NPY_DIMS_KEPT 8                /* dimensions remembered for messages */
#define NPY_QUOTE_MAX 40               /* input bytes echoed in a message */

/* The parsed header dict. */
typedef struct npy_header {
  int has_descr, has_fortran, has_shape;
  const unsigned char *descr; /* the dtype string, not terminated */
  size_t descr_len;
  int fortran;               /* fortran_order */
  int ndim;                  /* length of the shape tuple (may exceed NPY_DIMS_KEPT) */
  uint64_t dims[NPY_DIMS_KEPT];
} npy_header_t;

/* The dtype, decoded from 'descr'. */
typedef struct npy_dtype {
  size_t size;   /* bytes per element: 1, 2, 4 or 8 */
  int big;       /* big-endian */
  int is_signed; /* i */
  int is_bool;   /* b1 */
  int is_float;  /* f2, f4: the bit patterns */
} npy_dtype_t;

/* A cursor over the header bytes. */
typedef struct npy_lex {
  const unsigned char *p, *start, *end;
} npy_lex_t;

/* Format a message into ERR (nothing if ERR is NULL or ERRLEN is 0). Returns 1. */
static int npy_fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;

  if (err == NULL || errlen == 0)
    return 1;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return 1;
}

/* Copy SRC[0..LEN) into DST as printable text: bytes outside ' '..'~' become \xNN, and more
 * than NPY_QUOTE_MAX input bytes are cut with "...". DST has room for DSTLEN bytes. */
static void npy_quote(char *dst, size_t dstlen, const unsigned char *src, size_t len) {
  size_t i, o = 0;

  if (dstlen == 0)
    return;
  for (i = 0; i < len && i < NPY_QUOTE_MAX; i++) {
    unsigned char ch = src[i];

    if (ch >= ' ' && ch <= '~' && ch != '\\') {
      if (o + 1 >= dstlen)
        break;
      dst[o++] = (char)ch;
    } else {
      if (o + 4 >= dstlen)
        break;
      snprintf(dst + o, dstlen - o, "\\x%02x", ch);
      o += 4;
    }
  }
  if (i < len && o + 3 < dstlen) {
    memcpy(dst + o, "...", 3);
    o += 3;
  }
  dst[o] = '\0';
}

/* Write the shape as a Python tuple, "(5,)" or "(2, 3, 4)", into DST. */
static void npy_shape_str(char *dst, size_t dstlen, const npy_header_t *h) {
  size_t o;
  int i;

  if (dstlen < 2)
    return;
  snprintf(dst, dstlen, "(");
  for (i = 0; i < h->ndim && i < NPY_DIMS_KEPT; i++) {
    o = strlen(dst);
    snprintf(dst + o, dstlen - o, "%s%" PRIu64, i ? ", " : "", h->dims[i]);
  }
  o = strlen(dst);
  if (h->ndim > NPY_DIMS_KEPT)
    snprintf(dst + o, dstlen - o, ", ...)");
  else if (h->ndim == 1)
    snprintf(dst + o, dstlen - o, ",)");
  else
    snprintf(dst + o, dstlen - o, ")");
}

/* Python whitespace. */
static int npy_is_space(unsigned char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static void npy_skip_space(npy_lex_t *lx) {
  while (lx->p < lx->end && npy_is_space(*lx->p))
    lx->p++;
}

/* Consume CH if it is next. Returns 1 if it was. */
static int npy_accept(npy_lex_t *lx, unsigned char ch) {
  if (lx->p < lx->end && *lx->p == ch) {
    lx->p++;
    return 1;
  }
  return 0;
}

/* Report a syntax error at the cursor: what was expected and what was found. */
static int npy_syntax(npy_lex_t *lx, const char *expected, char *err, size_t errlen) {
  char found[NPY_QUOTE_MAX * 4 + 8];
  size_t rest;

  if (lx->p >= lx->end)
    return npy_fail(err, errlen,
                    "malformed header: expected %s at byte %zu of the header, found its end",
                    expected, (size_t)(lx->p - lx->start));
  rest = (size_t)(lx->end - lx->p);
  npy_quote(found, sizeof found, lx->p, rest < 12 ? rest : 12);
  return npy_fail(err, errlen,
                  "malformed header: expected %s at byte %zu of the header, found '%s'",
                  expected, (size_t)(lx->p - lx->start), found);
}

/* A quoted Python string ('...' or "..."), no escapes decoded (a backslash keeps the next byte
 * in the string). Sets *S and *LEN to the bytes between the quotes. Returns 0, or -1. */
static int npy_string(npy_lex_t *lx, const unsigned char **s, size_t *len) {
  unsigned char q;
  const unsigned char *p;

  if (lx->p >= lx->end || (*lx->p != '\'' && *lx->p != '"'))
    return -1;
  q = *lx->p;
  p = lx->p + 1;
  while (p < lx->end && *p != q) {
    if (*p == '\\' && p + 1 < lx->end)
      p++;
    p++;
  }
  if (p >= lx->end)
    return -1;
  *s = lx->p + 1;
  *len = (size_t)(p - (lx->p + 1));
  lx->p = p + 1;
  return 0;
}

/* The bare word WORD followed by a non-identifier byte (or the end). Returns 1 if consumed. */
static int npy_word(npy_lex_t *lx, const char *word) {
  size_t n = strlen(word);
  const unsigned char *after;

  if ((size_t)(lx->end - lx->p) < n || memcmp(lx->p, word, n) != 0)
    return 0;
  after = lx->p + n;
  if (after < lx->end && (*after == '_' || (*after >= '0' && *after <= '9') ||
                          (*after >= 'a' && *after <= 'z') || (*after >= 'A' && *after <= 'Z')))
    return 0;
  lx->p = after;
  return 1;
}

/* The shape tuple: "(" [dim ("," dim)* [","]] ")", whitespace anywhere, each dim a
 * non-negative decimal integer (an 'L' suffix of old Python 2 files is allowed). A bare "(3)"
 * is taken as "(3,)". Returns 0, or 1 with ERR set. */
static int npy_shape(npy_lex_t *lx, npy_header_t *h, char *err, size_t errlen) {
  h->ndim = 0;
  if (!npy_accept(lx, '('))
    return npy_syntax(lx, "'(' starting the shape tuple", err, errlen);
  npy_skip_space(lx);
  if (npy_accept(lx, ')'))
    return 0;
  for (;;) {
    const unsigned char *digits = lx->p;
    uint64_t v = 0;

    if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
      return npy_syntax(lx, "a non-negative integer dimension", err, errlen);
    while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9') {
      unsigned d = (unsigned)(*lx->p - '0');

      if (v > (UINT64_MAX - d) / 10) {
        char q[NPY_QUOTE_MAX * 4 + 8];

        while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9')
          lx->p++;
        npy_quote(q, sizeof q, digits, (size_t)(lx->p - digits));
        return npy_fail(err, errlen,
                        "shape dimension '%s' is too large: the shape must hold fewer than "
                        "2^63 elements", q);
      }
      v = v * 10 + d;
      lx->p++;
    }
    if (lx->p < lx->end && (*lx->p == 'L' || *lx->p == 'l'))
      lx->p++;
    if (h->ndim < NPY_DIMS_KEPT)
      h->dims[h->ndim] = v;
    if (h->ndim < INT_MAX)
      h->ndim++;
    npy_skip_space(lx);
    if (npy_accept(lx, ')'))
      return 0;
    if (!npy_accept(lx, ','))
      return npy_syntax(lx, "',' or ')' in the shape tuple", err, errlen);
    npy_skip_space(lx);
    if (npy_accept(lx, ')'))
      return 0;
  }
}

/* Parse the header dict HDR[0..LEN) into *H. Keys may come in any order; each of 'descr',
 * 'fortran_order' and 'shape' must appear exactly once and no other key may. Returns 0, or 1
 * with ERR set. */
static int npy_header(const unsigned char *hdr, size_t len, npy_header_t *h, char *err,
                      size_t errlen) {
  npy_lex_t lx;

  memset(h, 0, sizeof *h);
  lx.p = lx.start = hdr;
  lx.end = hdr + len;
  npy_skip_space(&lx);
  if (!npy_accept(&lx, '{'))
    return npy_syntax(&lx, "'{' starting the header dict", err, errlen);
  for (;;) {
    const unsigned char *key;
    size_t klen;

    npy_skip_space(&lx);
    if (npy_accept(&lx, '}'))
      break;
    if (npy_string(&lx, &key, &klen) != 0)
      return npy_syntax(&lx, "a quoted key or '}'", err, errlen);
    npy_skip_space(&lx);
    if (!npy_accept(&lx, ':'))
      return npy_syntax(&lx, "':' after a key", err, errlen);
    npy_skip_space(&lx);
    if (klen == 5 && memcmp(key, "descr", 5) == 0) {
      if (h->has_descr)
        return npy_fail(err, errlen, "malformed header: duplicate key 'descr'");
      if (lx.p < lx.end && (*lx.p == '[' || *lx.p == '(' || *lx.p == '{'))
        return npy_fail(err, errlen,
                        "unsupported dtype (structured): only integer dtypes (i1..i8, u1..u8, "
                        "b1) are supported");
      if (npy_string(&lx, &h->descr, &h->descr_len) != 0)
        return npy_syntax(&lx, "a quoted dtype string for 'descr'", err, errlen);
      h->has_descr = 1;
    } else if (klen == 13 && memcmp(key, "fortran_order", 13) == 0) {
      if (h->has_fortran)
        return npy_fail(err, errlen, "malformed header: duplicate key 'fortran_order'");
      if (npy_word(&lx, "True"))
        h->fortran = 1;
      else if (npy_word(&lx, "False"))
        h->fortran = 0;
      else
        return npy_syntax(&lx, "True or False for 'fortran_order'", err, errlen);
      h->has_fortran = 1;
    } else if (klen == 5 && memcmp(key, "shape", 5) == 0) {
      if (h->has_shape)
        return npy_fail(err, errlen, "malformed header: duplicate key 'shape'");
      if (npy_shape(&lx, h, err, errlen) != 0)
        return 1;
      h->has_shape = 1;
    } else {
      char q[NPY_QUOTE_MAX * 4 + 8];

      npy_quote(q, sizeof q, key, klen);
      return npy_fail(err, errlen,
                      "malformed header: unexpected key '%s': allowed keys are 'descr', "
                      "'fortran_order' and 'shape'", q);
    }
    npy_skip_space(&lx);
    if (npy_accept(&lx, '}'))
      break;
    if (!npy_accept(&lx, ','))
      return npy_syntax(&lx, "',' or '}' after a value", err, errlen);
  }
  npy_skip_space(&lx);
  if (lx.p != lx.end)
    return npy_syntax(&lx, "only padding after the header dict", err, errlen);
  if (!h->has_descr || !h->has_fortran || !h->has_shape)
    return npy_fail(err, errlen,
                    "malformed header: missing key '%s': 'descr', 'fortran_order' and 'shape' "
                    "are all required",
                    !h->has_descr ? "descr" : !h->has_fortran ? "fortran_order" : "shape");
  return 0;
}

/* Decode the dtype string: an optional byte order ('<' little, '>' big, '=' native taken as
 * little, '|' not applicable: only for one-byte types), a kind ('i', 'u' or 'b') and a size in
 * bytes (1, 2, 4 or 8; 1 for 'b'). Returns 0, or 1 with ERR set. */
static int npy_dtype(const npy_header_t *h, npy_dtype_t *d, char *err, size_t errlen) {
  const unsigned char *s = h->descr;
  size_t n = h->descr_len;
  unsigned char order = '=', kind;
  char q[NPY_QUOTE_MAX * 4 + 8];

  memset(d, 0, sizeof *d);
  if (n > 0 && (s[0] == '<' || s[0] == '>' || s[0] == '=' || s[0] == '|')) {
    order = s[0];
    s++;
    n--;
  }
  if (n == 2 && s[1] >= '1' && s[1] <= '8') {
    kind = s[0];
    d->size = (size_t)(s[1] - '0');
    if ((kind == 'i' || kind == 'u') && (d->size & (d->size - 1)) == 0 &&
        (d->size == 1 || order != '|')) {
      d->is_signed = kind == 'i';
      d->big = order == '>' && d->size > 1;
      return 0;
    }
    if (kind == 'b' && d->size == 1) {
      d->is_bool = 1;
      return 0;
    }
    if (kind == 'f' && (d->size == 2 || d->size == 4) && order != '|') {
      d->is_float = 1;
      d->big = order == '>';
      return 0;
    }
  }
  npy_quote(q, sizeof q, h->descr, h->descr_len);
  return npy_fail(err, errlen,
                  "unsupported dtype '%s': only integer dtypes (i1..i8, u1..u8, b1), float16 "
                  "and float32 (f2, f4) are supported", q);
}

/* The element at P as an unsigned 64-bit pattern (sign-extended for signed types). */
static uint64_t npy_load(const unsigned char *p, const npy_dtype_t *d) {
  uint64_t v = 0;
  size_t i;

  for (i = 0; i < d->size; i++) {
    size_t b = d->big ? i : d->size - 1 - i; /* most significant byte first */

    v = (v << 8) | p[b];
  }
  if (d->is_signed && d->size < 8 && (v >> (d->size * 8 - 1)) & 1)
    v |= ~(uint64_t)0 << (d->size * 8);
  return v;
}

/* Parse the .npy image BUF[0..LEN) into *T. See npy.h. */
int npy_parse(const unsigned char *buf, size_t len, tensor_t *t, char *err, size_t errlen) {
  npy_header_t h;
  npy_dtype_t d;
  size_t pre, hlen, need, avail, i;
  uint64_t numel = 1, limit;
  long shape[4];
  char shp[NPY_DIMS_KEPT * 24 + 16];
  int major, minor, k;

  t->ndim = 0;
  t->data = NULL;
  for (k = 0; k < 4; k++)
    t->shape[k] = 1;
  if (buf == NULL)
    len = 0;

  /* preamble */
  if (len == 0)
    return npy_fail(err, errlen, "not an npy file (empty): expected the magic \\x93NUMPY");
  if (memcmp(buf, NPY_MAGIC, len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN) != 0)
    return npy_fail(err, errlen,
                    "not an npy file (bad magic): expected the bytes \\x93NUMPY at offset 0");
  if (len < NPY_MAGIC_LEN + 2)
    return npy_fail(err, errlen, "truncated header: expected at least %d bytes, got %zu",
                    NPY_MAGIC_LEN + 2, len);
  major = buf[6];
  minor = buf[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return npy_fail(err, errlen,
                    "unsupported npy format version %d.%d: only 1.0, 2.0 and 3.0 are supported",
                    major, minor);
  pre = major == 1 ? 10 : 12;
  if (len < pre)
    return npy_fail(err, errlen, "truncated header: expected at least %zu bytes, got %zu", pre,
                    len);
  if (major == 1) {
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
  } else {
    uint32_t v = (uint32_t)buf[8] | (uint32_t)buf[9] << 8 | (uint32_t)buf[10] << 16 |
                 (uint32_t)buf[11] << 24;

    if (v > NPY_HEADER_MAX)
      return npy_fail(err, errlen,
                      "header length %" PRIu32 " is absurd: at most %ld bytes are allowed", v,
                      NPY_HEADER_MAX);
    hlen = v;
  }
  if (len - pre < hlen)
    return npy_fail(err, errlen, "truncated header: expected %zu bytes, got %zu", pre + hlen,
                    len);

  /* header dict */
  if (npy_header(buf + pre, hlen, &h, err, errlen) != 0)
    return 1;
  if (npy_dtype(&h, &d, err, errlen) != 0)
    return 1;
  if (h.fortran)
    return npy_fail(err, errlen,
                    "fortran_order True is not supported: only C order (fortran_order False)");
  npy_shape_str(shp, sizeof shp, &h);
  if (h.ndim < 1 || h.ndim > 4)
    return npy_fail(err, errlen, "rank %d (shape %s) is not supported: only ranks 1..4 are",
                    h.ndim, shp);
  limit = (uint64_t)LONG_MAX;
  if (limit > SIZE_MAX / sizeof(int64_t))
    limit = SIZE_MAX / sizeof(int64_t);
  for (k = 0; k < h.ndim; k++)
    if (h.dims[k] == 0)
      return npy_fail(err, errlen, "shape %s has a zero dimension: every dimension must be >= 1",
                      shp);
  for (k = 0; k < h.ndim; k++) {
    if (h.dims[k] > limit / numel)
      return npy_fail(err, errlen,
                      "shape %s overflows: at most %" PRIu64 " elements are allowed", shp,
                      limit);
    numel *= h.dims[k];
    shape[k] = (long)h.dims[k];
  }

  /* data */
  need = (size_t)numel * d.size;
  avail = len - pre - hlen;
  if (avail < need)
    return npy_fail(err, errlen, "truncated data: expected %zu bytes for shape %s, got %zu",
                    need, shp, avail);
  if (tensor_alloc(t, h.ndim, shape) != 0)
    return npy_fail(err, errlen, "out of memory for shape %s", shp);
  t->fbits = d.is_float ? (int)d.size * 8 : 0;
  for (i = 0; i < (size_t)numel; i++) {
    uint64_t v = npy_load(buf + pre + hlen + i * d.size, &d);

    if (d.is_bool || d.is_float) {
      t->data[i] = d.is_bool ? v != 0 : (int64_t)v;
    } else if (d.is_signed || v <= (uint64_t)INT64_MAX) {
      t->data[i] = v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
    } else {
      tensor_free(t);
      return npy_fail(err, errlen,
                      "value %" PRIu64 " at index %zu does not fit int64: uint64 values must be "
                      "<= %" PRId64, v, i, INT64_MAX);
    }
  }
  return 0;
}

/* Read PATH into *T. See npy.h. */
int npy_read(const char *path, tensor_t *t, char *err, size_t errlen) {
  FILE *f = NULL;
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0;
  char msg[512];
  int rc;

  t->ndim = 0;
  t->data = NULL;
  f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(msg, sizeof msg, "cannot open: %s", strerror(errno));
    goto fail;
  }
  for (;;) {
    size_t got;

    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      unsigned char *nbuf;

      if (ncap < cap || (nbuf = realloc(buf, ncap)) == NULL) {
        snprintf(msg, sizeof msg, "out of memory reading %zu bytes", len);
        goto fail;
      }
      buf = nbuf;
      cap = ncap;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) {
      if (ferror(f)) {
        snprintf(msg, sizeof msg, "read error: %s", strerror(errno));
        goto fail;
      }
      break;
    }
  }
  fclose(f);
  f = NULL;
  rc = npy_parse(buf, len, t, msg, sizeof msg);
  free(buf);
  if (rc != 0)
    return npy_fail(err, errlen, "%s: %s", path, msg);
  return 0;

fail:
  if (f != NULL)
    fclose(f);
  free(buf);
  return npy_fail(err, errlen, "%s: %s", path, msg);
}

/* Store V as SIZE little-endian bytes at P. */
static void npy_store(unsigned char *p, int64_t v, size_t size) {
  uint64_t u = (uint64_t)v;
  size_t i;

  for (i = 0; i < size; i++) {
    p[i] = (unsigned char)(u & 0xff);
    u >>= 8;
  }
}

/* Write the header HDR[0..TOTAL) and the values of *T as SIZE-byte little-endian integers to
 * F, then flush it. Returns 0, or -1 with errno set by the failing call. */
static int npy_write_stream(FILE *f, const unsigned char *hdr, size_t total, const tensor_t *t,
                            size_t size) {
  unsigned char chunk[4096];
  size_t i, fill = 0, numel = (size_t)tensor_numel(t);

  if (fwrite(hdr, 1, total, f) != total)
    return -1;
  for (i = 0; i < numel; i++) {
    if (fill + size > sizeof chunk) {
      if (fwrite(chunk, 1, fill, f) != fill)
        return -1;
      fill = 0;
    }
    npy_store(chunk + fill, t->data[i], size);
    fill += size;
  }
  if (fill > 0 && fwrite(chunk, 1, fill, f) != fill)
    return -1;
  if (fflush(f) != 0 || ferror(f))
    return -1;
  return 0;
}

/* Write *T to PATH as DESCR ('<i4', '<i8', '<f2' or '<f4'), elements of SIZE bytes. */
static int npy_write_as(const char *path, const tensor_t *t, const char *descr, size_t size,
                        char *err, size_t errlen) {
  char dict[192], *tmp = NULL;
  unsigned char hdr[256];
  size_t dlen, hlen, total, i;
  FILE *f;
  int k, rc, created = 0;

  if (t == NULL || t->ndim < 1 || t->ndim > 4 || t->data == NULL)
    return npy_fail(err, errlen, "%s: tensor has rank %d or no data: only ranks 1..4 with data",
                    path, t ? t->ndim : 0);
  for (k = 0; k < t->ndim; k++)
    if (t->shape[k] < 1)
      return npy_fail(err, errlen, "%s: dimension %d is %ld: every dimension must be >= 1",
                      path, k, t->shape[k]);
  if (descr[1] == 'f') {
    for (i = 0; i < (size_t)tensor_numel(t); i++)
      if (t->data[i] < 0 || (uint64_t)t->data[i] >> (size * 8) != 0)
        return npy_fail(err, errlen,
                        "%s: value %" PRId64 " at index %zu is out of range for '%s' bit "
                        "patterns (0..%llu)", path, t->data[i], i, descr,
                        (unsigned long long)((1ull << (size * 8)) - 1));
  } else if (size == 4) {
    for (i = 0; i < (size_t)tensor_numel(t); i++)
      if (t->data[i] < INT32_MIN || t->data[i] > INT32_MAX)
        return npy_fail(err, errlen,
                        "%s: value %" PRId64 " at index %zu is out of range for '<i4' "
                        "(%" PRId32 "..%" PRId32 ")", path, t->data[i], i, INT32_MIN,
                        INT32_MAX);
  }

  /* header: the dict, spaces, '\n', so that preamble + header is a multiple of 64 bytes */
  dlen = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                          descr);
  for (k = 0; k < t->ndim; k++)
    dlen += (size_t)snprintf(dict + dlen, sizeof dict - dlen, "%s%ld", k ? ", " : "",
                             t->shape[k]);
  dlen += (size_t)snprintf(dict + dlen, sizeof dict - dlen, "%s), }", t->ndim == 1 ? "," : "");
  total = (10 + dlen + 1 + 63) / 64 * 64;
  hlen = total - 10;
  memcpy(hdr, NPY_MAGIC, NPY_MAGIC_LEN);
  hdr[6] = 1;
  hdr[7] = 0;
  hdr[8] = (unsigned char)(hlen & 0xff);
  hdr[9] = (unsigned char)(hlen >> 8);
  memcpy(hdr + 10, dict, dlen);
  memset(hdr + 10 + dlen, ' ', hlen - dlen - 1);
  hdr[total - 1] = '\n';

  tmp = malloc(strlen(path) + 32);
  if (tmp == NULL) {
    npy_fail(err, errlen, "%s: out of memory", path);
    goto fail;
  }
  sprintf(tmp, "%s.tmp.%ld", path, (long)getpid());
  f = fopen(tmp, "wb");
  if (f == NULL) {
    npy_fail(err, errlen, "%s: cannot create '%s': %s", path, tmp, strerror(errno));
    goto fail;
  }
  created = 1;
  rc = npy_write_stream(f, hdr, total, t, size);
  if (fclose(f) != 0)
    rc = -1;
  if (rc != 0) {
    npy_fail(err, errlen, "%s: short write to '%s': %s", path, tmp, strerror(errno));
    goto fail;
  }
  if (rename(tmp, path) != 0) {
    npy_fail(err, errlen, "%s: cannot rename '%s' into place: %s", path, tmp, strerror(errno));
    goto fail;
  }
  free(tmp);
  return 0;

fail:
  if (created)
    remove(tmp);
  free(tmp);
  return 1;
}

/* Write *T to PATH as '<i4' or '<i8'. See npy.h. */
int npy_write(const char *path, const tensor_t *t, int bits, char *err, size_t errlen) {
  if (bits != 32 && bits != 64)
    return npy_fail(err, errlen, "%s: bits %d is not supported: only 32 or 64", path, bits);
  return npy_write_as(path, t, bits == 32 ? "<i4" : "<i8", (size_t)bits / 8, err, errlen);
}

/* Write the bit patterns of *T to PATH as '<f2' or '<f4'. See npy.h. */
int npy_write_float(const char *path, const tensor_t *t, int bits, char *err, size_t errlen) {
  if (bits != 16 && bits != 32)
    return npy_fail(err, errlen, "%s: bits %d is not supported: only 16 or 32", path, bits);
  return npy_write_as(path, t, bits == 16 ? "<f2" : "<f4", (size_t)bits / 8, err, errlen);
}
