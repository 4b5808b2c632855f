// sagen_ctrl: control and status registers, pass sequencing and performance counters.
//
// The host writes a pass descriptor into the CSRs and writes CTRL.start. The descriptor is
// latched when the pass begins, so the host may write the next one while a pass runs; a start
// written while busy is held (STATUS.pending) and is taken the cycle after the running pass ends
// (and once its descriptor has been checked: the check is registered, see bad_q). A start is
// taken in one cycle and the descriptor latched in the next (go_o the cycle after), so that the
// latch enables come from flip-flops; STATUS.pending stays set until the latch. The data feeder
// starts the next pass early: once the host has written its descriptor and CTRL.prepare (or its
// start) and the running pass's elements have all left the feeder (feed_free_i), the descriptor
// is latched into fdesc_o with f_go_q (decided a cycle before, as the launch), so the feeder's
// pipeline fills while the running pass drains or the host still loads the pass's tiles;
// f_run_o tells the feeder it may read (the start is written: the tiles are in). The host writes
// no descriptor register between CTRL.prepare and the pass's launch (it waits for
// STATUS.pending to clear after its start). A descriptor that cannot work (a zero count, a
// kernel row wider than the hardware, a position the feeder's arithmetic cannot hold) is
// refused: STATUS.error is set and the pass ends at once without touching the memories.
// A pass "runs" (busy_o) until its taps have all entered the array and, unless the next pass
// is pending and may start early (chain_o), its results are written; STATUS.passes counts the
// passes whose last result is written (pdone_i), so the host reads a tile's results and reuses
// the banks a pass read only after that.
// STATUS.sequence is set (and stays until cleared) when the tap sequencer and the data feeder
// disagree on where a context ends: a hardware self-check of the two walks of the same
// reduction.
//
// The CSR port is registered both ways: a write takes effect a cycle after the port's cycle,
// a read answers READ_LATENCY (3) cycles after its address (see the read pipeline below), so
// no decode of the port drives an enable and no multiplexer of the read is wider than one
// source's registers.
//
// The register map (CSR addresses, CTRL and STATUS bits, the descriptor's fields, the counters)
// is docs/regmap.md; its localparams come from sagen_regmap.vh, generated from the same table
// (gen/regmap.c) as the host's C header.
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
  parameter integer RT_KGS   = 4,   // filter groups of a col2im pass (route table)
  parameter integer C2I_ROW  = 4,   // the fewest pixels of a col2im row (float: 16)
  parameter integer C2I_TILE = 0,   // ... and of a col2im tile (float: 16)
  parameter integer DESC_BITS = 832 // the descriptor bus: NDESC * 32 (sagen_core passes it)
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // CSR port
  input  wire                csr_we_i,
  input  wire [6:0]          csr_addr_i,
  input  wire [31:0]         csr_wdata_i,
  output reg  [31:0]         csr_rdata_o, // the answer to the address of the cycle before
  // pass control
  output reg                 go_o,        // one cycle: blocks load the latched descriptor
  output reg                 busy_o,
  input  wire                pass_end_i,  // the running pass has ended (see chain_o)
  input  wire                pdone_i,     // a pass's last result is written (in pass order)
  output wire                chain_o,     // the pending pass may start while this one drains
  // latched descriptor: register CSR_DESC + i at [i*32 +: 32]
  output reg  [DESC_BITS-1:0] desc_o,
  output reg  [15:0]         n_walk_o,     // its contexts times filter groups (the tap sequencer's)
  // the data feeder's own copy: latched at launch or earlier (see above)
  input  wire                feed_free_i,  // the running pass no longer needs the feeder
  output reg                 f_start_o,    // one cycle, as fdesc_o loads: the feeder starts
                                           // (the pass has taps: NZ_R, NZ_S > 0)
  output reg  [DESC_BITS-1:0] fdesc_o,
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

`include "sagen_regmap.vh"

  generate
    if (DESC_BITS != NDESC * 32) begin : g_bad_param
      // elaboration stops here: the descriptor bus does not match the register map
      sagen_ctrl_desc_bits_must_be_ndesc_times_32 u_check ();
    end
    if (READ_LATENCY != 3) begin : g_bad_latency
      // elaboration stops here: the read pipeline below is three registers deep
      sagen_ctrl_read_pipeline_is_three_cycles u_check ();
    end
  endgenerate

  // V in a field at LSB, W bits wide, of a 32-bit register
  function automatic [31:0] put(input [31:0] v, input integer lsb, input integer w);
    put = (v & ((w >= 32) ? 32'hffffffff : ((32'd1 << w) - 32'd1))) << lsb;
  endfunction

  localparam [31:0]  NDESC32  = NDESC, NCNT32 = NCNT;
  localparam [6:0]   DESC_END = CSR_DESC + NDESC32[6:0];        // first address past the descriptor
  localparam [6:0]   CNT_END  = CSR_CNT + {NCNT32[5:0], 1'b0};  // first address past the counters
  localparam [31:0]  PARAMS_V = put(ROWS - 1, PARAMS_ROWS_M1, PARAMS_ROWS_M1_W) |
                                put(COLS - 1, PARAMS_COLS_M1, PARAMS_COLS_M1_W) |
                                put(BUS - 1, PARAMS_BUS_M1, PARAMS_BUS_M1_W) |
                                put(PAT_BITS - 1, PARAMS_PATTERN_M1, PARAMS_PATTERN_M1_W);
  localparam [31:0]  PARAMS2_V = put(GROUPS - 1, PARAMS2_GROUPS_M1, PARAMS2_GROUPS_M1_W) |
                                 put(LINE_WORDS, PARAMS2_LINE_WORDS, PARAMS2_LINE_WORDS_W);

  reg [31:0] desc_q [0:NDESC-1];
  reg [47:0] cnt_q  [0:NCNT-1];
  reg        pending_q, error_q, seq_q;
  reg [15:0] rt_addr_q;
  reg [23:0] passes_q;
  // the descriptor registers as one bus, fields at D_<FIELD> +: D_<FIELD>_W
  reg [DESC_BITS-1:0] dq;
  integer k;
  always @* begin
    for (k = 0; k < NDESC; k = k + 1) dq[k*32 +: 32] = desc_q[k];
  end

  // A descriptor the hardware cannot run: a loop that would never end or never start, more
  // contexts or channels than the tap sequencer counts (2^16 - 1), or a dense tap sequence (22..25) without taps
  // or without steps between its non-zero taps, or column groups (descriptor 4 [23:16] groups,
  // [31:24] their width; fewer than 2 groups: none) that the array does not have or that do not
  // fit its columns.
  wire [7:0]  grp_n = dq[D_GRP_N +: D_GRP_N_W];
  wire [7:0]  grp_w = dq[D_GRP_W +: D_GRP_W_W];
  // grp_n * grp_w > COLS, as grp_w > COLS div grp_n: a constant per grp_n (2 .. GROUPS)
  reg         grp_wide;
  integer     gn;
  always @* begin
    grp_wide = 1'b0;
    for (gn = 2; gn <= GROUPS; gn = gn + 1)
      if ({24'd0, grp_n} == gn && {24'd0, grp_w} > COLS / gn) grp_wide = 1'b1;
  end
  wire bad_groups = (grp_n > 8'd1) &&
                    ({24'd0, grp_n} > GROUPS || grp_w == 8'd0 || grp_wide);
  // A col2im pass (flags bit 6) needs the line (LINE_WORDS > 0), no column groups, at most
  // RT_KGS filter groups, rows of C2I_ROW pixels or more (a line word is read again a row later,
  // after its write has landed: 4 for integers, whose word takes 3 cycles from its fire to the
  // write, 16 for the float adders' path of 15 cycles), tiles of C2I_TILE pixels or more (the
  // next filter group reads the words again: integers forward them, floats wait), and room in the
  // line for a row per filter group from the first one with a line segment (flags [11:9]).
  wire        c2i       = dq[D_C2I];
  wire [15:0] c2i_kg    = dq[D_N_KG +: D_N_KG_W];
  wire [15:0] c2i_kg0   = {13'd0, dq[D_LINE_KG0 +: D_LINE_KG0_W]};
  wire [15:0] c2i_owv   = dq[D_OW_VIRT +: D_OW_VIRT_W];
  wire [15:0] c2i_nseg  = (c2i_kg > c2i_kg0) ? c2i_kg - c2i_kg0 : 16'd0;
  // c2i_nseg * c2i_owv > LINE_WORDS, as c2i_owv > LINE_WORDS div c2i_nseg: a constant per
  // segment count (1 .. RT_KGS; more filter groups are refused anyway)
  reg         c2i_long;
  integer     ns;
  always @* begin
    c2i_long = 1'b0;
    for (ns = 1; ns <= RT_KGS; ns = ns + 1)
      if ({16'd0, c2i_nseg} == ns && {16'd0, c2i_owv} > LINE_WORDS / ns) c2i_long = 1'b1;
  end
  localparam [31:0] RTK32 = RT_KGS;
  localparam [31:0] TILE_MIN = (C2I_TILE > 0) ? C2I_TILE : 1;   // (no compare with 0)
  wire bad_c2i = c2i && (LINE_WORDS == 0 || grp_n > 8'd1 || {16'd0, c2i_kg} > RTK32 ||
                         {16'd0, c2i_owv} < C2I_ROW || c2i_long ||
                         (C2I_TILE > 0 && dq[D_NPIX +: D_NPIX_W] < TILE_MIN));
  // The kernel row of a pass (descriptor 15): S taps ([15:0], 1..DEPTH) d elements apart
  // ([31:16], d >= 1), spanning (S-1)*d + 1 <= PAT_BITS elements: d <= (PAT_BITS-1) / (S-1),
  // a constant per S, so no multiply.
  wire [15:0] row_s = dq[D_TAPS +: D_TAPS_W];
  wire [15:0] row_d = dq[D_TAP_GAP +: D_TAP_GAP_W];
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
  wire [31:0] base_hi = $signed(dq[D_BASE +: D_BASE_W]) >>> (XW - 1);
  wire bad_pos = !fits_u(dq[D_PLANE +: D_PLANE_W]) || !fits_u(dq[D_KR_STEP +: D_KR_STEP_W]) ||
                 !fits_u(dq[D_OY_STEP +: D_OY_STEP_W]) || !fits_u(dq[D_CTX_XS +: D_CTX_XS_W]) ||
                 !fits_u(dq[D_OW_XS +: D_OW_XS_W]) || !fits_u(dq[D_LAST_XS +: D_LAST_XS_W]) ||
                 !fits_u(dq[D_CTX_PY +: D_CTX_PY_W]) ||
                 (base_hi != 32'd0 && base_hi != 32'hffffffff);
  // CSR writes are registered on the way in and take effect a cycle after the port's write:
  // the port's address is decoded into one flip-flop per action (dsel_q: the descriptor
  // register written, one-hot; start_wr, clear_wr, prep_wr, rt_we_q, rta_wr, rl_wr) beside the
  // data (wdata_q), so every enable comes straight from a flip-flop. Reads are a pipeline too
  // (below).
  reg  [31:0]      wdata_q;
  reg  [NDESC-1:0] dsel_q;
  reg              start_wr, clear_wr, prep_wr, rt_we_q, rta_wr, rl_wr;
  wire             ctrl_wr = csr_we_i && (csr_addr_i == CSR_CTRL);
  integer w;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wdata_q <= 32'd0; dsel_q <= {NDESC{1'b0}};
      start_wr <= 1'b0; clear_wr <= 1'b0; prep_wr <= 1'b0;
      rt_we_q <= 1'b0; rta_wr <= 1'b0; rl_wr <= 1'b0;
    end else begin
      wdata_q  <= csr_wdata_i;
      for (w = 0; w < NDESC; w = w + 1)
        dsel_q[w] <= csr_we_i && ({25'd0, csr_addr_i} == {25'd0, CSR_DESC} + w);
      start_wr <= ctrl_wr && csr_wdata_i[CTRL_START];
      clear_wr <= ctrl_wr && csr_wdata_i[CTRL_CLEAR];
      prep_wr  <= ctrl_wr && csr_wdata_i[CTRL_PREPARE];
      rt_we_q  <= csr_we_i && (csr_addr_i == CSR_ROUTE_DATA);
      rta_wr   <= csr_we_i && (csr_addr_i == CSR_ROUTE_ADDR);
      rl_wr    <= csr_we_i && (csr_addr_i == CSR_READ_LANES);
    end
  end

  wire [31:0] q_n_ch  = dq[D_N_CH +: D_N_CH_W];
  wire [31:0] q_n_ctx = dq[D_N_CTX +: D_N_CTX_W];
  wire [15:0] q_n_kg  = dq[D_N_KG +: D_N_KG_W];
  // The contexts the tap sequencer walks, n_ctx * n_kg (at most 2^16 - 1), by shift and add,
  // started the cycle after either is written: one cycle per bit of n_kg up to its highest set
  // bit (a host writes both long before its start; the launch waits for the product).
  reg  [31:0] nw_a_q;          // n_ctx << step
  reg  [15:0] nw_b_q;          // n_kg >> step
  reg  [16:0] nw_acc_q;        // the sum so far; bit 16: 2^16 or more
  reg         nw_big_q;        // nw_a_q has reached 2^16 (then any later bit of n_kg overflows)
  reg         nw_ovf_q;        // the product is 2^16 or more
  reg         nw_busy_q, nw_start_q;
  wire        nw_a_big = nw_big_q || (nw_a_q[31:16] != 16'd0);
  wire        nw_ovf   = nw_ovf_q || nw_acc_q[16];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nw_a_q <= 32'd0; nw_b_q <= 16'd0; nw_acc_q <= 17'd0; nw_big_q <= 1'b0; nw_ovf_q <= 1'b0;
      nw_busy_q <= 1'b0; nw_start_q <= 1'b0;
    end else begin
      nw_start_q <= dsel_q[DR_N_CTX] || dsel_q[DR_KG_KR];
      if (nw_start_q) begin
        nw_a_q <= q_n_ctx; nw_b_q <= q_n_kg; nw_acc_q <= 17'd0;
        nw_big_q <= 1'b0; nw_ovf_q <= 1'b0; nw_busy_q <= 1'b1;
      end else if (nw_busy_q) begin
        if (nw_b_q[0]) begin
          if (nw_a_big) nw_ovf_q <= 1'b1;
          else if (!nw_acc_q[16]) nw_acc_q <= nw_acc_q + {1'b0, nw_a_q[15:0]};
        end
        nw_big_q <= nw_a_big || nw_a_q[15];
        nw_a_q   <= nw_a_q << 1;
        nw_b_q   <= nw_b_q >> 1;
        if (nw_b_q[15:1] == 15'd0) nw_busy_q <= 1'b0;
      end
    end
  end
  // the pass has taps, NZ_R and NZ_S > 0: the feeder starts (f_start_o). Only a zero_fill pass
  // may have none (an output phase that no kernel tap reaches); others are refused.
  wire has_taps = (dq[D_NZ_R +: D_NZ_R_W] != 16'd0) && (dq[D_NZ_S +: D_NZ_S_W] != 16'd0);
  wire bad_zero = (q_n_ch == 32'd0) || (dq[D_N_KR +: D_N_KR_W] == 16'd0) ||
                  (q_n_kg == 16'd0) || (q_n_ctx == 32'd0) || (dq[D_NPIX +: D_NPIX_W] == 32'd0) ||
                  (dq[D_K_ACT +: D_K_ACT_W] == 16'd0) || (dq[D_OW_XS +: D_OW_XS_W] == 32'd0) ||
                  (dq[D_STR_W +: D_STR_W_W] == 16'd0) ||
                  (dq[D_LEN +: D_LEN_W] == 32'd0) || (q_n_ch[31:16] != 16'd0) ||
                  (dq[D_DN_R +: D_DN_R_W] == 16'd0) || (dq[D_DN_S +: D_DN_S_W] == 16'd0) ||
                  (dq[D_GAP_H +: D_GAP_H_W] == 16'd0) || (dq[D_GAP_W +: D_GAP_W_W] == 16'd0) ||
                  (!dq[D_ZERO_FILL] && !has_taps);

  // The check is two registers deep: its terms (bad_t_q) from the descriptor registers of the
  // cycle before, bad_q from those terms a cycle later, so it stands for the current registers
  // unless one was written in the last two cycles (desc_wr_q, desc_wr_q2), or one is written
  // this cycle (desc_wr: its value lands at the cycle's end, after a decision taken on the
  // old one); the launch and the feeder's early start wait for chk_ok (the product above done
  // too). A host that writes its start right after the descriptor's last register waits two
  // cycles; one that writes CTRL.prepare first, as the protocol says, one at most.
  reg  [5:0] bad_t_q;
  reg        bad_q, desc_wr_q, desc_wr_q2;
  wire desc_wr = |dsel_q;
  wire chk_ok  = !desc_wr && !desc_wr_q && !desc_wr_q2 && !nw_busy_q && !nw_start_q;
  wire bad     = bad_q || nw_ovf;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bad_t_q    <= 6'h3f;
      bad_q      <= 1'b1;
      desc_wr_q  <= 1'b0;
      desc_wr_q2 <= 1'b0;
    end else begin
      bad_t_q    <= {nw_ovf, bad_zero, bad_row, bad_pos, bad_groups, bad_c2i};
      bad_q      <= |bad_t_q;
      desc_wr_q  <= desc_wr;
      desc_wr_q2 <= desc_wr_q;
    end
  end

  assign rt_we_o    = rt_we_q;
  assign rt_addr_o  = rt_addr_q;
  assign rt_wdata_o = wdata_q;
  // The launch is decided in one cycle and carried out in the next from registers (go_q,
  // err_q), and so is the feeder's early start (fe_q), so the enables of the descriptor copies
  // (desc_o, fdesc_o: hundreds of flip-flops each) come straight from a flip-flop rather than
  // from the CSR port's decode. STATUS shows the start pending until then, so the host writes no
  // descriptor register in between; a decision is taken only in a cycle with no descriptor
  // write landing (chk_ok), so the copy holds what was checked.
  reg  go_q, err_q, fe_q, fld_q;
  wire launching = go_q || err_q;
  // Passes back to back: the pending pass may start once the running one's taps have all
  // entered the array, while its results still drain (sagen_step_ctrl ends the running pass
  // then), if both leave the array's shape alone: the same column groups (or none in both) and
  // no col2im in either (its line and route table are read until the last result). A refused
  // descriptor waits for the running pass's last result, so passes end in order.
  wire [7:0] cur_gn = desc_o[D_GRP_N +: D_GRP_N_W];
  wire [7:0] cur_gw = desc_o[D_GRP_W +: D_GRP_W_W];
  wire same_grp = (grp_n <= 8'd1 && cur_gn <= 8'd1) || (grp_n == cur_gn && grp_w == cur_gw);
  assign chain_o = pending_q && chk_ok && !bad && !launching && !go_o && same_grp &&
                   !dq[D_C2I] && !desc_o[D_C2I];
  wire launch   = !busy_o && !go_o && !launching && chk_ok && (start_wr || pending_q);
  reg  prep_q;   // CTRL.prepare written, the pass not yet launched
  reg  f_go_q;   // one cycle: fdesc_o loads
  wire f_early  = (prep_q || pending_q) && !f_ahead_o && !fe_q && !launch && !launching &&
                  !go_o && !f_go_q && feed_free_i && chk_ok && !bad;
  wire f_launch = launch && !bad && !f_ahead_o && !fe_q;   // the feeder starts with the pass
  assign f_run_o = !f_ahead_o || pending_q;

  integer i;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (i = 0; i < NDESC; i = i + 1) desc_q[i] <= 32'd0;
      pending_q <= 1'b0; error_q <= 1'b0; seq_q <= 1'b0; passes_q <= 24'd0;
      rt_addr_q <= 16'd0;
      read_lanes_o <= 16'd0;
      go_o <= 1'b0; busy_o <= 1'b0;
      desc_o <= {DESC_BITS{1'b0}};
      n_walk_o <= 16'd0;
      f_go_q <= 1'b0; f_start_o <= 1'b0; f_ahead_o <= 1'b0; prep_q <= 1'b0;
      fdesc_o <= {DESC_BITS{1'b0}};
      go_q <= 1'b0; err_q <= 1'b0; fe_q <= 1'b0; fld_q <= 1'b0;
    end else begin
      for (i = 0; i < NDESC; i = i + 1) if (dsel_q[i]) desc_q[i] <= wdata_q;
      if (rta_wr) rt_addr_q <= wdata_q[ROUTE_ADDR_ADDR +: ROUTE_ADDR_ADDR_W];
      else if (rt_we_o) rt_addr_q <= rt_addr_q + 16'd2;
      if (rl_wr) read_lanes_o <= wdata_q[READ_LANES_LANES +: READ_LANES_LANES_W];
      go_o <= 1'b0;
      f_go_q <= 1'b0;
      f_start_o <= 1'b0;
      if (prep_wr) prep_q <= 1'b1;
      fe_q  <= f_early;
      fld_q <= f_early || f_launch;
      if (fe_q) f_ahead_o <= 1'b1;
      if (fld_q) begin
        f_go_q <= 1'b1;
        // (worked out here, not from fdesc_o: the feeder's start, which enables much of its
        // logic, comes straight from a flip-flop)
        f_start_o <= has_taps;
        for (i = 0; i < NDESC; i = i + 1) fdesc_o[i*32 +: 32] <= desc_q[i];
      end
      if (clear_wr) error_q <= 1'b0;
      if (clear_wr) seq_q <= 1'b0;
      else if (seq_err_i) seq_q <= 1'b1;
      if (start_wr && !launch) pending_q <= 1'b1;
      go_q  <= launch && !bad;
      err_q <= launch && bad;
      if (launch) begin
        pending_q <= 1'b0;
        prep_q    <= 1'b0;
        f_ahead_o <= 1'b0;
      end
      if (err_q) error_q <= 1'b1;
      if (go_q) begin
        go_o <= 1'b1;
        for (i = 0; i < NDESC; i = i + 1) desc_o[i*32 +: 32] <= desc_q[i];
        n_walk_o <= nw_acc_q[15:0];
      end
      if (go_o) busy_o <= 1'b1;
      if (busy_o && pass_end_i) busy_o <= 1'b0;
      // a pass ends as its last result is written, a refused one at once
      if (pdone_i || err_q) passes_q <= passes_q + {23'd0, pdone_i} + {23'd0, err_q};
    end
  end

  // Performance counters. Their events come from across the core (the array edge's decision,
  // the feed lanes' and the blocks' state): each is registered here first, so that no event's
  // path runs on into a 48-bit adder; a counter takes an event a cycle after it happened, which
  // the host does not see (it reads the counters after the run has ended).
  reg         ev_step_q, ev_bubble_q, ev_fill_q, ev_stall_q, ev_drain_q;
  reg         ev_if_rd_q, ev_wt_rd_q, ev_out_rd_q, ev_out_wr_q, ev_pad_q, ev_zstep_q;
  reg         ev_line_rd_q, ev_line_wr_q;
  reg  [15:0] ev_macs_q, ev_hp_q, ev_zpe_q;
  reg  [31:0] ev_zskip_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ev_step_q <= 1'b0; ev_bubble_q <= 1'b0; ev_fill_q <= 1'b0; ev_stall_q <= 1'b0;
      ev_drain_q <= 1'b0; ev_if_rd_q <= 1'b0; ev_wt_rd_q <= 1'b0; ev_out_rd_q <= 1'b0;
      ev_out_wr_q <= 1'b0; ev_pad_q <= 1'b0; ev_zstep_q <= 1'b0; ev_line_rd_q <= 1'b0;
      ev_line_wr_q <= 1'b0; ev_macs_q <= 16'd0; ev_hp_q <= 16'd0; ev_zpe_q <= 16'd0;
      ev_zskip_q <= 32'd0;
    end else begin
      ev_step_q <= ev_step_valid_i; ev_bubble_q <= ev_bubble_i; ev_fill_q <= ev_fill_i;
      ev_stall_q <= ev_stall_i; ev_drain_q <= ev_drain_i; ev_if_rd_q <= ev_if_read_i;
      ev_wt_rd_q <= ev_wt_read_i; ev_out_rd_q <= ev_out_read_i; ev_out_wr_q <= ev_out_write_i;
      ev_pad_q <= ev_pad_word_i; ev_zstep_q <= ev_zero_step_i; ev_line_rd_q <= ev_line_read_i;
      ev_line_wr_q <= ev_line_write_i; ev_macs_q <= ev_macs_i; ev_hp_q <= ev_hp_bytes_i;
      ev_zpe_q <= ev_zero_pe_i; ev_zskip_q <= ev_zskip_i;
    end
  end
  wire [47:0] inc [0:NCNT-1];
  assign inc[CNT_CYCLES]    = 48'd1;
  assign inc[CNT_BUSY]      = {47'd0, busy_o};
  assign inc[CNT_STEP]      = {47'd0, ev_step_q};
  assign inc[CNT_BUBBLE]    = {47'd0, ev_bubble_q};
  assign inc[CNT_FILL]      = {47'd0, ev_fill_q};
  assign inc[CNT_STALL]     = {47'd0, ev_stall_q};
  assign inc[CNT_DRAIN]     = {47'd0, ev_drain_q};
  assign inc[CNT_MACS]      = {32'd0, ev_macs_q};
  assign inc[CNT_IF_RD]     = {47'd0, ev_if_rd_q};
  assign inc[CNT_WT_RD]     = {47'd0, ev_wt_rd_q};
  assign inc[CNT_OUT_RD]    = {47'd0, ev_out_rd_q};
  assign inc[CNT_OUT_WR]    = {47'd0, ev_out_wr_q};
  assign inc[CNT_HP_BYTES]  = {32'd0, ev_hp_q};
  assign inc[CNT_PAD_WORDS] = {47'd0, ev_pad_q};
  assign inc[CNT_ZERO_STEP] = {47'd0, ev_zstep_q};
  assign inc[CNT_ZERO_PE]   = {32'd0, ev_zpe_q};
  assign inc[CNT_ZSKIP]     = {16'd0, ev_zskip_q};
  assign inc[CNT_LINE_RD]   = {47'd0, ev_line_rd_q};
  assign inc[CNT_LINE_WR]   = {47'd0, ev_line_wr_q};
  integer c;   // the counters' own loop variable: one always block drives each variable
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (c = 0; c < NCNT; c = c + 1) cnt_q[c] <= 48'd0;
    end else begin
      for (c = 0; c < NCNT; c = c + 1) cnt_q[c] <= clear_wr ? 48'd0 : cnt_q[c] + inc[c];
    end
  end

  // Reads, a pipeline of READ_LATENCY = 3 cycles (sagen_regmap.vh): csr_rdata_o after cycle
  // t+2 answers the address of cycle t with the registers' state in cycle t+1 (a combinational
  // read of cycle t+1). Cycle t: the address is decoded into a group of at most eight words (of
  // the descriptor registers, of the counters' 32-bit halves, or the other registers) and a
  // place in it, registered one-hot (a bit per word). Cycle t+1: each group of 8 words picks its
  // word by an AND-OR of those bits, registered (zero in the groups not asked). Cycle t+2: the
  // groups' words are or-ed into csr_rdata_o.
  localparam integer NMISC = 7;   // STATUS, DEBUG, PARAMS, MAGIC, PARAMS2, ROUTE_ADDR, READ_LANES
  localparam integer NDG   = (NDESC + 7) / 8;      // descriptor groups
  localparam integer NCH   = 2 * NCNT;             // counter halves (odd: the high 16 bits)
  localparam integer NCG   = (NCH + 7) / 8;        // counter groups
  wire [6:0] didx = csr_addr_i - CSR_DESC;
  wire [6:0] cidx = csr_addr_i - CSR_CNT;
  wire       in_desc = csr_addr_i >= CSR_DESC && csr_addr_i < DESC_END;
  wire       in_cnt  = csr_addr_i >= CSR_CNT && csr_addr_i < CNT_END;
  // one-hot: the descriptor word, the counter half asked (none: not one of them); each bit
  // selects one word of its group's multiplexer (a 3-bit place would drive every group's)
  reg  [NDESC-1:0] rd_dhot_q;
  reg  [NCH-1:0]   rd_chot_q;
  reg  [NMISC-1:0] rd_misc_q;      // one-hot: which of the others
  reg  [31:0]      rd_dw_q [0:NDG-1];
  reg  [31:0]      rd_cw_q [0:NCG-1];
  reg  [31:0]      rd_mw_q;
  reg  [31:0]      dw [0:NDG-1];
  reg  [31:0]      cw [0:NCG-1];
  reg  [31:0]      mw, rsum;
  reg  [31:0]      racc;           // a group's AND-OR, as it is built
  integer rg, rk;   // the read multiplexers' loop variables
  always @* begin
    for (rg = 0; rg < NDG; rg = rg + 1) begin
      racc = 32'd0;
      for (rk = 0; rk < 8; rk = rk + 1)
        if (rg * 8 + rk < NDESC)
          racc = racc | ({32{rd_dhot_q[(rg * 8 + rk < NDESC) ? rg * 8 + rk : 0]}} &
                         desc_q[(rg * 8 + rk < NDESC) ? rg * 8 + rk : 0]);
      dw[rg] = racc;
    end
    for (rg = 0; rg < NCG; rg = rg + 1) begin
      racc = 32'd0;
      for (rk = 0; rk < 8; rk = rk + 1)
        if (rg * 8 + rk < NCH)
          racc = racc | ({32{rd_chot_q[(rg * 8 + rk < NCH) ? rg * 8 + rk : 0]}} &
                         (((rg * 8 + rk) % 2 == 1) ? {16'd0, cnt_q[(rg * 8 + rk) / 2][47:32]}
                                                   : cnt_q[(rg * 8 + rk) / 2][31:0]));
      cw[rg] = racc;
    end
    rsum = rd_mw_q;
    for (rg = 0; rg < NDG; rg = rg + 1) rsum = rsum | rd_dw_q[rg];
    for (rg = 0; rg < NCG; rg = rg + 1) rsum = rsum | rd_cw_q[rg];
  end
  integer r;   // the read pipeline's own loop variable
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_dhot_q <= {NDESC{1'b0}}; rd_chot_q <= {NCH{1'b0}};
      rd_misc_q <= {NMISC{1'b0}};
      for (r = 0; r < NDG; r = r + 1) rd_dw_q[r] <= 32'd0;
      for (r = 0; r < NCG; r = r + 1) rd_cw_q[r] <= 32'd0;
      rd_mw_q <= 32'd0;
      csr_rdata_o <= 32'd0;
    end else begin
      for (r = 0; r < NDESC; r = r + 1) rd_dhot_q[r] <= in_desc && {25'd0, didx} == r;
      for (r = 0; r < NCH; r = r + 1)   rd_chot_q[r] <= in_cnt && {25'd0, cidx} == r;
      rd_misc_q[0] <= csr_addr_i == CSR_STATUS;
      rd_misc_q[1] <= csr_addr_i == CSR_DEBUG;
      rd_misc_q[2] <= csr_addr_i == CSR_PARAMS;
      rd_misc_q[3] <= csr_addr_i == CSR_MAGIC;
      rd_misc_q[4] <= csr_addr_i == CSR_PARAMS2;
      rd_misc_q[5] <= csr_addr_i == CSR_ROUTE_ADDR;
      rd_misc_q[6] <= csr_addr_i == CSR_READ_LANES;
      for (r = 0; r < NDG; r = r + 1) rd_dw_q[r] <= dw[r];
      for (r = 0; r < NCG; r = r + 1) rd_cw_q[r] <= cw[r];
      rd_mw_q     <= mw;
      csr_rdata_o <= rsum;
    end
  end
  always @* begin
    mw = 32'd0;
    if (rd_misc_q[0])
      mw = mw | put({8'd0, passes_q}, STATUS_PASSES, STATUS_PASSES_W) |
           put({31'd0, seq_q}, STATUS_SEQUENCE, 1) | put({31'd0, error_q}, STATUS_ERROR, 1) |
           put({31'd0, pending_q || launching || start_wr}, STATUS_PENDING, 1) |
           put({31'd0, busy_o || go_o || go_q}, STATUS_BUSY, 1);
    if (rd_misc_q[1]) mw = mw | debug_i;
    if (rd_misc_q[2]) mw = mw | PARAMS_V;
    if (rd_misc_q[3]) mw = mw | MAGIC_VALUE;
    if (rd_misc_q[4]) mw = mw | PARAMS2_V;
    if (rd_misc_q[5]) mw = mw | put({16'd0, rt_addr_q}, ROUTE_ADDR_ADDR, ROUTE_ADDR_ADDR_W);
    if (rd_misc_q[6]) mw = mw | put({16'd0, read_lanes_o}, READ_LANES_LANES, READ_LANES_LANES_W);
  end

endmodule

`resetall
