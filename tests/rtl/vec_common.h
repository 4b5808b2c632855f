/* vec_common: helpers shared by the block models of tests/rtl (random stimulus, bit widths,
 * vector file output). Header-only; every model is one C file that includes it. */
#ifndef SAGEN_TESTS_RTL_VEC_COMMON_H
#define SAGEN_TESTS_RTL_VEC_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64* generator; the seed is mixed so that small seeds give unrelated streams. */
typedef struct {
  uint64_t s;
} vrng;

static inline void vrng_seed(vrng *g, uint64_t seed)
{
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
  g->s = z ? z : 1;
}

static inline uint64_t vrng_u64(vrng *g)
{
  g->s ^= g->s >> 12;
  g->s ^= g->s << 25;
  g->s ^= g->s >> 27;
  return g->s * 0x2545f4914f6cdd1dull;
}

/* Uniform integer in [lo, hi]. */
static inline int64_t vrng_range(vrng *g, int64_t lo, int64_t hi)
{
  return lo + (int64_t)(vrng_u64(g) % (uint64_t)(hi - lo + 1));
}

/* True with probability pct / 100. */
static inline int vrng_pct(vrng *g, int pct)
{
  return (int)(vrng_u64(g) % 100u) < pct;
}

/* All ones in the low `bits` bits (bits in 0..64). */
static inline uint64_t bits_mask(int bits)
{
  return bits >= 64 ? ~0ull : ((1ull << bits) - 1ull);
}

/* The low `bits` bits of v read as a two's complement number. */
static inline int64_t sign_ext(uint64_t v, int bits)
{
  uint64_t m = bits_mask(bits);
  v &= m;
  if (bits < 64 && (v >> (bits - 1)) & 1u) return (int64_t)(v | ~m);
  return (int64_t)v;
}

/* A random signed value of `bits` bits, returned as its unsigned encoding: zeros and the
 * extremes (min, max, -1, +1) come up often, the rest is uniform. */
static inline uint64_t rand_signed(vrng *g, int bits)
{
  int64_t max = (int64_t)(bits_mask(bits - 1));
  int64_t min = -max - 1;
  int k = (int)vrng_range(g, 0, 19);
  int64_t v;
  switch (k) {
  case 0: case 1: case 2: v = 0; break;
  case 3: v = min; break;
  case 4: v = max; break;
  case 5: v = -1; break;
  case 6: v = 1; break;
  default: v = vrng_range(g, min, max); break;
  }
  return (uint64_t)v & bits_mask(bits);
}

/* Parse an integer argument or exit. */
static inline long arg_long(const char *s, const char *what)
{
  char *end;
  long v = strtol(s, &end, 0);
  if (*s == '\0' || *end != '\0') {
    fprintf(stderr, "bad %s: '%s'\n", what, s);
    exit(2);
  }
  return v;
}

static inline FILE *open_out(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(2);
  }
  return f;
}

static inline void close_out(FILE *f, const char *path)
{
  if (ferror(f) || fclose(f) != 0) {
    fprintf(stderr, "%s: write error\n", path);
    exit(2);
  }
}

/* Growable array of fixed-size records. */
typedef struct {
  void *p;
  size_t n, cap, sz;
} vvec;

static inline void *vvec_push(vvec *v)
{
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 256;
    void *p = realloc(v->p, cap * v->sz);
    if (!p) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    v->p = p;
    v->cap = cap;
  }
  void *r = (char *)v->p + v->n * v->sz;
  memset(r, 0, v->sz);
  v->n++;
  return r;
}

#define VVEC_AT(v, type, i) (((type *)(v).p)[i])

#endif
