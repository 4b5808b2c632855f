// sagen_core: the accelerator. Host port (CSRs and DMA into the SRAM banks), controller, data
// feeder, weight fetcher, ROWS x COLS output-stationary array with its feed registers (row and
// column skew), partial-sums manager and performance counters.
//
// A tap sequencer (sagen_nz_addr_gen) walks the reduction of every context, tap by tap, and
// says for each tap whether it holds an operand (non-zero) or falls in a zero-space of the
// backward pass. The array, its feed registers and the partial-sums manager run every cycle; a
// tap enters the array when it is non-zero and every feed lane and the weight fetcher have an
// element (a valid step), or when it is a zero-space tap in zero_fill mode (a zero step: the PEs
// are fed created zeros, nothing is fetched), unless the context's last tap would come sooner
// than 2*ROWS-1 cycles after the previous context's (the reserve chains must empty: a bubble);
// every other cycle feeds the array nothing. In zero_skip mode (and for the forward pass) the
// sequencer walks the non-zero taps only. Each busy cycle is counted in exactly one of: valid
// step, zero step, bubble, fill (before the first step of a pass), stall (feeder or weights not
// ready) and drain (after the last tap of a pass entered the array, until its last result is
// written or, passes back to back, the next pass starts).
//
// Column groups (GROUPS > 1, array.col_groups): a pass may split the columns into grp_n groups
// of grp_w columns (descriptor 4). Group g computes its own pixels, fed by lanes g*ROWS..g*ROWS+
// ROWS-1 that enter the array at the group's first column, with the weights of grp_w filters
// (the host repeats them in every group); the weights and the results are skewed within each
// group. A layer with few output channels then fills the columns with more pixels.
//
// col2im (LINE_WORDS > 0, descriptor flags bit 6): the input gradient's products of dy and the
// (tap, channel) filters overlap-add into dx in the partial-sums manager, through a route table
// (CSRs 40 and 41) and an overlap-add line of LINE_WORDS output words (sagen_psum_manager).
//
// Floating point (FP = 1, data.format fp16, bf16 or fp32): the same core with sagen_pe_fp in
// the array (operands of IEW/IFW exponent/fraction bits, IN_BITS = W_BITS = IEW + IFW + 1; sums
// of AEW/AFW, ACC_BITS = AEW + AFW + 1) and float adders in the partial-sums manager (with
// col2im, a tree of two levels, whose path asks col2im rows and tiles of 16 pixels or more).
// Context ends come at least max(2*ROWS-1, 18) cycles apart (the PE's reduction), and a result
// leaves the array 37 cycles later than an integer PE's.
`default_nettype none

module sagen_core #(
  parameter integer ROWS       = 4,
  parameter integer COLS       = 4,
  parameter integer IN_BITS    = 8,
  parameter integer W_BITS     = 8,
  parameter integer ACC_BITS   = 32,
  parameter integer BUS        = 16,   // ifmap bus, elements (power of two)
  parameter integer LG_BUS     = 4,
  parameter integer M          = 3,    // feed-lane intermediate registers
  parameter integer PAT_BITS   = 64,
  parameter integer FIFO_DEPTH = 4,
  parameter integer BANKS      = 2,    // 1 or 2 (double buffering)
  parameter integer IF_WORDS   = 1024, // words per bank
  parameter integer WT_WORDS   = 1024,
  parameter integer OUT_WORDS  = 1024,
  parameter integer IF_AW      = 10,
  parameter integer WT_AW      = 10,
  parameter integer OUT_AW     = 10,
  parameter integer HP_AW      = 10,   // max of the three address widths
  parameter integer HP_DW      = 128,  // max of the ifmap and weight word widths
  parameter integer GROUPS     = 1,    // column groups the array can form (1: none)
  parameter integer LINE_WORDS = 0,    // words of the col2im overlap-add line (0: no col2im)
  parameter integer LINE_AW    = 1,    // its address bits
  parameter integer FP         = 0,    // 1: floating point
  parameter integer IEW        = 8,    // operands' exponent and fraction bits (FP = 1)
  parameter integer IFW        = 7,
  parameter integer AEW        = 8,    // sums' exponent and fraction bits (FP = 1)
  parameter integer AFW        = 23
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     csr_we_i,
  input  wire [6:0]               csr_addr_i,
  input  wire [31:0]              csr_wdata_i,
  output wire [31:0]              csr_rdata_o,
  input  wire                     hp_we_i,     // write hp_wdata_i into memory hp_mem_i
  input  wire                     hp_mem_i,    // 0 ifmap, 1 weight
  input  wire                     hp_bank_i,
  input  wire [HP_AW-1:0]         hp_addr_i,
  input  wire [HP_DW-1:0]         hp_wdata_i,
  input  wire                     hp_re_i,     // read output bank hp_bank_i at hp_addr_i
  output wire [COLS*ACC_BITS-1:0] hp_rdata_o,  // valid the cycle after hp_re_i
  output wire                     busy_o,
  output wire                     irq_o        // a pass ended (one cycle)
);

  localparam integer LANES = GROUPS * ROWS;   // feed lanes: one per row and column group
  // the feeder's signed element positions: a bank's elements (IF_AW + LG_BUS bits), a sign and a
  // bit of headroom for sums; the rows a context spans, relative to its first lane's (SW)
  localparam integer XW    = IF_AW + LG_BUS + 2;
  localparam integer SW    = $clog2(LANES + 2) + 1;
  localparam integer IF_W  = BUS * IN_BITS;
  localparam integer WT_W  = COLS * W_BITS;
  localparam integer OUT_W = COLS * ACC_BITS;
  // the active lanes and columns of a context, as sagen_mac_count counts them
  localparam integer LW    = $clog2(LANES + 1);
  localparam integer CW    = $clog2(COLS + 1);

`include "sagen_regmap.vh"

  // ---- controller ---------------------------------------------------------------------------
  // The pass descriptor: register CSR_DESC + i is desc[i*32 +: 32], its fields at D_<FIELD>
  // (docs/regmap.md; sagen_index_counters gives the feeder's fields their exact meaning).
  wire go, busy, pass_end, chain;
  wire [NDESC*32-1:0] desc;
  wire [15:0] n_walk;   // contexts of the pass, times its filter groups (from the controller)
  // the data feeder's descriptor: the running pass's, or the pending one's once the running pass
  // no longer needs the feeder (f_ahead; sagen_ctrl)
  wire f_start, f_ahead, f_run, feed_free;
  wire [NDESC*32-1:0] fdesc;
  // the running pass's fields
  wire [31:0] d_n_ch     = desc[D_N_CH +: D_N_CH_W];
  wire [15:0] d_n_kg     = desc[D_N_KG +: D_N_KG_W];
  wire [31:0] d_n_ctx    = desc[D_N_CTX +: D_N_CTX_W];
  wire [31:0] d_npix     = desc[D_NPIX +: D_NPIX_W];
  wire [15:0] d_k_act    = desc[D_K_ACT +: D_K_ACT_W];
  wire [31:0] d_len      = desc[D_LEN +: D_LEN_W];
  wire [15:0] d_ow_real  = desc[D_OW_REAL +: D_OW_REAL_W];
  wire [15:0] d_ow_virt  = desc[D_OW_VIRT +: D_OW_VIRT_W];
  wire [15:0] d_dn_r     = desc[D_DN_R +: D_DN_R_W];
  wire [15:0] d_dn_s     = desc[D_DN_S +: D_DN_S_W];
  wire [15:0] d_off_h    = desc[D_OFF_H +: D_OFF_H_W];
  wire [15:0] d_off_w    = desc[D_OFF_W +: D_OFF_W_W];
  wire [15:0] d_gap_h    = desc[D_GAP_H +: D_GAP_H_W];
  wire [15:0] d_gap_w    = desc[D_GAP_W +: D_GAP_W_W];
  wire [15:0] d_nz_r     = desc[D_NZ_R +: D_NZ_R_W];
  wire [15:0] d_nz_s     = desc[D_NZ_S +: D_NZ_S_W];
  // the data feeder's pass's fields
  wire [31:0] fd_n_ch    = fdesc[D_N_CH +: D_N_CH_W];
  wire [15:0] fd_n_kr    = fdesc[D_N_KR +: D_N_KR_W];
  wire [15:0] fd_n_kg    = fdesc[D_N_KG +: D_N_KG_W];
  wire [31:0] fd_n_ctx   = fdesc[D_N_CTX +: D_N_CTX_W];
  wire [7:0]  fd_grp_n   = fdesc[D_GRP_N +: D_GRP_N_W];
  wire [31:0] fd_plane   = fdesc[D_PLANE +: D_PLANE_W];
  wire [31:0] fd_kr_step = fdesc[D_KR_STEP +: D_KR_STEP_W];
  wire [31:0] fd_oy_step = fdesc[D_OY_STEP +: D_OY_STEP_W];
  wire [31:0] fd_ctx_xs  = fdesc[D_CTX_XS +: D_CTX_XS_W];
  wire [31:0] fd_ow_xs   = fdesc[D_OW_XS +: D_OW_XS_W];
  wire [31:0] fd_base    = fdesc[D_BASE +: D_BASE_W];
  wire [15:0] fd_dil_h   = fdesc[D_DIL_H +: D_DIL_H_W];
  wire [15:0] fd_str_h   = fdesc[D_STR_H +: D_STR_H_W];
  wire [15:0] fd_str_w   = fdesc[D_STR_W +: D_STR_W_W];
  wire [15:0] fd_ctx_y   = fdesc[D_CTX_Y +: D_CTX_Y_W];
  wire [15:0] fd_pad_t   = fdesc[D_PAD_T +: D_PAD_T_W];
  wire [15:0] fd_pad_l   = fdesc[D_PAD_L +: D_PAD_L_W];
  wire [15:0] fd_tile_h  = fdesc[D_TILE_H +: D_TILE_H_W];
  wire [15:0] fd_tile_w  = fdesc[D_TILE_W +: D_TILE_W_W];
  wire [15:0] fd_taps    = fdesc[D_TAPS +: D_TAPS_W];
  wire [15:0] fd_tap_gap = fdesc[D_TAP_GAP +: D_TAP_GAP_W];
  wire [31:0] fd_last_xs = fdesc[D_LAST_XS +: D_LAST_XS_W];
  wire [15:0] fd_last_seg = fdesc[D_LAST_SEG +: D_LAST_SEG_W];
  wire [15:0] fd_oh_last = fdesc[D_OH_LAST +: D_OH_LAST_W];
  wire [31:0] fd_ctx_py  = fdesc[D_CTX_PY +: D_CTX_PY_W];
  wire [15:0] fd_ctx_rows = fdesc[D_CTX_ROWS +: D_CTX_ROWS_W];
  wire        fd_if_bank = fdesc[D_IF_BANK];
  wire        fd_lin     = fdesc[D_LIN];
  wire ev_step_valid, ev_bubble, ev_fill, ev_stall, ev_drain, ev_pad_word, ev_zero_step;
  wire [15:0] ev_macs, ev_hp_bytes, ev_zero_pe;
  wire line_re, line_we;
  // col2im route table: RT_KGS filter groups x 4 classes x COLS lanes, {valid, column} each
  localparam integer RT_KGS = 4;
  localparam integer LB     = (COLS > 1) ? $clog2(COLS) : 1;
  localparam integer RT_N   = RT_KGS * 4 * COLS;
  localparam integer RE     = 1 + LB;
  wire        rt_we;
  wire [15:0] read_lanes;
  wire [15:0] rt_addr;
  wire [31:0] rt_wdata;
  wire [31:0] ev_zskip, debug;
  wire seq_err;
  wire if_re, wt_re, out_re, out_we;

  sagen_ctrl #(
    .ROWS    (ROWS),
    .COLS    (COLS),
    .BUS     (BUS),
    .PAT_BITS(PAT_BITS),
    .DEPTH   (FIFO_DEPTH),
    .XW      (XW),
    .GROUPS  (GROUPS),
    .LINE_WORDS(LINE_WORDS),
    .RT_KGS  (RT_KGS),
    .C2I_ROW ((FP != 0) ? 16 : 4),
    .C2I_TILE((FP != 0) ? 16 : 0),
    .DESC_BITS(NDESC * 32)
  ) u_ctrl (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .csr_we_i       (csr_we_i),
    .csr_addr_i     (csr_addr_i),
    .csr_wdata_i    (csr_wdata_i),
    .csr_rdata_o    (csr_rdata_o),
    .go_o           (go),
    .busy_o         (busy),
    .pass_end_i     (pass_end),
    .pdone_i        (psm_pdone),
    .chain_o        (chain),
    .desc_o         (desc),
    .n_walk_o       (n_walk),
    .feed_free_i    (feed_free),
    .f_start_o      (f_start),
    .fdesc_o        (fdesc),
    .f_ahead_o      (f_ahead),
    .f_run_o        (f_run),
    .rt_we_o        (rt_we),
    .rt_addr_o      (rt_addr),
    .rt_wdata_o     (rt_wdata),
    .read_lanes_o   (read_lanes),
    .ev_step_valid_i(ev_step_valid),
    .ev_bubble_i    (ev_bubble),
    .ev_fill_i      (ev_fill),
    .ev_stall_i     (ev_stall),
    .ev_drain_i     (ev_drain),
    .ev_macs_i      (ev_macs),
    .ev_if_read_i   (if_re),
    .ev_wt_read_i   (wt_re),
    .ev_out_read_i  (out_re),
    .ev_out_write_i (out_we),
    .ev_hp_bytes_i  (ev_hp_bytes),
    .ev_pad_word_i  (ev_pad_word),
    .ev_zero_step_i (ev_zero_step),
    .ev_zero_pe_i   (ev_zero_pe),
    .ev_zskip_i     (ev_zskip),
    .ev_line_read_i (line_re),
    .ev_line_write_i(line_we),
    .debug_i        (debug),
    .seq_err_i      (seq_err)
  );
  assign busy_o = busy;
  reg irq_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) irq_q <= 1'b0;
    else         irq_q <= psm_pdone;
  end
  assign irq_o = irq_q;

  wire accumulate = desc[D_ACC];
  // Passes back to back: a pass's partial-sums manager work begins at its go if the manager's
  // walk is free, else (psm_q) as soon as the walk of the pass before reaches its last result
  // (free_o), with the descriptor the controller holds until the next go, which waits for that
  // start (the controller chains a pass only with !psm_q). Its output bank is taken then; the
  // manager reads the bank of the pass it walks and writes each word into its own pass's.
  wire psm_done, psm_free, psm_pdone, psm_rbank, psm_wbank;
  reg  psm_q;
  wire psm_start = (go || psm_q) && psm_free;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      psm_q <= 1'b0;
    end else begin
      if (psm_start)  psm_q <= 1'b0;
      else if (go)    psm_q <= 1'b1;
    end
  end
  wire psm_idle = psm_done && !psm_q;
  wire if_bank    = fd_if_bank;   // the feeder's pass reads the ifmap (it may run ahead)
  wire wt_bank    = desc[D_WT_BANK];
  wire zero_fill  = desc[D_ZERO_FILL];
  wire c2i        = desc[D_C2I] && (LINE_WORDS > 0);
  // A zero_fill pass of an output phase that no kernel tap reaches has no operand at all: the
  // feeder and the weight fetcher stay idle and every step feeds created zeros.
  wire no_ops     = (d_nz_r == 16'd0) || (d_nz_s == 16'd0);
  wire ops_go     = go && !no_ops;

  // ---- column groups: lanes, filters per group, and each column's place ------------------------
  wire [15:0]            grp_w;      // filters per filter group
  wire [15:0]            lanes_rt;   // pixels per context
  wire [15:0]            fd_lanes;   // lanes in use in the feeder's pass
  wire [COLS*16-1:0]     col_j, dtap;
  wire [COLS*GROUPS-1:0] inj;
  wire [31:0]            kg_words;   // output words per filter group
  sagen_col_groups #(
    .ROWS  (ROWS),
    .COLS  (COLS),
    .GROUPS(GROUPS)
  ) u_col_groups (
    .grp_n_i   (desc[D_GRP_N +: D_GRP_N_W]),
    .grp_w_i   (desc[D_GRP_W +: D_GRP_W_W]),
    .f_grp_n_i (fd_grp_n),
    .n_ctx_i   (d_n_ctx[15:0]),
    .npix_i    (d_npix),
    .c2i_i     (c2i),
    .grp_w_o   (grp_w),
    .lanes_o   (lanes_rt),
    .f_lanes_o (fd_lanes),
    .col_j_o   (col_j),
    .dtap_o    (dtap),
    .inj_o     (inj),
    .kg_words_o(kg_words)
  );

  // ---- memories -------------------------------------------------------------------------------
  wire [IF_AW-1:0]  if_raddr;
  wire [WT_AW-1:0]  wt_raddr;
  wire [OUT_AW-1:0] out_raddr, out_waddr;
  wire [OUT_W-1:0]  out_wdata;
  wire [IF_W-1:0]   if_rdata_b  [0:BANKS-1];
  wire [WT_W-1:0]   wt_rdata_b  [0:BANKS-1];
  wire [OUT_W-1:0]  out_rdata_b [0:BANKS-1];
  reg               hp_rbank_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      hp_rbank_q <= 1'b0;
    else if (hp_re_i) hp_rbank_q <= hp_bank_i;
  end

  genvar b;
  generate
    for (b = 0; b < BANKS; b = b + 1) begin : g_bank
      wire [0:0] bk = b;
      wire host_sel = (hp_bank_i == bk[0]);
      sagen_sram #(.WIDTH(IF_W), .WORDS(IF_WORDS), .AW(IF_AW)) u_ifmap (
        .clk_i  (clk_i),
        .we_i   (hp_we_i && !hp_mem_i && host_sel),
        .waddr_i(hp_addr_i[IF_AW-1:0]),
        .wdata_i(hp_wdata_i[IF_W-1:0]),
        .re_i   (if_re && (if_bank == bk[0])),
        .raddr_i(if_raddr),
        .rdata_o(if_rdata_b[b])
      );
      sagen_sram #(.WIDTH(WT_W), .WORDS(WT_WORDS), .AW(WT_AW)) u_weight (
        .clk_i  (clk_i),
        .we_i   (hp_we_i && hp_mem_i && host_sel),
        .waddr_i(hp_addr_i[WT_AW-1:0]),
        .wdata_i(hp_wdata_i[WT_W-1:0]),
        .re_i   (wt_re && (wt_bank == bk[0])),
        .raddr_i(wt_raddr),
        .rdata_o(wt_rdata_b[b])
      );
      // The read port of the output bank the partial-sums manager walks is the array's until
      // the pass's last result is written; the host reads the other one. (Only the manager
      // writes: its last words of a pass go on into their bank through the write port while
      // the walk of a pass back to back reads the other.)
      wire array_owns = !psm_idle && (psm_rbank == bk[0]);
      sagen_sram #(.WIDTH(OUT_W), .WORDS(OUT_WORDS), .AW(OUT_AW)) u_output (
        .clk_i  (clk_i),
        .we_i   (out_we && (psm_wbank == bk[0])),
        .waddr_i(out_waddr),
        .wdata_i(out_wdata),
        .re_i   (array_owns ? out_re : (hp_re_i && host_sel)),
        .raddr_i(array_owns ? out_raddr : hp_addr_i[OUT_AW-1:0]),
        .rdata_o(out_rdata_b[b])
      );
    end
  endgenerate

  // col2im: the overlap-add line, and the route table the host writes through ROUTE_DATA
  wire [LINE_AW-1:0] line_raddr, line_waddr;
  wire [OUT_W-1:0]   line_rdata, line_wdata;
  wire [RT_N*RE-1:0] route;
  generate
    if (LINE_WORDS > 0) begin : g_line
      sagen_sram #(.WIDTH(OUT_W), .WORDS(LINE_WORDS), .AW(LINE_AW)) u_line (
        .clk_i  (clk_i),
        .we_i   (line_we),
        .waddr_i(line_waddr),
        .wdata_i(line_wdata),
        .re_i   (line_re),
        .raddr_i(line_raddr),
        .rdata_o(line_rdata)
      );
      sagen_route_table #(.N(RT_N), .W(RE)) u_route_table (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .we_i   (rt_we),
        .addr_i (rt_addr),
        .wdata_i(rt_wdata),
        .route_o(route)
      );
    end else begin : g_no_line
      assign line_rdata = {OUT_W{1'b0}};
      assign route      = {(RT_N*RE){1'b0}};
      wire unused_line = ^{line_raddr, line_waddr, line_wdata, rt_we, rt_addr, rt_wdata};
    end
  endgenerate

  wire [IF_W-1:0]  if_rdata  = if_rdata_b[if_bank & (BANKS > 1)];
  wire [WT_W-1:0]  wt_rdata  = wt_rdata_b[wt_bank & (BANKS > 1)];
  // the read data come a cycle after the read, from the bank read then
  reg psm_rbank_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) psm_rbank_q <= 1'b0;
    else         psm_rbank_q <= psm_rbank;
  end
  wire [OUT_W-1:0] psm_rdata = out_rdata_b[psm_rbank_q & (BANKS > 1)];
  assign hp_rdata_o = out_rdata_b[hp_rbank_q & (BANKS > 1)];

  // Host-port bytes: a written word, or a read's first READ_LANES lanes (0: all of them).
  sagen_hp_bytes #(
    .COLS    (COLS),
    .ACC_BITS(ACC_BITS),
    .IF_W    (IF_W),
    .WT_W    (WT_W)
  ) u_hp_bytes (
    .we_i        (hp_we_i),
    .mem_i       (hp_mem_i),
    .re_i        (hp_re_i),
    .read_lanes_i(read_lanes),
    .bytes_o     (ev_hp_bytes)
  );

  // ---- feeder and weights -------------------------------------------------------------------
  wire                    f_ready, f_idle, w_ready;
  wire [LANES*IN_BITS-1:0] f_head;
  wire [LANES-1:0]        f_head_last;
  wire [WT_W-1:0]         w_head;
  wire                    g_adv, pop, zstep, ctx_end;   // the array edge (sagen_step_ctrl)
  wire                    f_dbg_rd_vld, f_dbg_word_vld;
  wire [LANES-1:0]        f_dbg_lane_done, f_dbg_lane_nonempty;

  // a padding position: zero, or in floating point "no operand" (sagen_fp_mul: its product is
  // -0, the identity of the sum, so padding adds nothing)
  localparam [63:0] PAD = (FP != 0) ? ((((64'd1 << IEW) - 64'd1) << IFW) | 64'd1) : 64'd0;
  sagen_feeder #(
    .LANES   (LANES),
    .BUS     (BUS),
    .LG_BUS  (LG_BUS),
    .IN_BITS (IN_BITS),
    .M       (M),
    .DEPTH   (FIFO_DEPTH),
    .AW      (IF_AW),
    .XW      (XW),
    .SW      (SW),
    .PAT_BITS(PAT_BITS),
    .PAD     (PAD)
  ) u_feeder (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (f_start),
    .run_i        (f_run),
    .lanes_i      (fd_lanes),
    .n_ch_i       (fd_n_ch[15:0]),
    .n_kr_i       (fd_n_kr),
    .n_ctx_i      (fd_n_ctx[15:0]),
    .n_kg_i       (fd_n_kg),
    .plane_i      (fd_plane[XW-1:0]),
    .kr_step_i    (fd_kr_step[XW-1:0]),
    .oy_step_i    (fd_oy_step[XW-1:0]),
    .ctx_xs_i     (fd_ctx_xs[XW-1:0]),
    .ctx_py_i     (fd_ctx_py[XW-1:0]),
    .ctx_y_i      (fd_ctx_y),
    .ow_xs_i      (fd_ow_xs[XW-1:0]),
    .last_xs_i    (fd_last_xs[XW-1:0]),
    .last_dseg_i  (fd_last_seg[SW-1:0]),
    .oh_last_i    (fd_oh_last),
    .ctx_rows_i   (fd_ctx_rows),
    .base_i       (fd_base[XW-1:0]),
    .dil_h_i      (fd_dil_h),
    .str_h_i      (fd_str_h),
    .str_w_i      (fd_str_w),
    .pad_t_i      (fd_pad_t),
    .pad_l_i      (fd_pad_l),
    .tile_h_i     (fd_tile_h),
    .tile_w_i     (fd_tile_w),
    .taps_i       (fd_taps),
    .tap_gap_i    (fd_tap_gap),
    .lin_i        (fd_lin),
    .sram_re_o    (if_re),
    .sram_addr_o  (if_raddr),
    .sram_rdata_i (if_rdata),
    .pop_i        (pop),
    .ready_o      (f_ready),
    .head_o       (f_head),
    .head_last_o  (f_head_last),
    .idle_o       (f_idle),
    .ev_pad_word_o(ev_pad_word),
    .dbg_rd_vld_o       (f_dbg_rd_vld),
    .dbg_word_vld_o     (f_dbg_word_vld),
    .dbg_lane_done_o    (f_dbg_lane_done),
    .dbg_lane_nonempty_o(f_dbg_lane_nonempty)
  );

  sagen_weight_fetcher #(
    .COLS  (COLS),
    .W_BITS(W_BITS),
    .AW    (WT_AW)
  ) u_weight_fetcher (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (ops_go),
    .len_i       (d_len),
    .n_ctx_i     (d_n_ctx),
    .n_kg_i      (d_n_kg),
    .k_act_i     (d_k_act[15:0]),
    .grp_w_i     (grp_w),
    .col_j_i     (col_j),
    .sram_re_o   (wt_re),
    .sram_addr_o (wt_raddr),
    .sram_rdata_i(wt_rdata),
    .pop_i       (pop),
    .ready_o     (w_ready),
    .head_o      (w_head)
  );

  // ---- tap sequencer: the dense tap sequence of every context ---------------------------------
  // Contexts are the outer pixels of its walk (n_kg groups of n_ctx), the taps its reduction
  // (channels x kernel rows x kernel columns). In zero_fill mode it walks every dense tap and
  // finds the non-zero ones as the taps at offset + i * gap, i < non-zero taps (the NZ
  // detection of BP-im2col); otherwise it walks the non-zero taps only. The core reads no
  // address from it (the feed lanes and the weight fetcher address the operands), nor its
  // last_o: its address is TAP_AW = 1 bit wide, the least the block takes.
  localparam integer TAP_AW = 1;
  wire              g_vld, g_nz, g_last, g_busy, g_walk_last;
  wire [TAP_AW-1:0] g_addr;
  sagen_nz_addr_gen #(.AW(TAP_AW)) u_tap_seq (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (go),
    .n_pb_i      (n_walk),
    .n_py_i      (16'd1),
    .n_px_i      (16'd1),
    .n_ch_i      (d_n_ch[15:0]),
    .n_r_i       (zero_fill ? d_dn_r : d_nz_r),
    .n_s_i       (zero_fill ? d_dn_s : d_nz_s),
    .dil_h_i     (16'd1),
    .dil_w_i     (16'd1),
    .off_h_i     (zero_fill ? d_off_h : 16'd0),
    .off_w_i     (zero_fill ? d_off_w : 16'd0),
    .str_h_i     (zero_fill ? d_gap_h : 16'd1),
    .str_w_i     (zero_fill ? d_gap_w : 16'd1),
    .hs_i        (d_nz_r),
    .ws_i        (d_nz_s),
    .pitch_i     (32'd0),
    .pb_stride_i (32'd0),
    .ch_stride_i (32'd0),
    .base_i      (32'd0),
    .adv_i       (g_adv),
    .busy_o      (g_busy),
    .vld_o       (g_vld),
    .nz_o        (g_nz),
    .addr_o      (g_addr),
    .tap_last_o  (g_last),
    .last_o      (g_walk_last)
  );

  // ---- array edge: step, bubbles, drain, and the sequence check --------------------------------
  // sagen_step_ctrl: whether the presented tap enters the array, where each busy cycle went, the
  // pass's end, and the cross-check of the sequencer's context ends with the feed lanes' marks
  // (a disagreement sets STATUS.sequence).
  wire too_soon;
  sagen_step_ctrl #(.ROWS(ROWS), .MIN_GAP((FP != 0) ? 18 : 1)) u_step_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .go_i         (go),
    .busy_i       (busy),
    .no_ops_i     (no_ops),
    .tap_vld_i    (g_vld),
    .tap_nz_i     (g_nz),
    .tap_last_i   (g_last),
    .tap_busy_i   (g_busy),
    .f_ready_i    (f_ready),
    .f_idle_i     (f_idle),
    .f_ahead_i    (f_ahead),
    .f_head_last_i(f_head_last[0]),
    .w_ready_i    (w_ready),
    .psm_done_i   (psm_idle),
    .chain_i      (chain && !psm_q),
    .adv_o        (g_adv),
    .pop_o        (pop),
    .zstep_o      (zstep),
    .ctx_end_o    (ctx_end),
    .too_soon_o   (too_soon),
    .pass_end_o   (pass_end),
    .feed_free_o  (feed_free),
    .ev_bubble_o  (ev_bubble),
    .ev_fill_o    (ev_fill),
    .ev_stall_o   (ev_stall),
    .ev_drain_o   (ev_drain),
    .seq_err_o    (seq_err)
  );
  assign ev_step_valid = pop;
  assign ev_zero_step  = zstep;

  // Useful MACs, PEs fed created zeros and zero-space operands skipped, context by context.
  sagen_mac_count #(
    .LANES(LANES),
    .COLS (COLS)
  ) u_mac_count (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .go_i        (go),
    .n_ctx_i     (d_n_ctx[15:0]),
    .npix_i      (d_npix),
    .k_act_i     (d_k_act[15:0]),
    .lanes_i     (lanes_rt[LW-1:0]),
    .grp_w_i     (grp_w[CW-1:0]),
    .ow_real_i   (d_ow_real),
    .ow_virt_i   (d_ow_virt),
    .zero_fill_i (zero_fill),
    .n_ch_i      (d_n_ch[15:0]),
    .dn_r_i      (d_dn_r),
    .dn_s_i      (d_dn_s),
    .pop_i       (pop),
    .zstep_i     (zstep),
    .ctx_end_i   (ctx_end),
    .ev_macs_o   (ev_macs),
    .ev_zero_pe_o(ev_zero_pe),
    .ev_zskip_o  (ev_zskip)
  );

  // DEBUG register: what each block is waiting for, for a host that sees no progress (its bits:
  // DEBUG_* of docs/regmap.md).
  reg [7:0]  first_empty, first_busy;
  reg [31:0] debug_v;
  integer l;
  always @* begin
    first_empty = 8'hFF;
    first_busy  = 8'hFF;
    for (l = LANES - 1; l >= 0; l = l - 1) begin
      if (!f_dbg_lane_nonempty[l]) first_empty = l[7:0];
      if (!f_dbg_lane_done[l])     first_busy  = l[7:0];
    end
    debug_v = 32'd0;
    debug_v[DEBUG_BUSY]         = busy;
    debug_v[DEBUG_F_READY]      = f_ready;
    debug_v[DEBUG_F_IDLE]       = f_idle;
    debug_v[DEBUG_W_READY]      = w_ready;
    debug_v[DEBUG_PSM_DONE]     = psm_done;
    debug_v[DEBUG_TOO_SOON]     = too_soon;
    debug_v[DEBUG_TAP_VLD]      = g_vld;
    debug_v[DEBUG_TAP_NZ]       = g_nz;
    debug_v[DEBUG_TAP_PROLOGUE] = g_busy && !g_vld;
    debug_v[DEBUG_IC_VLD]       = f_dbg_rd_vld;
    debug_v[DEBUG_WORD_VLD]     = f_dbg_word_vld;
    debug_v[DEBUG_LANES_DONE]   = &f_dbg_lane_done;
    debug_v[DEBUG_ALIVE]        = 1'b1;
    debug_v[DEBUG_FIRST_EMPTY +: DEBUG_FIRST_EMPTY_W] = first_empty;
    debug_v[DEBUG_FIRST_BUSY +: DEBUG_FIRST_BUSY_W]   = first_busy;
  end
  assign debug = debug_v;

  // ---- feed registers (row skew), weight skew, array ------------------------------------------
  // Every row and column is delayed one register more than its skew: the array edge's decision
  // (g_adv, ctx_end, pop, made from the feed lanes', the weight fetcher's and the tap
  // sequencer's state) reaches the PEs of row 0 and column 0, whose multipliers take their
  // operands straight from the edge, from a flip-flop rather than through that logic. The
  // results come a cycle later: a cycle of each pass's drain.
  wire [LANES*IN_BITS-1:0] a_sk;
  wire [LANES-1:0]        a_vld_sk, a_last_sk;
  wire [WT_W-1:0]         b_sk;
  genvar r, c;
  generate
    for (r = 0; r < LANES; r = r + 1) begin : g_feed_reg
      sagen_skew #(.WIDTH(IN_BITS + 2), .DEPTH(r % ROWS + 1)) u_skew (
        .clk_i (clk_i),
        .rst_ni(rst_ni),
        .en_i  (1'b1),
        .d_i   ({g_adv, ctx_end, pop ? f_head[r*IN_BITS +: IN_BITS] : {IN_BITS{1'b0}}}),
        .q_o   ({a_vld_sk[r], a_last_sk[r], a_sk[r*IN_BITS +: IN_BITS]})
      );
    end
    for (c = 0; c < COLS; c = c + 1) begin : g_weight_reg
      if (GROUPS == 1) begin : g_fixed
        sagen_skew #(.WIDTH(W_BITS), .DEPTH(c + 1)) u_skew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (1'b1),
          .d_i   (pop ? w_head[c*W_BITS +: W_BITS] : {W_BITS{1'b0}}),
          .q_o   (b_sk[c*W_BITS +: W_BITS])
        );
      end else begin : g_tapped
        // skewed by the column's place in its group, like the group's lanes meet it (after the
        // edge register)
        wire [W_BITS-1:0] b_edge;
        sagen_skew #(.WIDTH(W_BITS), .DEPTH(1)) u_edge (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (1'b1),
          .d_i   (pop ? w_head[c*W_BITS +: W_BITS] : {W_BITS{1'b0}}),
          .q_o   (b_edge)
        );
        sagen_skew_tap #(.WIDTH(W_BITS), .DEPTH(c)) u_skew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (1'b1),
          .tap_i (col_j[c*16 +: 16]),
          .d_i   (b_edge),
          .q_o   (b_sk[c*W_BITS +: W_BITS])
        );
      end
    end
  endgenerate

  wire [OUT_W-1:0] res;
  wire [COLS-1:0]  res_vld;
  sagen_array #(
    .ROWS    (ROWS),
    .COLS    (COLS),
    .IN_BITS (IN_BITS),
    .W_BITS  (W_BITS),
    .ACC_BITS(ACC_BITS),
    .GROUPS  (GROUPS),
    .FP      (FP),
    .IEW     (IEW),
    .IFW     (IFW),
    .AEW     (AEW),
    .AFW     (AFW)
  ) u_array (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .a_i      (a_sk),
    .a_vld_i  (a_vld_sk),
    .a_last_i (a_last_sk),
    .inj_i    (inj),
    .b_i      (b_sk),
    .res_o    (res),
    .res_vld_o(res_vld)
  );

  sagen_psum_manager #(
    .ROWS    (ROWS),
    .COLS    (COLS),
    .ACC_BITS(ACC_BITS),
    .AW      (OUT_AW),
    .GROUPS  (GROUPS),
    .LINE_WORDS(LINE_WORDS),
    .LINE_AW (LINE_AW),
    .RT_KGS  (RT_KGS),
    .LB      (LB),
    .FP      (FP),
    .AEW     (AEW),
    .AFW     (AFW)
  ) u_psum_manager (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (psm_start),
    .accumulate_i(accumulate),
    .bank_i      (desc[D_OUT_BANK]),
    .n_ctx_i     (d_n_ctx),
    .npix_i      (d_npix),
    .n_kg_i      (d_n_kg),
    .lanes_i     (lanes_rt),
    .kg_words_i  (kg_words),
    .dtap_i      (dtap),
    .c2i_i       (c2i),
    .line_first_i(desc[D_LINE_FIRST]),
    .line_acc_i  (desc[D_LINE_ACC]),
    .line_kg0_i  (desc[D_LINE_KG0 +: D_LINE_KG0_W]),
    .owv_i       (d_ow_virt),
    .route_i     (route),
    .line_re_o   (line_re),
    .line_raddr_o(line_raddr),
    .line_rdata_i(line_rdata),
    .line_we_o   (line_we),
    .line_waddr_o(line_waddr),
    .line_wdata_o(line_wdata),
    .step_i      (1'b1),
    .res_i       (res),
    .res_vld_i   (res_vld),
    .sram_re_o   (out_re),
    .sram_raddr_o(out_raddr),
    .sram_rbank_o(psm_rbank),
    .sram_rdata_i(psm_rdata),
    .sram_we_o   (out_we),
    .sram_waddr_o(out_waddr),
    .sram_wbank_o(psm_wbank),
    .sram_wdata_o(out_wdata),
    .free_o      (psm_free),
    .pass_done_o (psm_pdone),
    .done_o      (psm_done)
  );

  // Descriptor bits this configuration does not use.
  wire unused_desc = ^{hp_wdata_i, hp_addr_i, d_n_ch[31:16], g_addr, g_walk_last,
                       f_head_last};
  // the positions' bits past the feeder's XW (the controller refuses a descriptor that uses them)
  wire unused_pos = ^{fd_plane, fd_kr_step, fd_oy_step, fd_ctx_xs, fd_ow_xs, fd_base, fd_last_xs,
                      fd_ctx_py, fd_last_seg, fd_n_ch, fd_n_ctx, fdesc, desc};

endmodule

`resetall
