/* cfg: load, validate and derive a sagen array description. See cfg.h.
 *
 * Stage 1 (load) turns libyaml events into a small tree of nodes that keep their start marks.
 * Stage 2 (validate) walks that tree against keys[], the one table that also prints the docs.
 * Stage 3 (derive) fills the memory geometry. Problems are collected as diagnostics, sorted by
 * position and printed together, so one run reports every problem of a file. */
#include "cfg.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_FILE_BYTES (1L << 20) /* a config is a few hundred bytes: refuse anything above */
#define MAX_NODES 4096            /* bounds memory and work on fuzzed input */
#define MAX_DEPTH 16              /* the schema needs 2 levels */
#define SHOW_MAX 40               /* input bytes quoted in one message, then "..." */
#define LEV_MAX 32                /* keys longer than this get no "did you mean" */
#define MAX_ADDR_BITS 30

/* ------------------------------------------------------------------------------------------ */
/* Diagnostics                                                                                  */

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

static void say(ctx_t *x, size_t line, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(ctx_t *x, size_t line, size_t col, const char *fmt, ...)
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

/* Print the diagnostics sorted by position to ERR (may be NULL), free them. Returns 1 if any. */
static int flush(ctx_t *x, FILE *err)
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

/* A quotable, one-line, ASCII rendering of input bytes, truncated to SHOW_MAX bytes. */
typedef struct shown {
  char s[SHOW_MAX * 4 + 8];
} shown_t;

static const char *show(shown_t *b, const char *s, size_t n)
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

/* ------------------------------------------------------------------------------------------ */
/* Stage 1: libyaml events -> tree of nodes with marks                                          */

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

static void node_free(node_t *n)
{
  size_t i;

  if (!n)
    return;
  for (i = 0; i < n->nkid; i++)
    node_free(n->kid[i]);
  free(n->kid);
  free(n->text);
  free(n->tag);
  free(n);
}

static char *memdup0(const void *p, size_t n)
{
  char *s = malloc(n + 1);
  if (s) {
    if (n)
      memcpy(s, p, n);
    s[n] = '\0';
  }
  return s;
}

/* A new node for event EV, or NULL when out of memory. */
static node_t *node_new(const yaml_event_t *ev)
{
  node_t *n = calloc(1, sizeof *n);
  const yaml_char_t *tag = NULL;

  if (!n)
    return NULL;
  n->line = ev->start_mark.line + 1;
  n->col = ev->start_mark.column + 1;
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    n->kind = N_SCALAR;
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    n->len = ev->data.scalar.length;
    n->text = memdup0(ev->data.scalar.value, n->len);
    tag = ev->data.scalar.tag;
    break;
  case YAML_ALIAS_EVENT:
    n->kind = N_ALIAS;
    n->len = strlen((const char *)ev->data.alias.anchor);
    n->text = memdup0(ev->data.alias.anchor, n->len);
    break;
  case YAML_MAPPING_START_EVENT:
    n->kind = N_MAP;
    tag = ev->data.mapping_start.tag;
    break;
  default:
    n->kind = N_SEQ;
    tag = ev->data.sequence_start.tag;
    break;
  }
  if ((n->kind == N_SCALAR || n->kind == N_ALIAS) && !n->text)
    goto fail;
  if (tag && !(n->tag = strdup((const char *)tag)))
    goto fail;
  return n;
fail:
  node_free(n);
  return NULL;
}

static int node_add(node_t *parent, node_t *kid)
{
  if (parent->nkid == parent->cap) {
    size_t cap = parent->cap ? 2 * parent->cap : 8;
    node_t **k = realloc(parent->kid, cap * sizeof *k);
    if (!k)
      return -1;
    parent->kid = k;
    parent->cap = cap;
  }
  parent->kid[parent->nkid++] = kid;
  return 0;
}

/* 1-based line and column of byte OFF of BUF (columns count bytes). */
static void locate(const unsigned char *buf, size_t len, size_t off, size_t *line, size_t *col)
{
  size_t i;

  *line = 1;
  *col = 1;
  for (i = 0; i < off && i < len; i++) {
    if (buf[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* True if the leading white space of 0-based line LINE of BUF holds a tab. */
static int indented_by_tab(const unsigned char *buf, size_t len, size_t line)
{
  size_t i = 0;

  while (line && i < len)
    if (buf[i++] == '\n')
      line--;
  for (; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++)
    if (buf[i] == '\t')
      return 1;
  return 0;
}

/* Report the error libyaml stopped at, in one line, with its own problem text and mark. */
static void yaml_problem(ctx_t *x, const yaml_parser_t *p, const unsigned char *buf, size_t len)
{
  const char *problem = p->problem ? p->problem : "unknown problem";
  size_t line, col;

  switch (p->error) {
  case YAML_MEMORY_ERROR:
    say(x, 0, 0, "out of memory while parsing yaml");
    break;
  case YAML_READER_ERROR:
    locate(buf, len, p->problem_offset, &line, &col);
    if (p->problem_value >= 0)
      say(x, line, col, "not valid yaml text: %s (#x%02x at byte offset %zu)", problem,
          (unsigned)p->problem_value, p->problem_offset);
    else
      say(x, line, col, "not valid yaml text: %s (at byte offset %zu)", problem,
          p->problem_offset);
    break;
  default: { /* scanner and parser errors carry marks */
    char where[160] = "";
    if (p->context)
      snprintf(where, sizeof where, " (%s at %zu:%zu)", p->context, p->context_mark.line + 1,
               p->context_mark.column + 1);
    say(x, p->problem_mark.line + 1, p->problem_mark.column + 1, "yaml syntax error: %s%s%s",
        problem, where,
        indented_by_tab(buf, len, p->problem_mark.line) ? ": tabs cannot indent yaml, use spaces"
                                                        : "");
    break;
  }
  }
}

/* Parse BUF[0..LEN) into a tree. Returns 0 with *ROOTP set (NULL: no document), or 1 after
 * reporting why the text is not one well-formed yaml document of bounded size. */
static int load(ctx_t *x, const unsigned char *buf, size_t len, node_t **rootp)
{
  yaml_parser_t p;
  yaml_event_t ev;
  node_t *stack[MAX_DEPTH];
  size_t depth = 0;
  node_t *root = NULL, *n;
  int docs = 0, done = 0;

  *rootp = NULL;
  memset(&ev, 0, sizeof ev);
  if (!yaml_parser_initialize(&p)) {
    say(x, 0, 0, "out of memory while parsing yaml");
    return 1;
  }
  yaml_parser_set_input_string(&p, buf, len);
  while (!done) {
    if (!yaml_parser_parse(&p, &ev)) {
      yaml_problem(x, &p, buf, len);
      goto fail;
    }
    switch (ev.type) {
    case YAML_STREAM_END_EVENT:
      done = 1;
      break;
    case YAML_DOCUMENT_START_EVENT:
      if (++docs > 1) {
        say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
            "a second yaml document starts here: a config file holds exactly one document");
        goto fail;
      }
      break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      if (depth)
        depth--;
      break;
    case YAML_SCALAR_EVENT:
    case YAML_ALIAS_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
      if (++x->nodes > MAX_NODES) {
        say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
            "too many yaml nodes: a config file holds at most %d", MAX_NODES);
        goto fail;
      }
      n = node_new(&ev);
      if (!n || (depth && node_add(stack[depth - 1], n))) {
        node_free(n);
        say(x, 0, 0, "out of memory while loading yaml");
        goto fail;
      }
      if (!depth) {
        if (root) { /* cannot happen: one root per document, one document */
          node_free(n);
          break;
        }
        root = n;
      }
      if (n->kind == N_MAP || n->kind == N_SEQ) {
        if (depth == MAX_DEPTH) {
          say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
              "yaml nested deeper than %d levels: a config file needs 2", MAX_DEPTH);
          goto fail;
        }
        stack[depth++] = n;
      }
      break;
    default:
      break;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&p);
  *rootp = root;
  return 0;
fail:
  yaml_event_delete(&ev);
  yaml_parser_delete(&p);
  node_free(root);
  return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The table of keys: drives the validator and cfg_print_keys_markdown                          */

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
  K_DATA, K_IN, K_WT, K_ACC,
  K_MEMORY, K_BUS, K_IFKIB, K_WTKIB, K_OUTKIB, K_LINEKIB, K_DBUF, K_DRAM,
  K_FEEDER, K_REGS, K_PATTERN, K_FIFO,
  NKEYS
};

#define FIELD(f) .off = offsetof(cfg_t, f), .size = sizeof(((cfg_t *)0)->f)

static const cfgkey_t keys[NKEYS] = {
    [K_NAME] = {"name", T_IDENT, 1, 0, NULL, 1, CFG_NAME_MAX - 1, 0, NULL, NULL, FIELD(name),
                "names the generated modules and files"},
    [K_ARRAY] = {"array", T_MAP, 1, 0, NULL, 0, 0, 0, NULL, NULL, 0, 0, "shape of the PE array"},
    [K_ROWS] = {"array.rows", T_INT, 1, 0, NULL, 1, 256, 0, NULL, NULL, FIELD(rows),
                "PE rows: output pixels computed at once, one feed lane each"},
    [K_COLS] = {"array.cols", T_INT, 1, 0, NULL, 1, 256, 0, NULL, "rows x cols <= 65536",
                FIELD(cols), "PE columns: output channels computed at once"},
    [K_DATAFLOW] = {"array.dataflow", T_ENUM, 0, 0, "os", 0, 0, 0, "os", NULL, FIELD(dataflow),
                    "os: output-stationary, each PE keeps its accumulator"},
    [K_GROUPS] = {"array.col_groups", T_INT, 0, 1, NULL, 1, 256, 0, NULL,
                  "<= array.cols, rows x col_groups <= 256", FIELD(col_groups),
                  "column groups: up to this many groups of columns can compute different "
                  "pixels at once (one feed lane per row and group), so layers with few output "
                  "channels still fill the columns"},
    [K_DATA] = {"data", T_MAP, 0, 0, NULL, 0, 0, 0, NULL, NULL, 0, 0,
                "element widths, signed two's complement"},
    [K_IN] = {"data.input_bits", T_INT, 0, 8, NULL, 2, 16, 0, NULL, NULL, FIELD(input_bits),
              "input (activation) width"},
    [K_WT] = {"data.weight_bits", T_INT, 0, 8, NULL, 2, 16, 0, NULL, NULL, FIELD(weight_bits),
              "weight width"},
    [K_ACC] = {"data.acc_bits", T_INT, 0, 32, NULL, 2, 64, 0, NULL,
               ">= data.input_bits + data.weight_bits", FIELD(acc_bits),
               "accumulator width (wraps around)"},
    [K_MEMORY] = {"memory", T_MAP, 0, 0, NULL, 0, 0, 0, NULL, NULL, 0, 0,
                  "on-chip SRAMs and the host port"},
    [K_BUS] = {"memory.bus_elems", T_INT, 0, 16, NULL, 2, 256, 1, NULL, NULL, FIELD(bus_elems),
               "ifmap SRAM word, in input elements"},
    [K_IFKIB] = {"memory.ifmap_kib", T_INT, 0, 32, NULL, 1, 65536, 0, NULL,
                 "holds >= 1 word of bus_elems x input_bits", FIELD(ifmap_kib),
                 "capacity of one ifmap bank, KiB"},
    [K_WTKIB] = {"memory.weight_kib", T_INT, 0, 32, NULL, 1, 65536, 0, NULL,
                 "holds >= 1 word of array.cols x weight_bits", FIELD(weight_kib),
                 "capacity of one weight bank, KiB"},
    [K_OUTKIB] = {"memory.output_kib", T_INT, 0, 32, NULL, 1, 65536, 0, NULL,
                  "holds >= 1 word of array.cols x acc_bits", FIELD(output_kib),
                  "capacity of one output bank, KiB"},
    [K_LINEKIB] = {"memory.line_kib", T_INT, 0, 0, NULL, 0, 65536, 0, NULL,
                   "0, or holds >= 3 words of array.cols x acc_bits", FIELD(line_kib),
                   "overlap-add line for col2im, KiB (0: none): the input gradient of a layer "
                   "with few channels runs as dy times its (tap, channel) filters, the products "
                   "added into dx as they leave the array (see the README)"},
    [K_DBUF] = {"memory.double_buffer", T_BOOL, 0, 1, NULL, 0, 1, 0, NULL, NULL,
                FIELD(double_buffer),
                "two banks per memory: the host fills one while the array uses the other"},
    [K_DRAM] = {"memory.dram_bytes_per_cycle", T_INT, 0, 16, NULL, 1, 4096, 0, NULL, NULL,
                FIELD(dram_bytes_per_cycle), "host port bandwidth, bytes per clock cycle"},
    [K_FEEDER] = {"feeder", T_MAP, 0, 0, NULL, 0, 0, 0, NULL, NULL, 0, 0,
                  "per-lane input feeder"},
    [K_REGS] = {"feeder.regs_per_lane", T_INT, 0, 3, NULL, 1, 16, 0, NULL, NULL,
                FIELD(regs_per_lane), "M: elements a lane can take from one bus word per cycle"},
    [K_PATTERN] = {"feeder.pattern_bits", T_INT, 0, 64, NULL, 1, 256, 0, NULL, NULL,
                   FIELD(pattern_bits), "kernel pattern width: (S-1)*dilation_w + 1 must fit"},
    [K_FIFO] = {"feeder.fifo_depth", T_INT, 0, 5, NULL, 2, 64, 0, NULL,
                ">= feeder.regs_per_lane", FIELD(fifo_depth),
                "elements per lane FIFO; also the widest kernel slice of a pass"},
};

/* Verilog-2005 (IEEE 1364) and SystemVerilog (IEEE 1800-2017) reserved words. 'default' is
 * missing on purpose: it is the name of the shipped yaml/default.yaml, so the generator must
 * only ever use the name inside longer identifiers (prefixes, suffixes), never alone. */
static const char *const verilog_keywords[] = {
    "accept_on", "alias", "always", "always_comb", "always_ff", "always_latch", "and", "assert",
    "assign", "assume", "automatic", "before", "begin", "bind", "bins", "binsof", "bit", "break",
    "buf", "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell", "chandle", "checker",
    "class", "clocking", "cmos", "config", "const", "constraint", "context", "continue", "cover",
    "covergroup", "coverpoint", "cross", "deassign", "defparam", "design", "disable", "dist",
    "do", "edge", "else", "end", "endcase", "endchecker", "endclass", "endclocking", "endconfig",
    "endfunction", "endgenerate", "endgroup", "endinterface", "endmodule", "endpackage",
    "endprimitive", "endprogram", "endproperty", "endspecify", "endsequence", "endtable",
    "endtask", "enum", "event", "eventually", "expect", "export", "extends", "extern", "final",
    "first_match", "for", "force", "foreach", "forever", "fork", "forkjoin", "function",
    "generate", "genvar", "global", "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
    "illegal_bins", "implements", "implies", "import", "incdir", "include", "initial", "inout",
    "input", "inside", "instance", "int", "integer", "interconnect", "interface", "intersect",
    "join", "join_any", "join_none", "large", "let", "liblist", "library", "local", "localparam",
    "logic", "longint", "macromodule", "matches", "medium", "modport", "module", "nand",
    "negedge", "nettype", "new", "nexttime", "nmos", "nor", "noshowcancelled", "not", "notif0",
    "notif1", "null", "or", "output", "package", "packed", "parameter", "pmos", "posedge",
    "primitive", "priority", "program", "property", "protected", "pull0", "pull1", "pulldown",
    "pullup", "pulsestyle_ondetect", "pulsestyle_onevent", "pure", "rand", "randc", "randcase",
    "randsequence", "rcmos", "real", "realtime", "ref", "reg", "reject_on", "release", "repeat",
    "restrict", "return", "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "s_always",
    "s_eventually", "s_nexttime", "s_until", "s_until_with", "scalared", "sequence", "shortint",
    "shortreal", "showcancelled", "signed", "small", "soft", "solve", "specify", "specparam",
    "static", "string", "strong", "strong0", "strong1", "struct", "super", "supply0", "supply1",
    "sync_accept_on", "sync_reject_on", "table", "tagged", "task", "this", "throughout", "time",
    "timeprecision", "timeunit", "tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand",
    "trior", "trireg", "type", "typedef", "union", "unique", "unique0", "unsigned", "until",
    "until_with", "untyped", "use", "uwire", "var", "vectored", "virtual", "void", "wait",
    "wait_order", "wand", "weak", "weak0", "weak1", "while", "wildcard", "wire", "with",
    "within", "wor", "xnor", "xor",
};

static const char *leaf(const cfgkey_t *k)
{
  const char *dot = strrchr(k->path, '.');
  return dot ? dot + 1 : k->path;
}

/* True if key K sits directly in section SEC (-1: the top level). */
static int in_section(int k, int sec)
{
  if (sec < 0)
    return strchr(keys[k].path, '.') == NULL;
  size_t n = strlen(keys[sec].path);
  return strncmp(keys[k].path, keys[sec].path, n) == 0 && keys[k].path[n] == '.' &&
         strchr(keys[k].path + n + 1, '.') == NULL;
}

static const char *type_name(ktype_t t)
{
  switch (t) {
  case T_MAP: return "mapping";
  case T_INT: return "integer";
  case T_BOOL: return "boolean";
  case T_IDENT: return "identifier";
  default: return "string";
  }
}

/* "rows, cols, dataflow": the keys of section SEC (-1: the top level), into BUF[0..N). */
static const char *section_keys(int sec, char *buf, size_t n)
{
  size_t o = 0;
  int i;

  buf[0] = '\0';
  for (i = 0; i < NKEYS; i++) {
    if (in_section(i, sec) && o < n) {
      int w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", leaf(&keys[i]));
      o += w > 0 ? (size_t)w : 0;
    }
  }
  return buf;
}

/* "1..256", "os", ... : what key K allows, as errors and docs say it. */
static const char *allowed_text(int k, char *buf, size_t n)
{
  const cfgkey_t *e = &keys[k];
  char list[256];

  buf[0] = '\0';
  switch (e->type) {
  case T_MAP:
    snprintf(buf, n, "a mapping of %s", section_keys(k, list, sizeof list));
    break;
  case T_INT:
    snprintf(buf, n, "%s%lld..%lld", e->pow2 ? "a power of two " : "", e->min, e->max);
    break;
  case T_BOOL:
    snprintf(buf, n, "true or false");
    break;
  case T_IDENT:
    snprintf(buf, n, "a verilog identifier: letters, digits and '_', no leading digit, at most "
                     "%lld chars, not a keyword", e->max);
    break;
  case T_ENUM:
    snprintf(buf, n, "%s", e->words);
    break;
  }
  return buf;
}

/* Levenshtein distance between A[0..AN) and B, or SIZE_MAX when either is too long to bother. */
static size_t lev(const char *a, size_t an, const char *b)
{
  size_t bn = strlen(b), row[LEV_MAX + 1], i, j;

  if (an > LEV_MAX || bn > LEV_MAX)
    return SIZE_MAX;
  for (j = 0; j <= bn; j++)
    row[j] = j;
  for (i = 1; i <= an; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (j = 1; j <= bn; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[bn];
}

/* ------------------------------------------------------------------------------------------ */
/* Stage 2: validate the tree into cfg_t                                                       */

typedef struct vstate {
  ctx_t *x;
  cfg_t *c;
  size_t seen[NKEYS], seen_col[NKEYS]; /* first occurrence of the key; line 0: not written */
  size_t line[NKEYS], col[NKEYS]; /* the value, else the mapping that lacks it */
  unsigned char bad[NKEYS];      /* missing, wrong, or under a wrong section: skip cross-checks */
} vstate_t;

static int *int_field(cfg_t *c, int k) { return (int *)(void *)((char *)c + keys[k].off); }
static char *str_field(cfg_t *c, int k) { return (char *)c + keys[k].off; }

static int is_null(const node_t *n)
{
  return n->kind == N_SCALAR && n->plain &&
         (n->len == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
          strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0);
}

/* "a mapping", "the quoted string 'x'", "'x'": what N is, for "expected X, got Y". */
static const char *what(const node_t *n, char *buf, size_t size)
{
  shown_t s;

  switch (n->kind) {
  case N_MAP:
    return "a mapping";
  case N_SEQ:
    return "a sequence";
  case N_ALIAS:
    snprintf(buf, size, "the alias '*%s' (anchors and aliases are not supported)",
             show(&s, n->text, n->len));
    return buf;
  default:
    if (is_null(n))
      return "no value";
    snprintf(buf, size, "%s'%s'", n->plain ? "" : "the quoted string ", show(&s, n->text, n->len));
    return buf;
  }
}

/* Why a plain scalar is not a decimal integer; the message says which. */
enum { INT_OK, INT_NOT, INT_FRACTION, INT_RADIX, INT_LEADING_ZERO, INT_SEPARATOR };
static const char *const int_why[] = {
    [INT_OK] = "", [INT_NOT] = "",
    [INT_FRACTION] = " (not a whole number)",
    [INT_RADIX] = " (hex, octal and binary are not accepted: write it in decimal)",
    [INT_LEADING_ZERO] = " (leading zeros are not accepted: write it in decimal)",
    [INT_SEPARATOR] = " (separators are not accepted: write plain decimal digits)",
};

/* Parse S[0..N) as [-+]?[0-9]+ without leading zeros into *V (saturated far outside any range
 * of the table, so huge values stay huge). Returns INT_OK or why it is not one. */
static int parse_int(const char *s, size_t n, long long *v)
{
  size_t i = 0, j;
  int neg = 0;
  long long acc = 0;

  if (i < n && (s[i] == '-' || s[i] == '+'))
    neg = s[i++] == '-';
  if (i == n)
    return INT_NOT;
  if (n - i > 1 && s[i] == '0' && s[i + 1] && strchr("xXoObB", s[i + 1]))
    return INT_RADIX;
  for (j = i; j < n; j++) {
    if (s[j] >= '0' && s[j] <= '9')
      continue;
    if (s[j] == '.' || s[j] == 'e' || s[j] == 'E')
      return INT_FRACTION;
    if (s[j] == '_' || s[j] == ':' || s[j] == ',')
      return INT_SEPARATOR;
    return INT_NOT;
  }
  if (n - i > 1 && s[i] == '0')
    return INT_LEADING_ZERO;
  for (; i < n; i++)
    if (acc < 1000000000000000LL)
      acc = acc * 10 + (s[i] - '0');
  *v = neg ? -acc : acc;
  return INT_OK;
}

/* A tag as written: libyaml expands "!!int" to "tag:yaml.org,2002:int". */
static const char *show_tag(shown_t *s, const char *tag, char *buf, size_t n)
{
  static const char core[] = "tag:yaml.org,2002:";

  if (!strncmp(tag, core, sizeof core - 1)) {
    snprintf(buf, n, "!!%s", show(s, tag + sizeof core - 1, strlen(tag + sizeof core - 1)));
    return buf;
  }
  return show(s, tag, strlen(tag));
}

static void set_leaf(vstate_t *v, int k, const node_t *n)
{
  const cfgkey_t *e = &keys[k];
  ctx_t *x = v->x;
  char allowed[256], got[256];
  shown_t s;
  long long val = 0;
  int why;

  v->bad[k] = 1;
  if (n->tag) {
    say(x, n->line, n->col, "%s: yaml tag '%s' is not supported: write the plain value",
        e->path, show_tag(&s, n->tag, got, sizeof got));
    return;
  }
  allowed_text(k, allowed, sizeof allowed);
  if (n->kind != N_SCALAR || is_null(n) ||
      (!n->plain && (e->type == T_INT || e->type == T_BOOL))) {
    say(x, n->line, n->col, "%s: expected %s, got %s%s: allowed %s", e->path,
        e->type == T_INT ? "an integer" : e->type == T_BOOL ? "true or false" : "a string",
        what(n, got, sizeof got),
        n->kind == N_SCALAR && !n->plain && !is_null(n) ? " (remove the quotes)" : "", allowed);
    return;
  }
  show(&s, n->text, n->len);
  switch (e->type) {
  case T_INT:
    why = parse_int(n->text, n->len, &val);
    if (why != INT_OK) {
      say(x, n->line, n->col, "%s: expected %s, got '%s'%s: allowed %s", e->path,
          why == INT_NOT || why == INT_FRACTION ? "an integer" : "a decimal integer", s.s,
          int_why[why], allowed);
      return;
    }
    if (val < e->min || val > e->max) {
      say(x, n->line, n->col, "%s: '%s' is out of range: allowed %s", e->path, s.s, allowed);
      return;
    }
    if (e->pow2 && (val & (val - 1))) {
      say(x, n->line, n->col, "%s: '%s' is not a power of two: allowed %s", e->path, s.s, allowed);
      return;
    }
    *int_field(v->c, k) = (int)val;
    break;
  case T_BOOL:
    if (!strcmp(n->text, "true") || !strcmp(n->text, "True") || !strcmp(n->text, "TRUE")) {
      *int_field(v->c, k) = 1;
    } else if (!strcmp(n->text, "false") || !strcmp(n->text, "False") ||
               !strcmp(n->text, "FALSE")) {
      *int_field(v->c, k) = 0;
    } else {
      say(x, n->line, n->col,
          "%s: expected true or false, got '%s': allowed true or false (the yaml 1.1 words "
          "yes/no/on/off/y/n are not accepted)", e->path, s.s);
      return;
    }
    break;
  case T_IDENT: {
    size_t i;
    int ok = n->len > 0 && !(n->text[0] >= '0' && n->text[0] <= '9');
    for (i = 0; ok && i < n->len; i++) {
      char ch = n->text[i];
      ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
    }
    if (!ok) {
      say(x, n->line, n->col,
          "%s: '%s' is not a verilog identifier: allowed letters, digits and '_', not starting "
          "with a digit", e->path, s.s);
      return;
    }
    if ((long long)n->len > e->max) {
      say(x, n->line, n->col, "%s: '%s' is too long (%zu chars): allowed at most %lld chars",
          e->path, s.s, n->len, e->max);
      return;
    }
    for (i = 0; i < sizeof verilog_keywords / sizeof *verilog_keywords; i++) {
      if (!strcmp(n->text, verilog_keywords[i])) {
        say(x, n->line, n->col,
            "%s: '%s' is a verilog/systemverilog keyword: allowed any other identifier",
            e->path, s.s);
        return;
      }
    }
    memcpy(str_field(v->c, k), n->text, n->len + 1);
    break;
  }
  case T_ENUM: {
    const char *w = e->words;
    size_t wl;
    for (;;) {
      wl = strcspn(w, " ");
      if (wl == n->len && !memcmp(w, n->text, wl) && wl < e->size)
        break;
      if (!w[wl]) {
        say(x, n->line, n->col, "%s: '%s' is not supported: allowed %s", e->path, s.s, allowed);
        return;
      }
      w += wl + 1;
    }
    memcpy(str_field(v->c, k), n->text, n->len + 1);
    break;
  }
  case T_MAP:
    return;
  }
  v->bad[k] = 0;
}

static void walk_map(vstate_t *v, const node_t *map, int sec, size_t mline, size_t mcol);

/* Key KEY (a scalar) is not in section SEC: report it, with a suggestion when one is close. */
static void unknown_key(vstate_t *v, const node_t *key, int sec, const char *path)
{
  char list[256], hint[512];
  shown_t s;
  size_t best = SIZE_MAX, d;
  int i, pick = -1;

  for (i = 0; i < NKEYS; i++) {
    if (!in_section(i, sec))
      continue;
    d = lev(key->text, key->len, leaf(&keys[i]));
    if (d <= 2 && d < best) {
      best = d;
      pick = i;
    }
  }
  if (pick >= 0) {
    snprintf(hint, sizeof hint, "did you mean '%s'?", leaf(&keys[pick]));
  } else {
    for (i = 0; i < NKEYS; i++) {
      if (keys[i].type != T_MAP && strlen(keys[i].path) == key->len &&
          !memcmp(keys[i].path, key->text, key->len)) {
        pick = i;
        snprintf(hint, sizeof hint, "write it nested, as %.*s: { %s: ... }",
                 (int)(strlen(keys[i].path) - strlen(leaf(&keys[i])) - 1), keys[i].path,
                 leaf(&keys[i]));
        break;
      }
      if (strchr(keys[i].path, '.') && strlen(leaf(&keys[i])) == key->len &&
          !memcmp(leaf(&keys[i]), key->text, key->len)) {
        pick = i;
        snprintf(hint, sizeof hint, "did you mean '%s'? it belongs in another section",
                 keys[i].path);
        break;
      }
    }
  }
  if (pick < 0)
    snprintf(hint, sizeof hint, "allowed here: %s", section_keys(sec, list, sizeof list));
  say(v->x, key->line, key->col, "%s: unknown key '%s': %s", path, show(&s, key->text, key->len),
      hint);
}

/* Validate mapping MAP (NULL: an empty section) of section SEC (-1: the top level), which
 * starts at MLINE:MCOL. */
static void walk_map(vstate_t *v, const node_t *map, int sec, size_t mline, size_t mcol)
{
  char path[512], got[256];
  shown_t s;
  size_t i;
  int k;

  for (k = 0; k < NKEYS; k++) {
    if (in_section(k, sec)) {
      v->line[k] = mline;
      v->col[k] = mcol;
    }
  }
  for (i = 0; map && i + 1 < map->nkid; i += 2) {
    const node_t *key = map->kid[i], *val = map->kid[i + 1];
    if (key->kind != N_SCALAR) {
      say(v->x, key->line, key->col, "%s%sexpected a key name, got %s",
          sec < 0 ? "" : keys[sec].path, sec < 0 ? "" : ": ", what(key, got, sizeof got));
      continue;
    }
    snprintf(path, sizeof path, "%s%s%s", sec < 0 ? "" : keys[sec].path, sec < 0 ? "" : ".",
             show(&s, key->text, key->len));
    for (k = 0; k < NKEYS; k++)
      if (in_section(k, sec) && strlen(leaf(&keys[k])) == key->len &&
          !memcmp(leaf(&keys[k]), key->text, key->len))
        break;
    if (k == NKEYS) {
      unknown_key(v, key, sec, path);
      continue;
    }
    if (v->seen[k]) {
      say(v->x, key->line, key->col, "%s: duplicate key '%s' (first at line %zu, column %zu)",
          path, leaf(&keys[k]), v->seen[k], v->seen_col[k]);
      continue;
    }
    v->seen[k] = key->line;
    v->seen_col[k] = key->col;
    v->line[k] = val->line;
    v->col[k] = val->col;
    if (keys[k].type != T_MAP) {
      set_leaf(v, k, val);
    } else if (val->kind == N_MAP && !val->tag) {
      walk_map(v, val, k, val->line, val->col);
    } else if (is_null(val) && !val->tag) { /* "memory:" with every key commented out */
      walk_map(v, NULL, k, val->line, val->col);
    } else {
      char allowed[256];
      v->bad[k] = 1;
      for (int j = 0; j < NKEYS; j++)
        if (in_section(j, k))
          v->bad[j] = 1;
      if (val->tag)
        say(v->x, val->line, val->col, "%s: yaml tag '%s' is not supported", path,
            show_tag(&s, val->tag, allowed, sizeof allowed));
      else
        say(v->x, val->line, val->col, "%s: expected %s, got %s", path,
            allowed_text(k, allowed, sizeof allowed), what(val, got, sizeof got));
    }
  }
  for (k = 0; k < NKEYS; k++) {
    if (in_section(k, sec) && !v->seen[k] && keys[k].required) {
      char allowed[256];
      v->bad[k] = 1;
      say(v->x, mline, mcol, "%s: missing required key (%s): allowed %s", keys[k].path,
          keys[k].meaning, allowed_text(k, allowed, sizeof allowed));
    }
  }
}

/* Address bits of a bank of WORDS words: max(1, ceil(log2(words))). */
static int addr_bits(long long words)
{
  int b = 1;
  while ((1LL << b) < words)
    b++;
  return b;
}

/* Memory KIB must hold at least one word of A x B bits, and be addressable in 30 bits. */
static void mem_check(vstate_t *v, int kib, int a, int b)
{
  cfg_t *c = v->c;
  long long bits, words;

  if (v->bad[kib] || v->bad[a] || v->bad[b])
    return;
  bits = (long long)*int_field(c, a) * *int_field(c, b); /* >= 1: both fields are in range */
  words = (long long)*int_field(c, kib) * 8192 / bits;
  if (words < 1)
    say(v->x, v->line[kib], v->col[kib],
        "%s: %d KiB holds no %lld-bit word of %s=%d x %s=%d: allowed >= %lld KiB", keys[kib].path,
        *int_field(c, kib), bits, keys[a].path, *int_field(c, a), keys[b].path, *int_field(c, b),
        (bits + 8191) / 8192);
  else if (addr_bits(words) > MAX_ADDR_BITS)
    say(v->x, v->line[kib], v->col[kib],
        "%s: %d KiB of %lld-bit words needs %d address bits: allowed at most %d",
        keys[kib].path, *int_field(c, kib), bits, addr_bits(words), MAX_ADDR_BITS);
}

/* The constraints between keys (the "also" column of the table). */
static void cross_check(vstate_t *v)
{
  cfg_t *c = v->c;

  if (!v->bad[K_IN] && !v->bad[K_WT] && !v->bad[K_ACC] &&
      c->acc_bits < c->input_bits + c->weight_bits)
    say(v->x, v->line[K_ACC], v->col[K_ACC],
        "data.acc_bits: '%d' is too small: allowed >= data.input_bits + data.weight_bits = "
        "%d + %d = %d", c->acc_bits, c->input_bits, c->weight_bits,
        c->input_bits + c->weight_bits);
  if (!v->bad[K_ROWS] && !v->bad[K_COLS] && (long)c->rows * c->cols > 65536)
    say(v->x, v->line[K_COLS], v->col[K_COLS],
        "array.cols: array.rows x array.cols = %d x %d is too many PEs: allowed at most 65536",
        c->rows, c->cols);
  if (!v->bad[K_GROUPS] && !v->bad[K_COLS] && c->col_groups > c->cols)
    say(v->x, v->line[K_GROUPS], v->col[K_GROUPS],
        "array.col_groups: '%d' is more than array.cols=%d: allowed 1..array.cols",
        c->col_groups, c->cols);
  else if (!v->bad[K_GROUPS] && !v->bad[K_ROWS] && (long)c->rows * c->col_groups > 256)
    say(v->x, v->line[K_GROUPS], v->col[K_GROUPS],
        "array.col_groups: '%d' gives %ld feed lanes (array.rows x col_groups): allowed <= 256",
        c->col_groups, (long)c->rows * c->col_groups);
  if (!v->bad[K_REGS] && !v->bad[K_FIFO] && c->fifo_depth < c->regs_per_lane)
    say(v->x, v->line[K_FIFO], v->col[K_FIFO],
        "feeder.fifo_depth: '%d' is less than feeder.regs_per_lane=%d: allowed >= "
        "feeder.regs_per_lane", c->fifo_depth, c->regs_per_lane);
  mem_check(v, K_IFKIB, K_BUS, K_IN);
  mem_check(v, K_WTKIB, K_COLS, K_WT);
  mem_check(v, K_OUTKIB, K_COLS, K_ACC);
  if (!v->bad[K_LINEKIB] && !v->bad[K_COLS] && !v->bad[K_ACC] && c->line_kib > 0) {
    long long bits = (long long)c->cols * c->acc_bits;
    long long words = (long long)c->line_kib * 8192 / bits;
    if (words < 3)
      say(v->x, v->line[K_LINEKIB], v->col[K_LINEKIB],
          "memory.line_kib: %d KiB holds %lld of the %lld-bit words of array.cols=%d x "
          "data.acc_bits=%d: allowed 0, or >= %lld KiB (3 words)", c->line_kib, words, bits,
          c->cols, c->acc_bits, (3 * bits + 8191) / 8192);
    else if (addr_bits(words) > 24)
      say(v->x, v->line[K_LINEKIB], v->col[K_LINEKIB],
          "memory.line_kib: %d KiB of %lld-bit words needs %d address bits: allowed at most 24",
          c->line_kib, bits, addr_bits(words));
  }
}

/* Validate the tree ROOT into *C (defaults first, then every key written, then cross-checks). */
static void validate(ctx_t *x, const node_t *root, cfg_t *c)
{
  vstate_t v;
  char got[256], list[256];
  int k;

  memset(&v, 0, sizeof v);
  v.x = x;
  v.c = c;
  for (k = 0; k < NKEYS; k++) {
    if (keys[k].type == T_INT || keys[k].type == T_BOOL)
      *int_field(c, k) = (int)(keys[k].required ? keys[k].min : keys[k].def);
    else if (keys[k].type == T_ENUM)
      snprintf(str_field(c, k), keys[k].size, "%s", keys[k].sdef);
  }
  if (!root || (root->kind == N_SCALAR && root->plain && root->len == 0 && !root->tag)) {
    say(x, 0, 0, "file is empty (no yaml document, only blank lines or comments): expected a "
                 "mapping with at least the keys name and array");
    return;
  }
  if (root->kind != N_MAP || root->tag) {
    say(x, root->line, root->col, "top level must be a mapping of the keys %s; got %s",
        section_keys(-1, list, sizeof list),
        root->tag ? "a tagged node" : what(root, got, sizeof got));
    return;
  }
  walk_map(&v, root, -1, root->line, root->col);
  cross_check(&v);
}

/* ------------------------------------------------------------------------------------------ */
/* Stage 3: derive                                                                              */

static void derive(cfg_t *c)
{
  c->banks = c->double_buffer ? 2 : 1;
  c->if_word_bits = c->bus_elems * c->input_bits;
  c->wt_word_bits = c->cols * c->weight_bits;
  c->out_word_bits = c->cols * c->acc_bits;
  c->if_words = (long)((long long)c->ifmap_kib * 8192 / c->if_word_bits);
  c->wt_words = (long)((long long)c->weight_kib * 8192 / c->wt_word_bits);
  c->out_words = (long)((long long)c->output_kib * 8192 / c->out_word_bits);
  c->if_aw = addr_bits(c->if_words);
  c->wt_aw = addr_bits(c->wt_words);
  c->out_aw = addr_bits(c->out_words);
  c->line_words = (long)((long long)c->line_kib * 8192 / c->out_word_bits);
  c->line_aw = addr_bits(c->line_words);
}

/* ------------------------------------------------------------------------------------------ */
/* API                                                                                          */

int cfg_load_mem(const char *name, const unsigned char *buf, size_t len, cfg_t *c, FILE *err)
{
  ctx_t x;
  node_t *root = NULL;
  size_t n;

  memset(&x, 0, sizeof x);
  x.file = name ? name : "<memory>";
  memset(c, 0, sizeof *c);
  n = strnlen(x.file, sizeof c->path - 1);
  memcpy(c->path, x.file, n);
  c->path[n] = '\0';
  if (!buf) {
    buf = (const unsigned char *)"";
    len = 0;
  }
  if (load(&x, buf, len, &root) == 0)
    validate(&x, root, c);
  if (x.nd == 0 && !x.oom)
    derive(c);
  node_free(root);
  return flush(&x, err);
}

int cfg_load(const char *path, cfg_t *c, FILE *err)
{
  ctx_t x;
  FILE *f = NULL;
  unsigned char *buf = NULL;
  size_t len = 0, got;
  int rc = 1;

  memset(&x, 0, sizeof x);
  x.file = path;
  f = fopen(path, "rb");
  if (!f) {
    say(&x, 0, 0, "cannot open: %s", strerror(errno));
    goto fail;
  }
  buf = malloc(MAX_FILE_BYTES + 1);
  if (!buf) {
    say(&x, 0, 0, "out of memory while reading");
    goto fail;
  }
  while (len <= MAX_FILE_BYTES && (got = fread(buf + len, 1, MAX_FILE_BYTES + 1 - len, f)) > 0)
    len += got;
  if (ferror(f)) {
    say(&x, 0, 0, "cannot read: %s", strerror(errno));
    goto fail;
  }
  if (len > MAX_FILE_BYTES) {
    say(&x, 0, 0, "file is larger than %ld bytes: not a sagen config", MAX_FILE_BYTES);
    goto fail;
  }
  rc = cfg_load_mem(path, buf, len, c, err);
fail:
  if (f)
    fclose(f);
  free(buf);
  if (flush(&x, err))
    rc = 1;
  return rc;
}

void cfg_print_keys_markdown(FILE *out)
{
  char allowed[512], def[64];
  int k;

  fputs("| key | type | default | allowed | meaning |\n", out);
  fputs("| --- | --- | --- | --- | --- |\n", out);
  for (k = 0; k < NKEYS; k++) {
    const cfgkey_t *e = &keys[k];
    size_t o;
    if (e->required)
      snprintf(def, sizeof def, "required");
    else if (e->type == T_MAP)
      snprintf(def, sizeof def, "(defaults)");
    else if (e->type == T_BOOL)
      snprintf(def, sizeof def, "%s", e->def ? "true" : "false");
    else if (e->type == T_ENUM)
      snprintf(def, sizeof def, "%s", e->sdef);
    else
      snprintf(def, sizeof def, "%lld", e->def);
    allowed_text(k, allowed, sizeof allowed);
    o = strlen(allowed);
    if (e->also)
      snprintf(allowed + o, sizeof allowed - o, "; %s", e->also);
    fprintf(out, "| `%s` | %s | %s | %s | %s |\n", e->path, type_name(e->type), def, allowed,
            e->meaning);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Overrides: "key=value" applied to the loaded tree before validation                        */

/* A node made for --set number I (0-based). Line 0 marks it as not from the file; the column
 * holds I + 1, so that a diagnostic about it can name the --set (see name_sets). */
static node_t *set_node(nkind_t kind, const char *text, size_t len, int i)
{
  node_t *n = calloc(1, sizeof *n);

  if (!n)
    return NULL;
  n->kind = kind;
  n->line = 0;
  n->col = (size_t)i + 1;
  if (kind == N_SCALAR) {
    n->plain = 1;
    n->len = len;
    n->text = memdup0(text, len);
    if (!n->text) {
      free(n);
      return NULL;
    }
  }
  return n;
}

/* The value node of key LEAF[0..N) in mapping MAP, or NULL. */
static node_t **map_find(node_t *map, const char *leafname, size_t n)
{
  for (size_t i = 0; i + 1 < map->nkid; i += 2) {
    const node_t *k = map->kid[i];
    if (k->kind == N_SCALAR && k->len == n && !memcmp(k->text, leafname, n))
      return &map->kid[i + 1];
  }
  return NULL;
}

/* Set MAP's key NAME[0..N) to VAL (replacing the value if the key is there, else appending a
 * new key). Returns -1 when out of memory (VAL is then freed). */
static int map_put(node_t *map, const char *name, size_t n, node_t *val, int i)
{
  node_t **slot = map_find(map, name, n), *key;

  if (slot) {
    node_free(*slot);
    *slot = val;
    return 0;
  }
  key = set_node(N_SCALAR, name, n, i);
  if (key) { /* validate() takes line 0 for "not written": a key gets its mapping's mark */
    key->line = map->line ? map->line : 1;
    key->col = map->line ? map->col : 1;
  }
  if (!key || node_add(map, key) || node_add(map, val)) {
    if (key && map->nkid && map->kid[map->nkid - 1] == key)
      map->nkid--;
    node_free(key);
    node_free(val);
    return -1;
  }
  return 0;
}

/* "name, array.rows, ...": every key a --set may name. */
static const char *settable_keys(char *buf, size_t n)
{
  size_t o = 0;

  buf[0] = '\0';
  for (int k = 0; k < NKEYS && o < n; k++) {
    if (keys[k].type == T_MAP)
      continue;
    int w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", keys[k].path);
    o += w > 0 ? (size_t)w : 0;
  }
  return buf;
}

/* Apply SETS[I] to the tree ROOT (a mapping; else the file's own error is reported and the
 * overrides cannot apply). Problems with a --set itself are reported on line 0, column I + 1. */
static void apply_sets(ctx_t *x, node_t *root, const char *const *sets, int nsets)
{
  char list[512], hint[160];
  shown_t s;

  for (int i = 0; i < nsets; i++) {
    const char *a = sets[i] ? sets[i] : "";
    const char *eq = strchr(a, '=');
    size_t kl = eq ? (size_t)(eq - a) : strlen(a);
    int k, pick = -1;

    if (!eq || kl == 0) {
      say(x, 0, (size_t)i + 1, "expected KEY=VALUE, e.g. array.rows=8: allowed keys %s",
          settable_keys(list, sizeof list));
      continue;
    }
    for (k = 0; k < NKEYS; k++)
      if (strlen(keys[k].path) == kl && !memcmp(keys[k].path, a, kl))
        break;
    if (k < NKEYS && keys[k].type == T_MAP) {
      say(x, 0, (size_t)i + 1, "'%s' is a section: set one of its keys, e.g. %s.%s=...: allowed "
          "keys %s", keys[k].path, keys[k].path, leaf(&keys[k + 1]),
          settable_keys(list, sizeof list));
      continue;
    }
    if (k == NKEYS) {
      size_t best = SIZE_MAX, d;
      for (int j = 0; j < NKEYS; j++) {
        if (keys[j].type == T_MAP)
          continue;
        if (strlen(leaf(&keys[j])) == kl && !memcmp(leaf(&keys[j]), a, kl)) {
          pick = j;
          break;
        }
        d = lev(a, kl, keys[j].path);
        if (d <= 2 && d < best) {
          best = d;
          pick = j;
        }
      }
      hint[0] = '\0';
      if (pick >= 0)
        snprintf(hint, sizeof hint, "did you mean '%s'? ", keys[pick].path);
      say(x, 0, (size_t)i + 1, "unknown key '%s': %sallowed keys %s", show(&s, a, kl), hint,
          settable_keys(list, sizeof list));
      continue;
    }
    if (!root || root->kind != N_MAP || root->tag)
      continue; /* validate() reports what is wrong with the file */
    node_t *val = set_node(N_SCALAR, eq + 1, strlen(eq + 1), i);
    if (!val) {
      x->oom = 1;
      return;
    }
    const char *dot = strchr(keys[k].path, '.');
    if (!dot) {
      if (map_put(root, keys[k].path, kl, val, i))
        x->oom = 1;
      continue;
    }
    size_t sl = (size_t)(dot - keys[k].path);
    node_t **sec = map_find(root, keys[k].path, sl);
    if (sec && (*sec)->kind == N_SCALAR && is_null(*sec) && !(*sec)->tag) {
      node_t *m = set_node(N_MAP, NULL, 0, i); /* "memory:" with nothing under it */
      if (!m) {
        node_free(val);
        x->oom = 1;
        return;
      }
      m->line = (*sec)->line;
      m->col = (*sec)->col;
      node_free(*sec);
      *sec = m;
    }
    if (!sec) {
      node_t *m = set_node(N_MAP, NULL, 0, i);
      if (!m || map_put(root, keys[k].path, sl, m, i)) {
        node_free(val);
        x->oom = 1;
        return;
      }
      sec = map_find(root, keys[k].path, sl);
    }
    if ((*sec)->kind != N_MAP || (*sec)->tag) {
      node_free(val); /* validate() reports the section that is not a mapping */
      continue;
    }
    if (map_put(*sec, dot + 1, strlen(dot + 1), val, i))
      x->oom = 1;
  }
}

/* Diagnostics on nodes made by a --set (line 0, column I + 1) name it: "--set 'k=v': ...". */
static void name_sets(ctx_t *x, const char *const *sets, int nsets)
{
  shown_t s;

  for (size_t d = 0; d < x->nd; d++) {
    size_t i = x->d[d].col;
    if (x->d[d].line || !i || i > (size_t)nsets)
      continue;
    const char *a = sets[i - 1] ? sets[i - 1] : "";
    size_t n = strlen(x->d[d].msg) + strlen(a) * 4 + 32;
    char *m = malloc(n);
    if (!m) {
      x->oom = 1;
      continue;
    }
    snprintf(m, n, "--set '%s': %s", show(&s, a, strlen(a)), x->d[d].msg);
    free(x->d[d].msg);
    x->d[d].msg = m;
    x->d[d].col = 0;
  }
}

int cfg_load_overrides(const char *path, const char *const *sets, int nsets, cfg_t *c, FILE *err)
{
  ctx_t x;
  FILE *f;
  unsigned char *buf = NULL;
  size_t len = 0, got, n;
  node_t *root = NULL;

  if (nsets <= 0 || !sets)
    return cfg_load(path, c, err);
  memset(&x, 0, sizeof x);
  x.file = path;
  memset(c, 0, sizeof *c);
  n = strnlen(path, sizeof c->path - 1);
  memcpy(c->path, path, n);
  c->path[n] = '\0';
  f = fopen(path, "rb");
  if (!f) {
    say(&x, 0, 0, "cannot open: %s", strerror(errno));
    return flush(&x, err);
  }
  buf = malloc(MAX_FILE_BYTES + 1);
  if (!buf) {
    say(&x, 0, 0, "out of memory while reading");
  } else {
    while (len <= MAX_FILE_BYTES &&
           (got = fread(buf + len, 1, MAX_FILE_BYTES + 1 - len, f)) > 0)
      len += got;
    if (ferror(f))
      say(&x, 0, 0, "cannot read: %s", strerror(errno));
    else if (len > MAX_FILE_BYTES)
      say(&x, 0, 0, "file is larger than %ld bytes: not a sagen config", MAX_FILE_BYTES);
  }
  fclose(f);
  if (x.nd == 0 && load(&x, buf, len, &root) == 0) {
    apply_sets(&x, root, sets, nsets);
    if (!x.oom)
      validate(&x, root, c);
  }
  if (x.nd == 0 && !x.oom)
    derive(c);
  name_sets(&x, sets, nsets);
  node_free(root);
  free(buf);
  return flush(&x, err);
}
