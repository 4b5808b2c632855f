/* test_npy: .npy reading (from hand-built byte images and files), writing, and the rejection of
 * every kind of bad input with a message that says what is wrong.
 *
 * Prints one line per case, "ok <name>" or "not ok <name>: expected X, got Y [at index I]", then
 * "N passed, N failed" (tests/lib/tap.h), and exits non-zero if any case failed. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"
#include "rng.h"
#include "tensor.h"
#include "lib/tap.h"

static char tmpdir[64];

/* Build an .npy image in OUT: magic, version MAJOR.0, the header length (2 bytes for 1.0, 4
 * otherwise), DICT as the header, then DLEN bytes of DATA. Returns the length. */
static size_t mk(unsigned char *out, int major, const char *dict, const void *data, size_t dlen) {
  size_t hl = strlen(dict), pre = major == 1 ? 10 : 12;

  memcpy(out, "\x93NUMPY", 6);
  out[6] = (unsigned char)major;
  out[7] = 0;
  out[8] = (unsigned char)(hl & 0xff);
  out[9] = (unsigned char)(hl >> 8);
  if (major != 1) {
    out[10] = (unsigned char)(hl >> 16);
    out[11] = (unsigned char)(hl >> 24);
  }
  memcpy(out + pre, dict, hl);
  if (dlen)
    memcpy(out + pre + hl, data, dlen);
  return pre + hl + dlen;
}

/* Parse a copy of BUF[0..LEN) held in an exactly sized heap block (so a sanitizer sees any
 * read past the end). */
static int parse_exact(const unsigned char *buf, size_t len, tensor_t *t, char *err,
                       size_t errlen) {
  unsigned char *copy = malloc(len ? len : 1);
  int rc;

  if (copy == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (len)
    memcpy(copy, buf, len);
  rc = npy_parse(copy, len, t, err, errlen);
  free(copy);
  return rc;
}

/* Compare *T with the expected rank, shape and values; print the case line. */
static void expect_tensor(const char *name, const tensor_t *t, int ndim, const long *shape,
                          const int64_t *values, long n) {
  long i;
  int k;

  if (t->ndim != ndim) {
    not_ok(name, "expected rank %d, got %d", ndim, t->ndim);
    return;
  }
  for (k = 0; k < ndim; k++)
    if (t->shape[k] != shape[k]) {
      not_ok(name, "expected dimension %ld, got %ld at index %d", shape[k], t->shape[k], k);
      return;
    }
  if (tensor_numel(t) != n) {
    not_ok(name, "expected %ld elements, got %ld", n, tensor_numel(t));
    return;
  }
  for (i = 0; i < n; i++)
    if (t->data[i] != values[i]) {
      not_ok(name, "expected %" PRId64 ", got %" PRId64 " at index %ld", values[i], t->data[i],
           i);
      return;
    }
  ok(name);
}

/* Parse an image built from DICT and DATA and expect success with the given tensor. */
static void accept_case(const char *name, int major, const char *dict, const void *data,
                        size_t dlen, int ndim, const long *shape, const int64_t *values, long n) {
  unsigned char buf[1024];
  char err[512] = "";
  tensor_t t;
  size_t len = mk(buf, major, dict, data, dlen);

  if (parse_exact(buf, len, &t, err, sizeof err) != 0) {
    not_ok(name, "expected 0, got 1 (%s)", err);
    return;
  }
  expect_tensor(name, &t, ndim, shape, values, n);
  tensor_free(&t);
}

/* Expect npy_parse of BUF[0..LEN) to return 1, leave no data, and give a one-line message
 * containing each of the KEYS (NULL-terminated). */
static void expect_reject(const char *name, const unsigned char *buf, size_t len,
                          const char *const *keys) {
  char err[512] = "";
  tensor_t t;
  int rc = parse_exact(buf, len, &t, err, sizeof err), k;

  if (rc != 1) {
    not_ok(name, "expected 1, got %d", rc);
    if (rc == 0)
      tensor_free(&t);
    return;
  }
  if (t.data != NULL) {
    not_ok(name, "expected no data after a rejection, got some");
    return;
  }
  if (strchr(err, '\n') != NULL || err[0] == '\0') {
    not_ok(name, "expected a one-line message, got '%s'", err);
    return;
  }
  for (k = 0; keys[k] != NULL; k++)
    if (strstr(err, keys[k]) == NULL) {
      not_ok(name, "expected a message containing '%s', got '%s'", keys[k], err);
      return;
    }
  ok(name);
}

/* expect_reject for an image built from DICT and DATA, with one or two key words. */
static void reject_case(const char *name, int major, const char *dict, const void *data,
                        size_t dlen, const char *key1, const char *key2) {
  unsigned char buf[1024];
  const char *keys[3] = {key1, key2, NULL};
  size_t len = mk(buf, major, dict, data, dlen);

  expect_reject(name, buf, len, keys);
}

static void test_accept(void) {
  static const long s1[1] = {1}, s2[1] = {2}, s3[1] = {3}, s4[1] = {4};

  {
    /* bool: any nonzero byte is True */
    static const unsigned char d[4] = {0, 1, 2, 0};
    static const int64_t v[4] = {0, 1, 1, 0};

    accept_case("parse_b1", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", d,
                4, 1, s4, v, 4);
  }
  {
    static const unsigned char d[3] = {0x80, 0x7f, 0xff};
    static const int64_t v[3] = {-128, 127, -1};

    accept_case("parse_i1", 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", d,
                3, 1, s3, v, 3);
  }
  {
    static const unsigned char d[2] = {0xff, 0x00};
    static const int64_t v[2] = {255, 0};

    accept_case("parse_u1", 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", d,
                2, 1, s2, v, 2);
  }
  {
    static const unsigned char le[4] = {0xfe, 0xff, 0x2c, 0x01}, be[4] = {0xff, 0xfe, 0x01, 0x2c};
    static const int64_t v[2] = {-2, 300};

    accept_case("parse_i2_le", 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
                le, 4, 1, s2, v, 2);
    accept_case("parse_i2_be", 1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }",
                be, 4, 1, s2, v, 2);
  }
  {
    /* floats: their bit patterns, unsigned (1.0 and -inf in float16; a NaN and -0 in float32) */
    static const unsigned char h[4] = {0x00, 0x3c, 0x00, 0xfc};
    static const unsigned char f[8] = {0x7f, 0xc0, 0x00, 0x01, 0x80, 0x00, 0x00, 0x00};
    static const int64_t vh[2] = {0x3c00, 0xfc00}, vf[2] = {0x7fc00001, 0x80000000};

    accept_case("parse_f2_le", 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                h, 4, 1, s2, vh, 2);
    accept_case("parse_f4_be", 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                f, 8, 1, s2, vf, 2);
  }
  {
    static const unsigned char le[4] = {0xff, 0xff, 0x34, 0x12}, be[4] = {0xff, 0xff, 0x12, 0x34};
    static const int64_t v[2] = {65535, 0x1234};

    accept_case("parse_u2_le", 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
                le, 4, 1, s2, v, 2);
    accept_case("parse_u2_be", 1, "{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }",
                be, 4, 1, s2, v, 2);
  }
  {
    static const unsigned char le[8] = {0xfe, 0xff, 0xff, 0xff, 0x04, 0x03, 0x02, 0x01};
    static const unsigned char be[8] = {0xff, 0xff, 0xff, 0xfe, 0x01, 0x02, 0x03, 0x04};
    static const int64_t v[2] = {-2, 0x01020304};

    accept_case("parse_i4_le", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                le, 8, 1, s2, v, 2);
    accept_case("parse_i4_be", 1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                be, 8, 1, s2, v, 2);
    accept_case("parse_i4_native", 1,
                "{'descr': '=i4', 'fortran_order': False, 'shape': (2,), }", le, 8, 1, s2, v,
                2);
  }
  {
    static const unsigned char le[8] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x80};
    static const unsigned char be[8] = {0xff, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00};
    static const int64_t v[2] = {4294967295LL, 2147483648LL};

    accept_case("parse_u4_le", 1, "{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }",
                le, 8, 1, s2, v, 2);
    accept_case("parse_u4_be", 1, "{'descr': '>u4', 'fortran_order': False, 'shape': (2,), }",
                be, 8, 1, s2, v, 2);
  }
  {
    static const unsigned char le[16] = {0, 0, 0, 0, 0, 0, 0, 0x80,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const unsigned char be[16] = {0x80, 0, 0, 0, 0, 0, 0, 0,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const int64_t v[2] = {INT64_MIN, -1};

    accept_case("parse_i8_le", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                le, 16, 1, s2, v, 2);
    accept_case("parse_i8_be", 1, "{'descr': '>i8', 'fortran_order': False, 'shape': (2,), }",
                be, 16, 1, s2, v, 2);
  }
  {
    static const unsigned char le[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                                         8, 7, 6, 5, 4, 3, 2, 1};
    static const unsigned char be[16] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         1, 2, 3, 4, 5, 6, 7, 8};
    static const int64_t v[2] = {INT64_MAX, 0x0102030405060708LL};

    accept_case("parse_u8_le", 1, "{'descr': '<u8', 'fortran_order': False, 'shape': (2,), }",
                le, 16, 1, s2, v, 2);
    accept_case("parse_u8_be", 1, "{'descr': '>u8', 'fortran_order': False, 'shape': (2,), }",
                be, 16, 1, s2, v, 2);
  }
  {
    /* v2.0 and v3.0 (4-byte header length), rank 2 */
    static const unsigned char d[6] = {1, 2, 3, 0xfd, 0xfe, 0xff};
    static const long sh[2] = {2, 3};
    static const int64_t v[6] = {1, 2, 3, -3, -2, -1};

    accept_case("parse_v2", 2, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }",
                d, 6, 2, sh, v, 6);
    accept_case("parse_v3", 3, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }",
                d, 6, 2, sh, v, 6);
  }
  {
    /* keys in another order, double quotes, odd whitespace, no trailing comma, padding */
    static const unsigned char d[4] = {1, 0, 2, 0};
    static const long sh[4] = {1, 2, 1, 1};
    static const int64_t v[2] = {1, 2};

    accept_case("parse_header_order_whitespace", 1,
                "\n{ \"shape\" :( 1 ,\t2,1 , 1 , ) ,\"fortran_order\":False,'descr':'<u2'}  "
                "                \n",
                d, 4, 4, sh, v, 2);
    accept_case("parse_header_bare_dim", 1,
                "{'descr': '|u1', 'fortran_order': False, 'shape': (1)}", d, 1, 1, s1, v, 1);
  }
  {
    /* data after the array is ignored, as numpy does */
    static const unsigned char d[3] = {7, 9, 9};
    static const int64_t v[1] = {7};

    accept_case("parse_trailing_data_ignored", 1,
                "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), }", d, 3, 1, s1, v, 1);
  }
}

static void test_reject(void) {
  static const unsigned char d16[16] = {0};
  unsigned char buf[1024];

  {
    const char *k[] = {"not an npy file", "magic", NULL};

    expect_reject("reject_bad_magic", (const unsigned char *)"\x93NUMPZ\x01\x00\x10\x00", 10, k);
    expect_reject("reject_bad_magic_text", (const unsigned char *)"hello, world\n", 13, k);
  }
  {
    const char *k[] = {"not an npy file", NULL};

    expect_reject("reject_empty", (const unsigned char *)"", 0, k);
  }
  {
    const char *k[] = {"truncated header", NULL};

    expect_reject("reject_truncated_preamble", (const unsigned char *)"\x93NUMPY\x01", 7, k);
    expect_reject("reject_truncated_preamble_v2",
                  (const unsigned char *)"\x93NUMPY\x02\x00\x10\x00", 10, k);
  }
  {
    /* header length 100, but only the dict's bytes follow the preamble */
    const char *k[] = {"truncated header", "expected 110 bytes", NULL};
    const char *dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
    size_t len = mk(buf, 1, dict, NULL, 0);

    buf[8] = 100;
    buf[9] = 0;
    expect_reject("reject_truncated_header", buf, len, k);
  }
  reject_case("reject_truncated_data", 1,
              "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", d16, 8,
              "truncated data", "expected 12 bytes");
  reject_case("reject_truncated_data_empty", 1,
              "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }", d16, 0,
              "truncated data", "got 0");
  reject_case("reject_version", 4, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }",
              d16, 4, "version 4.0", "1.0, 2.0 and 3.0");
  reject_case("reject_float64", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
              d16, 8, "unsupported dtype '<f8'", "float16 and float32 (f2, f4)");
  reject_case("reject_float_no_order", 1,
              "{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", d16, 4,
              "unsupported dtype '|f4'", NULL);
  reject_case("reject_float64_be", 1,
              "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", d16, 8,
              "unsupported dtype '>f8'", NULL);
  reject_case("reject_complex", 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
              d16, 8, "unsupported dtype '<c8'", NULL);
  reject_case("reject_object", 1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
              d16, 8, "unsupported dtype '|O'", NULL);
  reject_case("reject_unicode", 1, "{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }",
              d16, 12, "unsupported dtype '<U3'", NULL);
  reject_case("reject_bytes", 1, "{'descr': '|S5', 'fortran_order': False, 'shape': (1,), }",
              d16, 5, "unsupported dtype '|S5'", NULL);
  reject_case("reject_structured", 1,
              "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", d16, 4,
              "unsupported dtype", "structured");
  reject_case("reject_odd_int_size", 1,
              "{'descr': '<i3', 'fortran_order': False, 'shape': (1,), }", d16, 3,
              "unsupported dtype '<i3'", NULL);
  reject_case("reject_unordered_multibyte", 1,
              "{'descr': '|i4', 'fortran_order': False, 'shape': (1,), }", d16, 4,
              "unsupported dtype '|i4'", NULL);
  reject_case("reject_dtype_newline_quoted", 1,
              "{'descr': '<f\n4', 'fortran_order': False, 'shape': (1,), }", d16, 4,
              "unsupported dtype '<f\\x0a4'", NULL);
  reject_case("reject_fortran_order", 1,
              "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2), }", d16, 16,
              "fortran_order True", "only C order");
  reject_case("reject_rank0", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }",
              d16, 4, "rank 0", "ranks 1..4");
  reject_case("reject_rank5", 1,
              "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 1, 1, 1, 2), }", d16, 2,
              "rank 5", "ranks 1..4");
  reject_case("reject_zero_dim", 1,
              "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 0, 3), }", d16, 0,
              "shape (2, 0, 3) has a zero dimension", NULL);
  {
    static const unsigned char d[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80};

    reject_case("reject_u8_above_int64_max", 1,
                "{'descr': '<u8', 'fortran_order': False, 'shape': (2,), }", d, 16,
                "value 9223372036854775808 at index 1 does not fit int64", NULL);
  }
  {
    /* v2.0 header claiming 1 MiB + 1 bytes */
    const char *k[] = {"header length 1048577", "absurd", NULL};
    size_t len = mk(buf, 2, "{}", NULL, 0);

    buf[8] = 0x01, buf[9] = 0x00, buf[10] = 0x10, buf[11] = 0x00;
    expect_reject("reject_absurd_header_length", buf, len, k);
  }
  reject_case("reject_shape_overflow", 1,
              "{'descr': '<i8', 'fortran_order': False, "
              "'shape': (4294967296, 4294967296, 4294967296), }",
              d16, 16, "overflows", NULL);
  reject_case("reject_shape_overflow_huge_dim", 1,
              "{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
              d16, 16, "too large", NULL);
  reject_case("reject_shape_negative", 1,
              "{'descr': '<i8', 'fortran_order': False, 'shape': (-1,), }", d16, 16,
              "malformed header", "non-negative integer");
  reject_case("reject_missing_key", 1, "{'descr': '<i4', 'shape': (1,), }", d16, 4,
              "missing key 'fortran_order'", NULL);
  reject_case("reject_duplicate_key", 1,
              "{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", d16, 4,
              "duplicate key 'descr'", NULL);
  reject_case("reject_unknown_key", 1,
              "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'x': 1}", d16, 4,
              "unexpected key 'x'", NULL);
  reject_case("reject_garbage_after_dict", 1,
              "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), } x", d16, 4,
              "malformed header", NULL);
  reject_case("reject_unterminated_string", 1, "{'descr': '<i4, 'fortran_order': False", d16, 4,
              "malformed header", NULL);
  reject_case("reject_not_a_dict", 1, "['descr', '<i4']", d16, 4, "malformed header", NULL);
  reject_case("reject_fortran_order_word", 1,
              "{'descr': '<i4', 'fortran_order': Falsey, 'shape': (1,), }", d16, 4,
              "malformed header", "True or False");
  {
    /* a NUL byte in the padding after the dict */
    const char *k[] = {"malformed header", "only padding", NULL};
    const char *dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }  ";
    size_t len = mk(buf, 1, dict, d16, 4);

    buf[10 + strlen(dict) - 1] = '\0';
    expect_reject("reject_nul_in_header", buf, len, k);
  }
}

/* The state of tb/rng.h's generator (splitmix64), for the mutation test. */
static uint64_t rng_state;

#define MUT_SEED 0x6e7079ULL
#define MUTATIONS 20000

/* Every proper prefix of a valid image is rejected; random byte mutations of it never crash
 * and always either succeed with data or fail with a one-line message and no data. */
static void test_robustness(void) {
  unsigned char good[256], bad[256];
  static const unsigned char d[48] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  size_t len = mk(good, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", d, 48);
  size_t i;
  int m;

  for (i = 0; i < len; i++) {
    char err[512] = "";
    tensor_t t;
    int rc = parse_exact(good, i, &t, err, sizeof err);

    if (rc != 1 || t.data != NULL || err[0] == '\0' || strchr(err, '\n')) {
      not_ok("parse_every_prefix_rejected", "expected 1 with a message, got %d ('%s') at index %zu",
           rc, err, i);
      if (rc == 0)
        tensor_free(&t);
      break;
    }
  }
  if (i == len)
    ok("parse_every_prefix_rejected");

  rng_state = MUT_SEED;
  for (m = 0; m < MUTATIONS; m++) {
    char err[512] = "";
    tensor_t t;
    size_t blen = len, j, nmut = 1 + rng_next(&rng_state) % 4;
    int rc;

    memcpy(bad, good, len);
    for (j = 0; j < nmut; j++) {
      uint64_t r = rng_next(&rng_state);
      size_t at = (size_t)(r % len);

      switch ((r >> 32) % 4) {
      case 0: bad[at] = (unsigned char)(r >> 40); break;           /* random byte */
      case 1: bad[at] = " ,()'\"0123456789"[(r >> 40) % 16]; break; /* syntax byte */
      case 2: bad[at] ^= (unsigned char)(1u << ((r >> 40) % 8)); break;
      default: blen = at; break;                                   /* truncate */
      }
    }
    rc = parse_exact(bad, blen, &t, err, sizeof err);
    if (rc == 0 && t.data != NULL) {
      tensor_free(&t);
      continue;
    }
    if (rc != 1 || t.data != NULL || err[0] == '\0' || strchr(err, '\n')) {
      not_ok("parse_mutations_safe",
           "expected 0 with data or 1 with a one-line message, got %d ('%s') at index %d "
           "(seed 0x%llx)", rc, err, m, (unsigned long long)MUT_SEED);
      return;
    }
  }
  ok("parse_mutations_safe");
}

/* PATH inside the temporary directory. */
static void in_tmp(char *out, size_t outlen, const char *name) {
  snprintf(out, outlen, "%s/%s", tmpdir, name);
}

static int exists(const char *path) {
  struct stat st;

  return stat(path, &st) == 0;
}

/* Fill *T with SHAPE and values that include the extremes of BITS. */
static void fill(tensor_t *t, int ndim, const long *shape, int bits) {
  long n, i;

  if (tensor_alloc(t, ndim, shape) != 0) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  n = tensor_numel(t);
  for (i = 0; i < n; i++)
    t->data[i] = (i * 7919 - 5000) * (i % 2 ? -1 : 1);
  t->data[0] = bits == 32 ? INT32_MIN : INT64_MIN;
  t->data[n - 1] = bits == 32 ? INT32_MAX : INT64_MAX;
}

static void test_round_trip(void) {
  static const long shapes[5][4] = {{5}, {2, 3}, {2, 3, 4}, {2, 1, 3, 2}, {3, 1000}};
  static const int ranks[5] = {1, 2, 3, 4, 2};
  int b, s;

  for (b = 32; b <= 64; b += 32)
    for (s = 0; s < 5; s++) {
      char name[64], path[128], err[512] = "";
      tensor_t t, u;

      snprintf(name, sizeof name, "round_trip_int%d_rank%d%s", b, ranks[s],
               s == 4 ? "_large" : "");
      in_tmp(path, sizeof path, "rt.npy");
      fill(&t, ranks[s], shapes[s], b);
      if (npy_write(path, &t, b, err, sizeof err) != 0) {
        not_ok(name, "expected write 0, got 1 (%s)", err);
      } else if (npy_read(path, &u, err, sizeof err) != 0) {
        not_ok(name, "expected read 0, got 1 (%s)", err);
      } else {
        expect_tensor(name, &u, t.ndim, t.shape, t.data, tensor_numel(&t));
        tensor_free(&u);
      }
      tensor_free(&t);
      tensor_free(&t); /* a second free is a no-op */
    }
}

/* npy_write_float and npy_read: the bit patterns back, fbits set; a pattern wider than the
 * dtype refused. */
static void test_float_round_trip(void) {
  static const long shape[2] = {3, 5};
  for (int b = 16; b <= 32; b += 16) {
    char name[64], path[128], err[512] = "";
    tensor_t t, u;
    snprintf(name, sizeof name, "round_trip_float%d", b);
    in_tmp(path, sizeof path, "rtf.npy");
    if (tensor_alloc(&t, 2, shape) != 0) {
      not_ok(name, "out of memory");
      continue;
    }
    for (long i = 0; i < 15; i++)
      t.data[i] = (int64_t)(((uint64_t)i * 0x9e3779b97f4a7c15ull) >> (64 - b));
    if (npy_write_float(path, &t, b, err, sizeof err) != 0) {
      not_ok(name, "expected write 0, got 1 (%s)", err);
    } else if (npy_read(path, &u, err, sizeof err) != 0) {
      not_ok(name, "expected read 0, got 1 (%s)", err);
    } else {
      if (u.fbits != b) not_ok(name, "expected fbits %d, got %d", b, u.fbits);
      else expect_tensor(name, &u, t.ndim, t.shape, t.data, 15);
      tensor_free(&u);
    }
    t.data[3] = (int64_t)1 << b;
    snprintf(name, sizeof name, "write_float%d_too_wide", b);
    if (npy_write_float(path, &t, b, err, sizeof err) != 1 || !strstr(err, "out of range"))
      not_ok(name, "expected 1 and 'out of range', got '%s'", err);
    else
      ok(name);
    tensor_free(&t);
    remove(path);
  }
}

/* Read the whole of PATH into BUF (at most CAP bytes). Returns the length, or 0. */
static size_t slurp(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  size_t n;

  if (f == NULL)
    return 0;
  n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

/* The header of a written file: preamble, the dict, spaces, '\n', 64-byte aligned. */
static void header_case(const char *name, int ndim, const long *shape, int bits,
                        const char *dict) {
  char path[128], err[512] = "";
  unsigned char buf[512];
  tensor_t t;
  size_t n, hlen, dlen = strlen(dict), i;

  in_tmp(path, sizeof path, "hdr.npy");
  fill(&t, ndim, shape, bits);
  if (npy_write(path, &t, bits, err, sizeof err) != 0) {
    not_ok(name, "expected write 0, got 1 (%s)", err);
    tensor_free(&t);
    return;
  }
  n = slurp(path, buf, sizeof buf);
  hlen = n >= 10 ? (size_t)buf[8] | (size_t)buf[9] << 8 : 0;
  if (n < 10 || memcmp(buf, "\x93NUMPY\x01\x00", 8) != 0)
    not_ok(name, "expected the preamble \\x93NUMPY 1.0, got %zu bytes", n);
  else if ((10 + hlen) % 64 != 0)
    not_ok(name, "expected preamble + header a multiple of 64, got %zu", 10 + hlen);
  else if (n != 10 + hlen + (size_t)tensor_numel(&t) * (size_t)(bits / 8))
    not_ok(name, "expected %zu bytes, got %zu", 10 + hlen + (size_t)tensor_numel(&t) * (bits / 8),
         n);
  else if (hlen < dlen + 1 || memcmp(buf + 10, dict, dlen) != 0)
    not_ok(name, "expected the dict %s, got '%.*s'", dict, (int)hlen, (const char *)buf + 10);
  else if (buf[10 + hlen - 1] != '\n')
    not_ok(name, "expected '\\n', got 0x%02x at index %zu", buf[10 + hlen - 1], 10 + hlen - 1);
  else {
    for (i = 10 + dlen; i < 10 + hlen - 1; i++)
      if (buf[i] != ' ')
        break;
    if (i < 10 + hlen - 1)
      not_ok(name, "expected ' ', got 0x%02x at index %zu", buf[i], i);
    else if (memcmp(buf + 10 + hlen, bits == 32 ? "\x00\x00\x00\x80" : "\0\0\0\0\0\0\0\x80",
                    (size_t)bits / 8) != 0)
      not_ok(name, "expected the first value little-endian, got 0x%02x at index %zu",
           buf[10 + hlen], 10 + hlen);
    else
      ok(name);
  }
  tensor_free(&t);
  remove(path);
}

static void test_write(void) {
  static const long s234[3] = {2, 3, 4}, s5[1] = {5};
  char path[128], other[256], err[512] = "";
  tensor_t t;

  header_case("write_header_rank3_i4", 3, s234, 32,
              "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3, 4), }");
  header_case("write_header_rank1_i8", 1, s5, 64,
              "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }");

  /* a directory that does not exist */
  in_tmp(path, sizeof path, "no/such/dir/x.npy");
  fill(&t, 1, s5, 32);
  err[0] = '\0';
  if (npy_write(path, &t, 32, err, sizeof err) != 1)
    not_ok("write_missing_dir", "expected 1, got 0");
  else if (strstr(err, "cannot create") == NULL || strstr(err, path) == NULL)
    not_ok("write_missing_dir", "expected 'cannot create' and the path, got '%s'", err);
  else if (exists(path))
    not_ok("write_missing_dir", "expected no file, got one at '%s'", path);
  else
    ok("write_missing_dir");

  /* int32 out of range: fails before touching an existing file */
  in_tmp(path, sizeof path, "keep.npy");
  if (npy_write(path, &t, 32, err, sizeof err) != 0) {
    not_ok("write_int32_out_of_range", "expected the first write 0, got 1 (%s)", err);
  } else {
    tensor_t u;

    memset(&u, 0, sizeof u);
    t.data[3] = (int64_t)INT32_MAX + 1;
    err[0] = '\0';
    if (npy_write(path, &t, 32, err, sizeof err) != 1)
      not_ok("write_int32_out_of_range", "expected 1, got 0");
    else if (strstr(err, "value 2147483648 at index 3 is out of range") == NULL)
      not_ok("write_int32_out_of_range", "expected an out of range message, got '%s'", err);
    else if (npy_read(path, &u, err, sizeof err) != 0)
      not_ok("write_int32_out_of_range", "expected the old file intact, got '%s'", err);
    else if (u.data[3] == t.data[3])
      not_ok("write_int32_out_of_range", "expected the old value, got %" PRId64 " at index 3",
           u.data[3]);
    else
      ok("write_int32_out_of_range");
    tensor_free(&u);
    t.data[3] = (int64_t)INT32_MIN - 1;
    in_tmp(other, sizeof other, "never.npy");
    if (npy_write(other, &t, 32, err, sizeof err) != 1 || strstr(err, "out of range") == NULL)
      not_ok("write_int32_below_range", "expected 1 and 'out of range', got '%s'", err);
    else if (exists(other))
      not_ok("write_int32_below_range", "expected no file, got '%s'", other);
    else
      ok("write_int32_below_range");
    t.data[3] = 0;
    if (npy_write(path, &t, 16, err, sizeof err) != 1 || strstr(err, "bits 16") == NULL)
      not_ok("write_bad_bits", "expected 1 and 'bits 16', got '%s'", err);
    else
      ok("write_bad_bits");
    remove(path);
  }

  /* rename onto a directory fails after the temporary exists: it must be removed */
  in_tmp(path, sizeof path, "adir");
  snprintf(other, sizeof other, "%s.tmp.%ld", path, (long)getpid());
  if (mkdir(path, 0700) != 0) {
    not_ok("write_rename_fails_cleans_up", "expected mkdir 0, got %s", strerror(errno));
  } else {
    err[0] = '\0';
    if (npy_write(path, &t, 64, err, sizeof err) != 1)
      not_ok("write_rename_fails_cleans_up", "expected 1, got 0");
    else if (strstr(err, "cannot rename") == NULL)
      not_ok("write_rename_fails_cleans_up", "expected 'cannot rename', got '%s'", err);
    else if (exists(other))
      not_ok("write_rename_fails_cleans_up", "expected no temporary, got '%s'", other);
    else
      ok("write_rename_fails_cleans_up");
    rmdir(path);
  }
  tensor_free(&t);
}

static void test_read_errors(void) {
  char path[128], err[512] = "";
  tensor_t t;

  in_tmp(path, sizeof path, "missing.npy");
  if (npy_read(path, &t, err, sizeof err) != 1)
    not_ok("read_missing_file", "expected 1, got 0");
  else if (strncmp(err, path, strlen(path)) != 0 || strstr(err, "cannot open") == NULL)
    not_ok("read_missing_file", "expected '%s: cannot open...', got '%s'", path, err);
  else
    ok("read_missing_file");

  /* a file with a float dtype: its values' bit patterns, fbits 32 */
  in_tmp(path, sizeof path, "f4.npy");
  {
    unsigned char buf[256];
    static const unsigned char d[4] = {0x00, 0x00, 0xc0, 0x3f};   /* 1.5f */
    size_t len = mk(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", d, 4);
    FILE *f = fopen(path, "wb");

    if (f == NULL || fwrite(buf, 1, len, f) != len) {
      not_ok("read_float_file", "expected to create '%s', got %s", path, strerror(errno));
      if (f != NULL)
        fclose(f);
    } else {
      fclose(f);
      if (npy_read(path, &t, err, sizeof err) != 0)
        not_ok("read_float_file", "expected 0, got 1 (%s)", err);
      else if (t.fbits != 32 || t.ndim != 1 || t.data[0] != 0x3fc00000)
        not_ok("read_float_file", "expected float32 1.5 (0x3fc00000), got fbits %d value 0x%"
               PRIx64, t.fbits, (uint64_t)t.data[0]);
      else
        ok("read_float_file");
      if (t.data) tensor_free(&t);
    }
    remove(path);
  }
  if (npy_read(tmpdir, &t, err, sizeof err) != 1 || strncmp(err, tmpdir, strlen(tmpdir)) != 0)
    not_ok("read_directory", "expected 1 and a message naming '%s', got '%s'", tmpdir, err);
  else
    ok("read_directory");
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_npy.XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "cannot create a temporary directory: %s\n", strerror(errno));
    return 2;
  }
  test_accept();
  test_reject();
  test_robustness();
  test_round_trip();
  test_float_round_trip();
  test_write();
  test_read_errors();
  {
    char path[128];

    in_tmp(path, sizeof path, "rt.npy");
    remove(path);
    if (rmdir(tmpdir) != 0) {
      not_ok("temp_dir_clean", "expected an empty '%s', got %s", tmpdir, strerror(errno));
    } else {
      ok("temp_dir_clean");
    }
  }
  return tap_end();
}
