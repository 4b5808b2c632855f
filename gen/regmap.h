/* regmap: the accelerator's register map, one table, and what is generated from it.
 *
 * The table (regmap.c) is the only place where a CSR address, a descriptor field, a flag bit,
 * a DEBUG bit or a counter index is written down. From it come:
 *   - the Verilog include sagen_regmap.vh (localparams) that sagen_ctrl.v and sagen_core.v
 *     include; `sagen gen` inlines it into the files it writes, so the RTL it emits needs no
 *     include path;
 *   - the C header sagen_regmap.h the host driver uses (build/gen/sagen_regmap.h, written by the
 *     build), and that `sagen gen` writes beside the RTL for a user's own driver;
 *   - docs/regmap.md, the map as a document (`make regmap-doc`).
 * The names are the same in the three: CSR_<REG> (word address), <REG>_<FIELD> (bit position of
 * a CSR field, with <REG>_<FIELD>_W its width), D_<FIELD> for the pass descriptor's fields,
 * CNT_<NAME> for the performance counters (see each emitter for the exact form). */
#ifndef SAGEN_GEN_REGMAP_H
#define SAGEN_GEN_REGMAP_H

#include <stdio.h>

/* One field of a register: bits [lsb + width - 1 : lsb]. */
typedef struct rm_field {
  const char *name; /* upper case; NULL ends a register's list */
  int lsb, width;
  const char *doc;
} rm_field_t;

/* One 32-bit CSR. FIELDS is NULL for a register that is one value. */
typedef struct rm_reg {
  const char *name; /* upper case; NULL ends the table */
  int addr;         /* word address on the CSR port */
  const char *access; /* "R", "W" or "RW" */
  const char *doc;
  const rm_field_t *fields;
} rm_reg_t;

/* One performance counter: 64 bits at CSR_CNT + 2 * index, the low word first. */
typedef struct rm_counter {
  const char *name; /* upper case; NULL ends the table */
  const char *doc;
} rm_counter_t;

/* A named constant of the map (the identity word, table sizes). */
typedef struct rm_const {
  const char *name;
  unsigned long value;
  int hex; /* print in hexadecimal */
  const char *doc;
} rm_const_t;

extern const rm_reg_t rm_csrs[];         /* the CSRs, by address */
extern const rm_reg_t rm_desc[];         /* the descriptor registers: CSR_DESC + index */
extern const rm_counter_t rm_counters[]; /* the performance counters, by index */
extern const rm_const_t rm_consts[];

/* Width of the CSR port's word address, in bits. */
#define RM_ADDR_BITS 7

/* Write the Verilog include (localparams, to be included inside a module) to OUT. */
void regmap_emit_verilog(FILE *out);

/* Write the C header (macros, with an include guard) to OUT. */
void regmap_emit_c(FILE *out);

/* Write the map as Markdown (docs/regmap.md) to OUT. */
void regmap_emit_markdown(FILE *out);

#endif
