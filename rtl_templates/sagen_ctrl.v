// sagen_ctrl: control and status registers, pass sequencing and performance counters.
//
// The host writes a pass descriptor into the CSRs and writes CTRL.start. The descriptor is
// latched when the pass begins, so the host may write the next one while a pass runs; a start
// written while busy is held (STATUS.pending) and begins the cycle the running pass ends (and
// its descriptor has been checked: the check is registered, see bad_q). The
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
  parameter integer DESC_BITS = 832 // the descriptor bus: NDESC * 32 (sagen_core passes it)
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
  // latched descriptor: register CSR_DESC + i at [i*32 +: 32]
  output reg  [DESC_BITS-1:0] desc_o,
  output reg  [15:0]         n_walk_o,     // its contexts times filter groups (the tap sequencer's)
  // the data feeder's own copy: latched with f_go_o, at launch or earlier (see above)
  input  wire                feed_free_i,  // the running pass no longer needs the feeder
  output reg                 f_go_o,       // one cycle: the feeder loads fdesc_o
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
  endgenerate

  // V in a field at LSB, W bits wide, of a 32-bit register
  function automatic [31:0] put(input [31:0] v, input integer lsb, input integer w);
    put = (v & ((w >= 32) ? 32'hffffffff : ((32'd1 << w) - 32'd1))) << lsb;
  endfunction

  localparam [31:0]  NDESC32  = NDESC, NCNT32 = NCNT;
  localparam [6:0]   DESC_END = CSR_DESC + NDESC32[6:0];        // first address past the descriptor
  localparam [6:0]   CNT_END  = CSR_CNT + {NCNT32[5:0], 1'b0};  // first address past the counters
  localparam integer DIW      = $clog2(NDESC);                // descriptor register index bits
  localparam integer CIW      = $clog2(NCNT);                 // counter index bits
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
  // RT_KGS filter groups, rows of 3 pixels or more (a line word is read again a row later, after
  // its write has landed), and room in the line for a row per filter group from the first one
  // with a line segment (flags [11:9]).
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
  wire bad_c2i = c2i && (LINE_WORDS == 0 || grp_n > 8'd1 || {16'd0, c2i_kg} > RTK32 ||
                         c2i_owv < 16'd3 || c2i_long);
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
      nw_start_q <= csr_we_i && (csr_addr_i == CSR_DESC + DR_N_CTX[6:0] ||
                                 csr_addr_i == CSR_DESC + DR_KG_KR[6:0]);
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
  wire bad_desc = nw_ovf || (q_n_ch == 32'd0) || (dq[D_N_KR +: D_N_KR_W] == 16'd0) ||
                  (q_n_kg == 16'd0) || (q_n_ctx == 32'd0) || (dq[D_NPIX +: D_NPIX_W] == 32'd0) ||
                  (dq[D_K_ACT +: D_K_ACT_W] == 16'd0) || (dq[D_OW_XS +: D_OW_XS_W] == 32'd0) ||
                  (dq[D_STR_W +: D_STR_W_W] == 16'd0) || bad_row || bad_pos ||
                  (dq[D_LEN +: D_LEN_W] == 32'd0) || (q_n_ch[31:16] != 16'd0) ||
                  (dq[D_DN_R +: D_DN_R_W] == 16'd0) || (dq[D_DN_S +: D_DN_S_W] == 16'd0) ||
                  (dq[D_GAP_H +: D_GAP_H_W] == 16'd0) || (dq[D_GAP_W +: D_GAP_W_W] == 16'd0) ||
                  (!dq[D_ZERO_FILL] && (dq[D_NZ_R +: D_NZ_R_W] == 16'd0 ||
                                        dq[D_NZ_S +: D_NZ_S_W] == 16'd0)) ||
                  bad_groups || bad_c2i;

  // The check is registered: bad_q holds it for the descriptor registers of the previous
  // cycle, so it stands for the current ones unless a descriptor register was written then
  // (desc_wr_q); the launch and the feeder's early start wait for chk_ok (the product above
  // done too). A host that writes its start right after the descriptor's last register waits a
  // cycle; one that writes CTRL.prepare first, as the protocol says, does not.
  reg  bad_q, desc_wr_q;
  wire desc_wr = csr_we_i && csr_addr_i >= CSR_DESC && csr_addr_i < DESC_END;
  wire chk_ok  = !desc_wr_q && !nw_busy_q && !nw_start_q;
  wire bad     = bad_q || nw_ovf;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bad_q     <= 1'b1;
      desc_wr_q <= 1'b0;
    end else begin
      bad_q     <= bad_desc;
      desc_wr_q <= desc_wr;
    end
  end

  wire [6:0] didx = csr_addr_i - CSR_DESC;
  assign rt_we_o    = csr_we_i && (csr_addr_i == CSR_ROUTE_DATA);
  assign rt_addr_o  = rt_addr_q;
  assign rt_wdata_o = csr_wdata_i;
  wire start_wr = csr_we_i && (csr_addr_i == CSR_CTRL) && csr_wdata_i[CTRL_START];
  wire clear_wr = csr_we_i && (csr_addr_i == CSR_CTRL) && csr_wdata_i[CTRL_CLEAR];
  wire launch   = !busy_o && !go_o && chk_ok && (start_wr || pending_q);
  wire prep_wr  = csr_we_i && (csr_addr_i == CSR_CTRL) && csr_wdata_i[CTRL_PREPARE];
  reg  prep_q;   // CTRL.prepare written, the pass not yet launched
  wire f_early  = (prep_q || pending_q) && !f_ahead_o && !launch && !go_o && !f_go_o &&
                  feed_free_i && chk_ok && !bad;
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
      f_go_o <= 1'b0; f_ahead_o <= 1'b0; prep_q <= 1'b0;
      fdesc_o <= {DESC_BITS{1'b0}};
    end else begin
      if (desc_wr) desc_q[didx[DIW-1:0]] <= csr_wdata_i;
      if (csr_we_i && csr_addr_i == CSR_ROUTE_ADDR) rt_addr_q <= csr_wdata_i[ROUTE_ADDR_ADDR +: ROUTE_ADDR_ADDR_W];
      else if (rt_we_o) rt_addr_q <= rt_addr_q + 16'd2;
      if (csr_we_i && csr_addr_i == CSR_READ_LANES) read_lanes_o <= csr_wdata_i[READ_LANES_LANES +: READ_LANES_LANES_W];
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
      if (start_wr && !launch) pending_q <= 1'b1;
      if (launch) begin
        pending_q <= 1'b0;
        prep_q    <= 1'b0;
        f_ahead_o <= 1'b0;
        if (!bad && !f_ahead_o) begin
          f_go_o <= 1'b1;
          for (i = 0; i < NDESC; i = i + 1) fdesc_o[i*32 +: 32] <= desc_q[i];
        end
        if (bad) begin
          error_q  <= 1'b1;
          passes_q <= passes_q + 24'd1;
        end else begin
          go_o <= 1'b1;
          for (i = 0; i < NDESC; i = i + 1) desc_o[i*32 +: 32] <= desc_q[i];
          n_walk_o <= nw_acc_q[15:0];
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
  assign inc[CNT_CYCLES]    = 48'd1;
  assign inc[CNT_BUSY]      = {47'd0, busy_o};
  assign inc[CNT_STEP]      = {47'd0, ev_step_valid_i};
  assign inc[CNT_BUBBLE]    = {47'd0, ev_bubble_i};
  assign inc[CNT_FILL]      = {47'd0, ev_fill_i};
  assign inc[CNT_STALL]     = {47'd0, ev_stall_i};
  assign inc[CNT_DRAIN]     = {47'd0, ev_drain_i};
  assign inc[CNT_MACS]      = {32'd0, ev_macs_i};
  assign inc[CNT_IF_RD]     = {47'd0, ev_if_read_i};
  assign inc[CNT_WT_RD]     = {47'd0, ev_wt_read_i};
  assign inc[CNT_OUT_RD]    = {47'd0, ev_out_read_i};
  assign inc[CNT_OUT_WR]    = {47'd0, ev_out_write_i};
  assign inc[CNT_HP_BYTES]  = {32'd0, ev_hp_bytes_i};
  assign inc[CNT_PAD_WORDS] = {47'd0, ev_pad_word_i};
  assign inc[CNT_ZERO_STEP] = {47'd0, ev_zero_step_i};
  assign inc[CNT_ZERO_PE]   = {32'd0, ev_zero_pe_i};
  assign inc[CNT_ZSKIP]     = {16'd0, ev_zskip_i};
  assign inc[CNT_LINE_RD]   = {47'd0, ev_line_read_i};
  assign inc[CNT_LINE_WR]   = {47'd0, ev_line_write_i};
  integer c;   // the counters' own loop variable: one always block drives each variable
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (c = 0; c < NCNT; c = c + 1) cnt_q[c] <= 48'd0;
    end else begin
      for (c = 0; c < NCNT; c = c + 1) cnt_q[c] <= clear_wr ? 48'd0 : cnt_q[c] + inc[c];
    end
  end

  // Reads (combinational).
  wire [6:0] cidx = csr_addr_i - CSR_CNT;
  wire unused_idx = ^didx ^ ^cidx;
  always @* begin
    csr_rdata_o = 32'd0;
    if (csr_addr_i == CSR_STATUS) begin
      csr_rdata_o = put({8'd0, passes_q}, STATUS_PASSES, STATUS_PASSES_W) |
                    put({31'd0, seq_q}, STATUS_SEQUENCE, 1) | put({31'd0, error_q}, STATUS_ERROR, 1) |
                    put({31'd0, pending_q}, STATUS_PENDING, 1) |
                    put({31'd0, busy_o || go_o}, STATUS_BUSY, 1);
    end else if (csr_addr_i >= CSR_DESC && csr_addr_i < DESC_END) begin
      csr_rdata_o = desc_q[didx[DIW-1:0]];
    end else if (csr_addr_i == CSR_DEBUG) begin
      csr_rdata_o = debug_i;
    end else if (csr_addr_i == CSR_PARAMS) begin
      csr_rdata_o = PARAMS_V;
    end else if (csr_addr_i == CSR_MAGIC) begin
      csr_rdata_o = MAGIC_VALUE;
    end else if (csr_addr_i == CSR_PARAMS2) begin
      csr_rdata_o = PARAMS2_V;
    end else if (csr_addr_i == CSR_ROUTE_ADDR) begin
      csr_rdata_o = put({16'd0, rt_addr_q}, ROUTE_ADDR_ADDR, ROUTE_ADDR_ADDR_W);
    end else if (csr_addr_i == CSR_READ_LANES) begin
      csr_rdata_o = put({16'd0, read_lanes_o}, READ_LANES_LANES, READ_LANES_LANES_W);
    end else if (csr_addr_i >= CSR_CNT && csr_addr_i < CNT_END) begin
      csr_rdata_o = cidx[0] ? {16'd0, cnt_q[cidx[CIW:1]][47:32]} : cnt_q[cidx[CIW:1]][31:0];
    end
  end

endmodule

`resetall
