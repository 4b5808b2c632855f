/* rng: splitmix64, a small seeded generator for reproducible random tensors and tests. */
#ifndef SAGEN_RNG_H
#define SAGEN_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (hi - lo < 2^63). */
static inline int64_t rng_range(uint64_t *s, int64_t lo, int64_t hi)
{
  return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

#endif
