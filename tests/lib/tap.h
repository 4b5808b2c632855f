/* tap.h: the harness of the C tests. Each case prints one line, "ok NAME" or "not ok NAME: WHY",
 * and the test ends with "N passed, N failed" and its exit status (tests/run_all.sh counts the
 * lines). Header only: a test is one translation unit, and every name here is static.
 *
 *   ok(name)                       a case that passed
 *   not_ok(name, fmt, ...)         a case that failed, and why (printf format, one line)
 *   check(cond, name, fmt, ...)    ok or not_ok on COND; returns COND
 *   tap_passed, tap_failed         the counts so far
 *   tap_end()                      the closing line; returns the exit status (0: all passed) */
#ifndef SAGEN_TESTS_TAP_H
#define SAGEN_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_passed, tap_failed;

static inline void ok(const char *name)
{
  printf("ok %s\n", name);
  tap_passed++;
}

static inline void tap_vnot_ok(const char *name, const char *fmt, va_list ap)
{
  printf("not ok %s: ", name);
  vprintf(fmt, ap);
  putchar('\n');
  tap_failed++;
}

static inline void not_ok(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void not_ok(const char *name, const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  tap_vnot_ok(name, fmt, ap);
  va_end(ap);
}

static inline int check(int cond, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int check(int cond, const char *name, const char *fmt, ...)
{
  va_list ap;

  if (cond) {
    ok(name);
  } else {
    va_start(ap, fmt);
    tap_vnot_ok(name, fmt, ap);
    va_end(ap);
  }
  return cond;
}

static inline int tap_end(void)
{
  printf("%d passed, %d failed\n", tap_passed, tap_failed);
  fflush(stdout);
  return tap_failed != 0;
}

#endif
