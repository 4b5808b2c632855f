/* driver: runs a convolution layer on the simulated accelerator.
 *
 * The driver tiles the layer to fit the configuration's SRAMs (output tiles onto the array,
 * input channels and kernel slices across passes whose partial sums the hardware accumulates),
 * streams each tile through the host port at the configured DRAM bandwidth, overlaps loading
 * with compute when the memories are double-buffered, programs one descriptor per pass and reads
 * the results back. It shares no code with the golden model.
 *
 * This header is the driver's public face: what `sagen sim` (tb/cosim.c) and the tests call. The
 * driver itself is the modules of tb/host/ (views, the cost model, the tiling search, pass
 * planning, the descriptor, the run engine, one module per op lowering, the report), each with
 * its internal header. */
#ifndef SAGEN_DRIVER_H
#define SAGEN_DRIVER_H

#include <limits.h>
#include <stdint.h>

#include "cfg.h"
#include "hw.h"
#include "tensor.h"

typedef struct layer {
  long n, c, h, w;     /* input */
  long k, r, s;        /* filters, kernel */
  long sh, sw, ph, pw, dh, dw;  /* ph, pw: padding on top / left (the other sides follow) */
  long oh, ow;         /* output size; 0: from symmetric padding, as PyTorch */
  /* Backward passes: the dense tap sequence of the virtual (zero-inserted) operand that each
   * axis's taps sit in: tap i at dense position lead + i*gap of dense positions (dense 0: the
   * taps themselves, lead 0, gap 1). zero_fill walks every dense position; zero_skip only the
   * taps, and the hardware counts the rest as skipped. no_ops: an output phase no tap reaches
   * (r = s = 1 stand-ins, nothing is loaded; zero_fill runs it on created zeros). */
  long lead_h, gap_h, dense_h, lead_w, gap_w, dense_w;
  int no_ops;
} layer_t;

/* A strided view of a 4-D tensor: element (i0, i1, i2, i3) is data[off + sum(i_k * st[k])].
 * Strides may be negative or swapped: a kernel's rot180 and a channel transpose are views, the
 * way a DMA engine addresses them, never a copy. */
typedef struct view {
  int64_t *data;
  long off;
  long st[4];
  /* xsplit > 0: the last index q is two, (q / xsplit, q % xsplit), at strides (xst_hi, st[3]):
   * a flattened row of pixels written back into rows of a strided view. xsplit2 > 0 splits
   * q / xsplit once more, (q / xsplit / xsplit2, q / xsplit % xsplit2) at (xst_top, xst_hi):
   * the images of a batch flattened into the same row. */
  long xsplit, xst_hi, xsplit2, xst_top;
  /* ft: per-filter tables (index i0 of a kernel view, i1 of an output view), or NULL; ft_swap:
   * the view's last two indices are the table's exchanged (a view with H and W exchanged). */
  const struct filter_tab *ft;
  int ft_swap;
  /* zspace: the view reads dy, the operand of a backward op whose zero-spaces an explicit
   * im2col would store and move; its host-port bytes and SRAM reads are counted apart
   * (report_t.dy_host_bytes, dy_sram_bytes). */
  int zspace;
} view_t;

/* Filters that sit apart. The filter index is i0 of a kernel view (FDIM 0) or i1 of an output
 * view (FDIM 1); filter f starts at off[f] instead of at f * st[FDIM]. A kernel view may also
 * give each filter its own taps: tap (i, j) of filter f is at roff[f*nr + i] + soff[f*ns + j]
 * instead of at i * st[2] + j * st[3], and reads as zero where either is FT_NONE (a tap the
 * filter lacks: no element is there). An output view may give each filter its own extent:
 * rows[f] x cols[f] (NULL: the view's whole extent); the elements past it are not written. The
 * input gradient's phases joined into one convolution use them (see
 * drive_conv2d_input_grad). */
#define FT_NONE LONG_MIN
typedef struct filter_tab {
  int fdim;
  const long *off;
  long nr, ns;
  const long *roff, *soff;
  const long *rows, *cols;
  /* an output view's filters may also start their extent later: rows row0[f] .. rows[f] - 1
   * (NULL: from 0; only with ROWS) */
  const long *row0, *col0;
} filter_tab_t;

/* The contiguous view of T (rank 4). */
view_t view_of(const tensor_t *t);

#define REPORT_MAX_GROUPS 256   /* array.col_groups' largest value */

typedef struct report {
  const char *op;
  const char *bp_mode;       /* backward ops: "zero_skip" or "zero_fill" */
  const char *form;          /* how the op maps onto convolutions: conv2d "direct";
                                conv2d_input_grad "phases", "joined_phases" (one
                                convolution for all), "phase_blocks" (some phases
                                joined) or "col2im" (dy times the (tap, channel)
                                filters, overlap-added; see drive_conv2d_input_grad);
                                conv2d_weight_grad "tap_blocks",
                                "taps" (matrix products), "side_by_side" or "dilated" (the
                                dilated-kernel form, its images side by side or apart) */
  long passes, runs;         /* runs: layers the op was split into (phases) */
  long ctx_runs[3];          /* runs by context mapping: wrapping, inside a row, linear */
  long aligned_runs;         /* runs whose input rows start on a bus word (aligned rows) */
  long group_runs[REPORT_MAX_GROUPS + 1];  /* runs by the column groups their passes formed:
                                group_runs[g] runs split the columns into g groups (1: none) */
  long shared_runs;          /* runs that shared each loaded input tile with the other
                                convolutions of their run (the input gradient's phases) */
  long side_runs;            /* runs whose images sat side by side, one image N times as wide
                                with its columns interleaved (see drive_opts_t.images) */
  uint64_t useful_macs;      /* forward: N*K*OH*OW*C*R*S; backward: the products of the
                                definition, no operand from a zero-space */
  uint64_t zero_space;       /* backward: zero-space elements of the virtual operand (virtual
                                minus real): never stored, moved over the host port or read */
  uint64_t zero_steps;       /* zero_fill: steps that fed created zeros (cycles) */
  uint64_t zero_pe;          /* zero_fill: PE-cycles fed a created zero (hardware counter) */
  uint64_t zero_skipped;     /* zero-space operands of the lowered matrix never fetched, one per
                                PE row (hardware counter), plus the phases no tap reaches
                                (zero_skip does not run them); joined phases: counted from the
                                shapes, one per pixel of dx (the joined convolution has no
                                zero-space to walk) */
  char phase_blocks[160];    /* joined phases (phase_blocks, joined_phases): the phases (py,px)
                                of dx, a block's joined by '+', blocks apart by ' ' (cut
                                short with "..." past its length) */
  uint64_t absent_macs;      /* joined phases: MACs on a tap the filter's phase lacks (a zero
                                weight) or past the phase's grid (not written back) */
  uint64_t ideal_cycles;     /* ceil(useful_macs / PEs) */
  uint64_t cycles;           /* from the first host transfer to the last result read */
  double utilization;        /* ideal_cycles / cycles */
  double est_cycles;         /* the tiling cost model's estimate of the cycles of the runs as
                                planned (the sum over runs of the chosen tiling's cost) */
  /* where the cycles went: cycles = busy + dram_wait; busy = the five below */
  uint64_t busy, step_valid, bubble, fill, stall, drain, dram_wait;
  uint64_t pe_idle_cycles;   /* step_valid - useful_macs/PEs: lanes/columns without work */
  uint64_t hw_macs;          /* useful MACs counted by the hardware */
  uint64_t sram_if, sram_wt, sram_out_rd, sram_out_wr, pad_words;
  uint64_t sram_line_rd, sram_line_wr;   /* col2im: words of the overlap-add line */
  uint64_t host_bytes, host_bytes_in, host_bytes_out, hw_host_bytes;
  uint64_t sram_bytes;       /* the SRAM reads in bytes: ifmap, weight and output words */
  /* Backward ops: the bytes of dy (the operand with the zero-spaces) over the host port and
   * read from the SRAM that holds it, and what an explicit im2col with zero-space
   * reorganization would move, from the shapes (see bwd_explicit_traffic in
   * tb/host/bwd_traffic.h): over the host port and read from the buffers, all operands and dy
   * alone. */
  uint64_t dy_host_bytes, dy_sram_bytes;
  uint64_t explicit_host_bytes, explicit_sram_bytes, explicit_dy_host_bytes,
      explicit_dy_sram_bytes;
  double dram_bytes_per_cycle;
  long kgroups;              /* filter groups the last convolution run walked per pixel:
                                output channels / filters per pass (the array's columns, or a
                                column group's) */
} report_t;

/* Where the words read from the output SRAM went, one entry per run of columns of one pixel:
 * word WORD (0 = the first read), columns SLOT0 .. SLOT0+NCOLS-1 (a word of an array with column
 * groups holds a pixel per group); column slot0 + j goes to base + j * kstride. KSTRIDE is the
 * entry's own: the runs of one op write views whose channel strides differ (a phase's grid of dx
 * and a joined block's per-filter table, say). Kept so that another simulator's words can be
 * placed the same way. NWORDS: words read. */
typedef struct drive_reads {
  long n, cap, nwords;
  long *base, *word, *kstride;
  int *ncols, *slot0;
  /* CAPTURE set before the run: WORDS keeps every word read as the driver saw it, (out_word_bits
   * + 31) / 32 uint32 each, so that placing them with drive_reads_apply can be checked against
   * the driver's own result */
  int capture;
  uint32_t *words;
  long words_cap;
} drive_reads_t;

/* The reduction slices of a run's passes, in the order they ran: what the bit-exact check of a
 * float result needs (see golden_conv2d_fp). Slice i: pass i's output tile, input channels
 * c0..c0+ct-1, kernel rows r0.., columns s0.. of the convolution as it ran; swap: it ran with H
 * and W exchanged (its rows are the layer's columns). */
typedef struct drive_slice {
  long tile, c0, ct, r0, rt, s0, st;
  int swap;
} drive_slice_t;
typedef struct drive_slices {
  drive_slice_t *s;
  long n, cap;
  int swap;          /* the orientation of the run being planned (members_drive sets it) */
} drive_slices_t;

/* A run as data: the convolution the hardware ran (its operands as the data feeder and the
 * weight fetcher read them, after every view, gather and rotation of the op's lowering), where
 * each result went, and its passes in order: what the bit-exact check of a backward op's float
 * result needs (golden_run_fp), without the driver's code. */
#define DRIVE_RUN_ABSENT INT64_MIN   /* drive_run_member_t.w: a tap the filter lacks */
typedef struct drive_run_member {
  layer_t l;          /* its convolution as it ran (oh, ow explicit) */
  int64_t *w;         /* its kernel [l.k][l.c][l.r][l.s] as read (DRIVE_RUN_ABSENT: no tap) */
  const int64_t **dst;   /* [l.n][l.k][oh][ow]: where each result was placed, NULL: nowhere;
                            col2im: [l.n][c2i_lanes][oh][ow], where each word's lane went */
  long c2i_lanes;     /* col2im (0: not): the lanes of a word that hold dx */
  int c2i_kg0;        /* col2im: the first filter group with a line segment */
  int c2i_cols;       /* col2im: the array's columns (a filter group) */
  uint32_t *c2i_route;   /* col2im: the route table, (kg * 4 + class) * cols + lane entries
                            {valid, column}, valid at bit max(1, ceil(log2(cols))) */
} drive_run_member_t;
typedef struct drive_run_tile {
  long n, oy0, oht, ox0, owt, k0, kt;
  int m;              /* the member whose outputs these are */
} drive_run_tile_t;
typedef struct drive_run_pass {
  long tile, c0, ct, r0, rt, s0, st;   /* its output tile and reduction slice */
} drive_run_pass_t;
typedef struct drive_run {
  long n, c, h, w;    /* its input: x [n][c][h][w] as read (padding is not stored) */
  int64_t *x;
  int zero_fill;      /* the sequencer walked the dense taps (layer_t lead, gap, dense) */
  int nm;
  drive_run_member_t *m;
  long nt, np;
  drive_run_tile_t *t;
  drive_run_pass_t *p;
} drive_run_t;
typedef struct drive_runs {
  drive_run_t *r;
  long n, cap;
} drive_runs_t;
/* RUNS' memory released (the struct left empty). */
void drive_runs_free(drive_runs_t *runs);

typedef struct drive_opts {
  double dram_bytes_per_cycle;   /* <= 0: the configuration's */
  int quiet;                     /* no progress on stderr */
  drive_reads_t *reads;          /* if set, filled with the destination of every word read */
  int contexts;                  /* 0: the driver chooses; 1: contexts wrap across output rows;
                                    2: contexts stay inside a row; 3: linear contexts where the
                                    layer allows them, else the driver's choice (tests use 1-3
                                    to force one) */
  int zero_fill;                 /* backward ops: BP-im2col's zero_fill instead of zero_skip */
  int orientation;               /* 0: the driver chooses; 1: as given; 2: H and W exchanged
                                    (tests use 1 and 2 to force one) */
  int col_groups;                /* 0: the driver chooses; g >= 1: every pass of every run uses
                                    g column groups (at most array.col_groups; tests force it) */
  int phases;                    /* input gradient: 0: the cost model chooses; 1: the phases
                                    share a run (each tile of dy loaded once for all) wherever
                                    they can; 2: one run per phase; 3: joined into one
                                    convolution (zero_skip, two or more phases with taps); 4:
                                    in blocks, some joined (three or more phases); 5: col2im
                                    where the layer and the configuration allow it, else the
                                    cost model's choice (see drive_conv2d_input_grad) */
  int rows;                      /* 0: the driver chooses; 1: packed input rows; 2: aligned
                                    rows where the run allows them (not linear contexts, not
                                    shared runs), else packed (tests force one) */
  int images;                    /* 0: the driver chooses; 1: the images of a batch apart;
                                    2: side by side (one image N times as wide, its columns
                                    interleaved) where the run allows it: stride 1 across, not
                                    zero_fill (tests force one) */
  drive_slices_t *slices;        /* if set, every pass's reduction slice is appended to it */
  drive_runs_t *runs;            /* if set, every run is appended to it (drive_run_t) */
} drive_opts_t;

/* Place words WORDS (one per read, (out_word_bits+31)/32 uint32 each) into Y as READS says. */
void drive_reads_apply(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y);
/* Y cleared, then drive_reads_apply: Y becomes the result the words WORDS give (another
 * simulator's, say: replay_icarus), outputs no word carries zero. */
void drive_reads_place(const drive_reads_t *reads, const cfg_t *c, const uint32_t *words,
                       tensor_t *y);
/* Free what READS holds and zero it; NULL or a zeroed READS is a no-op. */
void drive_reads_free(drive_reads_t *reads);

/* Output size of L (forward); <= 0 if none. */
long layer_out_h(const layer_t *l);
long layer_out_w(const layer_t *l);

/* Run one convolution L on HW: input view X (N,C,H,W), weight view W (K,C,R,S), results into
 * view Y (N,K,OH,OW), exactly the words the hardware wrote. REP is added to (zero it first).
 * Returns 0, or 1 with a one-line message in ERR (layer too large for the configuration,
 * hardware refused a descriptor, watchdog). */
int drive_conv(hw_t *hw, const cfg_t *c, const layer_t *l, const view_t *x, const view_t *w,
               const view_t *y, const drive_opts_t *o, report_t *rep, char *err, size_t errlen);

/* y = conv2d(x, w). X is N,C,H,W, W is K,C,R,S; Y is allocated (N,K,OH,OW). */
int drive_conv2d(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                 const tensor_t *w, tensor_t *y, const drive_opts_t *o, report_t *rep,
                 char *err, size_t errlen);

/* dx = conv2d_input_grad(dy, w) for the forward layer L (its input shape gives dx's): DY is
 * N,K,OH,OW, W is K,C,R,S; DX is allocated N,C,H,W. Zero-skip: each of the sh*sw output phases
 * of dx is a dense stride-1 convolution of dy with the kernel taps that reach it (rot180 and
 * the channel transpose as views); a phase no tap reaches is zero without computing. The
 * phases run apart, sharing dy's tiles, or joined as one convolution whose filters are
 * (phase, channel), whichever the cost model finds faster. */
int drive_conv2d_input_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *dy,
                            const tensor_t *w, tensor_t *dx, const drive_opts_t *o,
                            report_t *rep, char *err, size_t errlen);

/* dw = conv2d_weight_grad(x, dy) for the forward layer L: X is N,C,H,W, DY is N,K,OH,OW; DW is
 * allocated K,C,R,S. Zero-skip: a convolution of x (channels and batch swapped) with dy as the
 * kernel, dilated by the stride in the feeder's tap spacing, so no inserted zero is fetched. */
int drive_conv2d_weight_grad(hw_t *hw, const cfg_t *c, const layer_t *l, const tensor_t *x,
                             const tensor_t *dy, tensor_t *dw, const drive_opts_t *o,
                             report_t *rep, char *err, size_t errlen);

/* Print REP as a table (text) or as one JSON object. */
void report_print_text(const report_t *rep, const cfg_t *c, FILE *out);
void report_print_json(const report_t *rep, const cfg_t *c, FILE *out);

#endif
