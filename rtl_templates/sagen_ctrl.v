// sagen_ctrl: control and status registers, pass sequencing and performance counters.
//
// The host writes a pass descriptor into the CSRs and writes CTRL.start. The descriptor is
// latched when the pass begins, so the host may write the next one while a pass runs; a start
// written while busy is held (STATUS.pending) and begins the cycle the running pass ends. The
// data feeder starts the next pass early: once the host has written its descriptor and
// CTRL.prepare (or its start) and the running pass's elements have all left the feeder
// (feed_free_i), the descriptor is latched into fdesc_o with f_go_o, so the feeder's pipeline
// fills while the running pass drains or the host still loads the pass's tiles; f_run_o tells
// the feeder it may read (the start is written: the tiles are in). The host writes no
// descriptor register between CTRL.prepare and the pass's launch (it waits for STATUS.pending
// to clear after its start). A
// descriptor that cannot work (a zero count, a kernel row wider than the hardware, a position
// the feeder's arithmetic cannot hold) is refused:
// STATUS.error is set and the pass ends at once without touching the memories. STATUS.sequence
// is set (and stays until cleared) when the tap sequencer and the data feeder disagree on where
// a context ends: a hardware self-check of the two walks of the same reduction.
//
// CSR map (32-bit registers, word addresses):
//   0 CTRL      W  bit0 start, bit1 clear counters, error and sequence, bit2 prepare (the
//                  descriptor is complete: the feeder may start before the start)
//   1 STATUS    R  bit0 busy, bit1 pending, bit2 error, bit3 sequence, [31:8] passes ended
//   2..27      RW pass descriptor, 26 registers (fields: sagen_core.v)
//   28 DEBUG    R  live state of the blocks, for a host that sees no progress (sagen_core.v)
//   29 PARAMS   R  rows-1 [7:0], cols-1 [15:8], bus_elems-1 [23:16], pattern_bits-1 [31:24]
//                  (pattern_bits: the widest kernel row a pass may span, (S-1)*d + 1)
//   30 MAGIC    R  0x5A6E0004
//   31 PARAMS2  R  col_groups-1 [7:0], words of the col2im line [31:8]
//   40 ROUTE_ADDR RW  next entry of the col2im route table that ROUTE_DATA writes
//   41 ROUTE_DATA W   two route-table entries ([15:0] at ROUTE_ADDR, [31:16] at ROUTE_ADDR + 1);
//                     ROUTE_ADDR then moves on by 2 (see sagen_psum_manager)
//   42 READ_LANES RW  lanes of an output word a host read moves (0: all): the host port counts
//                     their bytes, as a DMA that reads the words' first lanes only
//   64..101     R  performance counters, 64 bits each as (low, high) pairs
`default_nettype none

module sagen_ctrl #(
  parameter integer ROWS     = 4,
  parameter integer COLS     = 4,
  parameter integer BUS      = 16,
  parameter integer PAT_BITS = 64,  // a pass's kernel row spans at most this many elements
  parameter integer DEPTH    = 4,   // feed-lane FIFO depth: the most taps of a kernel row pass
  parameter integer XW       = 16,  // the feeder's signed position width (descriptor 5..10, 17, 19)
  parameter integer GROUPS   = 1,   // lane groups the array can inject (array.col_groups)
  parameter integer LINE_WORDS = 0, // words of the col2im overlap-add line (0: no col2im)
  parameter integer RT_KGS   = 4    // filter groups of a col2im pass (route table)
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // CSR port
  input  wire                csr_we_i,
  input  wire [6:0]          csr_addr_i,
  input  wire [31:0]         csr_wdata_i,
  output reg  [31:0]         csr_rdata_o,
  // pass control
  output reg                 go_o,        // one cycle: blocks load the latched descriptor
  output reg                 busy_o,
  input  wire                pass_end_i,  // the running pass has written its last result
  // latched descriptor: register 2+i at [i*32 +: 32]
  output reg  [26*32-1:0]    desc_o,
  // the data feeder's own copy: latched with f_go_o, at launch or earlier (see above)
  input  wire                feed_free_i,  // the running pass no longer needs the feeder
  output reg                 f_go_o,       // one cycle: the feeder loads fdesc_o
  output reg  [26*32-1:0]    fdesc_o,
  output reg                 f_ahead_o,    // the feeder runs the next pass
  output wire                f_run_o,      // the feeder's pass is started: it may read
  // col2im route table writes (ROUTE_DATA): two entries at rt_addr_o, rt_addr_o + 1
  output wire                rt_we_o,
  output wire [15:0]         rt_addr_o,
  output wire [31:0]         rt_wdata_o,
  output reg  [15:0]         read_lanes_o,   // READ_LANES
  // performance events (one cycle each)
  input  wire                ev_step_valid_i,
  input  wire                ev_bubble_i,
  input  wire                ev_fill_i,
  input  wire                ev_stall_i,
  input  wire                ev_drain_i,
  input  wire [15:0]         ev_macs_i,
  input  wire                ev_if_read_i,
  input  wire                ev_wt_read_i,
  input  wire                ev_out_read_i,
  input  wire                ev_out_write_i,
  input  wire [15:0]         ev_hp_bytes_i,
  input  wire                ev_pad_word_i,
  input  wire                ev_zero_step_i,   // a step that fed created zeros
  input  wire [15:0]         ev_zero_pe_i,     // PEs fed a created zero this cycle
  input  wire [31:0]         ev_zskip_i,       // zero-space operands not fetched this cycle
  input  wire                ev_line_read_i,   // a col2im line word read
  input  wire                ev_line_write_i,  // a col2im line word written
  input  wire [31:0]         debug_i,          // DEBUG register
  input  wire                seq_err_i         // sequencer and feeder disagree on a context end
);

  localparam integer NDESC  = 26;            // descriptor registers 2..27
  localparam integer NCNT   = 19;
  localparam [31:0]  MAGIC  = 32'h5A6E0004;
  localparam [31:0]  CNT_END32 = 64 + 2 * NCNT;     // first address past the counters
  localparam [6:0]   CNT_END = CNT_END32[6:0];
  localparam [31:0]  ROWS32 = ROWS - 1, COLS32 = COLS - 1, BUS32 = BUS - 1;
  localparam [31:0]  PATB32 = PAT_BITS - 1;
  localparam [31:0]  PARAMS = {PATB32[7:0], BUS32[7:0], COLS32[7:0], ROWS32[7:0]};
  localparam [31:0]  GRP32 = GROUPS - 1;
  localparam [31:0]  LINEW32 = LINE_WORDS;
  localparam [31:0]  PARAMS2 = {LINEW32[23:0], GRP32[7:0]};
  localparam [31:0]  COLSN32 = COLS;
  localparam [15:0]  COLS16 = COLSN32[15:0];

  reg [31:0] desc_q [0:NDESC-1];
  reg [47:0] cnt_q  [0:NCNT-1];
  reg        pending_q, error_q, seq_q;
  reg [15:0] rt_addr_q;
  reg [23:0] passes_q;

  // A descriptor the hardware cannot run: a loop that would never end or never start, more
  // contexts or channels than the tap sequencer counts (2^16 - 1), or a dense tap sequence (22..25) without taps
  // or without steps between its non-zero taps, or column groups (descriptor 4 [23:16] groups,
  // [31:24] their width; fewer than 2 groups: none) that the array does not have or that do not
  // fit its columns.
  wire [7:0]  grp_n = desc_q[4][23:16];
  wire [7:0]  grp_w = desc_q[4][31:24];
  wire [15:0] grp_cols = grp_n * grp_w;
  wire bad_groups = (grp_n > 8'd1) &&
                    ({24'd0, grp_n} > GROUPS || grp_w == 8'd0 || grp_cols > COLS16);
  // A col2im pass (flags bit 6) needs the line (LINE_WORDS > 0), no column groups, at most
  // RT_KGS filter groups, rows of 3 pixels or more (a line word is read again a row later, after
  // its write has landed), and room in the line for a row per filter group from the first one
  // with a line segment (flags [11:9]).
  wire        c2i       = desc_q[20][6];
  wire [15:0] c2i_kg    = desc_q[1][31:16];
  wire [15:0] c2i_kg0   = {13'd0, desc_q[20][11:9]};
  wire [15:0] c2i_owv   = desc_q[21][31:16];
  wire [15:0] c2i_nseg  = (c2i_kg > c2i_kg0) ? c2i_kg - c2i_kg0 : 16'd0;
  wire [31:0] c2i_words = {16'd0, c2i_nseg} * {16'd0, c2i_owv};
  localparam [31:0] RTK32 = RT_KGS;
  wire bad_c2i = c2i && (LINE_WORDS == 0 || grp_n > 8'd1 || {16'd0, c2i_kg} > RTK32 ||
                         c2i_owv < 16'd3 || c2i_words > LINEW32);
  // The kernel row of a pass (descriptor 15): S taps ([15:0], 1..DEPTH) d elements apart
  // ([31:16], d >= 1), spanning (S-1)*d + 1 <= PAT_BITS elements: d <= (PAT_BITS-1) / (S-1),
  // a constant per S, so no multiply.
  wire [15:0] row_s = desc_q[15][15:0];
  wire [15:0] row_d = desc_q[15][31:16];
  reg         bad_span;
  integer     sd;
  always @* begin
    bad_span = 1'b0;
    for (sd = 2; sd <= DEPTH; sd = sd + 1)
      if ({16'd0, row_s} == sd && {16'd0, row_d} > (PAT_BITS - 1) / (sd - 1)) bad_span = 1'b1;
  end
  localparam [31:0] DEPTH32 = DEPTH;
  wire bad_row = (row_s == 16'd0) || ({16'd0, row_s} > DEPTH32) || (row_d == 16'd0) || bad_span;
  // Positions the feeder holds in XW bits: the non-negative ones (5..9, 17, 19) below 2^(XW-1),
  // the base (10, signed) within -2^(XW-1) .. 2^(XW-1)-1.
  function automatic fits_u(input [31:0] v);
    fits_u = (v >> (XW - 1)) == 32'd0;
  endfunction
  wire [31:0] base_hi = $signed(desc_q[10]) >>> (XW - 1);
  wire bad_pos = !fits_u(desc_q[5]) || !fits_u(desc_q[6]) || !fits_u(desc_q[7]) ||
                 !fits_u(desc_q[8]) || !fits_u(desc_q[9]) || !fits_u(desc_q[17]) ||
                 !fits_u(desc_q[19]) || (base_hi != 32'd0 && base_hi != 32'hffffffff);
  wire [47:0] n_walk = desc_q[2] * {16'd0, desc_q[1][31:16]};   // contexts x filter groups
  wire bad_desc = (n_walk > 48'd65535) || (desc_q[0] == 32'd0) || (desc_q[1][15:0] == 16'd0) ||
                  (desc_q[1][31:16] == 16'd0) || (desc_q[2] == 32'd0) || (desc_q[3] == 32'd0) ||
                  (desc_q[4][15:0] == 16'd0) || (desc_q[9] == 32'd0) || (desc_q[12][15:0] == 16'd0) ||
                  bad_row || bad_pos ||
                  (desc_q[16] == 32'd0) || (desc_q[0][31:16] != 16'd0) ||
                  (desc_q[22][15:0] == 16'd0) || (desc_q[22][31:16] == 16'd0) ||
                  (desc_q[24][15:0] == 16'd0) || (desc_q[24][31:16] == 16'd0) ||
                  (!desc_q[20][4] && (desc_q[25][15:0] == 16'd0 || desc_q[25][31:16] == 16'd0)) ||
                  bad_groups || bad_c2i;

  wire [6:0] didx = csr_addr_i - 7'd2;
  assign rt_we_o    = csr_we_i && (csr_addr_i == 7'd41);
  assign rt_addr_o  = rt_addr_q;
  assign rt_wdata_o = csr_wdata_i;
  wire start_wr = csr_we_i && (csr_addr_i == 7'd0) && csr_wdata_i[0];
  wire clear_wr = csr_we_i && (csr_addr_i == 7'd0) && csr_wdata_i[1];
  wire launch   = !busy_o && !go_o && (start_wr || pending_q);
  wire prep_wr  = csr_we_i && (csr_addr_i == 7'd0) && csr_wdata_i[2];
  reg  prep_q;   // CTRL.prepare written, the pass not yet launched
  wire f_early  = (prep_q || pending_q) && !f_ahead_o && !launch && !go_o && !f_go_o &&
                  feed_free_i && !bad_desc;
  assign f_run_o = !f_ahead_o || pending_q;

  integer i;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (i = 0; i < NDESC; i = i + 1) desc_q[i] <= 32'd0;
      pending_q <= 1'b0; error_q <= 1'b0; seq_q <= 1'b0; passes_q <= 24'd0;
      rt_addr_q <= 16'd0;
      read_lanes_o <= 16'd0;
      go_o <= 1'b0; busy_o <= 1'b0;
      desc_o <= {(26*32){1'b0}};
      f_go_o <= 1'b0; f_ahead_o <= 1'b0; prep_q <= 1'b0;
      fdesc_o <= {(26*32){1'b0}};
    end else begin
      if (csr_we_i && csr_addr_i >= 7'd2 && csr_addr_i < 7'd28) desc_q[didx[4:0]] <= csr_wdata_i;
      if (csr_we_i && csr_addr_i == 7'd40) rt_addr_q <= csr_wdata_i[15:0];
      else if (rt_we_o) rt_addr_q <= rt_addr_q + 16'd2;
      if (csr_we_i && csr_addr_i == 7'd42) read_lanes_o <= csr_wdata_i[15:0];
      go_o <= 1'b0;
      f_go_o <= 1'b0;
      if (prep_wr) prep_q <= 1'b1;
      if (f_early) begin
        f_go_o    <= 1'b1;
        f_ahead_o <= 1'b1;
        for (i = 0; i < NDESC; i = i + 1) fdesc_o[i*32 +: 32] <= desc_q[i];
      end
      if (clear_wr) error_q <= 1'b0;
      if (clear_wr) seq_q <= 1'b0;
      else if (seq_err_i) seq_q <= 1'b1;
      if (start_wr && (busy_o || go_o)) pending_q <= 1'b1;
      if (launch) begin
        pending_q <= 1'b0;
        prep_q    <= 1'b0;
        f_ahead_o <= 1'b0;
        if (!bad_desc && !f_ahead_o) begin
          f_go_o <= 1'b1;
          for (i = 0; i < NDESC; i = i + 1) fdesc_o[i*32 +: 32] <= desc_q[i];
        end
        if (bad_desc) begin
          error_q  <= 1'b1;
          passes_q <= passes_q + 24'd1;
        end else begin
          go_o <= 1'b1;
          for (i = 0; i < NDESC; i = i + 1) desc_o[i*32 +: 32] <= desc_q[i];
        end
      end
      if (go_o) busy_o <= 1'b1;
      if (busy_o && pass_end_i) begin
        busy_o   <= 1'b0;
        passes_q <= passes_q + 24'd1;
      end
    end
  end

  // Performance counters.
  wire [47:0] inc [0:NCNT-1];
  assign inc[0]  = 48'd1;
  assign inc[1]  = {47'd0, busy_o};
  assign inc[2]  = {47'd0, ev_step_valid_i};
  assign inc[3]  = {47'd0, ev_bubble_i};
  assign inc[4]  = {47'd0, ev_fill_i};
  assign inc[5]  = {47'd0, ev_stall_i};
  assign inc[6]  = {47'd0, ev_drain_i};
  assign inc[7]  = {32'd0, ev_macs_i};
  assign inc[8]  = {47'd0, ev_if_read_i};
  assign inc[9]  = {47'd0, ev_wt_read_i};
  assign inc[10] = {47'd0, ev_out_read_i};
  assign inc[11] = {47'd0, ev_out_write_i};
  assign inc[12] = {32'd0, ev_hp_bytes_i};
  assign inc[13] = {47'd0, ev_pad_word_i};
  assign inc[14] = {47'd0, ev_zero_step_i};
  assign inc[15] = {32'd0, ev_zero_pe_i};
  assign inc[16] = {16'd0, ev_zskip_i};
  assign inc[17] = {47'd0, ev_line_read_i};
  assign inc[18] = {47'd0, ev_line_write_i};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (i = 0; i < NCNT; i = i + 1) cnt_q[i] <= 48'd0;
    end else begin
      for (i = 0; i < NCNT; i = i + 1) cnt_q[i] <= clear_wr ? 48'd0 : cnt_q[i] + inc[i];
    end
  end

  // Reads (combinational).
  wire [6:0] cidx = csr_addr_i - 7'd64;
  wire unused_idx = ^didx[6:5] ^ ^cidx[6];
  always @* begin
    csr_rdata_o = 32'd0;
    if (csr_addr_i == 7'd1) begin
      csr_rdata_o = {passes_q, 4'd0, seq_q, error_q, pending_q, busy_o || go_o};
    end else if (csr_addr_i >= 7'd2 && csr_addr_i < 7'd28) begin
      csr_rdata_o = desc_q[didx[4:0]];
    end else if (csr_addr_i == 7'd28) begin
      csr_rdata_o = debug_i;
    end else if (csr_addr_i == 7'd29) begin
      csr_rdata_o = PARAMS;
    end else if (csr_addr_i == 7'd30) begin
      csr_rdata_o = MAGIC;
    end else if (csr_addr_i == 7'd31) begin
      csr_rdata_o = PARAMS2;
    end else if (csr_addr_i == 7'd40) begin
      csr_rdata_o = {16'd0, rt_addr_q};
    end else if (csr_addr_i == 7'd42) begin
      csr_rdata_o = {16'd0, read_lanes_o};
    end else if (csr_addr_i >= 7'd64 && csr_addr_i < CNT_END) begin
      csr_rdata_o = cidx[0] ? {16'd0, cnt_q[cidx[5:1]][47:32]} : cnt_q[cidx[5:1]][31:0];
    end
  end

endmodule

`resetall
