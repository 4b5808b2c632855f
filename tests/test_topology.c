/* test_topology: the SCALE-Sim topology CSV reader (tb/topology.c) and the configuration
 * overrides (cfg_load_overrides in gen/cfg.c, behind --set).
 *
 * Topology: the SCALE-Sim header with its trailing comma, optional columns in any order and
 * any case and spacing, defaults (padding 0, dilation 1, batch 1), BOM / CRLF / blank rows /
 * spaces / quotes tolerated; every rejection (missing, unknown or repeated column, non-integer,
 * zero or negative size, empty output, bad or repeated name, stray field, NUL, empty file)
 * names file:line and what is allowed; the shipped lists under scripts/layers load with the
 * expected layers; random mutations never crash.
 * Overrides: values replace or add keys before validation, so every check applies; a bad
 * --set names itself and what is allowed, next to the file's own problems.
 *
 * Usage: test_topology [ROOT]   (ROOT: the directory holding yaml/ and scripts/, default ".")
 * Prints "ok NAME" or "not ok NAME: ..." per case, then "N passed, M failed". */
#include "cfg.h"
#include "topology.h"
#include "lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *root = ".";

/* Load TEXT as "x.csv"; *OUT gets what was printed (caller frees). */
static int topo_text(const char *text, size_t len, topo_t *t, char **out)
{
  size_t size = 0;
  FILE *f = open_memstream(out, &size);
  int rc;

  if (!f) {
    perror("open_memstream");
    exit(2);
  }
  rc = topo_load_mem("x.csv", text, len, t, f);
  fclose(f);
  return rc;
}

/* Every line of OUT starts with PREFIX, is printable ASCII and ends with '\n'; NULL if so. */
static const char *clean_lines(const char *out, const char *prefix)
{
  const char *p = out;

  if (!*p)
    return "nothing printed";
  while (*p) {
    const char *nl = strchr(p, '\n');
    if (!nl)
      return "last line not terminated";
    if (strncmp(p, prefix, strlen(prefix)) != 0)
      return "a line does not start with the file name";
    for (; p < nl; p++)
      if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
        return "a line holds a control or non-ascii byte";
    p = nl + 1;
  }
  return NULL;
}

static const char *HDR = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                         "Channels, Num Filter, Strides,\n";

/* ------------------------------------------------------------------------------------------ */
/* Topology: good files                                                                         */

static int layer_is(const topo_layer_t *l, const char *name, const long *v)
{
  const long got[13] = {l->n, l->c, l->h, l->w, l->k, l->r, l->s, l->sh, l->sw, l->ph, l->pw,
                        l->dh, l->dw};
  return !strcmp(l->name, name) && !memcmp(got, v, sizeof got);
}

static void expect_good(const char *name, const char *text, size_t len, size_t nlayers,
                        const char *first, const long *v)
{
  topo_t t;
  char *out = NULL;
  int rc = topo_text(text, len, &t, &out);

  if (rc != 0 || out[0])
    not_ok(name, "expected a clean load, got %d and '%s'", rc, out);
  else if (t.n != nlayers)
    not_ok(name, "expected %zu layers, got %zu", nlayers, t.n);
  else if (!layer_is(&t.layer[0], first, v))
    not_ok(name, "first layer is '%s' %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld",
           t.layer[0].name, t.layer[0].n, t.layer[0].c, t.layer[0].h, t.layer[0].w,
           t.layer[0].k, t.layer[0].r, t.layer[0].s, t.layer[0].sh, t.layer[0].sw,
           t.layer[0].ph, t.layer[0].pw, t.layer[0].dh, t.layer[0].dw);
  else
    ok(name);
  free(out);
  topo_free(&t);
}

static void test_good(void)
{
  char buf[4096];
  /* n c h w k r s sh sw ph pw dh dw */
  static const long conv1[13] = {1, 3, 224, 224, 64, 7, 7, 2, 2, 0, 0, 1, 1};

  snprintf(buf, sizeof buf, "%sConv1, 224, 224, 7, 7, 3, 64, 2,\nConv2, 56, 56, 3, 3, 64, 64, 1,\n",
           HDR);
  expect_good("scalesim header and defaults", buf, strlen(buf), 2, "Conv1", conv1);

  snprintf(buf, sizeof buf,
           "\xef\xbb\xbf\r\n  Layer name ,IFMAP Height,IFMAP Width,Filter Height,Filter Width,"
           "Channels,Num Filter,Strides,,,\r\n\r\n , , ,\r\n\tConv1\t,224, 224 ,7,7,3,64,2,,\r\n"
           "\r\nConv2,56,56,3,3,64,64,1\r\n\r\n");
  expect_good("bom crlf blank rows spaces trailing commas", buf, strlen(buf), 2, "Conv1", conv1);

  static const long opt[13] = {2, 5, 10, 12, 7, 3, 5, 2, 2, 1, 1, 3, 3};
  snprintf(buf, sizeof buf,
           "num filter,BATCH,Filter Width,channels,DILATION,layername,padding,Strides,ifmap width,"
           "Filter  Height,IFMAP HEIGHT\n7,2,5,5,3,conv_a.1-x,1,2,12,3,10\n");
  expect_good("optional columns any order and case (values)", buf, strlen(buf), 1, "conv_a.1-x",
              opt);

  static const long q[13] = {1, 3, 8, 8, 4, 3, 3, 1, 1, 0, 0, 1, 1};
  snprintf(buf, sizeof buf, "\"Layer name\",IFMAP Height,IFMAP Width,Filter Height,Filter Width,"
                            "Channels,Num Filter,Strides\n\"L1\", \"8\",8,3,3,3,4,1\n");
  expect_good("quoted fields", buf, strlen(buf), 1, "L1", q);

  static const long pad0[13] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1};
  snprintf(buf, sizeof buf, "%s", "Layer name,IFMAP Height,IFMAP Width,Filter Height,"
           "Filter Width,Channels,Num Filter,Strides,Padding\none,1,1,1,1,1,1,1,0\n");
  expect_good("padding 0 and 1x1x1", buf, strlen(buf), 1, "one", pad0);

  /* stride larger than the kernel, output 1 row: (5 - 3) / 4 + 1 = 1 */
  static const long big[13] = {1, 2, 5, 5, 3, 3, 3, 4, 4, 0, 0, 1, 1};
  snprintf(buf, sizeof buf, "%sbig,5,5,3,3,2,3,4\n", HDR);
  expect_good("stride > kernel", buf, strlen(buf), 1, "big", big);
}

static void test_out_size(void)
{
  topo_layer_t l = {"x", 1, 1, 224, 224, 1, 7, 7, 2, 2, 3, 3, 1, 1, 1};
  int bad = 0;

  if (topo_out_h(&l) != 112 || topo_out_w(&l) != 112)
    bad = 1;
  l.h = 14, l.w = 7, l.r = l.s = 3, l.sh = l.sw = 1, l.ph = l.pw = 0, l.dh = l.dw = 3;
  if (topo_out_h(&l) != 8 || topo_out_w(&l) != 1) /* 14 - 7 + 1, 7 - 7 + 1 */
    bad = 1;
  l.w = 6;
  if (topo_out_w(&l) >= 1)
    bad = 1;
  if (bad)
    not_ok("output size", "topo_out_h/w disagree with (H + 2P - D(R-1) - 1) / S + 1");
  else
    ok("output size");
}

static void test_print(void)
{
  char buf[1024], *out = NULL, *p = NULL;
  size_t size = 0;
  topo_t t;
  snprintf(buf, sizeof buf, "%s,Padding,Dilation,Batch\nc1,9,8,3,2,4,5,2,1,2,3\n",
           "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,"
           "Strides");
  if (topo_text(buf, strlen(buf), &t, &out)) {
    not_ok("print", "load failed: %s", out);
    free(out);
    return;
  }
  FILE *f = open_memstream(&p, &size);
  topo_print(&t, f);
  fclose(f);
  if (strcmp(p, "c1 3 4 9 8 5 3 2 2 2 1 1 2 2\n"))
    not_ok("print", "got '%s'", p);
  else
    ok("print");
  free(p);
  free(out);
  topo_free(&t);
}

/* ------------------------------------------------------------------------------------------ */
/* Topology: rejections                                                                         */

typedef struct bad {
  const char *name, *text;
  const char *want; /* a substring of the first message */
} bad_t;

#define ROW_HDR "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,Strides"

static const bad_t bads[] = {
    {"missing column", "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,"
                       "Strides\nc,8,8,3,3,3,1\n",
     "x.csv:1: missing column 'Num Filter': the header needs"},
    {"unknown column", ROW_HDR ",Dilaton\nc,8,8,3,3,3,4,1,2\n",
     "x.csv:1: unknown column 'Dilaton': allowed Layer name"},
    {"repeated column", ROW_HDR ",strides\nc,8,8,3,3,3,4,1,1\n",
     "x.csv:1: column 'Strides' appears twice (columns 8 and 9)"},
    {"unnamed column", "Layer name,,IFMAP Height\n", "x.csv:1: column 2 of the header has no name"},
    {"not an integer", ROW_HDR "\n\nc,8,8,3,3,abc,4,1\n",
     "x.csv:3: Channels: 'abc' is not an integer: allowed a decimal integer 1..1000000"},
    {"fraction", ROW_HDR "\nc,8.5,8,3,3,3,4,1\n", "x.csv:2: IFMAP Height: '8.5' is not an integer"},
    {"negative", ROW_HDR "\nc,8,8,3,3,3,-4,1\n", "x.csv:2: Num Filter: '-4' is not an integer"},
    {"zero size", ROW_HDR "\nc,8,8,3,0,3,4,1\n",
     "x.csv:2: Filter Width: '0' is out of range: allowed 1..1000000"},
    {"zero stride", ROW_HDR "\nc,8,8,3,3,3,4,0\n", "x.csv:2: Strides: '0' is out of range: allowed 1..65535"},
    {"zero dilation", ROW_HDR ",Dilation\nc,8,8,3,3,3,4,1,0\n", "x.csv:2: Dilation: '0' is out of range"},
    {"huge", ROW_HDR "\nc,99999999999999999999999,8,3,3,3,4,1\n", "x.csv:2: IFMAP Height: '9999"},
    {"missing value", ROW_HDR "\nc,8,8,3,3,3,4\n", "x.csv:2: Strides: missing value: allowed an integer 1..65535"},
    {"empty value", ROW_HDR "\nc,8,,3,3,3,4,1\n", "x.csv:2: IFMAP Width: missing value"},
    {"empty output", ROW_HDR ",Padding\nc,2,8,3,3,3,4,1,0\n",
     "x.csv:2: layer 'c' has no output: ifmap 2x8, filter 3x3, padding 0, dilation 1 give 0x6"},
    {"empty output by dilation", ROW_HDR ",Dilation\nc,8,8,3,3,3,4,1,4\n", "x.csv:2: layer 'c' has no output"},
    {"stray field", ROW_HDR "\nc,8,8,3,3,3,4,1,,7\n", "x.csv:2: field 10 '7' has no column: the header has 8 columns"},
    {"no name", ROW_HDR "\n,8,8,3,3,3,4,1\n", "x.csv:2: Layer name: missing value"},
    {"name with space", ROW_HDR "\nconv 1,8,8,3,3,3,4,1\n", "x.csv:2: Layer name: 'conv 1' is not allowed"},
    {"name with slash", ROW_HDR "\na/b,8,8,3,3,3,4,1\n", "x.csv:2: Layer name: 'a/b' is not allowed"},
    {"name dot dot", ROW_HDR "\n..,8,8,3,3,3,4,1\n", "x.csv:2: Layer name: '..' is not allowed"},
    {"repeated name", ROW_HDR "\nc,8,8,3,3,3,4,1\nd,8,8,3,3,3,4,1\nc,9,9,3,3,3,4,1\n",
     "x.csv:4: Layer name: 'c' is already the name of line 2"},
    {"header only", ROW_HDR ",\n\n", "x.csv:1: no layers: the file has a header and no layer rows"},
    {"empty file", "", "x.csv: no header: expected a first line naming the columns Layer name"},
    {"blank file", "\xef\xbb\xbf\r\n , ,\n\n", "x.csv: no header"},
};

static void test_bad(void)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    const bad_t *b = &bads[i];
    topo_t t;
    char *out = NULL;
    const char *why;
    char name[128];
    int rc = topo_text(b->text, strlen(b->text), &t, &out);

    snprintf(name, sizeof name, "rejects %s", b->name);
    if (rc != 1)
      not_ok(name, "expected 1, got %d (output '%s')", rc, out);
    else if (t.n != 0 || t.layer)
      not_ok(name, "the topology is not empty after a failure");
    else if ((why = clean_lines(out, "x.csv:")))
      not_ok(name, "%s: '%s'", why, out);
    else if (!strstr(out, b->want))
      not_ok(name, "expected '%s' in '%s'", b->want, out);
    else
      ok(name);
    free(out);
  }

  /* every bad row is reported in one run */
  const char *many = ROW_HDR "\na,8,8,3,3,x,4,1\nb,8,8,3,3,3,4,1\nc,8,8,0,3,3,4,1\n";
  topo_t t;
  char *out = NULL;
  int rc = topo_text(many, strlen(many), &t, &out);
  if (rc == 1 && strstr(out, "x.csv:2: ") && strstr(out, "x.csv:4: ") && !strstr(out, "x.csv:3"))
    ok("every bad row reported");
  else
    not_ok("every bad row reported", "got %d '%s'", rc, out);
  free(out);

  const char nul[] = ROW_HDR "\nc,8,8,3\0,3,3,4,1\n";
  out = NULL;
  rc = topo_text(nul, sizeof nul - 1, &t, &out);
  if (rc == 1 && strstr(out, "x.csv:2: NUL byte"))
    ok("rejects NUL byte");
  else
    not_ok("rejects NUL byte", "got %d '%s'", rc, out);
  free(out);

  char *err = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&err, &size);
  rc = topo_load("/nonexistent/dir/x.csv", &t, f);
  fclose(f);
  if (rc == 1 && strstr(err, "/nonexistent/dir/x.csv: cannot open: "))
    ok("cannot open");
  else
    not_ok("cannot open", "got %d '%s'", rc, err);
  free(err);
}

/* Random corruptions of a good file: never a crash, every result clean. */
static void test_fuzz(void)
{
  char good[1024], buf[1024];
  unsigned long s = 12345;
  int bad = 0;
  snprintf(good, sizeof good, "\xef\xbb\xbf%s,Padding,Batch\r\nc1,8,8,3,3,4,5,1,1,2,\r\n\r\n"
           "c2,\"9\",9,1,1,4,5,2,0,1\n", ROW_HDR);
  size_t n = strlen(good);
  for (int it = 0; it < 5000 && !bad; it++) {
    memcpy(buf, good, n);
    size_t len = n;
    int edits = 1 + it % 6;
    for (int e = 0; e < edits; e++) {
      s = s * 6364136223846793005UL + 1442695040888963407UL;
      size_t at = (s >> 33) % len;
      unsigned char ch = (unsigned char)(s >> 20);
      switch ((s >> 13) % 4) {
      case 0: buf[at] = (char)ch; break;
      case 1: buf[at] = ",\n\r 0-x\""[ch % 8]; break;
      case 2: len = at + 1; break; /* truncate */
      default: buf[at] = (char)('0' + ch % 10); break;
      }
    }
    topo_t t;
    char *out = NULL;
    int rc = topo_text(buf, len, &t, &out);
    if (rc == 1 && clean_lines(out, "x.csv"))
      bad = 1, not_ok("fuzz", "iteration %d: %s: '%s'", it, clean_lines(out, "x.csv"), out);
    if (rc == 0 && (out[0] || t.n == 0))
      bad = 1, not_ok("fuzz", "iteration %d: success with output '%s' or no layer", it, out);
    for (size_t i = 0; rc == 0 && i < t.n; i++)
      if (topo_out_h(&t.layer[i]) < 1 || topo_out_w(&t.layer[i]) < 1)
        bad = 1, not_ok("fuzz", "iteration %d: a layer without output was accepted", it);
    free(out);
    topo_free(&t);
  }
  if (!bad)
    ok("fuzz: 5000 corrupted files, no crash, clean messages");
}

/* ------------------------------------------------------------------------------------------ */
/* The shipped layer lists                                                                      */

static int macs_of(const topo_t *t, double *macs)
{
  *macs = 0;
  for (size_t i = 0; i < t->n; i++) {
    const topo_layer_t *l = &t->layer[i];
    *macs += (double)l->n * l->k * topo_out_h(l) * topo_out_w(l) * l->c * l->r * l->s;
  }
  return 0;
}

static void test_shipped(void)
{
  char path[2048], *err = NULL;
  size_t size = 0;
  topo_t t;
  FILE *f;
  double macs;

  /* ResNet-50 (torchvision, stride on the 3x3): conv1 and the 22 distinct convs of conv2_x to
   * conv5_x; the whole network's convolutions hold 4.09 GMACs, the distinct ones fewer. */
  snprintf(path, sizeof path, "%s/scripts/layers/resnet50.csv", root);
  f = open_memstream(&err, &size);
  int rc = topo_load(path, &t, f);
  fclose(f);
  static const long conv1[13] = {1, 3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 1, 1};
  static const long proj[13] = {1, 1024, 14, 14, 2048, 1, 1, 2, 2, 0, 0, 1, 1};
  if (rc || t.n != 23)
    not_ok("resnet50.csv", "expected 23 layers, got %d %zu '%s'", rc, t.n, err);
  else if (!layer_is(&t.layer[0], "conv1", conv1))
    not_ok("resnet50.csv", "conv1 is not 224x224x3, 64 7x7 filters, stride 2, pad 3");
  else {
    int p3 = 1, s2 = 0, projs = 0;
    for (size_t i = 0; i < t.n; i++) {
      const topo_layer_t *l = &t.layer[i];
      if (l->r == 3 && l->ph != 1)
        p3 = 0;
      if (l->r == 1 && l->ph != 0)
        p3 = 0;
      s2 += l->sh == 2;
      projs += l->r == 1 && l->sh == 2;
      if (!strcmp(l->name, "conv5_proj_s2") && !layer_is(l, "conv5_proj_s2", proj))
        p3 = 0;
    }
    macs_of(&t, &macs);
    if (!p3 || s2 != 7 || projs != 3)
      not_ok("resnet50.csv", "padding (3x3: 1, 1x1: 0) or the stride-2 layers are wrong (%d, %d)",
             s2, projs);
    else if (macs < 1.9e9 || macs > 2.1e9)
      not_ok("resnet50.csv", "%.3g MACs", macs);
    else
      ok("resnet50.csv: conv1 + 22 distinct convs, 3 stride-2 projections");
  }
  topo_free(&t);
  free(err);

  snprintf(path, sizeof path, "%s/scripts/layers/vgg16.csv", root);
  err = NULL;
  f = open_memstream(&err, &size);
  rc = topo_load(path, &t, f);
  fclose(f);
  macs_of(&t, &macs);
  int all3 = 1;
  for (size_t i = 0; i < t.n; i++)
    all3 &= t.layer[i].r == 3 && t.layer[i].s == 3 && t.layer[i].ph == 1 && t.layer[i].sh == 1;
  /* VGG-16's 13 convolutions: 15.35 GMACs at 224x224 */
  if (rc || t.n != 13 || !all3 || macs < 15.3e9 || macs > 15.4e9)
    not_ok("vgg16.csv", "%d %zu layers, 3x3 pad 1: %d, %.4g MACs '%s'", rc, t.n, all3, macs, err);
  else
    ok("vgg16.csv: 13 conv layers, 3x3 pad 1, 15.35 GMACs");
  topo_free(&t);
  free(err);

  snprintf(path, sizeof path, "%s/scripts/layers/bp_im2col.csv", root);
  err = NULL;
  f = open_memstream(&err, &size);
  rc = topo_load(path, &t, f);
  fclose(f);
  /* Hi/C/N/K/S/P, batch 2 */
  static const long table2[5][6] = {{224, 3, 64, 3, 2, 0}, {112, 64, 64, 3, 2, 1},
                                    {56, 256, 512, 1, 2, 0}, {28, 244, 244, 3, 2, 1},
                                    {14, 1024, 2048, 1, 2, 0}};
  int same = rc == 0 && t.n == 5;
  for (size_t i = 0; same && i < 5; i++) {
    const topo_layer_t *l = &t.layer[i];
    same = l->h == table2[i][0] && l->w == l->h && l->c == table2[i][1] && l->k == table2[i][2] &&
           l->r == table2[i][3] && l->s == l->r && l->sh == table2[i][4] && l->sw == l->sh &&
           l->ph == table2[i][5] && l->pw == l->ph && l->n == 2 && l->dh == 1 && l->dw == 1;
  }
  if (!same)
    not_ok("bp_im2col.csv", "not Table II (Hi/C/N/K/S/P, batch 2): %d %zu '%s'", rc, t.n, err);
  else
    ok("bp_im2col.csv: Table II, batch 2");
  topo_free(&t);
  free(err);
}

/* ------------------------------------------------------------------------------------------ */
/* Overrides                                                                                     */

static char tmpdir[] = "/tmp/test_topology.XXXXXX";

static const char *write_tmp(const char *name, const char *text)
{
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f)) {
    perror(path);
    exit(2);
  }
  return path;
}

static int over(const char *path, const char *const *sets, int n, cfg_t *c, char **out)
{
  size_t size = 0;
  FILE *f = open_memstream(out, &size);
  int rc = cfg_load_overrides(path, sets, n, c, f);
  fclose(f);
  return rc;
}

static void test_overrides(void)
{
  char def[2048], *out = NULL;
  cfg_t c, base;
  int rc;

  snprintf(def, sizeof def, "%s/yaml/default.yaml", root);
  if (cfg_load(def, &base, NULL)) {
    not_ok("overrides", "%s does not load", def);
    return;
  }

  {
    const char *s[] = {"array.rows=8", "array.cols=4"};
    rc = over(def, s, 2, &c, &out);
    if (rc || out[0] || c.rows != 8 || c.cols != 4 || c.wt_word_bits != 4 * 8 ||
        c.out_word_bits != 4 * 32 || c.input_bits != base.input_bits ||
        strcmp(c.name, base.name) || c.wt_words != 32L * 8192 / 32)
      not_ok("override rows and cols", "%d '%s' rows %d cols %d wt_word_bits %d", rc, out,
             c.rows, c.cols, c.wt_word_bits);
    else
      ok("override rows and cols, derived fields follow");
    free(out);
  }
  {
    cfg_t a;
    rc = over(def, NULL, 0, &a, &out);
    if (rc || out[0] || memcmp(&a, &base, sizeof a))
      not_ok("no overrides is cfg_load", "%d '%s'", rc, out);
    else
      ok("no overrides is cfg_load");
    free(out);
  }
  {
    const char *s[] = {"array.rows=8", "array.rows=2", "memory.double_buffer=false",
                       "name=other_1", "array.dataflow=os"};
    rc = over(def, s, 5, &c, &out);
    if (rc || c.rows != 2 || c.double_buffer || c.banks != 1 || strcmp(c.name, "other_1"))
      not_ok("later set wins, bool, identifier", "%d '%s' rows %d", rc, out, c.rows);
    else
      ok("later set wins, bool, identifier");
    free(out);
  }

  static const struct {
    const char *name, *set, *want;
  } bad[] = {
      {"set: out of range", "array.rows=0", ": --set 'array.rows=0': array.rows: '0' is out of range: allowed 1..256"},
      {"set: not an integer", "array.cols=8x", ": --set 'array.cols=8x': array.cols: expected an integer, got '8x'"},
      {"set: no value", "array.cols=", ": --set 'array.cols=': array.cols: expected an integer, got no value"},
      {"set: unknown key", "array.row=8", ": --set 'array.row=8': unknown key 'array.row': did you mean 'array.rows'? allowed keys name, array.rows"},
      {"set: leaf without section", "rows=8", ": --set 'rows=8': unknown key 'rows': did you mean 'array.rows'?"},
      {"set: a section", "memory=4", ": --set 'memory=4': 'memory' is a section: set one of its keys, e.g. memory.bus_elems="},
      {"set: no equals", "array.rows", ": --set 'array.rows': expected KEY=VALUE"},
      {"set: bad bool", "memory.double_buffer=yes", "memory.double_buffer: expected true or false, got 'yes'"},
      {"set: not a power of two", "memory.bus_elems=12", "memory.bus_elems: '12' is not a power of two"},
      {"set: keyword name", "name=module", "name: 'module' is a verilog/systemverilog keyword"},
      {"set: cross-check", "data.acc_bits=10", ": --set 'data.acc_bits=10': data.acc_bits: '10' is too small: allowed >= data.input_bits + data.weight_bits = 8 + 8 = 16"},
      {"set: enum", "array.dataflow=ws", "array.dataflow: 'ws' is not supported: allowed os"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *s[] = {bad[i].set};
    const char *why;
    char want[2600];
    snprintf(want, sizeof want, "%s%s", strncmp(bad[i].want, ": ", 2) ? "" : def, bad[i].want);
    out = NULL;
    rc = over(def, s, 1, &c, &out);
    if (rc != 1)
      not_ok(bad[i].name, "expected 1, got %d '%s'", rc, out);
    else if ((why = clean_lines(out, def)))
      not_ok(bad[i].name, "%s: '%s'", why, out);
    else if (!strstr(out, want) || strchr(out, '\n') != out + strlen(out) - 1)
      not_ok(bad[i].name, "expected one line with '%s', got '%s'", want, out);
    else
      ok(bad[i].name);
    free(out);
  }

  /* a cross-check between two overrides: acc_bits vs input_bits */
  {
    const char *s[] = {"data.input_bits=16", "data.weight_bits=16"};
    rc = over(def, s, 2, &c, &out);
    /* acc_bits=32 is still enough for 16+16 */
    if (rc != 0)
      not_ok("set: checks see the overridden values", "%d '%s'", rc, out);
    else {
      free(out);
      const char *s2[] = {"data.input_bits=16", "data.weight_bits=16", "data.acc_bits=31"};
      rc = over(def, s2, 3, &c, &out);
      if (rc != 1 || !strstr(out, "--set 'data.acc_bits=31': data.acc_bits: '31' is too small"))
        not_ok("set: checks see the overridden values", "%d '%s'", rc, out);
      else
        ok("set: checks see the overridden values");
    }
    free(out);
  }

  /* keys and sections the file lacks are added; an empty section gets the key */
  {
    const char *p = write_tmp("min.yaml", "name: t\narray: { rows: 2, cols: 3 }\nmemory:\n");
    const char *s[] = {"memory.bus_elems=4", "feeder.fifo_depth=8", "memory.ifmap_kib=2"};
    rc = over(p, s, 3, &c, &out);
    if (rc || c.bus_elems != 4 || c.fifo_depth != 8 || c.ifmap_kib != 2 || c.rows != 2)
      not_ok("set: adds keys and sections", "%d '%s'", rc, out);
    else
      ok("set: adds keys and sections");
    free(out);

    p = write_tmp("noarray.yaml", "name: t\n");
    const char *s2[] = {"array.rows=2", "array.cols=3"};
    rc = over(p, s2, 2, &c, &out);
    if (rc || c.rows != 2 || c.cols != 3)
      not_ok("set: supplies a required section", "%d '%s'", rc, out);
    else
      ok("set: supplies a required section");
    free(out);

    const char *s3[] = {"array.rows=2"};
    rc = over(p, s3, 1, &c, &out);
    if (rc != 1 || !strstr(out, ": --set 'array.rows=2': array.cols: missing required key"))
      not_ok("set: a section it made still needs its required keys", "%d '%s'", rc, out);
    else
      ok("set: a section it made still needs its required keys");
    free(out);
  }

  /* the file's own problems are reported with the --set's, in one run */
  {
    const char *p = write_tmp("bad.yaml", "name: t\narray: { rows: 2, cols: 3, colz: 4 }\n");
    const char *s[] = {"array.rows=999", "nope=1"};
    rc = over(p, s, 2, &c, &out);
    if (rc != 1 || !strstr(out, "--set 'array.rows=999': array.rows: '999' is out of range") ||
        !strstr(out, "--set 'nope=1': unknown key 'nope'") ||
        !strstr(out, "bad.yaml:2:28: array.colz: unknown key 'colz'"))
      not_ok("set: file and set problems together", "%d '%s'", rc, out);
    else
      ok("set: file and set problems together");
    free(out);

    p = write_tmp("notmap.yaml", "name: t\narray: 5\n");
    const char *s2[] = {"array.rows=2"};
    rc = over(p, s2, 1, &c, &out);
    if (rc != 1 || !strstr(out, "notmap.yaml:2:8: array: expected a mapping"))
      not_ok("set: under a section that is not a mapping", "%d '%s'", rc, out);
    else
      ok("set: under a section that is not a mapping");
    free(out);

    const char *s3[] = {"array.rows=2"};
    rc = over("/nonexistent/x.yaml", s3, 1, &c, &out);
    if (rc != 1 || !strstr(out, "/nonexistent/x.yaml: cannot open: "))
      not_ok("set: cannot open", "%d '%s'", rc, out);
    else
      ok("set: cannot open");
    free(out);

    /* odd bytes in a --set are shown escaped, on one line */
    const char *s4[] = {"array.rows=\x01\n8"};
    rc = over(def, s4, 1, &c, &out);
    if (rc != 1 || clean_lines(out, def) || !strstr(out, "--set 'array.rows=\\x01\\x0a8'"))
      not_ok("set: odd bytes escaped", "%d '%s'", rc, out);
    else
      ok("set: odd bytes escaped");
    free(out);
  }
}

int main(int argc, char **argv)
{
  if (argc > 1)
    root = argv[1];
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 2;
  }
  test_good();
  test_out_size();
  test_print();
  test_bad();
  test_fuzz();
  test_shipped();
  test_overrides();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "test_topology: could not remove %s\n", tmpdir);
  return tap_end();
}
