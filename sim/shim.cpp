// shim: the Verilated model of one configuration behind the C API of sagen_sim.h.
// Built per configuration next to a header sagen_top.h that includes the Verilated model's
// header and defines SAGEN_TOP as its class.
#include <cstdint>
#include <cstring>

#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#elif VM_TRACE
#include "verilated_vcd_c.h"
#endif
#include "sagen_top.h"

extern "C" {
#include "sagen_sim.h"
}

struct sim_model {
  VerilatedContext *ctx;
  SAGEN_TOP *top;
#if VM_TRACE_FST
  VerilatedFstC *tfp;
#elif VM_TRACE
  VerilatedVcdC *tfp;
#endif
  uint64_t time;
};

// Port <-> array of 32-bit words, for every width Verilator uses.
static void put(CData &p, const uint32_t *w) { p = (CData)w[0]; }
static void put(SData &p, const uint32_t *w) { p = (SData)w[0]; }
static void put(IData &p, const uint32_t *w) { p = w[0]; }
static void put(QData &p, const uint32_t *w) { p = (QData)w[0] | ((QData)w[1] << 32); }
template <std::size_t N> static void put(VlWide<N> &p, const uint32_t *w)
{
  for (std::size_t i = 0; i < N; i++) p[i] = w[i];
}
static void get(const CData &p, uint32_t *w) { w[0] = p; }
static void get(const SData &p, uint32_t *w) { w[0] = p; }
static void get(const IData &p, uint32_t *w) { w[0] = p; }
static void get(const QData &p, uint32_t *w) { w[0] = (uint32_t)p; w[1] = (uint32_t)(p >> 32); }
template <std::size_t N> static void get(const VlWide<N> &p, uint32_t *w)
{
  for (std::size_t i = 0; i < N; i++) w[i] = p[i];
}

extern "C" sim_model_t *sagen_model_open(const char *trace)
{
  sim_model_t *m = new sim_model();
  m->ctx = new VerilatedContext;
  const char *args[] = {"sagen", "+verilator+rand+reset+2"};
  m->ctx->commandArgs(2, args);
  m->top = new SAGEN_TOP(m->ctx, "top");
  m->time = 0;
#if VM_TRACE
  m->tfp = nullptr;
  if (trace && *trace) {
    m->ctx->traceEverOn(true);
#if VM_TRACE_FST
    m->tfp = new VerilatedFstC;
#else
    m->tfp = new VerilatedVcdC;
#endif
    m->top->trace(m->tfp, 99);
    m->tfp->open(trace);
  }
#else
  (void)trace;
#endif
  m->top->clk_i = 0;
  m->top->rst_ni = 0;
  m->top->eval();
  return m;
}

extern "C" void sagen_model_cycle(sim_model_t *m, sim_io_t *io)
{
  SAGEN_TOP *t = m->top;
  t->rst_ni = io->rst_n ? 1 : 0;
  t->csr_we_i = io->csr_we ? 1 : 0;
  t->csr_addr_i = io->csr_addr & 127u;
  t->csr_wdata_i = io->csr_wdata;
  t->hp_we_i = io->hp_we ? 1 : 0;
  t->hp_mem_i = io->hp_mem ? 1 : 0;
  t->hp_bank_i = io->hp_bank ? 1 : 0;
  put(t->hp_addr_i, &io->hp_addr);
  put(t->hp_wdata_i, io->hp_wdata);
  t->hp_re_i = io->hp_re ? 1 : 0;
  t->clk_i = 0;
  t->eval();
#if VM_TRACE
  if (m->tfp) m->tfp->dump(m->time);
#endif
  m->time += 5;
  t->clk_i = 1;
  t->eval();
#if VM_TRACE
  if (m->tfp) m->tfp->dump(m->time);
#endif
  m->time += 5;
  m->ctx->timeInc(10);
  io->csr_rdata = t->csr_rdata_o;
  get(t->hp_rdata_o, io->hp_rdata);
  io->busy = t->busy_o;
  io->irq = t->irq_o;
}

extern "C" void sagen_model_close(sim_model_t *m)
{
  if (!m) return;
  m->top->final();
#if VM_TRACE
  if (m->tfp) {
    m->tfp->close();
    delete m->tfp;
  }
#endif
  delete m->top;
  delete m->ctx;
  delete m;
}
