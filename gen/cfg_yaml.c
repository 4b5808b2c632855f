/* cfg_yaml: stage 1 of the configuration loader, libyaml events into a small tree of nodes that
 * keep their start marks (see cfg_internal.h). */
#include "cfg_internal.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

void cfg_node_free(node_t *n)
{
  size_t i;

  if (!n)
    return;
  for (i = 0; i < n->nkid; i++)
    cfg_node_free(n->kid[i]);
  free(n->kid);
  free(n->text);
  free(n->tag);
  free(n);
}

char *cfg_memdup0(const void *p, size_t n)
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
    n->text = cfg_memdup0(ev->data.scalar.value, n->len);
    tag = ev->data.scalar.tag;
    break;
  case YAML_ALIAS_EVENT:
    n->kind = N_ALIAS;
    n->len = strlen((const char *)ev->data.alias.anchor);
    n->text = cfg_memdup0(ev->data.alias.anchor, n->len);
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
  cfg_node_free(n);
  return NULL;
}

int cfg_node_add(node_t *parent, node_t *kid)
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
    cfg_say(x, 0, 0, "out of memory while parsing yaml");
    break;
  case YAML_READER_ERROR:
    locate(buf, len, p->problem_offset, &line, &col);
    if (p->problem_value >= 0)
      cfg_say(x, line, col, "not valid yaml text: %s (#x%02x at byte offset %zu)", problem,
          (unsigned)p->problem_value, p->problem_offset);
    else
      cfg_say(x, line, col, "not valid yaml text: %s (at byte offset %zu)", problem,
          p->problem_offset);
    break;
  default: { /* scanner and parser errors carry marks */
    char where[160] = "";
    if (p->context)
      snprintf(where, sizeof where, " (%s at %zu:%zu)", p->context, p->context_mark.line + 1,
               p->context_mark.column + 1);
    cfg_say(x, p->problem_mark.line + 1, p->problem_mark.column + 1, "yaml syntax error: %s%s%s",
        problem, where,
        indented_by_tab(buf, len, p->problem_mark.line) ? ": tabs cannot indent yaml, use spaces"
                                                        : "");
    break;
  }
  }
}

int cfg_yaml_load(ctx_t *x, const unsigned char *buf, size_t len, node_t **rootp)
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
    cfg_say(x, 0, 0, "out of memory while parsing yaml");
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
        cfg_say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
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
        cfg_say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
            "too many yaml nodes: a config file holds at most %d", MAX_NODES);
        goto fail;
      }
      n = node_new(&ev);
      if (!n || (depth && cfg_node_add(stack[depth - 1], n))) {
        cfg_node_free(n);
        cfg_say(x, 0, 0, "out of memory while loading yaml");
        goto fail;
      }
      if (!depth) {
        if (root) {           cfg_node_free(n);
          break;
        }
        root = n;
      }
      if (n->kind == N_MAP || n->kind == N_SEQ) {
        if (depth == MAX_DEPTH) {
          cfg_say(x, ev.start_mark.line + 1, ev.start_mark.column + 1,
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
  cfg_node_free(root);
  return 1;
}
