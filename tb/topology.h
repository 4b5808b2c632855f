/* topology: layer lists in SCALE-Sim's topology CSV format.
 *
 * The header names the columns; these are required, in any order:
 *   Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter,
 *   Strides
 * and these are optional: Padding (default 0: no "same" padding is assumed), Dilation (default
 * 1), Batch (default 1). Column names match ignoring case and spaces. Strides, Padding and
 * Dilation apply to both dimensions. The reader tolerates a UTF-8 byte order mark, CRLF line
 * ends, trailing commas (empty trailing fields), blank rows and spaces around fields; it rejects
 * an unknown or repeated column, a missing one, a value that is not a decimal integer or is out
 * of range (sizes >= 1, padding >= 0), a layer whose output would be empty, and a repeated or
 * unusable layer name (letters, digits, '_', '-', '.'; they become file names). */
#ifndef SAGEN_TOPOLOGY_H
#define SAGEN_TOPOLOGY_H

#include <stddef.h>
#include <stdio.h>

#define TOPO_NAME_MAX 64

typedef struct topo_layer {
  char name[TOPO_NAME_MAX];
  long n, c, h, w;            /* batch, channels, ifmap height and width */
  long k, r, s;               /* filters, filter height and width */
  long sh, sw, ph, pw, dh, dw; /* stride, padding (each side), dilation */
  long line;                  /* 1-based line of the row in its file */
} topo_layer_t;

typedef struct topo {
  topo_layer_t *layer;
  size_t n;
} topo_t;

/* Read the topology CSV at PATH into *T. Returns 0 on success; 1 after printing every problem
 * to ERR (may be NULL) as "file:line: message", one line each (T is then empty). */
int topo_load(const char *path, topo_t *t, FILE *err);

/* The same on the bytes BUF[0..LEN) (any bytes, need not be terminated); NAME (NULL:
 * "<memory>") prefixes every message. */
int topo_load_mem(const char *name, const char *buf, size_t len, topo_t *t, FILE *err);

void topo_free(topo_t *t);

/* Output height and width (PyTorch semantics); < 1 when the layer has no output. */
long topo_out_h(const topo_layer_t *l);
long topo_out_w(const topo_layer_t *l);

/* One line per layer: "name n c h w k r s sh sw ph pw dh dw". */
void topo_print(const topo_t *t, FILE *out);

#endif
