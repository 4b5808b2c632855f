/* test_regmap: the register-map table (gen/regmap.c) is a map a host can use, and the C header
 * generated from it (build/gen/sagen_regmap.h, which the driver includes) says what the table
 * says.
 *
 * The table: every CSR at its own address inside the 7-bit CSR space, the descriptor's and the
 * counters' ranges overlapping no other register; within each register, fields inside 32 bits
 * and overlapping no other field; names unique (they become C macros and Verilog localparams).
 * The header: its macros agree with the table for every register and field, SAGEN_GET and
 * SAGEN_PUT round-trip a field's values and SAGEN_DESC_SET leaves the other fields alone. */
#include <stdint.h>
#include <string.h>

#include "regmap.h"
#include "sagen_regmap.h"
#include "lib/tap.h"

static int count_desc(void)
{
  int n = 0;
  while (rm_desc[n].name) n++;
  return n;
}

static int count_counters(void)
{
  int n = 0;
  while (rm_counters[n].name) n++;
  return n;
}

/* 1 if the fields of FIELDS fit in 32 bits without overlapping; else names the first fault */
static int fields_ok(const char *reg, const rm_field_t *fields, char *why, size_t len)
{
  uint64_t used = 0;
  for (const rm_field_t *f = fields; f && f->name; f++) {
    if (f->lsb < 0 || f->width < 1 || f->lsb + f->width > 32) {
      snprintf(why, len, "%s.%s: bits %d +: %d outside 32 bits", reg, f->name, f->lsb, f->width);
      return 0;
    }
    uint64_t m = ((1ull << f->width) - 1) << f->lsb;
    if (used & m) {
      snprintf(why, len, "%s.%s overlaps another field", reg, f->name);
      return 0;
    }
    used |= m;
  }
  return 1;
}

static void test_addresses(void)
{
  int ndesc = count_desc(), ncnt = count_counters();
  int owner[1 << RM_ADDR_BITS];
  for (int a = 0; a < 1 << RM_ADDR_BITS; a++) owner[a] = -1;
  int bad = 0;
  for (int i = 0; rm_csrs[i].name; i++) {
    const rm_reg_t *r = &rm_csrs[i];
    int span = !strcmp(r->name, "DESC") ? ndesc : !strcmp(r->name, "CNT") ? 2 * ncnt : 1;
    for (int a = r->addr; a < r->addr + span; a++) {
      if (a < 0 || a >= 1 << RM_ADDR_BITS) {
        not_ok("addresses", "%s: address %d outside the %d-bit CSR space", r->name, a,
               RM_ADDR_BITS);
        bad = 1;
      } else if (owner[a] >= 0) {
        not_ok("addresses", "%s and %s both at address %d", rm_csrs[owner[a]].name, r->name, a);
        bad = 1;
      } else {
        owner[a] = i;
      }
      if (bad) return;
    }
  }
  ok("addresses: every CSR, the descriptor and the counters at their own addresses");
}

static void test_fields(void)
{
  char why[200];
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    if (!fields_ok(r->name, r->fields, why, sizeof why)) {
      not_ok("fields", "%s", why);
      return;
    }
  for (int i = 0; rm_desc[i].name; i++) {
    if (rm_desc[i].addr != i) {
      not_ok("fields", "descriptor register %s has index %d at position %d", rm_desc[i].name,
             rm_desc[i].addr, i);
      return;
    }
    if (!rm_desc[i].fields || !fields_ok(rm_desc[i].name, rm_desc[i].fields, why, sizeof why)) {
      not_ok("fields", "%s", rm_desc[i].fields ? why : "a descriptor register without fields");
      return;
    }
  }
  ok("fields: inside 32 bits, none overlapping, descriptor registers in index order");
}

/* NAMES[0..n) unique; else the first repeated one */
static const char *first_repeat(const char **names, int n)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(names[i], names[j])) return names[i];
  return NULL;
}

static void test_names(void)
{
  const char *names[512];
  char buf[512][48];
  int n = 0;
  /* the identifiers each table entry becomes (without the C header's SAGEN_ prefix) */
  for (const rm_reg_t *r = rm_csrs; r->name; r++) {
    snprintf(buf[n], sizeof buf[n], "CSR_%s", r->name);
    names[n] = buf[n];
    n++;
    for (const rm_field_t *f = r->fields; f && f->name; f++, n++) {
      snprintf(buf[n], sizeof buf[n], "%s_%s", r->name, f->name);
      names[n] = buf[n];
    }
  }
  for (const rm_reg_t *r = rm_desc; r->name; r++) {
    snprintf(buf[n], sizeof buf[n], "DR_%s", r->name);
    names[n] = buf[n];
    n++;
    for (const rm_field_t *f = r->fields; f && f->name; f++, n++) {
      snprintf(buf[n], sizeof buf[n], "D_%s", f->name);
      names[n] = buf[n];
    }
  }
  for (const rm_counter_t *c = rm_counters; c->name; c++, n++) {
    snprintf(buf[n], sizeof buf[n], "CNT_%s", c->name);
    names[n] = buf[n];
  }
  for (const rm_const_t *k = rm_consts; k->name; k++, n++) names[n] = k->name;
  const char *rep = first_repeat(names, n);
  if (rep) not_ok("names", "'%s' names two entries", rep);
  else ok("names: every register, field, counter and constant named once");
}

/* The header's macros against the table, a few by name (the emitter writes them all the same
 * way): a mismatch means the driver was built from another table. */
static void test_header(void)
{
  int bad = 0;
#define SAME(name, macro, want)                                                        \
  do {                                                                                 \
    if ((long)(macro) != (long)(want)) {                                               \
      not_ok("header", "%s is %ld in sagen_regmap.h, %ld in the table", name,          \
             (long)(macro), (long)(want));                                             \
      bad = 1;                                                                         \
    }                                                                                  \
  } while (0)
  for (const rm_reg_t *r = rm_csrs; r->name; r++) {
    if (!strcmp(r->name, "CTRL")) SAME("CSR_CTRL", SAGEN_CSR_CTRL, r->addr);
    if (!strcmp(r->name, "STATUS")) SAME("CSR_STATUS", SAGEN_CSR_STATUS, r->addr);
    if (!strcmp(r->name, "DESC")) SAME("CSR_DESC", SAGEN_CSR_DESC, r->addr);
    if (!strcmp(r->name, "MAGIC")) SAME("CSR_MAGIC", SAGEN_CSR_MAGIC, r->addr);
    if (!strcmp(r->name, "CNT")) SAME("CSR_CNT", SAGEN_CSR_CNT, r->addr);
  }
  SAME("NDESC", SAGEN_NDESC, count_desc());
  SAME("NCNT", SAGEN_NCNT, count_counters());
  SAME("D_N_KG_REG", SAGEN_D_N_KG_REG, 1);
  SAME("D_NZ_S_LSB", SAGEN_D_NZ_S_LSB, 16);
  SAME("CNT_LINE_WR", SAGEN_CNT_LINE_WR, count_counters() - 1);
#undef SAME
  if (!bad) ok("header: sagen_regmap.h agrees with the table");
}

static void test_macros(void)
{
  uint32_t d[SAGEN_NDESC];
  for (int i = 0; i < SAGEN_NDESC; i++) d[i] = 0xA5A5A5A5u;
  SAGEN_DESC_SET(d, SAGEN_D_LINE_KG0, 0x1F); /* 3 bits: 7 is kept, the rest masked */
  SAGEN_DESC_SET(d, SAGEN_D_OFF_H, -3);      /* a signed field, 16 bits */
  int good = SAGEN_DESC_GET(d, SAGEN_D_LINE_KG0) == 7 &&
             SAGEN_DESC_GET(d, SAGEN_D_OFF_H) == 0xFFFDu &&
             SAGEN_DESC_GET(d, SAGEN_D_OFF_W) == 0xA5A5u &&          /* its neighbour */
             (d[SAGEN_DR_FLAGS] & ~(7u << SAGEN_D_LINE_KG0_LSB)) == (0xA5A5A5A5u & ~(7u << 9)) &&
             SAGEN_GET(SAGEN_STATUS_PASSES, SAGEN_PUT(SAGEN_STATUS_PASSES, 0x123456)) == 0x123456u &&
             SAGEN_PUT(SAGEN_CTRL_START, 1) == 1u && SAGEN_PUT(SAGEN_D_N_CH, 0xFFFFFFFFu) == 0xFFFFFFFFu;
  check(good, "macros: SAGEN_GET, SAGEN_PUT, SAGEN_DESC_SET/GET set one field and mask it", "%s",
        "a field read back wrong or a neighbour changed");
}

int main(void)
{
  test_addresses();
  test_fields();
  test_names();
  test_header();
  test_macros();
  return tap_end();
}
