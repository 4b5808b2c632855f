/* cfg: load, validate and derive a sagen array description. See cfg.h.
 *
 * Stage 1 (load, cfg_yaml.c) turns libyaml events into a small tree of nodes that keep their
 * start marks. Stage 2 (validate, cfg_check.c) walks that tree against cfg_keys[]
 * (cfg_keys.c), the one table that also prints the docs. Stage 3 (derive, here) fills the
 * memory geometry. Problems are collected as diagnostics (cfg_diag.c), sorted by position and
 * printed together, so one run reports every problem of a file. This file holds the public
 * entry points and the --set overrides. */
#include "cfg.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_internal.h"

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
  c->if_aw = cfg_addr_bits(c->if_words);
  c->wt_aw = cfg_addr_bits(c->wt_words);
  c->out_aw = cfg_addr_bits(c->out_words);
  c->line_words = (long)((long long)c->line_kib * 8192 / c->out_word_bits);
  c->line_aw = cfg_addr_bits(c->line_words);
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
  if (cfg_yaml_load(&x, buf, len, &root) == 0)
    cfg_validate(&x, root, c);
  if (x.nd == 0 && !x.oom)
    derive(c);
  cfg_node_free(root);
  return cfg_flush(&x, err);
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
    cfg_say(&x, 0, 0, "cannot open: %s", strerror(errno));
    goto fail;
  }
  buf = malloc(MAX_FILE_BYTES + 1);
  if (!buf) {
    cfg_say(&x, 0, 0, "out of memory while reading");
    goto fail;
  }
  while (len <= MAX_FILE_BYTES && (got = fread(buf + len, 1, MAX_FILE_BYTES + 1 - len, f)) > 0)
    len += got;
  if (ferror(f)) {
    cfg_say(&x, 0, 0, "cannot read: %s", strerror(errno));
    goto fail;
  }
  if (len > MAX_FILE_BYTES) {
    cfg_say(&x, 0, 0, "file is larger than %ld bytes: not a sagen config", MAX_FILE_BYTES);
    goto fail;
  }
  rc = cfg_load_mem(path, buf, len, c, err);
fail:
  if (f)
    fclose(f);
  free(buf);
  if (cfg_flush(&x, err))
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
    const cfgkey_t *e = &cfg_keys[k];
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
    cfg_allowed_text(k, allowed, sizeof allowed);
    o = strlen(allowed);
    if (e->also)
      snprintf(allowed + o, sizeof allowed - o, "; %s", e->also);
    fprintf(out, "| `%s` | %s | %s | %s | %s |\n", e->path, cfg_type_name(e->type), def, allowed,
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
    n->text = cfg_memdup0(text, len);
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
    cfg_node_free(*slot);
    *slot = val;
    return 0;
  }
  key = set_node(N_SCALAR, name, n, i);
  if (key) { /* cfg_validate() takes line 0 for "not written": a key gets its mapping's mark */
    key->line = map->line ? map->line : 1;
    key->col = map->line ? map->col : 1;
  }
  if (!key || cfg_node_add(map, key) || cfg_node_add(map, val)) {
    if (key && map->nkid && map->kid[map->nkid - 1] == key)
      map->nkid--;
    cfg_node_free(key);
    cfg_node_free(val);
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
    if (cfg_keys[k].type == T_MAP)
      continue;
    int w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", cfg_keys[k].path);
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
      cfg_say(x, 0, (size_t)i + 1, "expected KEY=VALUE, e.g. array.rows=8: allowed keys %s",
          settable_keys(list, sizeof list));
      continue;
    }
    for (k = 0; k < NKEYS; k++)
      if (strlen(cfg_keys[k].path) == kl && !memcmp(cfg_keys[k].path, a, kl))
        break;
    if (k < NKEYS && cfg_keys[k].type == T_MAP) {
      cfg_say(x, 0, (size_t)i + 1, "'%s' is a section: set one of its keys, e.g. %s.%s=...: allowed "
          "keys %s", cfg_keys[k].path, cfg_keys[k].path, cfg_leaf(&cfg_keys[k + 1]),
          settable_keys(list, sizeof list));
      continue;
    }
    if (k == NKEYS) {
      size_t best = SIZE_MAX, d;
      for (int j = 0; j < NKEYS; j++) {
        if (cfg_keys[j].type == T_MAP)
          continue;
        if (strlen(cfg_leaf(&cfg_keys[j])) == kl && !memcmp(cfg_leaf(&cfg_keys[j]), a, kl)) {
          pick = j;
          break;
        }
        d = cfg_lev(a, kl, cfg_keys[j].path);
        if (d <= 2 && d < best) {
          best = d;
          pick = j;
        }
      }
      hint[0] = '\0';
      if (pick >= 0)
        snprintf(hint, sizeof hint, "did you mean '%s'? ", cfg_keys[pick].path);
      cfg_say(x, 0, (size_t)i + 1, "unknown key '%s': %sallowed keys %s", cfg_show(&s, a, kl), hint,
          settable_keys(list, sizeof list));
      continue;
    }
    if (!root || root->kind != N_MAP || root->tag)
      continue; /* cfg_validate() reports what is wrong with the file */
    node_t *val = set_node(N_SCALAR, eq + 1, strlen(eq + 1), i);
    if (!val) {
      x->oom = 1;
      return;
    }
    const char *dot = strchr(cfg_keys[k].path, '.');
    if (!dot) {
      if (map_put(root, cfg_keys[k].path, kl, val, i))
        x->oom = 1;
      continue;
    }
    size_t sl = (size_t)(dot - cfg_keys[k].path);
    node_t **sec = map_find(root, cfg_keys[k].path, sl);
    if (sec && (*sec)->kind == N_SCALAR && cfg_is_null(*sec) && !(*sec)->tag) {
      node_t *m = set_node(N_MAP, NULL, 0, i); /* "memory:" with nothing under it */
      if (!m) {
        cfg_node_free(val);
        x->oom = 1;
        return;
      }
      m->line = (*sec)->line;
      m->col = (*sec)->col;
      cfg_node_free(*sec);
      *sec = m;
    }
    if (!sec) {
      node_t *m = set_node(N_MAP, NULL, 0, i);
      if (!m || map_put(root, cfg_keys[k].path, sl, m, i)) {
        cfg_node_free(val);
        x->oom = 1;
        return;
      }
      sec = map_find(root, cfg_keys[k].path, sl);
    }
    if ((*sec)->kind != N_MAP || (*sec)->tag) {
      cfg_node_free(val); /* cfg_validate() reports the section that is not a mapping */
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
    snprintf(m, n, "--set '%s': %s", cfg_show(&s, a, strlen(a)), x->d[d].msg);
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
    cfg_say(&x, 0, 0, "cannot open: %s", strerror(errno));
    return cfg_flush(&x, err);
  }
  buf = malloc(MAX_FILE_BYTES + 1);
  if (!buf) {
    cfg_say(&x, 0, 0, "out of memory while reading");
  } else {
    while (len <= MAX_FILE_BYTES &&
           (got = fread(buf + len, 1, MAX_FILE_BYTES + 1 - len, f)) > 0)
      len += got;
    if (ferror(f))
      cfg_say(&x, 0, 0, "cannot read: %s", strerror(errno));
    else if (len > MAX_FILE_BYTES)
      cfg_say(&x, 0, 0, "file is larger than %ld bytes: not a sagen config", MAX_FILE_BYTES);
  }
  fclose(f);
  if (x.nd == 0 && cfg_yaml_load(&x, buf, len, &root) == 0) {
    apply_sets(&x, root, sets, nsets);
    if (!x.oom)
      cfg_validate(&x, root, c);
  }
  if (x.nd == 0 && !x.oom)
    derive(c);
  name_sets(&x, sets, nsets);
  cfg_node_free(root);
  free(buf);
  return cfg_flush(&x, err);
}
