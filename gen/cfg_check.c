/* cfg_check: stage 2 of the configuration loader, the tree validated into cfg_t against the
 * table of keys, then the constraints between keys (see cfg_internal.h). */
#include "cfg_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct vstate {
  ctx_t *x;
  cfg_t *c;
  size_t seen[NKEYS], seen_col[NKEYS]; /* first occurrence of the key; line 0: not written */
  size_t line[NKEYS], col[NKEYS]; /* the value, else the mapping that lacks it */
  unsigned char bad[NKEYS];      /* missing, wrong, or under a wrong section: skip cross-checks */
} vstate_t;

static int *int_field(cfg_t *c, int k) { return (int *)(void *)((char *)c + cfg_keys[k].off); }
static char *str_field(cfg_t *c, int k) { return (char *)c + cfg_keys[k].off; }

int cfg_is_null(const node_t *n)
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
             cfg_show(&s, n->text, n->len));
    return buf;
  default:
    if (cfg_is_null(n))
      return "no value";
    snprintf(buf, size, "%s'%s'", n->plain ? "" : "the quoted string ", cfg_show(&s, n->text, n->len));
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
    snprintf(buf, n, "!!%s", cfg_show(s, tag + sizeof core - 1, strlen(tag + sizeof core - 1)));
    return buf;
  }
  return cfg_show(s, tag, strlen(tag));
}

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

static void set_leaf(vstate_t *v, int k, const node_t *n)
{
  const cfgkey_t *e = &cfg_keys[k];
  ctx_t *x = v->x;
  char allowed[256], got[256];
  shown_t s;
  long long val = 0;
  int why;

  v->bad[k] = 1;
  if (n->tag) {
    cfg_say(x, n->line, n->col, "%s: yaml tag '%s' is not supported: write the plain value",
        e->path, show_tag(&s, n->tag, got, sizeof got));
    return;
  }
  cfg_allowed_text(k, allowed, sizeof allowed);
  if (n->kind != N_SCALAR || cfg_is_null(n) ||
      (!n->plain && (e->type == T_INT || e->type == T_BOOL))) {
    cfg_say(x, n->line, n->col, "%s: expected %s, got %s%s: allowed %s", e->path,
        e->type == T_INT ? "an integer" : e->type == T_BOOL ? "true or false" : "a string",
        what(n, got, sizeof got),
        n->kind == N_SCALAR && !n->plain && !cfg_is_null(n) ? " (remove the quotes)" : "", allowed);
    return;
  }
  cfg_show(&s, n->text, n->len);
  switch (e->type) {
  case T_INT:
    why = parse_int(n->text, n->len, &val);
    if (why != INT_OK) {
      cfg_say(x, n->line, n->col, "%s: expected %s, got '%s'%s: allowed %s", e->path,
          why == INT_NOT || why == INT_FRACTION ? "an integer" : "a decimal integer", s.s,
          int_why[why], allowed);
      return;
    }
    if (val < e->min || val > e->max) {
      cfg_say(x, n->line, n->col, "%s: '%s' is out of range: allowed %s", e->path, s.s, allowed);
      return;
    }
    if (e->pow2 && (val & (val - 1))) {
      cfg_say(x, n->line, n->col, "%s: '%s' is not a power of two: allowed %s", e->path, s.s, allowed);
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
      cfg_say(x, n->line, n->col,
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
      cfg_say(x, n->line, n->col,
          "%s: '%s' is not a verilog identifier: allowed letters, digits and '_', not starting "
          "with a digit", e->path, s.s);
      return;
    }
    if ((long long)n->len > e->max) {
      cfg_say(x, n->line, n->col, "%s: '%s' is too long (%zu chars): allowed at most %lld chars",
          e->path, s.s, n->len, e->max);
      return;
    }
    for (i = 0; i < sizeof verilog_keywords / sizeof *verilog_keywords; i++) {
      if (!strcmp(n->text, verilog_keywords[i])) {
        cfg_say(x, n->line, n->col,
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
        cfg_say(x, n->line, n->col, "%s: '%s' is not supported: allowed %s", e->path, s.s, allowed);
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
    if (!cfg_in_section(i, sec))
      continue;
    d = cfg_lev(key->text, key->len, cfg_leaf(&cfg_keys[i]));
    if (d <= 2 && d < best) {
      best = d;
      pick = i;
    }
  }
  if (pick >= 0) {
    snprintf(hint, sizeof hint, "did you mean '%s'?", cfg_leaf(&cfg_keys[pick]));
  } else {
    for (i = 0; i < NKEYS; i++) {
      if (cfg_keys[i].type != T_MAP && strlen(cfg_keys[i].path) == key->len &&
          !memcmp(cfg_keys[i].path, key->text, key->len)) {
        pick = i;
        snprintf(hint, sizeof hint, "write it nested, as %.*s: { %s: ... }",
                 (int)(strlen(cfg_keys[i].path) - strlen(cfg_leaf(&cfg_keys[i])) - 1), cfg_keys[i].path,
                 cfg_leaf(&cfg_keys[i]));
        break;
      }
      if (strchr(cfg_keys[i].path, '.') && strlen(cfg_leaf(&cfg_keys[i])) == key->len &&
          !memcmp(cfg_leaf(&cfg_keys[i]), key->text, key->len)) {
        pick = i;
        snprintf(hint, sizeof hint, "did you mean '%s'? it belongs in another section",
                 cfg_keys[i].path);
        break;
      }
    }
  }
  if (pick < 0)
    snprintf(hint, sizeof hint, "allowed here: %s", cfg_section_keys(sec, list, sizeof list));
  cfg_say(v->x, key->line, key->col, "%s: unknown key '%s': %s", path, cfg_show(&s, key->text, key->len),
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
    if (cfg_in_section(k, sec)) {
      v->line[k] = mline;
      v->col[k] = mcol;
    }
  }
  for (i = 0; map && i + 1 < map->nkid; i += 2) {
    const node_t *key = map->kid[i], *val = map->kid[i + 1];
    if (key->kind != N_SCALAR) {
      cfg_say(v->x, key->line, key->col, "%s%sexpected a key name, got %s",
          sec < 0 ? "" : cfg_keys[sec].path, sec < 0 ? "" : ": ", what(key, got, sizeof got));
      continue;
    }
    snprintf(path, sizeof path, "%s%s%s", sec < 0 ? "" : cfg_keys[sec].path, sec < 0 ? "" : ".",
             cfg_show(&s, key->text, key->len));
    for (k = 0; k < NKEYS; k++)
      if (cfg_in_section(k, sec) && strlen(cfg_leaf(&cfg_keys[k])) == key->len &&
          !memcmp(cfg_leaf(&cfg_keys[k]), key->text, key->len))
        break;
    if (k == NKEYS) {
      unknown_key(v, key, sec, path);
      continue;
    }
    if (v->seen[k]) {
      cfg_say(v->x, key->line, key->col, "%s: duplicate key '%s' (first at line %zu, column %zu)",
          path, cfg_leaf(&cfg_keys[k]), v->seen[k], v->seen_col[k]);
      continue;
    }
    v->seen[k] = key->line;
    v->seen_col[k] = key->col;
    v->line[k] = val->line;
    v->col[k] = val->col;
    if (cfg_keys[k].type != T_MAP) {
      set_leaf(v, k, val);
    } else if (val->kind == N_MAP && !val->tag) {
      walk_map(v, val, k, val->line, val->col);
    } else if (cfg_is_null(val) && !val->tag) { /* "memory:" with every key commented out */
      walk_map(v, NULL, k, val->line, val->col);
    } else {
      char allowed[256];
      v->bad[k] = 1;
      for (int j = 0; j < NKEYS; j++)
        if (cfg_in_section(j, k))
          v->bad[j] = 1;
      if (val->tag)
        cfg_say(v->x, val->line, val->col, "%s: yaml tag '%s' is not supported", path,
            show_tag(&s, val->tag, allowed, sizeof allowed));
      else
        cfg_say(v->x, val->line, val->col, "%s: expected %s, got %s", path,
            cfg_allowed_text(k, allowed, sizeof allowed), what(val, got, sizeof got));
    }
  }
  for (k = 0; k < NKEYS; k++) {
    if (cfg_in_section(k, sec) && !v->seen[k] && cfg_keys[k].required) {
      char allowed[256];
      v->bad[k] = 1;
      cfg_say(v->x, mline, mcol, "%s: missing required key (%s): allowed %s", cfg_keys[k].path,
          cfg_keys[k].meaning, cfg_allowed_text(k, allowed, sizeof allowed));
    }
  }
}

int cfg_addr_bits(long long words)
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
    cfg_say(v->x, v->line[kib], v->col[kib],
        "%s: %d KiB holds no %lld-bit word of %s=%d x %s=%d: allowed >= %lld KiB", cfg_keys[kib].path,
        *int_field(c, kib), bits, cfg_keys[a].path, *int_field(c, a), cfg_keys[b].path, *int_field(c, b),
        (bits + 8191) / 8192);
  else if (cfg_addr_bits(words) > MAX_ADDR_BITS)
    cfg_say(v->x, v->line[kib], v->col[kib],
        "%s: %d KiB of %lld-bit words needs %d address bits: allowed at most %d",
        cfg_keys[kib].path, *int_field(c, kib), bits, cfg_addr_bits(words), MAX_ADDR_BITS);
}

/* The widths of a float data.format (cfg_t's input_bits..acc_bits, in_ew..acc_fw), after the
 * checks that the integer widths are not given and the pair of formats is one the PE has. */
static void float_formats(vstate_t *v)
{
  cfg_t *c = v->c;
  static const struct { const char *name; int ew, fw; } fmts[] = {
      {"fp16", 5, 10}, {"bf16", 8, 7}, {"fp32", 8, 23}};
  int fi = -1, fa = -1;
  for (int i = 0; i < 3; i++) {
    if (strcmp(c->format, fmts[i].name) == 0) fi = i;
    if (strcmp(c->acc_format, fmts[i].name) == 0) fa = i;
  }
  if (fi < 0) {   /* int */
    if (v->seen[K_ACCFMT])
      cfg_say(v->x, v->seen[K_ACCFMT], v->seen_col[K_ACCFMT],
          "data.acc_format: applies to a float data.format (fp16, bf16 or fp32), and "
          "data.format is int: remove it, or set data.format");
    return;
  }
  c->fp = 1;
  static const int ints[] = {K_IN, K_WT, K_ACC};
  for (int i = 0; i < 3; i++)
    if (v->seen[ints[i]]) {
      cfg_say(v->x, v->seen[ints[i]], v->seen_col[ints[i]],
          "%s: applies to data.format int only; with data.format %s the widths follow the "
          "format: remove it", cfg_keys[ints[i]].path, c->format);
      v->bad[ints[i]] = 1;
    }
  if (fa == 0 && fi != 0) {
    cfg_say(v->x, v->line[K_ACCFMT], v->col[K_ACCFMT],
        "data.acc_format: fp16 sums of %s operands are not supported: allowed fp32, or fp16 with "
        "data.format fp16", c->format);
    v->bad[K_ACCFMT] = 1;
  }
  c->in_ew = fmts[fi].ew;
  c->in_fw = fmts[fi].fw;
  c->acc_ew = fmts[fa < 0 ? 2 : fa].ew;
  c->acc_fw = fmts[fa < 0 ? 2 : fa].fw;
  c->input_bits = c->weight_bits = 1 + c->in_ew + c->in_fw;
  c->acc_bits = 1 + c->acc_ew + c->acc_fw;
}

/* The constraints between keys (the "also" column of the table). */
static void cross_check(vstate_t *v)
{
  cfg_t *c = v->c;

  if (!v->bad[K_FORMAT] && !v->bad[K_ACCFMT]) float_formats(v);

  if (!v->bad[K_IN] && !v->bad[K_WT] && !v->bad[K_ACC] && !c->fp &&
      c->acc_bits < c->input_bits + c->weight_bits)
    cfg_say(v->x, v->line[K_ACC], v->col[K_ACC],
        "data.acc_bits: '%d' is too small: allowed >= data.input_bits + data.weight_bits = "
        "%d + %d = %d", c->acc_bits, c->input_bits, c->weight_bits,
        c->input_bits + c->weight_bits);
  if (!v->bad[K_ROWS] && !v->bad[K_COLS] && (long)c->rows * c->cols > 65536)
    cfg_say(v->x, v->line[K_COLS], v->col[K_COLS],
        "array.cols: array.rows x array.cols = %d x %d is too many PEs: allowed at most 65536",
        c->rows, c->cols);
  if (!v->bad[K_GROUPS] && !v->bad[K_COLS] && c->col_groups > c->cols)
    cfg_say(v->x, v->line[K_GROUPS], v->col[K_GROUPS],
        "array.col_groups: '%d' is more than array.cols=%d: allowed 1..array.cols",
        c->col_groups, c->cols);
  else if (!v->bad[K_GROUPS] && !v->bad[K_ROWS] && (long)c->rows * c->col_groups > 256)
    cfg_say(v->x, v->line[K_GROUPS], v->col[K_GROUPS],
        "array.col_groups: '%d' gives %ld feed lanes (array.rows x col_groups): allowed <= 256",
        c->col_groups, (long)c->rows * c->col_groups);
  if (!v->bad[K_REGS] && !v->bad[K_FIFO] && c->fifo_depth < c->regs_per_lane)
    cfg_say(v->x, v->line[K_FIFO], v->col[K_FIFO],
        "feeder.fifo_depth: '%d' is less than feeder.regs_per_lane=%d: allowed >= "
        "feeder.regs_per_lane", c->fifo_depth, c->regs_per_lane);
  mem_check(v, K_IFKIB, K_BUS, K_IN);
  mem_check(v, K_WTKIB, K_COLS, K_WT);
  mem_check(v, K_OUTKIB, K_COLS, K_ACC);
  if (!v->bad[K_LINEKIB] && !v->bad[K_COLS] && !v->bad[K_ACC] && c->line_kib > 0) {
    long long bits = (long long)c->cols * c->acc_bits;
    long long words = (long long)c->line_kib * 8192 / bits;
    /* a col2im row's words: 3 at least, 16 in floating point (the adders' path) */
    int least = c->fp ? 16 : 3;
    if (words < least)
      cfg_say(v->x, v->line[K_LINEKIB], v->col[K_LINEKIB],
          "memory.line_kib: %d KiB holds %lld of the %lld-bit words of array.cols=%d x "
          "%s=%d: allowed 0, or >= %lld KiB (%d words)", c->line_kib, words, bits, c->cols,
          c->fp ? "the accumulation format's bits" : "data.acc_bits", c->acc_bits,
          (least * bits + 8191) / 8192, least);
    else if (cfg_addr_bits(words) > 24)
      cfg_say(v->x, v->line[K_LINEKIB], v->col[K_LINEKIB],
          "memory.line_kib: %d KiB of %lld-bit words needs %d address bits: allowed at most 24",
          c->line_kib, bits, cfg_addr_bits(words));
  }
}

void cfg_validate(ctx_t *x, const node_t *root, cfg_t *c)
{
  vstate_t v;
  char got[256], list[256];
  int k;

  memset(&v, 0, sizeof v);
  v.x = x;
  v.c = c;
  for (k = 0; k < NKEYS; k++) {
    if (cfg_keys[k].type == T_INT || cfg_keys[k].type == T_BOOL)
      *int_field(c, k) = (int)(cfg_keys[k].required ? cfg_keys[k].min : cfg_keys[k].def);
    else if (cfg_keys[k].type == T_ENUM)
      snprintf(str_field(c, k), cfg_keys[k].size, "%s", cfg_keys[k].sdef);
  }
  if (!root || (root->kind == N_SCALAR && root->plain && root->len == 0 && !root->tag)) {
    cfg_say(x, 0, 0, "file is empty (no yaml document, only blank lines or comments): expected a "
                 "mapping with at least the keys name and array");
    return;
  }
  if (root->kind != N_MAP || root->tag) {
    cfg_say(x, root->line, root->col, "top level must be a mapping of the keys %s; got %s",
        cfg_section_keys(-1, list, sizeof list),
        root->tag ? "a tagged node" : what(root, got, sizeof got));
    return;
  }
  walk_map(&v, root, -1, root->line, root->col);
  cross_check(&v);
}
