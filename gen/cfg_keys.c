/* cfg_keys: the table of keys, the one table that drives the validator and prints the docs
 * (cfg_print_keys_markdown), and what it says about a key (see cfg_internal.h). */
#include "cfg_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FIELD(f) .off = offsetof(cfg_t, f), .size = sizeof(((cfg_t *)0)->f)

const cfgkey_t cfg_keys[NKEYS] = {
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
                "number formats: integers (signed two's complement) or IEEE floating point"},
    [K_FORMAT] = {"data.format", T_ENUM, 0, 0, "int", 0, 0, 0, "int fp16 bf16 fp32",
                  "float formats: no input_bits, weight_bits, acc_bits",
                  FIELD(format),
                  "operands: int (widths below), fp16 (IEEE binary16), bf16 (bfloat16) or fp32 "
                  "(binary32); round to nearest even, subnormals kept, padding adds nothing "
                  "(docs/hardware.md)"},
    [K_ACCFMT] = {"data.acc_format", T_ENUM, 0, 0, "fp32", 0, 0, 0, "fp32 fp16",
                  "float data.format only; fp16 only with fp16", FIELD(acc_format),
                  "float formats: the sums' format (products of fp16 or bf16 are exact in fp32)"},
    [K_IN] = {"data.input_bits", T_INT, 0, 8, NULL, 2, 16, 0, NULL, "data.format int only",
              FIELD(input_bits), "input (activation) width"},
    [K_WT] = {"data.weight_bits", T_INT, 0, 8, NULL, 2, 16, 0, NULL, "data.format int only",
              FIELD(weight_bits), "weight width"},
    [K_ACC] = {"data.acc_bits", T_INT, 0, 32, NULL, 2, 64, 0, NULL,
               ">= data.input_bits + data.weight_bits; data.format int only", FIELD(acc_bits),
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
                   "0, or holds >= 3 words of array.cols x acc_bits (16 in floating point)",
                   FIELD(line_kib),
                   "overlap-add line for col2im, KiB (0: none): the input gradient of a layer "
                   "with few channels runs as dy times its (tap, channel) filters, the products "
                   "added into dx as they leave the array (see docs/hardware.md)"},
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
                   FIELD(pattern_bits), "the widest kernel row a pass spans: (S-1)*dilation_w + 1 must fit"},
    [K_FIFO] = {"feeder.fifo_depth", T_INT, 0, 5, NULL, 2, 64, 0, NULL,
                ">= feeder.regs_per_lane", FIELD(fifo_depth),
                "elements per lane FIFO; also the widest kernel slice of a pass"},
};

const char *cfg_leaf(const cfgkey_t *k)
{
  const char *dot = strrchr(k->path, '.');
  return dot ? dot + 1 : k->path;
}

int cfg_in_section(int k, int sec)
{
  if (sec < 0)
    return strchr(cfg_keys[k].path, '.') == NULL;
  size_t n = strlen(cfg_keys[sec].path);
  return strncmp(cfg_keys[k].path, cfg_keys[sec].path, n) == 0 && cfg_keys[k].path[n] == '.' &&
         strchr(cfg_keys[k].path + n + 1, '.') == NULL;
}

const char *cfg_type_name(ktype_t t)
{
  switch (t) {
  case T_MAP: return "mapping";
  case T_INT: return "integer";
  case T_BOOL: return "boolean";
  case T_IDENT: return "identifier";
  default: return "string";
  }
}

const char *cfg_section_keys(int sec, char *buf, size_t n)
{
  size_t o = 0;
  int i;

  buf[0] = '\0';
  for (i = 0; i < NKEYS; i++) {
    if (cfg_in_section(i, sec) && o < n) {
      int w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", cfg_leaf(&cfg_keys[i]));
      o += w > 0 ? (size_t)w : 0;
    }
  }
  return buf;
}

const char *cfg_allowed_text(int k, char *buf, size_t n)
{
  const cfgkey_t *e = &cfg_keys[k];
  char list[256];

  buf[0] = '\0';
  switch (e->type) {
  case T_MAP:
    snprintf(buf, n, "a mapping of %s", cfg_section_keys(k, list, sizeof list));
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

size_t cfg_lev(const char *a, size_t an, const char *b)
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
