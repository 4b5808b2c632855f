/* engine: one run on the hardware (see engine.h). */
#include "engine.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "desc.h"
#include "hmath.h"
#include "layer.h"
#include "plan.h"
#include "readout.h"
#include "report.h"
#include "runlog.h"
#include "tiling.h"
#include "view.h"
#include "words.h"

/* Why the hardware makes no progress, from the DEBUG register (docs/regmap.md). */
#define DBG(F) ((int)SAGEN_GET(SAGEN_DEBUG_##F, d))
static void watchdog_why(uint32_t d, char *buf, size_t len)
{
  int busy = DBG(BUSY), f_ready = DBG(F_READY), f_idle = DBG(F_IDLE), w_ready = DBG(W_READY);
  int psm_done = DBG(PSM_DONE), g_vld = DBG(TAP_VLD), g_nz = DBG(TAP_NZ);
  int g_busy = DBG(TAP_PROLOGUE), ic_vld = DBG(IC_VLD), word_vld = DBG(WORD_VLD);
  unsigned empty = (unsigned)DBG(FIRST_EMPTY), notdone = (unsigned)DBG(FIRST_BUSY);
  if (!DBG(ALIVE)) snprintf(buf, len, "the DEBUG register reads %08x: not a sagen core", d);
  else if (!busy) snprintf(buf, len, "the core is idle, waiting for the host");
  else if (g_busy) snprintf(buf, len, "stuck block: the tap sequencer, in its prologue");
  else if (g_vld && g_nz && !f_ready)
    snprintf(buf, len, "stuck block: the data feeder (lane %u has no element; %s)", empty,
             word_vld ? "the staged word waits for a lane" :
             ic_vld ? "the index counters wait" : "its index counters have finished the pass");
  else if (g_vld && g_nz && !w_ready)
    snprintf(buf, len, "stuck block: the weight fetcher (no weight word)");
  else if (!g_vld && !f_idle)
    snprintf(buf, len, "stuck block: the data feeder holds elements the tap sequencer did not "
             "ask for (lane %u%s)", notdone == 255 ? 0u : notdone, word_vld ? ", a word staged" : "");
  else if (!g_vld && !psm_done)
    snprintf(buf, len, "stuck block: the partial-sums manager (results not all written)");
  else snprintf(buf, len, "no block is stuck (DEBUG %08x)", d);
}
#undef DBG

/* Test hooks, from the environment: SAGEN_WATCHDOG_CYCLES (default 20000000) and
 * SAGEN_FAULT=bad_desc (pass 0's channel count written as 0), SAGEN_FAULT=hang (pass 0's
 * weight words per context one short, so the weight fetcher runs dry and the array waits for
 * ever), SAGEN_FAULT=sequence (pass 0's tap sequence one column longer than the feeder's,
 * which the hardware's cross-check of the two reports as STATUS.sequence), SAGEN_FAULT=groups
 * (pass 0 asks for 255 column groups, more than any array has: STATUS.error),
 * SAGEN_FAULT=line (pass 0's rows 3 pixels wide, one short of an integer col2im pass's: it
 * would read a line word again before its write lands, STATUS.error), SAGEN_FAULT=row15 and tile15 (pass 0's rows, or its
 * pixels, 15: too few for a float design's col2im, whose adders' path is 15 cycles,
 * STATUS.error), SAGEN_FAULT=walk and walk_wide (pass 0 walks 2^15
 * contexts of 2 filter groups, or 2^16 of one: more than the tap sequencer counts,
 * STATUS.error). */
static uint64_t watchdog_cycles(void)
{
  const char *e = getenv("SAGEN_WATCHDOG_CYCLES");
  long long v = e ? atoll(e) : 0;
  return v > 0 ? (uint64_t)v : 20000000ull;
}

static const char *fault(void)
{
  const char *e = getenv("SAGEN_FAULT");
  return e ? e : "";
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double engine_bpc(const cfg_t *c, const drive_opts_t *o)
{
  return (o && o->dram_bytes_per_cycle > 0) ? o->dram_bytes_per_cycle : c->dram_bytes_per_cycle;
}

/* One run in progress: the members and the input as they run, the plan, the state of the two
 * host engines (CSR: the descriptors; DMA: the tiles in, the results out) and the report. Owns
 * XG, PS, TS, JOBS, LOADED and READ_OUT (engine_release frees them). */
typedef struct engine {
  hw_t *hw;
  const cfg_t *c;
  const drive_opts_t *o;
  member_t *ms0;          /* the caller's members (their kgroups are set) */
  int nm;
  member_t one, *ms;      /* the members as they run (ONE: a flattened 1x1's) */
  layer_t lv;             /* the layer tiled: the run's, or its flattened form */
  const view_t *x;        /* the input as it runs */
  tensor_t xg;            /* a flattened layer's input pixels, gathered */
  view_t xgv;
  long oh, ow;
  double bpc;
  tiling_t t;
  pass_t *ps;
  out_tile_t *ts;
  job_t *jobs;
  long np, nt, nj;
  report_t rep;           /* this run's figures, added to the caller's at the end */
  /* the DMA engine: one word a cycle, as the credit of DRAM bandwidth allows */
  int if_bytes, wt_bytes, out_bytes, rd_bytes;
  double credit, credit_cap;
  long jc, jword;         /* current job and its next word */
  char *loaded;           /* per pass: its ifmap and weight tiles are in (2 a pass) */
  char *read_out;         /* per output tile: read out */
  uint64_t bytes_in, bytes_out, bytes_dy;
  int hp_read;            /* a read-out word is on its way this cycle: ro_tile's word ro_row */
  long ro_row;
  const out_tile_t *ro_tile;
  /* the CSR engine: a descriptor word a cycle, then the start */
  long next_prog;         /* next pass to program */
  int prog_word;          /* -1: not started; 0..SAGEN_NDESC-1: writing; SAGEN_NDESC: prepare */
  uint32_t desc[SAGEN_NDESC];
  long passes_done;       /* from STATUS */
  int pending, busy, error;
  unsigned status_asked;   /* bit i: the address i cycles before this one was STATUS (csr_rdata
                            * after a cycle answers the address of READ_LATENCY - 1 cycles before) */
  /* the watchdog and the progress line */
  uint64_t start_cycle, last_progress, wd_cycles;
  double t0, t_last;
  int tty;
} engine_t;

static void engine_release(engine_t *e)
{
  tensor_free(&e->xg);
  free(e->ps);
  free(e->ts);
  free(e->jobs);
  free(e->loaded);
  free(e->read_out);
  e->ps = NULL;
  e->ts = NULL;
  e->jobs = NULL;
  e->loaded = e->read_out = NULL;
}

/* A 1x1 convolution without padding is a matrix product over the output pixels: the host
 * streams the pixels it needs (x[:, :, ::sh, ::sw]) as one long row, the images of the batch
 * one after the other, and the array runs stride 1 with every lane busy; its results go back
 * into the rows of the output view. Layer LT of E's one member, input X0, as that. */
static int engine_flatten(engine_t *e, const layer_t *lt, const view_t *x0, char *err,
                          size_t errlen)
{
  long oh = e->oh, ow = e->ow;
  const view_t *yv0 = &e->ms0[0].y;
  e->one = e->ms0[0];
  e->ms = &e->one;
  e->one.y.st[0] = 0;
  e->one.y.st[2] = 0;
  e->one.y.xsplit = ow;
  e->one.y.xst_hi = yv0->st[2];
  e->one.y.xsplit2 = oh;
  e->one.y.xst_top = yv0->st[0];
  long gshape[4] = {1, lt->c, 1, lt->n * oh * ow};
  if (tensor_alloc(&e->xg, 4, gshape)) {
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  for (long n = 0; n < lt->n; n++)
    for (long ch = 0; ch < lt->c; ch++)
      for (long oy = 0; oy < oh; oy++)
        for (long ox = 0; ox < ow; ox++)
          e->xg.data[(ch * lt->n + n) * oh * ow + oy * ow + ox] =
              view_at(x0, n, ch, oy * lt->sh, ox * lt->sw);
  e->lv = layer_flat(lt, oh, ow);
  e->xgv = view_of(&e->xg);
  e->xgv.zspace = x0->zspace;
  e->x = &e->xgv;
  e->oh = 1;
  e->ow = e->lv.w;
  e->one.l = e->lv;
  return 0;
}

/* The run's tiling, its passes and its DMA jobs; the report's figures of the plan. */
int engine_check_opts(const cfg_t *c, const drive_opts_t *o, char *err, size_t errlen)
{
  int groups = o ? o->col_groups : 0;
  if (groups > c->col_groups) {
    snprintf(err, errlen, "%d column groups asked for: the configuration '%s' has "
             "array.col_groups = %d", groups, c->name, c->col_groups);
    return 1;
  }
  return 0;
}

static int engine_plan(engine_t *e, char *err, size_t errlen)
{
  const cfg_t *c = e->c;
  const drive_opts_t *o = e->o;
  report_t *rep = &e->rep;
  e->t = (tiling_t){0, 0, 0, 0, 0, 0, 0, 0, 1, c->cols, 0, 0, 0, 0, 0};
  int groups = o ? o->col_groups : 0;   /* (checked by op_begin: engine_check_opts) */
  if (tiling_choose(c, &e->lv, e->ms, e->nm, e->oh, e->ow, e->bpc, o ? o->contexts : 0, groups,
                    o ? o->rows : 0, o && o->zero_fill, &e->t, &rep->est_cycles, err, errlen))
    return 1;
  rep->kgroups = cdiv(e->lv.k, e->t.gw);
  for (int m = 0; m < e->nm; m++) e->ms0[m].kgroups = rep->kgroups;
  rep->ctx_runs[e->t.lin ? 2 : e->t.virt ? 1 : 0] = e->nm;
  rep->aligned_runs = e->t.al ? e->nm : 0;
  rep->group_runs[e->t.groups] = e->nm;
  if (plan_passes(c, e->ms, e->nm, e->oh, e->ow, &e->t, &e->ps, &e->np, &e->ts, &e->nt)) {
    snprintf(err, errlen, "out of memory planning %ld passes", e->np);
    return 1;
  }
  rep->passes = e->np;
  e->jobs = calloc((size_t)(2 * e->np + e->nt + 1), sizeof *e->jobs);
  if (!e->jobs) {
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  e->nj = plan_dma_jobs(e->ps, e->np, e->jobs);
  return 0;
}

/* Reset the hardware, check that the model is the configuration's, clear the counters, write
 * col2im's route table and the lanes the host reads; then the engines' starting state. */
static int engine_setup(engine_t *e, char *err, size_t errlen)
{
  hw_t *hw = e->hw;
  const cfg_t *c = e->c;
  hw_reset(hw, 4);
  uint32_t magic = hw_csr_read(hw, SAGEN_CSR_MAGIC);
  uint32_t params = hw_csr_read(hw, SAGEN_CSR_PARAMS);
  uint32_t params2 = hw_csr_read(hw, SAGEN_CSR_PARAMS2);
  uint32_t want = SAGEN_PUT(SAGEN_PARAMS_ROWS_M1, c->rows - 1) |
                  SAGEN_PUT(SAGEN_PARAMS_COLS_M1, c->cols - 1) |
                  SAGEN_PUT(SAGEN_PARAMS_BUS_M1, c->bus_elems - 1) |
                  SAGEN_PUT(SAGEN_PARAMS_PATTERN_M1, c->pattern_bits - 1);
  uint32_t want2 = SAGEN_PUT(SAGEN_PARAMS2_GROUPS_M1, c->col_groups - 1) |
                   SAGEN_PUT(SAGEN_PARAMS2_LINE_WORDS, c->line_words);
  if (magic != SAGEN_MAGIC_VALUE || params != want || params2 != want2) {
    snprintf(err, errlen, "the simulated model does not match the configuration '%s' "
             "(magic %08x, params %08x %08x, expected %08x %08x)", c->name, magic, params,
             params2, want, want2);
    return 1;
  }
  hw_csr_write(hw, SAGEN_CSR_CTRL, SAGEN_PUT(SAGEN_CTRL_CLEAR, 1)); /* clear the counters */
  if (e->ms[0].c2i) {   /* col2im: the route table, two entries a write */
    const uint32_t *route = e->ms[0].c2i->route;
    long n = (long)SAGEN_ROUTE_KGS * 4 * c->cols;
    hw_csr_write(hw, SAGEN_CSR_ROUTE_ADDR, 0);
    for (long i = 0; i < n; i += 2)
      hw_csr_write(hw, SAGEN_CSR_ROUTE_DATA, SAGEN_PUT(SAGEN_ROUTE_DATA_LO, route[i]) |
                   SAGEN_PUT(SAGEN_ROUTE_DATA_HI, i + 1 < n ? route[i + 1] : 0u));
  }
  e->if_bytes = (c->if_word_bits + 7) / 8;
  e->wt_bytes = (c->wt_word_bits + 7) / 8;
  e->out_bytes = (c->out_word_bits + 7) / 8;
  /* the host reads each output word's first lanes, those that hold results */
  long rlanes = tile_read_lanes(c, &e->t);
  e->rd_bytes = (tile_read_bits(c, &e->t) + 7) / 8;
  hw_csr_write(hw, SAGEN_CSR_READ_LANES, rlanes < c->cols ? (uint32_t)rlanes : 0u);
  int ib = e->if_bytes, wb = e->wt_bytes, ob = e->out_bytes;
  e->credit_cap = fmax(e->bpc, (double)(ib > wb ? (ib > ob ? ib : ob) : (wb > ob ? wb : ob)));
  e->loaded = calloc((size_t)e->np, 2);
  e->read_out = calloc((size_t)e->nt, 1);
  if (!e->loaded || !e->read_out) {
    snprintf(err, errlen, "out of memory");
    return 1;
  }
  e->prog_word = -1;
  e->start_cycle = e->last_progress = hw->cycles;
  e->wd_cycles = watchdog_cycles();
  e->ro_row = -1;
  e->t0 = e->t_last = now_s();
  e->tty = isatty(2) && !(e->o && e->o->quiet);
  return 0;
}

/* The CSR engine's cycle: a word of the next pass's descriptor, then CTRL.prepare, or, once
 * written and the pass's tiles are in and its output bank read out, the start. It programs the
 * next pass only once the hardware has latched the previous one (STATUS.pending clear). */
static void engine_csr_step(engine_t *e)
{
  hw_t *hw = e->hw;
  if (e->next_prog >= e->np || e->pending) return;
  const pass_t *p = &e->ps[e->next_prog];
  if (e->prog_word < 0) {
    desc_program(&e->ms[p->m].l, p, e->o && e->o->zero_fill, e->desc);
    uint32_t *desc = e->desc;
    if (e->next_prog == 0 && !strcmp(fault(), "bad_desc")) SAGEN_DESC_SET(desc, SAGEN_D_N_CH, 0);
    if (e->next_prog == 0 && !strcmp(fault(), "hang"))
      SAGEN_DESC_SET(desc, SAGEN_D_LEN, SAGEN_DESC_GET(desc, SAGEN_D_LEN) - 1);
    if (e->next_prog == 0 && !strcmp(fault(), "sequence"))
      SAGEN_DESC_SET(desc, SAGEN_D_NZ_S, SAGEN_DESC_GET(desc, SAGEN_D_NZ_S) + 1);
    if (e->next_prog == 0 && !strcmp(fault(), "groups")) {
      SAGEN_DESC_SET(desc, SAGEN_D_GRP_N, 255);
      SAGEN_DESC_SET(desc, SAGEN_D_GRP_W, SAGEN_DESC_GET(desc, SAGEN_D_GRP_W) | 1);
    }
    if (e->next_prog == 0 && !strcmp(fault(), "line")) SAGEN_DESC_SET(desc, SAGEN_D_OW_VIRT, 3);
    if (e->next_prog == 0 && !strcmp(fault(), "row15")) SAGEN_DESC_SET(desc, SAGEN_D_OW_VIRT, 15);
    if (e->next_prog == 0 && !strcmp(fault(), "tile15")) SAGEN_DESC_SET(desc, SAGEN_D_NPIX, 15);
    if (e->next_prog == 0 && !strcmp(fault(), "walk")) {   /* 2^15 contexts x 2 groups */
      SAGEN_DESC_SET(desc, SAGEN_D_N_CTX, 32768);
      SAGEN_DESC_SET(desc, SAGEN_D_N_KG, 2);
    }
    if (e->next_prog == 0 && !strcmp(fault(), "walk_wide")) /* 2^16 contexts x 1 group */
      SAGEN_DESC_SET(desc, SAGEN_D_N_CTX, 65536);
    e->prog_word = 0;
  }
  if (e->prog_word < SAGEN_NDESC) {
    hw->io.csr_we = 1;
    hw->io.csr_addr = SAGEN_CSR_DESC + (uint32_t)e->prog_word;
    hw->io.csr_wdata = e->desc[e->prog_word];
    e->prog_word++;
    return;
  }
  if (e->prog_word == SAGEN_NDESC) {   /* the descriptor is complete: the feeder may start early */
    hw->io.csr_we = 1;
    hw->io.csr_addr = SAGEN_CSR_CTRL;
    hw->io.csr_wdata = SAGEN_PUT(SAGEN_CTRL_PREPARE, 1);
    e->prog_word++;
    return;
  }
  int ok = e->loaded[2 * e->next_prog] || !p->load_if;
  ok = ok && (e->loaded[2 * e->next_prog + 1] || !p->load_wt);
  if (!p->acc && p->out_tile >= e->c->banks) ok = ok && e->read_out[p->out_tile - e->c->banks];
  if (ok) {
    hw->io.csr_we = 1;
    hw->io.csr_addr = SAGEN_CSR_CTRL;
    hw->io.csr_wdata = SAGEN_PUT(SAGEN_CTRL_START, 1);
    e->next_prog++;
    e->prog_word = -1;
    e->pending = 1; /* until STATUS says the hardware took it */
    e->status_asked = 0;   /* the answers still on their way were read before this start */
  }
}

/* The DMA engine's cycle on a read-out job: the next word of the tile once its last pass is
 * done (with column groups, words that hold no real pixel are not read). */
static void engine_dma_readout(engine_t *e, const job_t *j)
{
  hw_t *hw = e->hw;
  const out_tile_t *ot = &e->ts[j->idx];
  long nw = readout_words(e->c, ot);
  if (e->passes_done <= ot->last_pass || e->credit < e->rd_bytes) return;
  while (ot->groups > 1 && e->jword < nw && !readout_pixels(e->c, ot, e->jword, NULL, NULL))
    e->jword++;
  if (e->jword < nw) {
    hw->io.hp_re = 1;
    hw->io.hp_bank = ot->bank;
    hw->io.hp_addr = (uint32_t)readout_addr(e->c, ot, e->jword);
    e->credit -= e->rd_bytes;
    e->bytes_out += (uint64_t)e->rd_bytes;
    e->hp_read = 1;
    e->ro_tile = ot;
    e->ro_row = e->jword;
    e->jword++;
  }
  if (e->jword == nw) {
    e->read_out[j->idx] = 1;
    e->jc++;
    e->jword = 0;
  }
}

/* The DMA engine's cycle on a load job: the next word of the pass's ifmap or weight tile once
 * the last pass that used its bank is done. */
static void engine_dma_load(engine_t *e, const job_t *j)
{
  hw_t *hw = e->hw;
  const pass_t *p = &e->ps[j->idx];
  int is_if = j->type == JOB_LOAD_IF;
  long wait = is_if ? p->if_wait : p->wt_wait;
  long nw = is_if ? p->if_words : p->wt_words;
  int bytes = is_if ? e->if_bytes : e->wt_bytes;
  if (nw == 0) {
    e->loaded[2 * j->idx + !is_if] = 1;
    e->jc++;
  } else if (e->passes_done > wait && e->credit >= bytes) {
    hw->io.hp_we = 1;
    hw->io.hp_mem = !is_if;
    hw->io.hp_bank = is_if ? p->if_bank : p->wt_bank;
    hw->io.hp_addr = (uint32_t)e->jword;
    if (is_if) words_ifmap(e->c, e->x, p, e->jword, hw->io.hp_wdata);
    else words_weight(e->c, &e->ms[p->m].w, p, e->jword, hw->io.hp_wdata);
    e->credit -= bytes;
    e->bytes_in += (uint64_t)bytes;
    if (is_if ? e->x->zspace : e->ms[p->m].w.zspace) e->bytes_dy += (uint64_t)bytes;
    if (++e->jword == nw) {
      e->loaded[2 * j->idx + !is_if] = 1;
      e->jc++;
      e->jword = 0;
    }
  }
}

/* STATUS as the hardware answered the last cycle: passes done, the start pending, busy, and the
 * errors it reports. Returns 0, or 1 with ERR. */
static int engine_status(engine_t *e, char *err, size_t errlen)
{
  uint32_t st = e->hw->io.csr_rdata;
  long done = (long)(st >> 8);
  int was_pending = e->pending;
  e->pending = (st >> 1) & 1;
  e->busy = st & 1;
  e->error = (st >> 2) & 1;
  if (done != e->passes_done || e->pending != was_pending) {
    hw_expect_csr(e->hw);
    e->last_progress = e->hw->cycles;
  }
  e->passes_done = done;
  if (e->error) {
    snprintf(err, errlen, "the hardware refused the descriptor of pass %ld (STATUS.error)",
             e->passes_done - 1);
    return 1;
  }
  if ((st >> 3) & 1) {
    snprintf(err, errlen, "the tap sequencer and the data feeder disagree on where a context "
             "of pass %ld ends (STATUS.sequence): the pass descriptor or the hardware is wrong",
             e->passes_done);
    return 1;
  }
  return 0;
}

/* The watchdog (no progress for wd_cycles: 1 with ERR naming the stuck block) and, on a
 * terminal, the progress line. */
static int engine_watch(engine_t *e, char *err, size_t errlen)
{
  hw_t *hw = e->hw;
  if (e->jword > 0) e->last_progress = hw->cycles;
  if (hw->cycles - e->last_progress > e->wd_cycles) {
    char why[200];
    watchdog_why(hw_csr_read(hw, SAGEN_CSR_DEBUG), why, sizeof why);
    snprintf(err, errlen, "watchdog: no progress for %" PRIu64 " cycles at pass %ld of %ld: %s "
             "(busy=%d pending=%d, host job %ld of %ld)", e->wd_cycles, e->passes_done, e->np,
             why, e->busy, e->pending, e->jc, e->nj);
    return 1;
  }
  if (e->tty && (hw->cycles & 0xffff) == 0) {
    double tnow = now_s();
    if (tnow - e->t_last > 0.5) {
      double frac = (double)(e->passes_done + 1) / (double)(e->np + 1);
      fprintf(stderr, "\rsagen: pass %ld/%ld, %" PRIu64 " cycles, %.1f s, eta %.0f s   ",
              e->passes_done, e->np, hw->cycles - e->start_cycle, tnow - e->t0,
              (tnow - e->t0) * (1 - frac) / (frac > 0 ? frac : 1));
      e->t_last = tnow;
    }
  }
  return 0;
}

/* Cycle by cycle until every job is done and every pass programmed and finished: the CSR
 * engine's write and the DMA engine's word, the cycle, then what came back (a read-out word,
 * STATUS). Returns 0, or 1 with ERR. */
static int engine_loop(engine_t *e, char *err, size_t errlen)
{
  hw_t *hw = e->hw;
  while (e->jc < e->nj || e->next_prog < e->np || e->passes_done < e->np) {
    e->credit = fmin(e->credit + e->bpc, e->credit_cap);
    engine_csr_step(e);
    e->hp_read = 0;
    if (e->jc < e->nj) {
      const job_t *j = &e->jobs[e->jc];
      if (j->type == JOB_READOUT) engine_dma_readout(e, j);
      else engine_dma_load(e, j);
    }
    /* csr_rdata after this cycle answers the address of READ_LATENCY - 1 cycles ago */
    e->status_asked = (e->status_asked << 1) |
                      (unsigned)(!hw->io.csr_we && hw->io.csr_addr == SAGEN_CSR_STATUS);
    int status_valid = (e->status_asked >> (SAGEN_READ_LATENCY - 1)) & 1u;
    hw_cycle(hw);
    if (e->hp_read) {
      hw_expect_hp(hw);
      if (readout_place(e->c, e->ro_tile, e->ro_row, &e->ms[e->ro_tile->m].y, hw->io.hp_rdata,
                        e->o ? e->o->reads : NULL)) {
        snprintf(err, errlen, "out of memory");
        return 1;
      }
    }
    if (status_valid && engine_status(e, err, errlen)) return 1;
    if (engine_watch(e, err, errlen)) return 1;
  }
  if (e->tty && now_s() - e->t0 > 0.5) fprintf(stderr, "\r%70s\r", "");
  return 0;
}

/* The counters after the run into the report, with the useful MACs of the caller's members;
 * the hardware's MACs and host-port bytes must be the driver's (1 with ERR if not). */
static int engine_counters(engine_t *e, char *err, size_t errlen)
{
  hw_t *hw = e->hw;
  const cfg_t *c = e->c;
  report_t *rep = &e->rep;
  uint64_t total = hw->cycles - e->start_cycle;
  uint64_t cnt[SAGEN_NCNT];
  for (int i = 0; i < SAGEN_NCNT; i++) {
    uint64_t lo = hw_csr_read(hw, SAGEN_CSR_CNT + 2 * (unsigned)i);
    uint64_t hi = hw_csr_read(hw, SAGEN_CSR_CNT + 2 * (unsigned)i + 1);
    cnt[i] = lo | hi << 32;
  }
  /* the descriptor registers read back as the last pass's were written (their read path, as
   * the counters' is above) */
  for (int i = 0; e->next_prog > 0 && i < SAGEN_NDESC; i++) {
    uint32_t v = hw_csr_read(hw, SAGEN_CSR_DESC + (unsigned)i);
    if (v != e->desc[i]) {
      snprintf(err, errlen, "descriptor register %d reads 0x%08" PRIx32 ", the driver wrote 0x%08" PRIx32,
               i, v, e->desc[i]);
      return 1;
    }
  }
  for (int m = 0; m < e->nm; m++) {
    const layer_t *lm = &e->ms0[m].l;
    if (!lm->no_ops)
      rep->useful_macs += (uint64_t)lm->n * lm->k * layer_out_h(lm) * layer_out_w(lm) * lm->c *
                          lm->r * lm->s;
  }
  uint64_t pes = (uint64_t)c->rows * c->cols;
  uint64_t if_bytes = (uint64_t)e->if_bytes, wt_bytes = (uint64_t)e->wt_bytes;
  rep->ideal_cycles = (rep->useful_macs + pes - 1) / pes;
  rep->cycles = total;
  rep->busy = cnt[SAGEN_CNT_BUSY];
  rep->step_valid = cnt[SAGEN_CNT_STEP];
  rep->bubble = cnt[SAGEN_CNT_BUBBLE];
  rep->fill = cnt[SAGEN_CNT_FILL];
  rep->stall = cnt[SAGEN_CNT_STALL];
  rep->drain = cnt[SAGEN_CNT_DRAIN];
  rep->dram_wait = total > rep->busy ? total - rep->busy : 0;
  rep->hw_macs = cnt[SAGEN_CNT_MACS];
  rep->pe_idle_cycles = rep->step_valid - rep->hw_macs / pes;
  rep->sram_if = cnt[SAGEN_CNT_IF_RD];
  rep->sram_wt = cnt[SAGEN_CNT_WT_RD];
  rep->sram_out_rd = cnt[SAGEN_CNT_OUT_RD];
  rep->sram_out_wr = cnt[SAGEN_CNT_OUT_WR];
  rep->pad_words = cnt[SAGEN_CNT_PAD_WORDS];
  rep->sram_line_rd = cnt[SAGEN_CNT_LINE_RD];
  rep->sram_line_wr = cnt[SAGEN_CNT_LINE_WR];
  rep->zero_steps = cnt[SAGEN_CNT_ZERO_STEP];
  rep->zero_pe = cnt[SAGEN_CNT_ZERO_PE];
  rep->zero_skipped = cnt[SAGEN_CNT_ZSKIP];
  rep->host_bytes_in = e->bytes_in;
  rep->host_bytes_out = e->bytes_out;
  rep->host_bytes = e->bytes_in + e->bytes_out;
  rep->hw_host_bytes = cnt[SAGEN_CNT_HP_BYTES];
  rep->sram_bytes = cnt[SAGEN_CNT_IF_RD] * if_bytes + cnt[SAGEN_CNT_WT_RD] * wt_bytes +
                    (cnt[SAGEN_CNT_OUT_RD] + cnt[SAGEN_CNT_LINE_RD]) * (uint64_t)e->out_bytes;
  /* dy sits in the ifmap memory (the input gradient) or in the weight memory (the weight
   * gradient's kernel): the members of a run share their input, and their weights are all of
   * one tensor */
  rep->dy_host_bytes = e->bytes_dy;
  rep->dy_sram_bytes = (e->x->zspace ? cnt[SAGEN_CNT_IF_RD] * if_bytes : 0) +
                       (e->ms[0].w.zspace ? cnt[SAGEN_CNT_WT_RD] * wt_bytes : 0);
  if (rep->hw_macs != rep->useful_macs) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " MACs, the layer has %" PRIu64,
             rep->hw_macs, rep->useful_macs);
    return 1;
  }
  if (rep->hw_host_bytes != rep->host_bytes) {
    snprintf(err, errlen, "the hardware counted %" PRIu64 " host-port bytes, the driver moved %" PRIu64,
             rep->hw_host_bytes, rep->host_bytes);
    return 1;
  }
  return 0;
}

/* Append the passes' reduction slices to the caller's log (drive_opts_t.slices), if it keeps
 * one. */
static int engine_log_slices(engine_t *e, char *err, size_t errlen)
{
  drive_slices_t *l = e->o ? e->o->slices : NULL;
  if (!l) return 0;
  if (l->n + e->np > l->cap) {
    long cap = (l->n + e->np) * 2;
    drive_slice_t *s = realloc(l->s, (size_t)cap * sizeof *s);
    if (!s) {
      snprintf(err, errlen, "out of memory for the log of reduction slices");
      return 1;
    }
    l->s = s;
    l->cap = cap;
  }
  for (long i = 0; i < e->np; i++) {
    const pass_t *p = &e->ps[i];
    l->s[l->n++] = (drive_slice_t){p->out_tile, p->c0, p->ct, p->r0, p->rt, p->s0, p->st,
                                   l->swap};
  }
  return 0;
}

int engine_run(hw_t *hw, const cfg_t *c, const layer_t *lt, member_t *ms0, int nm,
               const view_t *x0, const drive_opts_t *o, report_t *sum, char *err, size_t errlen)
{
  engine_t e;
  memset(&e, 0, sizeof e);
  e.hw = hw;
  e.c = c;
  e.o = o;
  e.ms0 = e.ms = ms0;
  e.nm = nm;
  e.lv = *lt;
  e.x = x0;
  e.oh = layer_out_h(lt);
  e.ow = layer_out_w(lt);
  e.bpc = engine_bpc(c, o);
  e.rep.dram_bytes_per_cycle = e.bpc;
  e.rep.runs = nm;
  e.rep.shared_runs = nm > 1 ? nm : 0;
  if (e.oh < 1 || e.ow < 1) {
    snprintf(err, errlen, "layer has no output (output size %ldx%ld)", e.oh, e.ow);
    return 1;
  }
  e.lv.oh = e.oh;
  e.lv.ow = e.ow;
  int rc = 1;
  if (nm == 1 && layer_flattens(lt, e.oh, e.ow, &ms0[0].y) &&
      engine_flatten(&e, lt, x0, err, errlen))
    goto fail;
  if (engine_plan(&e, err, errlen) || engine_log_slices(&e, err, errlen) ||
      (o && o->runs &&
       runlog_append(o->runs, &e.lv, e.x, e.ms, e.nm, e.ps, e.np, e.ts, e.nt, o->zero_fill,
                     e.c->cols, err, errlen)) ||
      engine_setup(&e, err, errlen) ||
      engine_loop(&e, err, errlen) || engine_counters(&e, err, errlen))
    goto fail;
  report_add(sum, &e.rep);
  rc = 0;
fail:
  engine_release(&e);
  return rc;
}
