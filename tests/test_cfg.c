/* test_cfg: the shipped yaml files load with the expected values and derived geometry; every
 * class of bad input is rejected (return 1) with one clean line per problem that names
 * file:line:col, the key path, the bad value in quotes and what is allowed; no input crashes.
 *
 * Usage: test_cfg [ROOT]   (ROOT: the directory holding yaml/, default ".")
 * Prints "ok NAME" or "not ok NAME: ..." per case, then "N passed, N failed" (tests/lib/tap.h). */
#include "cfg.h"
#include "lib/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Load TEXT[0..LEN) as file "x.yaml"; *OUT gets what was printed on err (caller frees). */
static int load_text(const char *text, size_t len, cfg_t *c, char **out)
{
  size_t size = 0;
  FILE *f = open_memstream(out, &size);
  int rc;

  if (!f) {
    perror("open_memstream");
    exit(2);
  }
  rc = cfg_load_mem("x.yaml", (const unsigned char *)text, len, c, f);
  fclose(f);
  return rc;
}

/* Every line of OUT starts with PREFIX, holds only printable ASCII, and ends with '\n'. NULL if
 * so, else what is wrong. */
static const char *clean_lines(const char *out, const char *prefix)
{
  const char *p = out;

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

/* ------------------------------------------------------------------------------------------ */
/* Shipped files                                                                               */

typedef struct want {
  const char *file, *name;
  int rows, cols, input_bits, weight_bits, acc_bits;
  int bus_elems, ifmap_kib, weight_kib, output_kib, double_buffer, dram_bytes_per_cycle;
  int regs_per_lane, pattern_bits, fifo_depth;
  int banks, if_word_bits, wt_word_bits, out_word_bits;
  long if_words, wt_words, out_words;
  int if_aw, wt_aw, out_aw;
} want_t;

static const want_t shipped[] = {
    {"yaml/default.yaml", "default", 16, 16, 8, 8, 32, 16, 32, 32, 32, 1, 16, 3, 64, 5,
     2, 128, 128, 512, 2048, 2048, 512, 11, 11, 9},
    {"yaml/tiny1x1.yaml", "tiny1x1", 1, 1, 8, 8, 32, 4, 1, 1, 1, 1, 4, 1, 16, 2,
     2, 32, 8, 32, 256, 1024, 256, 8, 10, 8},
    {"yaml/rect4x8.yaml", "rect4x8", 4, 8, 8, 8, 24, 4, 8, 8, 8, 1, 4, 2, 32, 3,
     2, 32, 64, 192, 2048, 1024, 341, 11, 10, 9},
    {"yaml/small8x8.yaml", "small8x8", 8, 8, 6, 5, 20, 8, 1, 2, 1, 0, 8, 3, 64, 4,
     1, 48, 40, 160, 170, 409, 51, 8, 9, 6},
};

static void test_shipped(const char *root)
{
  size_t i;

  for (i = 0; i < sizeof shipped / sizeof *shipped; i++) {
    const want_t *w = &shipped[i];
    char path[2048], *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    cfg_t c;
    int rc;

    snprintf(path, sizeof path, "%s/%s", root, w->file);
    rc = cfg_load(path, &c, f);
    fclose(f);
    if (rc != 0 || out[0]) {
      not_ok(w->file, "expected a clean load, got %d and '%s'", rc, out);
      free(out);
      continue;
    }
    free(out);
#define EQ(field)                                                                              \
  if (c.field != w->field) {                                                                   \
    not_ok(w->file, "%s is %ld, expected %ld", #field, (long)c.field, (long)w->field);         \
    continue;                                                                                  \
  }
    if (strcmp(c.name, w->name) || strcmp(c.dataflow, "os") || strcmp(c.path, path)) {
      not_ok(w->file, "name '%s' dataflow '%s' path '%s'", c.name, c.dataflow, c.path);
      continue;
    }
    EQ(rows) EQ(cols) EQ(input_bits) EQ(weight_bits) EQ(acc_bits)
    EQ(bus_elems) EQ(ifmap_kib) EQ(weight_kib) EQ(output_kib) EQ(double_buffer)
    EQ(dram_bytes_per_cycle) EQ(regs_per_lane) EQ(pattern_bits) EQ(fifo_depth)
    EQ(banks) EQ(if_word_bits) EQ(wt_word_bits) EQ(out_word_bits)
    EQ(if_words) EQ(wt_words) EQ(out_words) EQ(if_aw) EQ(wt_aw) EQ(out_aw)
#undef EQ
    ok(w->file);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Bad inputs: each must fail, with every expected piece of text in the output                */

typedef struct bad {
  const char *name;
  const char *text;
  size_t len; /* 0: strlen(text) */
  const char *want[5];
} bad_t;

#define ARR "array: {rows: 4, cols: 4}\n"

static const bad_t bad[] = {
    /* unknown and misplaced keys */
    {"unknown_key_suggestion", "name: x\narray: {rows: 4, colz: 4}\n", 0,
     {"x.yaml:2:18: array.colz: unknown key 'colz': did you mean 'cols'?"}},
    {"two_unknown_keys_both_reported", "name: x\narray: {rows: 4, cols: 4, foo: 1, bar: 2}\n", 0,
     {"x.yaml:2:27: array.foo: unknown key 'foo'", "x.yaml:2:35: array.bar: unknown key 'bar'",
      "allowed here: rows, cols, dataflow"}},
    {"unknown_top_key_suggestion", "nmae: x\n" ARR, 0,
     {"x.yaml:1:1: nmae: unknown key 'nmae': did you mean 'name'?", "name: missing"}},
    {"key_in_wrong_section", "name: x\n" ARR "rows: 5\n", 0,
     {"x.yaml:3:1: rows: unknown key 'rows'", "did you mean 'array.rows'?"}},
    {"dotted_key", "name: x\narray: {rows: 4}\narray.cols: 3\n", 0,
     {"x.yaml:3:1: array.cols: unknown key 'array.cols'", "write it nested",
      "array.cols: missing required key"}},
    {"unknown_key_control_bytes_escaped", "name: x\n" ARR "\"bad\\x01key\": 3\n", 0,
     {"x.yaml:3:1: bad\\x01key: unknown key 'bad\\x01key'"}},
    /* duplicates and missing keys */
    {"duplicate_key", "name: x\n" ARR "array: {rows: 4, cols: 4}\n", 0,
     {"x.yaml:3:1: array: duplicate key 'array' (first at line 2"}},
    {"duplicate_key_in_flow", "name: x\narray: {rows: 4, cols: 4, rows: 5}\n", 0,
     {"x.yaml:2:27: array.rows: duplicate key 'rows' (first at line 2, column 9)"}},
    {"missing_rows", "name: x\narray:\n  cols: 4\n", 0,
     {"x.yaml:3:3: array.rows: missing required key", "allowed 1..256"}},
    {"missing_name", ARR, 0, {"x.yaml:1:1: name: missing required key", "verilog identifier"}},
    {"missing_array", "name: x\n", 0, {"x.yaml:1:1: array: missing required key"}},
    /* wrong types */
    {"int_given_word", "name: x\narray: {rows: four, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: expected an integer, got 'four': allowed 1..256"}},
    {"int_given_quoted_string", "name: x\narray: {rows: 4, cols: \"16\"}\n", 0,
     {"x.yaml:2:24: array.cols: expected an integer, got the quoted string '16'",
      "remove the quotes"}},
    {"int_given_no_value", "name: x\narray:\n  rows:\n  cols: 4\n", 0,
     {"array.rows: expected an integer, got no value"}},
    {"bool_yes", "name: x\n" ARR "memory: {double_buffer: yes}\n", 0,
     {"x.yaml:3:25: memory.double_buffer: expected true or false, got 'yes'",
      "yes/no/on/off"}},
    {"bool_number", "name: x\n" ARR "memory:\n  double_buffer: 1\n", 0,
     {"x.yaml:4:18: memory.double_buffer: expected true or false, got '1'"}},
    {"nested_mapping_for_scalar", "name: x\narray: {rows: {a: 1}, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: expected an integer, got a mapping"}},
    {"sequence_for_scalar", "name: [x]\n" ARR, 0,
     {"x.yaml:1:7: name: expected a string, got a sequence"}},
    {"scalar_for_mapping", "name: x\narray: 16\n", 0,
     {"x.yaml:2:8: array: expected a mapping of rows, cols, dataflow, col_groups, got '16'"}},
    {"sequence_for_mapping", "name: x\n" ARR "memory: [1, 2]\n", 0,
     {"x.yaml:3:9: memory: expected a mapping of bus_elems", "got a sequence"}},
    {"alias", "name: x\narray: {rows: &a 4, cols: *a}\n", 0,
     {"x.yaml:2:27: array.cols: expected an integer, got the alias '*a'",
      "anchors and aliases are not supported"}},
    {"tag", "name: x\narray: {rows: !!int 4, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: yaml tag '!!int' is not supported"}},
    {"complex_key", "name: x\n" ARR "? [a]\n: 1\n", 0,
     {"x.yaml:3:3: expected a key name, got a sequence"}},
    /* integers: range and spelling */
    {"negative", "name: x\narray: {rows: -1, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: '-1' is out of range: allowed 1..256"}},
    {"zero", "name: x\narray: {rows: 4, cols: 0}\n", 0,
     {"x.yaml:2:24: array.cols: '0' is out of range: allowed 1..256"}},
    {"huge_overflows_int", "name: x\narray: {rows: 99999999999999999999, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: '99999999999999999999' is out of range: allowed 1..256"}},
    {"above_max", "name: x\n" ARR "data: {input_bits: 17}\nfeeder: {fifo_depth: 65}\n", 0,
     {"x.yaml:3:20: data.input_bits: '17' is out of range: allowed 2..16",
      "x.yaml:4:22: feeder.fifo_depth: '65' is out of range: allowed 2..64"}},
    {"float", "name: x\narray: {rows: 16.5, cols: 4}\n", 0,
     {"x.yaml:2:15: array.rows: expected an integer, got '16.5'", "not a whole number"}},
    {"hex", "name: x\n" ARR "memory: {bus_elems: 0x10}\n", 0,
     {"x.yaml:3:21: memory.bus_elems: expected a decimal integer, got '0x10'",
      "hex, octal and binary are not accepted"}},
    {"leading_zero", "name: x\narray: {rows: 010, cols: 4}\n", 0,
     {"array.rows: expected a decimal integer, got '010'", "leading zeros"}},
    {"not_power_of_two", "name: x\n" ARR "memory: {bus_elems: 12}\n", 0,
     {"x.yaml:3:21: memory.bus_elems: '12' is not a power of two: allowed a power of two 2..256"}},
    /* cross-checks */
    {"acc_bits_too_small", "name: x\n" ARR "data: {acc_bits: 15}\n", 0,
     {"x.yaml:3:18: data.acc_bits: '15' is too small",
      ">= data.input_bits + data.weight_bits = 8 + 8 = 16"}},
    {"acc_bits_too_small_wide_inputs", "name: x\n" ARR
     "data: {input_bits: 12, weight_bits: 12, acc_bits: 20}\n", 0,
     {"data.acc_bits: '20' is too small", "= 12 + 12 = 24"}},
    {"bus_wider_than_memory", "name: x\narray: {rows: 4, cols: 256}\ndata: {acc_bits: 64}\n"
     "memory: {output_kib: 1}\n", 0,
     {"x.yaml:4:22: memory.output_kib: 1 KiB holds no 16384-bit word of array.cols=256 x "
      "data.acc_bits=64", "allowed >= 2 KiB"}},
    {"fifo_depth_below_regs_per_lane", "name: x\n" ARR
     "feeder: {regs_per_lane: 8, fifo_depth: 6}\n", 0,
     {"x.yaml:3:40: feeder.fifo_depth: '6' is less than feeder.regs_per_lane=8"}},
    {"col_groups_above_cols", "name: x\narray: {rows: 4, cols: 4, col_groups: 5}\n", 0,
     {"x.yaml:2:39: array.col_groups: '5' is more than array.cols=4: allowed 1..array.cols"}},
    {"col_groups_too_many_lanes", "name: x\narray: {rows: 128, cols: 8, col_groups: 3}\n", 0,
     {"x.yaml:2:41: array.col_groups: '3' gives 384 feed lanes (array.rows x col_groups): "
      "allowed <= 256"}},
    {"col_groups_zero", "name: x\narray: {rows: 4, cols: 4, col_groups: 0}\n", 0,
     {"x.yaml:2:39: array.col_groups: '0' is out of range"}},
    {"line_kib_below_three_words", "name: x\narray: {rows: 4, cols: 64}\ndata: {acc_bits: 64}\n"
     "memory: {line_kib: 1}\n", 0,
     {"x.yaml:4:20: memory.line_kib: 1 KiB holds 2 of the 4096-bit words of array.cols=64 x "
      "data.acc_bits=64: allowed 0, or >= 2 KiB (3 words)"}},
    {"line_kib_negative", "name: x\n" ARR "memory: {line_kib: -1}\n", 0,
     {"x.yaml:3:20: memory.line_kib: '-1' is out of range: allowed 0..65536"}},
    {"fifo_depth_default_below_regs", "name: x\n" ARR "feeder: {regs_per_lane: 6}\n", 0,
     {"x.yaml:3:9: feeder.fifo_depth: '5' is less than feeder.regs_per_lane=6"}},
    /* name */
    {"name_keyword", "name: module\n" ARR, 0,
     {"x.yaml:1:7: name: 'module' is a verilog/systemverilog keyword"}},
    {"name_sv_keyword", "name: logic\n" ARR, 0,
     {"x.yaml:1:7: name: 'logic' is a verilog/systemverilog keyword"}},
    {"name_leading_digit", "name: 9abc\n" ARR, 0,
     {"x.yaml:1:7: name: '9abc' is not a verilog identifier", "not starting with a digit"}},
    {"name_dash", "name: my-array\n" ARR, 0,
     {"x.yaml:1:7: name: 'my-array' is not a verilog identifier"}},
    {"name_too_long",
     "name: a234567890123456789012345678901234567890123456789012345678901234\n" ARR, 0,
     {"x.yaml:1:7: name: 'a234567890123456789012345678901234567890...' is too long (64 chars)",
      "at most 63 chars"}},
    /* number formats */
    {"format_unknown", "name: x\n" ARR "data: {format: fp8}\n", 0,
     {"x.yaml:3:16: data.format: 'fp8' is not supported: allowed int fp16 bf16 fp32"}},
    {"format_float_with_widths", "name: x\n" ARR "data: {format: bf16, input_bits: 8, acc_bits: 32}\n",
     0, {"x.yaml:3:22: data.input_bits: applies to data.format int only; with data.format bf16",
         "x.yaml:3:37: data.acc_bits: applies to data.format int only"}},
    {"acc_format_with_int", "name: x\n" ARR "data: {acc_format: fp16}\n", 0,
     {"x.yaml:3:8: data.acc_format: applies to a float data.format", "data.format is int"}},
    {"acc_format_fp16_of_bf16", "name: x\n" ARR "data: {format: bf16, acc_format: fp16}\n", 0,
     {"x.yaml:3:34: data.acc_format: fp16 sums of bf16 operands are not supported",
      "or fp16 with data.format fp16"}},
    {"format_float_line_below_sixteen_words", "name: x\narray: {rows: 4, cols: 32}\n"
     "data: {format: fp32}\nmemory: {line_kib: 1}\n", 0,
     {"x.yaml:4:20: memory.line_kib: 1 KiB holds 8 of the 1024-bit words of array.cols=32 x the "
      "accumulation format's bits=32: allowed 0, or >= 2 KiB (16 words)"}},
    {"dataflow_ws", "name: x\narray: {rows: 4, cols: 4, dataflow: ws}\n", 0,
     {"x.yaml:2:37: array.dataflow: 'ws' is not supported: allowed os"}},
    /* whole-file problems */
    {"empty_file", "", 0, {"x.yaml: file is empty"}},
    {"only_comment", "# nothing here\n\n", 0, {"x.yaml: file is empty"}},
    {"empty_document", "---\n", 0, {"x.yaml: file is empty"}},
    {"top_level_list", "- name: x\n- rows: 4\n", 0,
     {"x.yaml:1:1: top level must be a mapping", "got a sequence"}},
    {"top_level_scalar", "hello\n", 0,
     {"x.yaml:1:1: top level must be a mapping", "got 'hello'"}},
    {"syntax_unclosed_flow", "name: x\narray: {rows: 4, cols: 4\n", 0,
     {"x.yaml:3:1: yaml syntax error: did not find expected ',' or '}'",
      "while parsing a flow mapping at 2:8"}},
    {"tab_indentation", "name: x\narray:\n\trows: 4\n\tcols: 4\n", 0,
     {"x.yaml:3:1: yaml syntax error", "tabs cannot indent yaml"}},
    {"binary_nul", "name: x\0\xff\xfe\x01", 12,
     {"x.yaml:1:8: not valid yaml text: control characters are not allowed"}},
    {"binary_bad_utf8", "name: x\n\x80\x81\xc3", 0,
     {"x.yaml:2:1: not valid yaml text: invalid leading UTF-8 octet"}},
    {"binary_utf16_garbage", "\xff\xfe\x00\xd8garbage", 11, {"x.yaml", "not valid yaml text"}},
    {"two_documents", "name: x\n" ARR "---\nname: y\n", 0,
     {"x.yaml:3:1: a second yaml document starts here"}},
    {"deep_nesting", "a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n", 0,
     {"x.yaml:1:", "nested deeper than"}},
    {"all_problems_in_one_run",
     "name: 9x\narray: {rows: 0, cols: 4, colz: 1}\nmemory: {double_buffer: on}\n", 0,
     {"x.yaml:1:7: name: '9x'", "x.yaml:2:15: array.rows: '0'", "x.yaml:2:27: array.colz",
      "x.yaml:3:25: memory.double_buffer: expected true or false, got 'on'"}},
};

static void test_bad(void)
{
  size_t i, j;

  for (i = 0; i < sizeof bad / sizeof *bad; i++) {
    const bad_t *b = &bad[i];
    char *out = NULL;
    const char *why;
    cfg_t c;
    int rc = load_text(b->text, b->len ? b->len : strlen(b->text), &c, &out);

    if (rc != 1) {
      not_ok(b->name, "expected return 1, got %d ('%s')", rc, out);
      free(out);
      continue;
    }
    for (j = 0; j < 5 && b->want[j]; j++)
      if (!strstr(out, b->want[j]))
        break;
    if (j < 5 && b->want[j])
      not_ok(b->name, "expected '%s' in '%s'", b->want[j], out);
    else if ((why = clean_lines(out, "x.yaml:")) != NULL)
      not_ok(b->name, "%s: '%s'", why, out);
    else
      ok(b->name);
    free(out);
  }
}

static void test_cannot_open(void)
{
  char *out = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&out, &size);
  cfg_t c;
  int rc = cfg_load("no/such/dir/missing.yaml", &c, f);

  fclose(f);
  if (rc != 1 || !strstr(out, "no/such/dir/missing.yaml: cannot open: No such file"))
    not_ok("cannot_open", "expected 'cannot open: No such file' and 1, got %d '%s'", rc, out);
  else
    ok("cannot_open");
  free(out);
}

/* Every prefix of a valid file and many one-byte corruptions: return 0 or 1, never crash;
 * on 1 at least one message, all clean lines. (A smoke test; the fuzzer goes further.) */
static void test_corruptions(void)
{
  static const char base[] =
      "# sagen\nname: default\narray: {rows: 16, cols: 16, dataflow: os}\n"
      "data:\n  input_bits: 8\n  weight_bits: 8\n  acc_bits: 32\n"
      "memory: {bus_elems: 16, ifmap_kib: 32, weight_kib: 32, output_kib: 32,\n"
      "         double_buffer: true, dram_bytes_per_cycle: 16}\n"
      "feeder:\n  regs_per_lane: 3\n  pattern_bits: 64\n  fifo_depth: 4\n";
  static const char subst[] = {'\0', '\t', '{', '}', '[', ':', '-', '&', '*', '!', '"', '\n',
                               '#', '\xff', '\x80', ' ', '?', '|', '>', '%'};
  char buf[sizeof base], *out = NULL;
  size_t n = sizeof base - 1, i, k;
  cfg_t c;
  int rc;

  for (i = 0; i <= n; i++) {
    for (k = 0; k <= sizeof subst; k++) {
      const char *why;
      size_t len = n;
      memcpy(buf, base, n);
      if (k == sizeof subst)
        len = i; /* prefix */
      else if (i < n)
        buf[i] = subst[k];
      else
        continue;
      rc = load_text(buf, len, &c, &out);
      why = clean_lines(out, "x.yaml");
      if ((rc != 0 && rc != 1) || (rc == 1 && !out[0]) || (rc == 0 && out[0]) || why) {
        not_ok("corruptions", "byte %zu -> 0x%02x: rc %d, %s: '%s'", i,
               (unsigned char)(k < sizeof subst ? subst[k] : 0), rc, why ? why : "", out);
        free(out);
        return;
      }
      free(out);
    }
  }
  rc = load_text(base, n, &c, &out);
  free(out);
  if (rc != 0 || c.rows != 16 || c.if_aw != 11)
    not_ok("corruptions", "the uncorrupted base text does not load (%d)", rc);
  else
    ok("corruptions");
}

static void test_markdown(void)
{
  static const char *const paths[] = {
      "name", "array", "array.rows", "array.cols", "array.dataflow", "array.col_groups", "data",
      "data.format", "data.acc_format", "data.input_bits",
      "data.weight_bits", "data.acc_bits", "memory", "memory.bus_elems", "memory.ifmap_kib",
      "memory.weight_kib", "memory.output_kib", "memory.double_buffer",
      "memory.dram_bytes_per_cycle", "memory.line_kib", "feeder", "feeder.regs_per_lane", "feeder.pattern_bits",
      "feeder.fifo_depth",
  };
  char *out = NULL, want[128];
  size_t size = 0, i, rows = 0;
  const char *p;
  FILE *f = open_memstream(&out, &size);

  cfg_print_keys_markdown(f);
  fclose(f);
  if (strncmp(out, "| key | type | default | allowed | meaning |\n", 45) != 0) {
    not_ok("markdown", "bad header: '%.60s'", out);
    free(out);
    return;
  }
  for (i = 0; i < sizeof paths / sizeof *paths; i++) {
    snprintf(want, sizeof want, "| `%s` |", paths[i]);
    if (!strstr(out, want)) {
      not_ok("markdown", "no row for '%s'", paths[i]);
      free(out);
      return;
    }
  }
  for (p = out; (p = strstr(p, "\n| `")) != NULL; p++)
    rows++;
  if (rows != sizeof paths / sizeof *paths ||
      !strstr(out, "| `array.rows` | integer | required | 1..256 |") ||
      !strstr(out, "| `memory.double_buffer` | boolean | true | true or false |"))
    not_ok("markdown", "%zu rows, or wrong cells: '%s'", rows, out);
  else
    ok("markdown");
  free(out);
}

int main(int argc, char **argv)
{
  const char *root = argc > 1 ? argv[1] : ".";

  test_shipped(root);
  test_bad();
  test_cannot_open();
  test_corruptions();
  test_markdown();
  return tap_end();
}
