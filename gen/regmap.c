/* regmap: the register map's table and its three renderings (see regmap.h). */
#include "regmap.h"

#include <string.h>

/* ---- the table --------------------------------------------------------------------------- */

static const rm_field_t f_ctrl[] = {
  {"START", 0, 1, "start the pass whose descriptor is written; while a pass runs the start is "
                  "held (STATUS.pending) and the pass begins the cycle after the running one ends"},
  {"CLEAR", 1, 1, "clear the performance counters, STATUS.error and STATUS.sequence"},
  {"PREPARE", 2, 1, "the descriptor is complete: the data feeder may start the pass before its "
                    "START (its pipeline fills while the running pass drains or the host still "
                    "loads the tiles); the host then writes no descriptor register until the "
                    "pass has launched (STATUS.pending clear after its START)"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_status[] = {
  {"BUSY", 0, 1, "a pass runs"},
  {"PENDING", 1, 1, "a START waits for the running pass to end"},
  {"ERROR", 2, 1, "a descriptor was refused: that pass ended at once without touching the "
                  "memories (a zero count, a kernel row wider than the hardware, a position the "
                  "feeder's arithmetic cannot hold, column groups or a col2im line the array "
                  "does not have); kept until CTRL.clear"},
  {"SEQUENCE", 3, 1, "the tap sequencer and the data feeder disagreed on where a context ends "
                     "(a hardware self-check of the two walks of one reduction); kept until "
                     "CTRL.clear"},
  {"PASSES", 8, 24, "passes ended since reset (their last result written), refused ones included"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_debug[] = {
  {"BUSY", 0, 1, "a pass runs"},
  {"F_READY", 1, 1, "every feed lane holds an element"},
  {"F_IDLE", 2, 1, "the data feeder is idle"},
  {"W_READY", 3, 1, "the weight fetcher holds a weight word"},
  {"PSM_DONE", 4, 1, "the partial-sums manager has written every result of the pass"},
  {"TOO_SOON", 5, 1, "a context's last tap waits for the reserve chains to empty"},
  {"TAP_VLD", 6, 1, "the tap sequencer presents a tap"},
  {"TAP_NZ", 7, 1, "that tap is non-zero"},
  {"TAP_PROLOGUE", 8, 1, "the tap sequencer is in its prologue"},
  {"IC_VLD", 9, 1, "the index counters present a word address"},
  {"WORD_VLD", 10, 1, "the feeder's word stage holds a word"},
  {"LANES_DONE", 11, 1, "every lane is done with the staged word"},
  {"ALIVE", 15, 1, "always 1: the register exists"},
  {"FIRST_EMPTY", 16, 8, "the first lane whose FIFO is empty (255: none)"},
  {"FIRST_BUSY", 24, 8, "the first lane not done with the staged word (255: none)"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_params[] = {
  {"ROWS_M1", 0, 8, "array.rows - 1"},
  {"COLS_M1", 8, 8, "array.cols - 1"},
  {"BUS_M1", 16, 8, "memory.bus_elems - 1"},
  {"PATTERN_M1", 24, 8, "feeder.pattern_bits - 1: a pass's kernel row spans at most "
                        "pattern_bits elements, (S - 1) * d + 1"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_params2[] = {
  {"GROUPS_M1", 0, 8, "array.col_groups - 1"},
  {"LINE_WORDS", 8, 24, "output words of the col2im overlap-add line (0: no col2im)"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_route_addr[] = {
  {"ADDR", 0, 16, "the route-table entry ROUTE_DATA writes next"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_route_data[] = {
  {"LO", 0, 16, "the entry at ROUTE_ADDR: entry (filter group * 4 + class) * cols + lane is "
                "{valid, column} (sagen_psum_manager)"},
  {"HI", 16, 16, "the entry at ROUTE_ADDR + 1; ROUTE_ADDR then moves on by 2"},
  {NULL, 0, 0, NULL},
};

static const rm_field_t f_read_lanes[] = {
  {"LANES", 0, 16, "lanes of an output word a host read moves (0: all): the host port counts "
                   "their bytes, as a DMA that reads the words' first lanes only"},
  {NULL, 0, 0, NULL},
};

const rm_reg_t rm_csrs[] = {
  {"CTRL", 0, "W", "control", f_ctrl},
  {"STATUS", 1, "R", "status", f_status},
  {"DESC", 2, "RW", "the first of the pass descriptor's registers (CSR_DESC + index, below); the "
                    "descriptor is latched when the pass begins, so the host may write the next "
                    "one while a pass runs", NULL},
  {"DEBUG", 28, "R", "live state of the blocks, for a host that sees no progress", f_debug},
  {"PARAMS", 29, "R", "the configuration", f_params},
  {"MAGIC", 30, "R", "the core's identity and register-map version: MAGIC_VALUE", NULL},
  {"PARAMS2", 31, "R", "the configuration", f_params2},
  {"ROUTE_ADDR", 40, "RW", "col2im route table: the next entry", f_route_addr},
  {"ROUTE_DATA", 41, "W", "col2im route table: two entries", f_route_data},
  {"READ_LANES", 42, "RW", "the lanes of an output word the host reads", f_read_lanes},
  {"CNT", 64, "R", "the first performance counter (CSR_CNT + 2 * index, low word first; below)",
   NULL},
  {NULL, 0, NULL, NULL, NULL},
};

/* The descriptor's fields. Positions are in elements of the loaded ifmap tile (a bank); the
 * index counters (sagen_index_counters.v) give each its exact use. */
static const rm_field_t d_n_ch[] = {
  {"N_CH", 0, 32, "channels of the pass (at most 65535)"}, {NULL, 0, 0, NULL}};
static const rm_field_t d_kg_kr[] = {
  {"N_KR", 0, 16, "kernel rows of the pass"},
  {"N_KG", 16, 16, "filter groups of the pass (passes over the same pixels, each with the next "
                   "group of filters)"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_n_ctx[] = {
  {"N_CTX", 0, 32, "contexts per filter group (a context: one pixel per lane)"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_npix[] = {
  {"NPIX", 0, 32, "output words stored per filter group: lanes past the last row's last pixel "
                  "write nothing"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_k_act[] = {
  {"K_ACT", 0, 16, "filters of the pass"},
  {"GRP_N", 16, 8, "column groups (0 or 1: none): each group of GRP_W columns computes its own "
                   "pixels"},
  {"GRP_W", 24, 8, "the column groups' width in columns"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_plane[] = {
  {"PLANE", 0, 32, "distance between two channels of the tile"}, {NULL, 0, 0, NULL}};
static const rm_field_t d_kr_step[] = {
  {"KR_STEP", 0, 32, "distance between two kernel rows: dilation_h * row pitch"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_oy_step[] = {
  {"OY_STEP", 0, 32, "distance between two output rows: stride_h * row pitch"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_ctx_xs[] = {
  {"CTX_XS", 0, 32, "x advance of a context: (lanes mod tile width) * stride_w"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_ow_xs[] = {
  {"OW_XS", 0, 32, "tile width * stride_w: a row of output pixels in input columns"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_base[] = {
  {"BASE", 0, 32, "position of the pass's window in the tile (signed)"}, {NULL, 0, 0, NULL}};
static const rm_field_t d_strh_dilh[] = {
  {"DIL_H", 0, 16, "dilation_h"},
  {"STR_H", 16, 16, "stride_h"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_ctxy_strw[] = {
  {"STR_W", 0, 16, "stride_w"},
  {"CTX_Y", 16, 16, "input rows a context advances: (lanes div tile width) * stride_h"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_padl_padt[] = {
  {"PAD_T", 0, 16, "rows of top padding before the tile's first stored row"},
  {"PAD_L", 16, 16, "columns of left padding before the tile's first stored column"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_tilew_tileh[] = {
  {"TILE_H", 0, 16, "stored rows of the tile the window sees"},
  {"TILE_W", 16, 16, "stored columns of the tile the window sees"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_gap_taps[] = {
  {"TAPS", 0, 16, "S: taps of a kernel row (1 .. feeder.fifo_depth)"},
  {"TAP_GAP", 16, 16, "d: elements between two taps of a kernel row (dilation_w); "
                      "(S - 1) * d + 1 <= feeder.pattern_bits"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_len[] = {
  {"LEN", 0, 32, "the reduction length: channels * kernel rows * taps"}, {NULL, 0, 0, NULL}};
static const rm_field_t d_last_xs[] = {
  {"LAST_XS", 0, 32, "x of the first context's last lane"}, {NULL, 0, 0, NULL}};
static const rm_field_t d_last_seg[] = {
  {"LAST_SEG", 0, 16, "output row of the first context's last lane, relative to its first"},
  {"OH_LAST", 16, 16, "the tile's last output row (output rows - 1): no context reads a segment "
                      "below it"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_ctx_py[] = {
  {"CTX_PY", 0, 32, "position advance of a context's rows: CTX_Y * row pitch"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_flags[] = {
  {"ACC", 0, 1, "accumulate into the output words (a reduction slice after the first)"},
  {"IF_BANK", 1, 1, "the ifmap bank the pass reads"},
  {"WT_BANK", 2, 1, "the weight bank the pass reads"},
  {"OUT_BANK", 3, 1, "the output bank the pass writes"},
  {"ZERO_FILL", 4, 1, "walk every dense tap, feeding created zeros on the zero-space ones "
                      "(otherwise the non-zero taps only)"},
  {"LIN", 5, 1, "linear contexts: stride 1 and row pitch = tile width (sagen_index_counters)"},
  {"C2I", 6, 1, "col2im: the products overlap-add into the output through the route table"},
  {"LINE_FIRST", 7, 1, "col2im: the pass's first row takes the line"},
  {"LINE_ACC", 8, 1, "col2im: the pass adds its carry into the line"},
  {"LINE_KG0", 9, 3, "col2im: the first filter group with a line segment"},
  {"CTX_ROWS", 16, 16, "output rows a context spans"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_owv_ow[] = {
  {"OW_REAL", 0, 16, "the tile's real width in output pixels"},
  {"OW_VIRT", 16, 16, "the tile's width as the contexts see it: a wider virtual width keeps "
                      "every context inside one output row (lanes past the real width idle)"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_dense[] = {
  {"DN_R", 0, 16, "dense taps of the pass's kernel rows (the tap sequencer's walk)"},
  {"DN_S", 16, 16, "dense taps of the pass's kernel columns"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_off[] = {
  {"OFF_H", 0, 16, "dense row of the pass's first non-zero tap"},
  {"OFF_W", 16, 16, "dense column of the pass's first non-zero tap"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_gap[] = {
  {"GAP_H", 0, 16, "dense rows between two non-zero taps"},
  {"GAP_W", 16, 16, "dense columns between two non-zero taps"},
  {NULL, 0, 0, NULL}};
static const rm_field_t d_nz[] = {
  {"NZ_R", 0, 16, "non-zero kernel rows of the pass (0: none, a pass of created zeros)"},
  {"NZ_S", 16, 16, "non-zero kernel columns of the pass (0: none)"},
  {NULL, 0, 0, NULL}};

/* addr: the register's index in the descriptor (CSR_DESC + index) */
const rm_reg_t rm_desc[] = {
  {"N_CH", 0, "RW", "channels", d_n_ch},
  {"KG_KR", 1, "RW", "kernel rows, filter groups", d_kg_kr},
  {"N_CTX", 2, "RW", "contexts", d_n_ctx},
  {"NPIX", 3, "RW", "pixels", d_npix},
  {"K_ACT", 4, "RW", "filters, column groups", d_k_act},
  {"PLANE", 5, "RW", "channel plane", d_plane},
  {"KR_STEP", 6, "RW", "kernel-row step", d_kr_step},
  {"OY_STEP", 7, "RW", "output-row step", d_oy_step},
  {"CTX_XS", 8, "RW", "context x advance", d_ctx_xs},
  {"OW_XS", 9, "RW", "output row width", d_ow_xs},
  {"BASE", 10, "RW", "window base", d_base},
  {"STRH_DILH", 11, "RW", "vertical stride and dilation", d_strh_dilh},
  {"CTXY_STRW", 12, "RW", "context rows, horizontal stride", d_ctxy_strw},
  {"PADL_PADT", 13, "RW", "padding", d_padl_padt},
  {"TILEW_TILEH", 14, "RW", "tile size", d_tilew_tileh},
  {"GAP_TAPS", 15, "RW", "kernel row", d_gap_taps},
  {"LEN", 16, "RW", "reduction length", d_len},
  {"LAST_XS", 17, "RW", "last lane", d_last_xs},
  {"LAST_SEG", 18, "RW", "last lane's row, tile's last row", d_last_seg},
  {"CTX_PY", 19, "RW", "context row step", d_ctx_py},
  {"FLAGS", 20, "RW", "flags", d_flags},
  {"OWV_OW", 21, "RW", "tile width, real and virtual", d_owv_ow},
  {"DENSE", 22, "RW", "dense tap sequence: length", d_dense},
  {"OFF", 23, "RW", "dense tap sequence: first non-zero tap", d_off},
  {"GAP", 24, "RW", "dense tap sequence: spacing", d_gap},
  {"NZ", 25, "RW", "dense tap sequence: non-zero taps", d_nz},
  {NULL, 0, NULL, NULL, NULL},
};

const rm_counter_t rm_counters[] = {
  {"CYCLES", "cycles since the counters were cleared"},
  {"BUSY", "cycles a pass runs"},
  {"STEP", "valid steps: a non-zero tap entered the array"},
  {"BUBBLE", "bubbles: a context's last tap waited for the reserve chains"},
  {"FILL", "cycles before a pass's first step"},
  {"STALL", "cycles the feeder or the weights were not ready after the first step"},
  {"DRAIN", "cycles after a pass's last tap until its last result is written or the next pass "
            "starts"},
  {"MACS", "useful multiply-accumulates"},
  {"IF_RD", "ifmap words read"},
  {"WT_RD", "weight words read"},
  {"OUT_RD", "output words read by the array"},
  {"OUT_WR", "output words written"},
  {"HP_BYTES", "bytes moved through the host port"},
  {"PAD_WORDS", "feeder word reads that held padding only"},
  {"ZERO_STEP", "zero steps: a zero-space tap fed created zeros"},
  {"ZERO_PE", "PE cycles fed a created zero"},
  {"ZSKIP", "zero-space operands never fetched"},
  {"LINE_RD", "col2im line words read"},
  {"LINE_WR", "col2im line words written"},
  {NULL, NULL},
};

const rm_const_t rm_consts[] = {
  {"MAGIC_VALUE", 0x5A6E0005ul, 1, "what MAGIC reads: the core's identity and register-map "
                                   "version (change the low bits with the map)"},
  {"ROUTE_KGS", 4, 0, "filter groups of a col2im pass (the route table holds ROUTE_KGS * 4 * "
                      "cols entries)"},
  {"READ_LATENCY", 3, 0, "cycles a CSR read takes: csr_rdata_o after the cycle READ_LATENCY - 1 "
                         "cycles after its address answers it, with the registers as they were "
                         "the cycle after the address"},
  {NULL, 0, 0, NULL},
};

/* ---- helpers ----------------------------------------------------------------------------- */

static int count_regs(const rm_reg_t *r)
{
  int n = 0;
  while (r[n].name) n++;
  return n;
}

static int count_counters(void)
{
  int n = 0;
  while (rm_counters[n].name) n++;
  return n;
}

/* The address of CSR NAME (a name of rm_csrs). */
static int csr_addr(const char *name)
{
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    if (!strcmp(r->name, name)) return r->addr;
  return -1;
}

static const char *generated_note =
  "Generated by sagen from its register-map table (gen/regmap.c); do not edit.";

/* ---- Verilog ------------------------------------------------------------------------------ */

void regmap_emit_verilog(FILE *out)
{
  fprintf(out,
    "// sagen_regmap.vh: the register map as localparams, included inside a module.\n"
    "// %s\n"
    "// CSR_<REG>: word address; <REG>_<FIELD>: a CSR field's lowest bit, <REG>_<FIELD>_W its\n"
    "// width; D_<FIELD>: a descriptor field's lowest bit in the descriptor bus (CSR_DESC + i is\n"
    "// bits [i*32 +: 32]), D_<FIELD>_W its width; DR_<REG>: a descriptor register's index;\n"
    "// CNT_<NAME>: a counter's index. See docs/regmap.md.\n"
    "/* verilator lint_off UNUSEDPARAM */\n",
    generated_note);
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    fprintf(out, "localparam [%d:0] CSR_%s = %d'd%d;\n", RM_ADDR_BITS - 1, r->name,
            RM_ADDR_BITS, r->addr);
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    for (const rm_field_t *f = r->fields; f && f->name; f++)
      fprintf(out, "localparam integer %s_%s = %d, %s_%s_W = %d;\n", r->name, f->name, f->lsb,
              r->name, f->name, f->width);
  fprintf(out, "localparam integer NDESC = %d;\n", count_regs(rm_desc));
  for (const rm_reg_t *r = rm_desc; r->name; r++)
    fprintf(out, "localparam integer DR_%s = %d;\n", r->name, r->addr);
  for (const rm_reg_t *r = rm_desc; r->name; r++)
    for (const rm_field_t *f = r->fields; f && f->name; f++)
      fprintf(out, "localparam integer D_%s = %d, D_%s_W = %d;\n", f->name, r->addr * 32 + f->lsb,
              f->name, f->width);
  fprintf(out, "localparam integer NCNT = %d;\n", count_counters());
  for (int i = 0; rm_counters[i].name; i++)
    fprintf(out, "localparam integer CNT_%s = %d;\n", rm_counters[i].name, i);
  for (const rm_const_t *k = rm_consts; k->name; k++) {
    if (k->hex) fprintf(out, "localparam [31:0] %s = 32'h%08lX;\n", k->name, k->value);
    else fprintf(out, "localparam integer %s = %lu;\n", k->name, k->value);
  }
  fprintf(out, "/* verilator lint_on UNUSEDPARAM */\n");
}

/* ---- C ------------------------------------------------------------------------------------ */

void regmap_emit_c(FILE *out)
{
  fprintf(out,
    "/* sagen_regmap.h: the accelerator's register map for a host driver.\n"
    " * %s\n"
    " * SAGEN_CSR_<REG>: word address on the CSR port. SAGEN_<REG>_<FIELD>_LSB and _W: a CSR\n"
    " * field. SAGEN_D_<FIELD>_REG, _LSB and _W: a descriptor field, in descriptor register\n"
    " * SAGEN_CSR_DESC + _REG. SAGEN_CNT_<NAME>: a counter's index (64 bits at SAGEN_CSR_CNT +\n"
    " * 2 * index, low word first). See docs/regmap.md. */\n"
    "#ifndef SAGEN_REGMAP_H\n"
    "#define SAGEN_REGMAP_H\n\n"
    "#include <stdint.h>\n\n",
    generated_note);
  fprintf(out, "/* CSR word addresses */\n");
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    fprintf(out, "#define SAGEN_CSR_%s %du\n", r->name, r->addr);
  fprintf(out, "\n/* CSR fields */\n");
  for (const rm_reg_t *r = rm_csrs; r->name; r++)
    for (const rm_field_t *f = r->fields; f && f->name; f++)
      fprintf(out, "#define SAGEN_%s_%s_LSB %d\n#define SAGEN_%s_%s_W %d\n", r->name, f->name,
              f->lsb, r->name, f->name, f->width);
  fprintf(out, "\n/* descriptor registers: SAGEN_CSR_DESC + index */\n"
               "#define SAGEN_NDESC %d\n", count_regs(rm_desc));
  for (const rm_reg_t *r = rm_desc; r->name; r++)
    fprintf(out, "#define SAGEN_DR_%s %d\n", r->name, r->addr);
  fprintf(out, "\n/* descriptor fields */\n");
  for (const rm_reg_t *r = rm_desc; r->name; r++)
    for (const rm_field_t *f = r->fields; f && f->name; f++)
      fprintf(out, "#define SAGEN_D_%s_REG %d\n#define SAGEN_D_%s_LSB %d\n#define SAGEN_D_%s_W %d\n",
              f->name, r->addr, f->name, f->lsb, f->name, f->width);
  fprintf(out, "\n/* performance counters */\n#define SAGEN_NCNT %d\n", count_counters());
  for (int i = 0; rm_counters[i].name; i++)
    fprintf(out, "#define SAGEN_CNT_%s %d\n", rm_counters[i].name, i);
  fprintf(out, "\n/* constants */\n");
  for (const rm_const_t *k = rm_consts; k->name; k++) {
    if (k->hex) fprintf(out, "#define SAGEN_%s 0x%08lXu\n", k->name, k->value);
    else fprintf(out, "#define SAGEN_%s %lu\n", k->name, k->value);
  }
  fprintf(out,
    "\n"
    "/* A field F (a name above without _LSB/_W, e.g. SAGEN_CTRL_START or SAGEN_D_N_KG):\n"
    " * SAGEN_GET(F, word) its value in WORD, SAGEN_PUT(F, v) V in its place (V masked to its\n"
    " * width); for descriptor D[SAGEN_NDESC] and a field F of it, SAGEN_DESC_GET(d, F) its\n"
    " * value and SAGEN_DESC_SET(d, F, v) sets it to V (masked), leaving the other fields. */\n"
    "#define SAGEN_MASK(w) ((w) >= 32 ? 0xFFFFFFFFu : ((1u << (w)) - 1u))\n"
    "#define SAGEN_GET(F, word) (((uint32_t)(word) >> F##_LSB) & SAGEN_MASK(F##_W))\n"
    "#define SAGEN_PUT(F, v) (((uint32_t)(v) & SAGEN_MASK(F##_W)) << F##_LSB)\n"
    "#define SAGEN_DESC_GET(d, F) SAGEN_GET(F, (d)[F##_REG])\n"
    "#define SAGEN_DESC_SET(d, F, v) \\\n"
    "  ((d)[F##_REG] = ((d)[F##_REG] & ~(SAGEN_MASK(F##_W) << F##_LSB)) | SAGEN_PUT(F, v))\n"
    "\n#endif\n");
}

/* ---- Markdown ------------------------------------------------------------------------------ */

static void md_bits(FILE *out, const rm_field_t *f)
{
  if (f->width == 1) fprintf(out, "%d", f->lsb);
  else fprintf(out, "%d:%d", f->lsb + f->width - 1, f->lsb);
}

static void md_fields(FILE *out, const char *prefix, const rm_field_t *fields)
{
  fprintf(out, "| bits | field | meaning |\n|---|---|---|\n");
  for (const rm_field_t *f = fields; f->name; f++) {
    fprintf(out, "| ");
    md_bits(out, f);
    fprintf(out, " | `%s%s` | %s |\n", prefix, f->name, f->doc);
  }
}

void regmap_emit_markdown(FILE *out)
{
  fprintf(out,
    "# Register map\n\n"
    "<!-- %s `make regmap-doc` writes this file. -->\n\n"
    "The accelerator's CSR port has 32-bit registers at word addresses 0 to %d. The same table\n"
    "gives the RTL its localparams (`sagen_regmap.vh`, inlined into the files `sagen gen` writes)\n"
    "and the host its C header (`sagen_<name>_regmap.h` beside the generated RTL); the names\n"
    "below are the C header's without its `SAGEN_` prefix.\n\n"
    "A pass: write the descriptor (`CSR_DESC` + 0 .. %d), optionally `CTRL.PREPARE`, then\n"
    "`CTRL.START`; read `STATUS` until `BUSY` and `PENDING` are clear (or count `PASSES`).\n\n"
    "## Registers\n\n"
    "| address | name | access | meaning |\n|---|---|---|---|\n",
    generated_note, (1 << RM_ADDR_BITS) - 1, count_regs(rm_desc) - 1);
  int ncnt = count_counters();
  for (const rm_reg_t *r = rm_csrs; r->name; r++) {
    if (!strcmp(r->name, "DESC"))
      fprintf(out, "| %d .. %d | `DESC` | %s | %s |\n", r->addr, r->addr + count_regs(rm_desc) - 1,
              r->access, r->doc);
    else if (!strcmp(r->name, "CNT"))
      fprintf(out, "| %d .. %d | `CNT` | %s | the performance counters, 64 bits each at `CSR_CNT` "
              "+ 2 * index, low word first (below) |\n", r->addr, r->addr + 2 * ncnt - 1, r->access);
    else
      fprintf(out, "| %d | `%s` | %s | %s |\n", r->addr, r->name, r->access, r->doc);
  }
  fprintf(out, "\nOther addresses read 0 and ignore writes.\n");
  for (const rm_reg_t *r = rm_csrs; r->name; r++) {
    if (!r->fields) continue;
    fprintf(out, "\n### %s (%d, %s)\n\n", r->name, r->addr, r->access);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s_", r->name);
    md_fields(out, prefix, r->fields);
  }
  fprintf(out,
    "\n## The pass descriptor\n\n"
    "Register `DR_<REG>` at CSR `CSR_DESC` + index; field `D_<FIELD>` (`SAGEN_D_<FIELD>_REG`,\n"
    "`_LSB`, `_W` in C). The controller refuses a descriptor that cannot run (`STATUS.ERROR`).\n\n"
    "| index | CSR | register | bits | field | meaning |\n|---|---|---|---|---|---|\n");
  for (const rm_reg_t *r = rm_desc; r->name; r++)
    for (const rm_field_t *f = r->fields; f->name; f++) {
      fprintf(out, "| %d | %d | `%s` | ", r->addr, csr_addr("DESC") + r->addr, r->name);
      md_bits(out, f);
      fprintf(out, " | `D_%s` | %s |\n", f->name, f->doc);
    }
  fprintf(out, "\n## Performance counters\n\n"
               "| index | CSR (low, high) | name | counts |\n|---|---|---|---|\n");
  for (int i = 0; rm_counters[i].name; i++)
    fprintf(out, "| %d | %d, %d | `CNT_%s` | %s |\n", i, csr_addr("CNT") + 2 * i,
            csr_addr("CNT") + 2 * i + 1,
            rm_counters[i].name, rm_counters[i].doc);
  fprintf(out, "\n## Constants\n\n| name | value | meaning |\n|---|---|---|\n");
  for (const rm_const_t *k = rm_consts; k->name; k++) {
    if (k->hex) fprintf(out, "| `%s` | 0x%08lX | %s |\n", k->name, k->value, k->doc);
    else fprintf(out, "| `%s` | %lu | %s |\n", k->name, k->value, k->doc);
  }
}
