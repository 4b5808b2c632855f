/* hmath: the integer helpers every module of the host driver uses (static inline: no state, no
 * link dependency). */
#ifndef SAGEN_HOST_HMATH_H
#define SAGEN_HOST_HMATH_H

/* ceil(A / B) for A >= 0, B > 0. */
static inline long cdiv(long a, long b) { return (a + b - 1) / b; }
static inline long lmin(long a, long b) { return a < b ? a : b; }
static inline long lmax(long a, long b) { return a > b ? a : b; }

/* Greatest common divisor, non-negative; lgcd(0, 0) = 0. */
static inline long lgcd(long a, long b)
{
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

/* Floor and ceiling of A / B (B > 0), for negative A too. */
static inline long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline long ceil_div(long a, long b) { return -floor_div(-a, b); }

#endif
