/* hw: cycle-level access to the Verilated model, through dlopen, with an optional record of
 * every cycle for the Icarus replay (format: sim/sagen_replay_tb.v). */
#include "hw.h"

#include <dlfcn.h>
#include <string.h>

#include "sagen_regmap.h"

static void rec_flush_idle(hw_t *h)
{
  if (h->rec && h->rec_idle > 0) {
    fprintf(h->rec, "%c %ld\n", h->rec_reset ? 'R' : 'I', h->rec_idle);
    h->rec_idle = 0;
  }
}

static void rec_hex(FILE *f, const uint32_t *w, int bits)
{
  int nw = (bits + 31) / 32;
  int top_bits = bits - 32 * (nw - 1);
  fprintf(f, "%0*x", (top_bits + 3) / 4, (unsigned)(w[nw - 1] & (top_bits == 32 ? 0xffffffffu : ((1u << top_bits) - 1))));
  for (int i = nw - 2; i >= 0; i--) fprintf(f, "%08x", (unsigned)w[i]);
}

int hw_open(hw_t *h, const char *lib, const char *trace, const char *rec, int hp_dw, int out_dw,
            char *err, size_t errlen)
{
  memset(h, 0, sizeof *h);
  h->hp_dw = hp_dw;
  h->out_dw = out_dw;
  if (hp_dw > 32 * SIM_MAX_WORDS || out_dw > 32 * SIM_MAX_WORDS) {
    snprintf(err, errlen, "%s: host port wider than %d bits", lib, 32 * SIM_MAX_WORDS);
    return 1;
  }
  h->dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h->dl) {
    snprintf(err, errlen, "cannot load model: %s", dlerror());
    return 1;
  }
  sim_open_fn open_fn = (sim_open_fn)dlsym(h->dl, SIM_OPEN_SYM);
  h->cycle_fn = (sim_cycle_fn)dlsym(h->dl, SIM_CYCLE_SYM);
  h->close_fn = (sim_close_fn)dlsym(h->dl, SIM_CLOSE_SYM);
  if (!open_fn || !h->cycle_fn || !h->close_fn) {
    snprintf(err, errlen, "%s: not a sagen model library (missing %s)", lib, SIM_OPEN_SYM);
    goto fail;
  }
  if (rec && hw_record(h, rec, err, errlen)) goto fail;
  h->m = open_fn(trace);
  if (!h->m) {
    snprintf(err, errlen, "%s: the model could not be created", lib);
    goto fail;
  }
  hw_idle_inputs(h);
  return 0;
fail:
  if (h->rec) fclose(h->rec);
  h->rec = NULL;
  dlclose(h->dl);
  h->dl = NULL;
  return 1;
}

int hw_record(hw_t *h, const char *rec, char *err, size_t errlen)
{
  if (hw_record_end(h)) {
    snprintf(err, errlen, "the previous replay record could not be written completely");
    return 1;
  }
  h->rec = fopen(rec, "w");
  if (!h->rec) {
    snprintf(err, errlen, "%s: cannot write the replay record", rec);
    return 1;
  }
  h->rec_idle = 0;
  h->rec_reset = 0;
  return 0;
}

int hw_record_end(hw_t *h)
{
  int rc = 0;
  if (h->rec) {
    rec_flush_idle(h);
    fprintf(h->rec, "E\n");
    if (ferror(h->rec)) rc = 1;
    if (fclose(h->rec) != 0) rc = 1;
    h->rec = NULL;
  }
  return rc;
}

int hw_close(hw_t *h)
{
  int rc = hw_record_end(h);
  if (h->m && h->close_fn) h->close_fn(h->m);
  h->m = NULL;
  if (h->dl) dlclose(h->dl);
  h->dl = NULL;
  return rc;
}

void hw_idle_inputs(hw_t *h)
{
  sim_io_t *io = &h->io;
  io->rst_n = 1;
  io->csr_we = 0;
  io->csr_addr = SAGEN_CSR_STATUS;
  io->csr_wdata = 0;
  io->hp_re = 0;
  if (io->hp_we) memset(io->hp_wdata, 0, sizeof io->hp_wdata);
  io->hp_we = 0;
  io->hp_mem = 0;
  io->hp_bank = 0;
  io->hp_addr = 0;
}

static int is_idle(const sim_io_t *io)
{
  return io->rst_n && !io->csr_we && io->csr_addr == SAGEN_CSR_STATUS && !io->csr_wdata &&
         !io->hp_we && !io->hp_re && !io->hp_mem && !io->hp_bank && !io->hp_addr;
}

void hw_reset(hw_t *h, int n)
{
  hw_idle_inputs(h);
  h->io.rst_n = 0;
  if (h->rec && h->rec_idle > 0 && !h->rec_reset) rec_flush_idle(h);
  for (int i = 0; i < n; i++) {
    h->cycle_fn(h->m, &h->io);
    h->cycles++;
    if (h->rec) {
      h->rec_reset = 1;
      h->rec_idle++;
    }
  }
  if (h->rec) rec_flush_idle(h);
  h->rec_reset = 0;
  hw_idle_inputs(h);
}

void hw_cycle(hw_t *h)
{
  sim_io_t *io = &h->io;
  if (h->rec) {
    if (is_idle(io)) {
      h->rec_idle++;
    } else {
      rec_flush_idle(h);
      fprintf(h->rec, "C %d %x %x %d %d %d %x ", io->csr_we, (unsigned)io->csr_addr,
              (unsigned)io->csr_wdata, io->hp_we, io->hp_mem, io->hp_bank, (unsigned)io->hp_addr);
      rec_hex(h->rec, io->hp_wdata, h->hp_dw);
      fprintf(h->rec, " %d\n", io->hp_re);
    }
  }
  h->cycle_fn(h->m, io);
  h->cycles++;
  hw_idle_inputs(h);
}

void hw_expect_csr(hw_t *h)
{
  if (!h->rec) return;
  rec_flush_idle(h);
  fprintf(h->rec, "S %08x\n", (unsigned)h->io.csr_rdata);
}

void hw_expect_hp(hw_t *h)
{
  if (!h->rec) return;
  rec_flush_idle(h);
  fprintf(h->rec, "H ");
  rec_hex(h->rec, h->io.hp_rdata, h->out_dw);
  fputc('\n', h->rec);
}

uint32_t hw_csr_read(hw_t *h, unsigned addr)
{
  h->io.csr_addr = addr;
  for (int i = 0; i < SAGEN_READ_LATENCY; i++) hw_cycle(h);
  hw_expect_csr(h);
  return h->io.csr_rdata;
}

void hw_csr_write(hw_t *h, unsigned addr, uint32_t value)
{
  h->io.csr_we = 1;
  h->io.csr_addr = addr;
  h->io.csr_wdata = value;
  hw_cycle(h);
}
