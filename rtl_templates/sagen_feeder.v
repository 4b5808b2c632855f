// sagen_feeder: the on-the-fly im2col data feeder (index counters, one read word stage shared
// by all lanes, ROWS feed lanes). It reads every word of a context's interest region once and
// lets each lane pick the elements its output pixel needs. The array side sees one FIFO head per
// lane; the array pops all heads together. Lanes from lanes_i on sit out the pass (an array with
// column groups has a lane per row and group; a pass with fewer groups uses fewer): they take
// nothing, and read as done and ready. The feed registers (row skew) follow in sagen_core.
`default_nettype none

module sagen_feeder #(
  parameter integer ROWS     = 4,   // feed lanes (array rows x column groups)
  parameter integer BUS      = 16,  // elements per bus word
  parameter integer LG_BUS   = 4,   // log2(BUS)
  parameter integer IN_BITS  = 8,   // bits per element
  parameter integer M        = 3,   // intermediate registers per lane
  parameter integer PAT_BITS = 64,  // kernel pattern width
  parameter integer DEPTH    = 4,   // lane FIFO depth
  parameter integer AW       = 10   // ifmap SRAM address bits
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  input  wire                    start_i,
  input  wire [15:0]             lanes_i,     // lanes in use this pass (the first lanes_i)
  // pass descriptor (see sagen_index_counters)
  input  wire [31:0]             n_ch_i,
  input  wire [15:0]             n_kr_i,
  input  wire [31:0]             n_ctx_i,
  input  wire [15:0]             n_kg_i,
  input  wire [31:0]             plane_i,
  input  wire [31:0]             kr_step_i,
  input  wire [31:0]             oy_step_i,
  input  wire [31:0]             ctx_xs_i,
  input  wire [31:0]             ctx_py_i,
  input  wire [15:0]             ctx_y_i,
  input  wire [31:0]             ow_xs_i,
  input  wire [31:0]             last_xs_i,
  input  wire [15:0]             last_dseg_i,
  input  wire [15:0]             oh_last_i,
  input  wire [15:0]             ctx_rows_i,
  input  wire [31:0]             base_i,
  input  wire [15:0]             dil_h_i,
  input  wire [15:0]             str_h_i,
  input  wire [15:0]             str_w_i,
  input  wire [15:0]             pad_t_i,
  input  wire [15:0]             pad_l_i,
  input  wire [15:0]             tile_h_i,
  input  wire [15:0]             tile_w_i,
  input  wire [15:0]             kspan_i,
  input  wire [PAT_BITS-1:0]     pat_i,
  input  wire [15:0]             pat_top_i,
  input  wire                    lin_i,       // linear contexts (see sagen_index_counters)
  // ifmap SRAM read port
  output wire                    sram_re_o,
  output wire [AW-1:0]           sram_addr_o,
  input  wire [BUS*IN_BITS-1:0]  sram_rdata_i,
  // array side
  input  wire                    pop_i,
  output wire                    ready_o,     // every lane has an element
  output wire [ROWS*IN_BITS-1:0] head_o,
  output wire [ROWS-1:0]         head_last_o,
  output wire                    idle_o,      // the pass's elements have all left the lanes
  // performance events
  output wire                    ev_pad_word_o, // a word of padding only, not read
  // state for the DEBUG register
  output wire                    dbg_rd_vld_o,     // the index counters present a word
  output wire                    dbg_word_vld_o,   // the word stage holds a word
  output wire [ROWS-1:0]         dbg_lane_done_o,  // lanes done with the staged word
  output wire [ROWS-1:0]         dbg_lane_nonempty_o
);

  wire           ic_vld, ic_rd, ic_last, ic_ctx_last, ic_grp_last;
  wire [AW-1:0]  ic_addr;
  wire [BUS-1:0] ic_mask;
  wire [31:0]    ic_rel;
  wire [15:0]    ic_seg;

  reg            b_vld_q;
  reg [BUS-1:0]  b_mask_q;
  reg [31:0]     b_rel_q;
  reg [15:0]     b_seg_q;
  reg            b_last_q, b_ctx_last_q, b_grp_last_q;

  wire [ROWS-1:0] lane_done;
  wire [ROWS-1:0] lane_nonempty;
  wire [ROWS-1:0] lane_on;         // in use this pass
  wire [ROWS-1:0] on_done  = lane_done | ~lane_on;
  wire [ROWS-1:0] on_ready = lane_nonempty | ~lane_on;
  wire all_done = &on_done;
  wire adv_b    = b_vld_q && all_done;
  wire accept   = !b_vld_q || adv_b;
  wire ctx_adv  = adv_b && b_ctx_last_q && !b_grp_last_q;  // next context of the group
  wire ctx_rst  = start_i || (adv_b && b_grp_last_q);      // first context of a group

  sagen_index_counters #(
    .BUS   (BUS),
    .LG_BUS(LG_BUS),
    .AW    (AW)
  ) u_index_counters (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (start_i),
    .n_ch_i     (n_ch_i),
    .n_kr_i     (n_kr_i),
    .n_ctx_i    (n_ctx_i),
    .n_kg_i     (n_kg_i),
    .plane_i    (plane_i),
    .kr_step_i  (kr_step_i),
    .oy_step_i  (oy_step_i),
    .ctx_xs_i   (ctx_xs_i),
    .ctx_py_i   (ctx_py_i),
    .ctx_y_i    (ctx_y_i),
    .ow_xs_i    (ow_xs_i),
    .last_xs_i  (last_xs_i),
    .last_dseg_i(last_dseg_i),
    .oh_last_i  (oh_last_i),
    .ctx_rows_i (ctx_rows_i),
    .base_i     (base_i),
    .dil_h_i    (dil_h_i),
    .str_h_i    (str_h_i),
    .str_w_i    (str_w_i),
    .pad_t_i    (pad_t_i),
    .pad_l_i    (pad_l_i),
    .tile_h_i   (tile_h_i),
    .tile_w_i   (tile_w_i),
    .kspan_i    (kspan_i),
    .lin_i      (lin_i),
    .adv_i      (accept),
    .vld_o      (ic_vld),
    .rd_o       (ic_rd),
    .addr_o     (ic_addr),
    .mask_o     (ic_mask),
    .rel_o      (ic_rel),
    .seg_o      (ic_seg),
    .pass_last_o(ic_last),
    .ctx_last_o (ic_ctx_last),
    .grp_last_o (ic_grp_last)
  );

  assign sram_re_o     = accept && ic_rd;
  assign sram_addr_o   = ic_addr;
  assign ev_pad_word_o = accept && ic_vld && !ic_rd;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_vld_q      <= 1'b0;
      b_mask_q     <= {BUS{1'b0}};
      b_rel_q      <= 32'd0;
      b_seg_q      <= 16'd0;
      b_last_q     <= 1'b0;
      b_ctx_last_q <= 1'b0;
      b_grp_last_q <= 1'b0;
    end else if (start_i) begin
      b_vld_q      <= 1'b0;
    end else if (accept) begin
      b_vld_q      <= ic_vld;
      b_mask_q     <= ic_mask;
      b_rel_q      <= ic_rel;
      b_seg_q      <= ic_seg;
      b_last_q     <= ic_last;
      b_ctx_last_q <= ic_ctx_last;
      b_grp_last_q <= ic_grp_last;
    end
  end

  // Positions without real data read as zero (padding, or not read at all).
  reg [BUS*IN_BITS-1:0] word;
  integer i;
  always @* begin
    for (i = 0; i < BUS; i = i + 1) begin
      word[i*IN_BITS +: IN_BITS] = b_mask_q[i] ? sram_rdata_i[i*IN_BITS +: IN_BITS]
                                               : {IN_BITS{1'b0}};
    end
  end

  // Lane 0's x in the context of the word stage (every lane's local offset is relative to it).
  reg  [31:0] xs0_q;
  wire [31:0] xs0_n = xs0_q + ctx_xs_i;
  wire        wrap0 = (xs0_n >= ow_xs_i);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      xs0_q <= 32'd0;
    else if (ctx_rst) xs0_q <= 32'd0;
    else if (ctx_adv) xs0_q <= wrap0 ? xs0_n - ow_xs_i : xs0_n;
  end

  // Lane 0's output row in the tile in the context of the word stage (the index counters keep
  // their own, a context ahead), and the rows below it that the tile still has: a lane further
  // down than that (past the tile's end) takes lane 0's elements.
  reg  [15:0] orow0_q;
  wire [15:0] rows_left = oh_last_i - orow0_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      orow0_q <= 16'd0;
    else if (ctx_rst) orow0_q <= 16'd0;
    else if (ctx_adv) orow0_q <= orow0_q + ctx_rows_i + {15'd0, wrap0};
  end

  // Pixel of each lane in the first context: lane l is pixel l of the tile, row-major.
  reg [ROWS*32-1:0] xs_init;
  reg [ROWS*16-1:0] dg_init;
  reg [31:0]        xs_t;
  reg [15:0]        dg_t;
  always @* begin
    xs_t = 32'd0;
    dg_t = 16'd0;
    for (i = 0; i < ROWS; i = i + 1) begin
      xs_init[i*32 +: 32] = xs_t;
      dg_init[i*16 +: 16] = dg_t;
      xs_t = xs_t + {16'd0, str_w_i};
      if (xs_t >= ow_xs_i) begin
        xs_t = xs_t - ow_xs_i;
        dg_t = dg_t + 16'd1;
      end
    end
  end

  genvar l;
  generate
    for (l = 0; l < ROWS; l = l + 1) begin : g_lane
      localparam [31:0] L32 = l;
      assign lane_on[l] = (L32 < {16'd0, lanes_i});
      sagen_feed_lane #(
        .BUS     (BUS),
        .IN_BITS (IN_BITS),
        .M       (M),
        .PAT_BITS(PAT_BITS),
        .DEPTH   (DEPTH)
      ) u_lane (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .word_vld_i (b_vld_q && lane_on[l]),
        .word_i     (word),
        .word_rel_i (b_rel_q),
        .word_adv_i (adv_b),
        .word_seg_i (b_seg_q),
        .pass_last_i(b_last_q),
        .pat_i      (pat_i),
        .pat_top_i  ({16'd0, pat_top_i}),
        .start_i    (ctx_rst),
        .xs_init_i  (xs_init[l*32 +: 32]),
        .dg_init_i  (dg_init[l*16 +: 16]),
        .rows_left_i(rows_left),
        .ctx_adv_i  (ctx_adv),
        .ctx_xs_i   (ctx_xs_i),
        .ow_xs_i    (ow_xs_i),
        .xs0_i      (xs0_q),
        .wrap0_i    (wrap0),
        .lin_i      (lin_i),
        .lane_i     (L32),
        .pad_l_i    (pad_l_i),
        .tile_w_i   (tile_w_i),
        .pop_i      (pop_i && lane_on[l]),
        .done_o     (lane_done[l]),
        .nonempty_o (lane_nonempty[l]),
        .head_o     (head_o[l*IN_BITS +: IN_BITS]),
        .head_last_o(head_last_o[l])
      );
    end
  endgenerate

  assign ready_o = &on_ready;
  assign dbg_rd_vld_o        = ic_vld;
  assign dbg_word_vld_o      = b_vld_q;
  assign dbg_lane_done_o     = on_done;
  assign dbg_lane_nonempty_o = on_ready;
  assign idle_o  = !ic_vld && !b_vld_q && !(|(lane_nonempty & lane_on));

endmodule

`resetall
