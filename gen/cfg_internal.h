/* cfg_internal: what the modules of the configuration loader share (cfg.h is the public face).
 *
 *   cfg_diag.c   diagnostics: collected, sorted by position, printed together
 *   cfg_yaml.c   stage 1, load: libyaml events into a tree of nodes that keep their marks
 *   cfg_keys.c   the table of keys that drives the validator and the docs
 *   cfg_check.c  stage 2, validate: the tree into cfg_t against the table, then the
 *                constraints between keys
 *   cfg.c        stage 3, derive; the public entry points; --set overrides
 */
#ifndef SAGEN_CFG_INTERNAL_H
#define SAGEN_CFG_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "cfg.h"

#define MAX_FILE_BYTES (1L << 20) /* a config is a few hundred bytes: refuse anything above */
#define MAX_NODES 4096            /* bounds memory and work on fuzzed input */
#define MAX_DEPTH 16              /* the schema needs 2 levels */
#define SHOW_MAX 40               /* input bytes quoted in one message, then "..." */
#define LEV_MAX 32                /* keys longer than this get no "did you mean" */
#define MAX_ADDR_BITS 30

/* ---- diagnostics (cfg_diag.c) ------------------------------------------------------------ */

typedef struct diag {
  size_t line, col; /* 1-based; line 0: the whole file */
  size_t seq;       /* order of discovery, keeps the sort stable */
  char *msg;
} diag_t;

typedef struct ctx {
  const char *file;
  diag_t *d;
  size_t nd, cap;
  int oom;      /* a diagnostic could not be stored */
  size_t nodes; /* nodes loaded so far */
} ctx_t;

/* Add a diagnostic at LINE:COL (1-based; line 0: the whole file, or a --set, see cfg.c) to X,
 * formatted as printf does (at most 1023 bytes). Out of memory sets X->oom instead. */
void cfg_say(ctx_t *x, size_t line, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Print X's diagnostics sorted by position to ERR (may be NULL) as "file:line:col: message",
 * every byte outside printable ASCII escaped, then free them. Returns 1 if there were any (or
 * one could not be stored), else 0. */
int cfg_flush(ctx_t *x, FILE *err);

/* A quotable, one-line, ASCII rendering of input bytes, truncated to SHOW_MAX bytes. */
typedef struct shown {
  char s[SHOW_MAX * 4 + 8];
} shown_t;

/* S[0..N) rendered into B as quotable one-line ASCII (bytes outside printable ASCII as \xNN),
 * cut to SHOW_MAX bytes with "..."; returns B->s. */
const char *cfg_show(shown_t *b, const char *s, size_t n);

/* ---- the yaml tree (cfg_yaml.c) ------------------------------------------------------------ */

typedef enum { N_SCALAR, N_MAP, N_SEQ, N_ALIAS } nkind_t;

typedef struct node {
  nkind_t kind;
  size_t line, col;  /* 1-based start mark */
  char *text;        /* scalar value or alias name: LEN bytes plus a NUL (may hold NULs) */
  size_t len;
  char *tag;         /* explicit tag ("!!str"), or NULL */
  int plain;         /* scalar written without quotes: may be an integer, boolean or null */
  struct node **kid; /* map: key, value, key, value...; seq: items */
  size_t nkid, cap;
} node_t;

/* Free N and everything under it; NULL is a no-op. */
void cfg_node_free(node_t *n);

/* A NUL-terminated copy of P[0..N) (malloc'ed), or NULL if out of memory. */
char *cfg_memdup0(const void *p, size_t n);

/* Append KID to PARENT's children. Returns 0, or -1 if out of memory (KID not added). */
int cfg_node_add(node_t *parent, node_t *kid);

/* Parse BUF[0..LEN) into a tree. Returns 0 with *ROOTP set (NULL: no document; the caller
 * frees it with cfg_node_free), or 1 after reporting into X why the text is not one well-formed
 * yaml document of bounded size (MAX_NODES, MAX_DEPTH). */
int cfg_yaml_load(ctx_t *x, const unsigned char *buf, size_t len, node_t **rootp);

/* ---- the table of keys (cfg_keys.c) --------------------------------------------------------- */

typedef enum { T_MAP, T_INT, T_BOOL, T_IDENT, T_ENUM } ktype_t;

typedef struct cfgkey {
  const char *path;     /* "array.rows": parent path, '.', leaf */
  ktype_t type;
  int required;         /* else the default below applies */
  long long def;        /* T_INT, T_BOOL default */
  const char *sdef;     /* T_ENUM default */
  long long min, max;   /* T_INT range; T_IDENT: max length */
  int pow2;             /* T_INT: must be a power of two */
  const char *words;    /* T_ENUM: allowed values, space separated */
  const char *also;     /* constraint on other keys, checked in cross_check(), for the docs */
  size_t off, size;     /* field of cfg_t (not T_MAP) */
  const char *meaning;
} cfgkey_t;

enum {
  K_NAME, K_ARRAY, K_ROWS, K_COLS, K_DATAFLOW, K_GROUPS,
  K_DATA, K_FORMAT, K_ACCFMT, K_IN, K_WT, K_ACC,
  K_MEMORY, K_BUS, K_IFKIB, K_WTKIB, K_OUTKIB, K_LINEKIB, K_DBUF, K_DRAM,
  K_FEEDER, K_REGS, K_PATTERN, K_FIFO,
  NKEYS
};

/* The table: every key and section, in the order the docs list them. */
extern const cfgkey_t cfg_keys[NKEYS];

/* The last component of K's path ("rows" of "array.rows"). */
const char *cfg_leaf(const cfgkey_t *k);

/* Whether key K sits directly in section SEC (-1: the top level). */
int cfg_in_section(int k, int sec);

/* The name of type T as the docs print it ("integer", "mapping", ...). */
const char *cfg_type_name(ktype_t t);

/* "rows, cols, dataflow": the keys of section SEC (-1: the top level), into BUF[0..N); returns
 * BUF. */
const char *cfg_section_keys(int sec, char *buf, size_t n);

/* "1..256", "os", ... : what key K allows, as errors and docs say it, into BUF[0..N); returns
 * BUF. */
const char *cfg_allowed_text(int k, char *buf, size_t n);

/* Levenshtein distance between A[0..AN) and B, or SIZE_MAX when either is longer than LEV_MAX. */
size_t cfg_lev(const char *a, size_t an, const char *b);

/* ---- the validator (cfg_check.c) ------------------------------------------------------------ */

/* Whether N is a yaml null: a plain scalar "", "~", "null", "Null" or "NULL". */
int cfg_is_null(const node_t *n);

/* Address bits of a bank of WORDS words: max(1, ceil(log2(words))). */
int cfg_addr_bits(long long words);

/* Validate the tree ROOT (NULL: no document) into *C: the defaults first, then every key
 * written, then the constraints between keys; every problem reported into X, each naming the
 * key path, the bad value and what is allowed. */
void cfg_validate(ctx_t *x, const node_t *root, cfg_t *c);

#endif
