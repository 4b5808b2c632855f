/* report: the figures of an op, summed over its runs and printed (see report.h). */
#include "report.h"

#include <inttypes.h>

void report_add(report_t *sum, const report_t *r)
{
  sum->passes += r->passes;
  sum->runs += r->runs;
  for (int m = 0; m < 3; m++) sum->ctx_runs[m] += r->ctx_runs[m];
  sum->aligned_runs += r->aligned_runs;
  for (int g = 0; g <= REPORT_MAX_GROUPS; g++) sum->group_runs[g] += r->group_runs[g];
  sum->shared_runs += r->shared_runs;
  sum->side_runs += r->side_runs;
  sum->useful_macs += r->useful_macs;
  sum->ideal_cycles += r->ideal_cycles;
  sum->cycles += r->cycles;
  sum->est_cycles += r->est_cycles;
  sum->busy += r->busy;
  sum->step_valid += r->step_valid;
  sum->bubble += r->bubble;
  sum->fill += r->fill;
  sum->stall += r->stall;
  sum->drain += r->drain;
  sum->dram_wait += r->dram_wait;
  sum->pe_idle_cycles += r->pe_idle_cycles;
  sum->hw_macs += r->hw_macs;
  sum->sram_if += r->sram_if;
  sum->sram_wt += r->sram_wt;
  sum->sram_out_rd += r->sram_out_rd;
  sum->sram_out_wr += r->sram_out_wr;
  sum->pad_words += r->pad_words;
  sum->sram_line_rd += r->sram_line_rd;
  sum->sram_line_wr += r->sram_line_wr;
  sum->zero_steps += r->zero_steps;
  sum->zero_pe += r->zero_pe;
  sum->zero_skipped += r->zero_skipped;
  sum->host_bytes += r->host_bytes;
  sum->host_bytes_in += r->host_bytes_in;
  sum->host_bytes_out += r->host_bytes_out;
  sum->hw_host_bytes += r->hw_host_bytes;
  sum->sram_bytes += r->sram_bytes;
  sum->dy_host_bytes += r->dy_host_bytes;
  sum->dy_sram_bytes += r->dy_sram_bytes;
  sum->dram_bytes_per_cycle = r->dram_bytes_per_cycle;
  sum->kgroups = r->kgroups;
  sum->utilization = sum->cycles ? (double)sum->ideal_cycles / (double)sum->cycles : 0;
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

void report_print_text(const report_t *r, const cfg_t *c, FILE *out)
{
  uint64_t pes = (uint64_t)c->rows * c->cols;
  uint64_t mac_cycles = r->useful_macs / pes;
  fprintf(out, "%s on %s (%dx%d PEs), %ld passes, DRAM %.3g B/cycle\n", r->op, c->name, c->rows,
          c->cols, r->passes, r->dram_bytes_per_cycle);
  if (r->bp_mode) {
    fprintf(out, "  %s, form %s: %ld dense convolution(s), %ld of them sharing each loaded "
            "tile; %" PRIu64 " zero-space elements never stored, moved or read\n", r->bp_mode,
            r->form, r->runs, r->shared_runs, r->zero_space);
    if (r->phase_blocks[0]) fprintf(out, "  phase blocks           %s   (phases (py,px) of dx, '+' joined)\n", r->phase_blocks);
    fprintf(out, "  zero-space operands    %14" PRIu64 "   not fetched (lowered matrix, one per "
            "PE row)\n", r->zero_skipped);
    fprintf(out, "  created zeros          %14" PRIu64 "   PE-cycles fed a zero made at the "
            "array edge\n", r->zero_pe);
  }
  fprintf(out, "  contexts               wrapping %ld, in a row %ld, linear %ld   (runs by how the "
          "lanes' pixels sit in the output rows)\n", r->ctx_runs[0], r->ctx_runs[1], r->ctx_runs[2]);
  fprintf(out, "  aligned rows           %ld of %ld runs   (input rows stored from a bus word, "
          "left padding counted in)\n", r->aligned_runs,
          r->ctx_runs[0] + r->ctx_runs[1] + r->ctx_runs[2]);
  fprintf(out, "  images side by side    %ld of %ld runs   (the batch as one wide image, its "
          "columns interleaved)\n", r->side_runs, r->ctx_runs[0] + r->ctx_runs[1] + r->ctx_runs[2]);
  fprintf(out, "  column groups          ");
  for (int g = 1, first = 1; g <= REPORT_MAX_GROUPS; g++)
    if (r->group_runs[g]) {
      fprintf(out, "%s%d: %ld run%s", first ? "" : ", ", g, r->group_runs[g],
              r->group_runs[g] == 1 ? "" : "s");
      first = 0;
    }
  fprintf(out, "   (runs by the groups their columns split into, 1: none)\n");
  fprintf(out, "  useful MACs            %14" PRIu64 "\n", r->useful_macs);
  fprintf(out, "  ideal cycles           %14" PRIu64 "   (useful MACs / %" PRIu64 " PEs)\n", r->ideal_cycles, pes);
  fprintf(out, "  cycles                 %14" PRIu64 "\n", r->cycles);
  fprintf(out, "  utilization            %13.1f%%\n", 100.0 * r->utilization);
  fprintf(out, "  estimated cycles       %14.0f   (the cost model's for the plan run, %+.1f%%)\n",
          r->est_cycles, r->cycles ? 100.0 * (r->est_cycles / (double)r->cycles - 1.0) : 0.0);
  fprintf(out, "  where the cycles went:\n");
  fprintf(out, "    useful MACs          %14" PRIu64 "   %5.1f%%\n", mac_cycles, pct(mac_cycles, r->cycles));
  if (r->hw_macs > r->useful_macs + r->absent_macs) {
    uint64_t pad = (r->hw_macs - r->useful_macs - r->absent_macs) / pes;
    fprintf(out, "    padding taps         %14" PRIu64 "   %5.1f%%   (MACs on the padding of a phase's convolution)\n",
            pad, pct(pad, r->cycles));
  }
  if (r->absent_macs) {
    uint64_t ab = r->absent_macs / pes;
    fprintf(out, "    absent taps          %14" PRIu64 "   %5.1f%%   (joined phases: MACs on a tap a "
            "phase lacks, or past its grid)\n", ab, pct(ab, r->cycles));
  }
  if (r->zero_steps)
    fprintf(out, "    zero steps           %14" PRIu64 "   %5.1f%%   (zero_fill: the PEs fed "
            "created zeros)\n", r->zero_steps, pct(r->zero_steps, r->cycles));
  fprintf(out, "    idle lanes/columns   %14" PRIu64 "   %5.1f%%   (steps where edge contexts leave PEs without work)\n",
          r->pe_idle_cycles, pct(r->pe_idle_cycles, r->cycles));
  fprintf(out, "    context bubbles      %14" PRIu64 "   %5.1f%%   (contexts shorter than 2*rows-1 steps)\n",
          r->bubble, pct(r->bubble, r->cycles));
  fprintf(out, "    fill                 %14" PRIu64 "   %5.1f%%   (pass start to first step)\n", r->fill, pct(r->fill, r->cycles));
  fprintf(out, "    feeder stalls        %14" PRIu64 "   %5.1f%%\n", r->stall, pct(r->stall, r->cycles));
  fprintf(out, "    drain                %14" PRIu64 "   %5.1f%%   (last element to last result written)\n",
          r->drain, pct(r->drain, r->cycles));
  fprintf(out, "    DRAM waits           %14" PRIu64 "   %5.1f%%   (array idle: loads, read-out, host)\n",
          r->dram_wait, pct(r->dram_wait, r->cycles));
  fprintf(out, "  SRAM words read        ifmap %" PRIu64 ", weight %" PRIu64 ", output %" PRIu64
          " (written %" PRIu64 "); padding words not read %" PRIu64 "\n",
          r->sram_if, r->sram_wt, r->sram_out_rd, r->sram_out_wr, r->pad_words);
  if (r->sram_line_rd || r->sram_line_wr)
    fprintf(out, "  overlap-add line       %" PRIu64 " words read, %" PRIu64 " written   (col2im)\n",
            r->sram_line_rd, r->sram_line_wr);
  fprintf(out, "  host port bytes        %14" PRIu64 "   (in %" PRIu64 ", out %" PRIu64 ")\n",
          r->host_bytes, r->host_bytes_in, r->host_bytes_out);
  fprintf(out, "  SRAM bytes read        %14" PRIu64 "   (the words above in bytes)\n", r->sram_bytes);
  if (r->bp_mode) {
    fprintf(out, "  of them dy's           host port %" PRIu64 ", SRAM %" PRIu64 "   (the "
            "operand with the zero-spaces)\n", r->dy_host_bytes, r->dy_sram_bytes);
    fprintf(out, "  explicit im2col        host port %" PRIu64 " (dy %" PRIu64 "), SRAM %" PRIu64
            " (dy %" PRIu64 ")   (zero-space reorganization: from the shapes)\n",
            r->explicit_host_bytes, r->explicit_dy_host_bytes, r->explicit_sram_bytes,
            r->explicit_dy_sram_bytes);
    fprintf(out, "  below explicit         host port %.1f%% (dy %.1f%%), SRAM %.1f%% (dy %.1f%%)\n",
            100 - pct(r->host_bytes, r->explicit_host_bytes),
            100 - pct(r->dy_host_bytes, r->explicit_dy_host_bytes),
            100 - pct(r->sram_bytes, r->explicit_sram_bytes),
            100 - pct(r->dy_sram_bytes, r->explicit_dy_sram_bytes));
  }
}

void report_print_json(const report_t *r, const cfg_t *c, FILE *out)
{
  fprintf(out,
          "{\"op\": \"%s\", \"config\": \"%s\", \"rows\": %d, \"cols\": %d, \"passes\": %ld, "
          "\"cycles\": %" PRIu64 ", \"useful_macs\": %" PRIu64 ", \"ideal_cycles\": %" PRIu64 ", "
          "\"utilization\": %.6f, \"busy_cycles\": %" PRIu64 ", \"step_cycles\": %" PRIu64 ", "
          "\"idle_pe_cycles\": %" PRIu64 ", \"bubble_cycles\": %" PRIu64 ", \"fill_cycles\": %" PRIu64 ", "
          "\"stall_cycles\": %" PRIu64 ", \"drain_cycles\": %" PRIu64 ", \"dram_wait_cycles\": %" PRIu64 ", "
          "\"host_bytes\": %" PRIu64 ", \"host_bytes_in\": %" PRIu64 ", \"host_bytes_out\": %" PRIu64 ", "
          "\"sram_reads\": {\"ifmap\": %" PRIu64 ", \"weight\": %" PRIu64 ", \"output\": %" PRIu64 ", "
          "\"line\": %" PRIu64 "}, "
          "\"sram_writes\": {\"output\": %" PRIu64 ", \"line\": %" PRIu64 "}, "
          "\"padding_words_skipped\": %" PRIu64 ", "
          "\"dram_bytes_per_cycle\": %g, \"runs\": %ld, \"bp_mode\": \"%s\", \"zero_space_skipped\": %" PRIu64 ", "
          "\"hw_macs\": %" PRIu64 ", \"zero_steps\": %" PRIu64 ", \"zero_pe_cycles\": %" PRIu64 ", "
          "\"zero_operands_skipped\": %" PRIu64 ", "
          "\"contexts\": {\"wrap\": %ld, \"row\": %ld, \"linear\": %ld}, \"aligned_runs\": %ld, "
          "\"shared_runs\": %ld, \"side_runs\": %ld, "
          "\"form\": \"%s\", \"phase_blocks\": \"%s\", \"absent_macs\": %" PRIu64 ", "
          "\"estimated_cycles\": %.0f, \"sram_bytes\": %" PRIu64 ", \"dy_host_bytes\": %" PRIu64 ", "
          "\"dy_sram_bytes\": %" PRIu64 ", \"explicit_host_bytes\": %" PRIu64 ", "
          "\"explicit_sram_bytes\": %" PRIu64 ", \"explicit_dy_host_bytes\": %" PRIu64 ", "
          "\"explicit_dy_sram_bytes\": %" PRIu64 ", \"column_groups\": {",
          r->op, c->name, c->rows, c->cols, r->passes, r->cycles, r->useful_macs, r->ideal_cycles,
          r->utilization, r->busy, r->step_valid, r->pe_idle_cycles, r->bubble, r->fill, r->stall,
          r->drain, r->dram_wait, r->host_bytes, r->host_bytes_in, r->host_bytes_out, r->sram_if,
          r->sram_wt, r->sram_out_rd, r->sram_line_rd, r->sram_out_wr, r->sram_line_wr,
          r->pad_words, r->dram_bytes_per_cycle,
          r->runs, r->bp_mode ? r->bp_mode : "none", r->zero_space, r->hw_macs, r->zero_steps,
          r->zero_pe, r->zero_skipped, r->ctx_runs[0], r->ctx_runs[1], r->ctx_runs[2],
          r->aligned_runs, r->shared_runs, r->side_runs, r->form ? r->form : "direct",
          r->phase_blocks, r->absent_macs, r->est_cycles, r->sram_bytes, r->dy_host_bytes,
          r->dy_sram_bytes, r->explicit_host_bytes, r->explicit_sram_bytes,
          r->explicit_dy_host_bytes, r->explicit_dy_sram_bytes);
  const char *sep = "";
  for (int g = 1; g <= REPORT_MAX_GROUPS; g++)
    if (r->group_runs[g]) {
      fprintf(out, "%s\"%d\": %ld", sep, g, r->group_runs[g]);
      sep = ", ";
    }
  fprintf(out, "}}\n");
}
