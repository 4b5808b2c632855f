// tb_feed_lane: sagen_feed_lane against the vectors of model_feed_lane.c (format there).
// Inputs change just after the falling edge; done_o (combinational) is checked 1 unit later,
// in the same cycle, while a word is presented; nonempty_o, and head_o/head_last_o while the
// FIFO is not empty, are checked 1 unit after the rising edge.
`default_nettype none

module tb_feed_lane;
  parameter integer BUS      = 8;
  parameter integer IN_BITS  = 8;
  parameter integer M        = 3;
  parameter integer PAT_BITS = 16;
  parameter integer DEPTH    = 4;
  localparam BLOCK = "sagen_feed_lane";

  `include "tb_common.vh"

  reg                       rst_n = 1'b0, word_vld = 1'b0, word_adv = 1'b0, pass_last = 1'b0;
  reg                       pop = 1'b0, start = 1'b0, ctx_adv = 1'b0, wrap0 = 1'b0;
  reg  [BUS*IN_BITS-1:0]    word = {(BUS*IN_BITS){1'b0}};
  reg  [31:0]               word_rel = 32'd0, pat_top = 32'd0;
  reg  [15:0]               word_seg = 16'd0, dg_init = 16'd0;
  reg  [31:0]               xs_init = 32'd0, ctx_xs = 32'd0, ow_xs = 32'd1, xs0 = 32'd0;
  reg  [PAT_BITS-1:0]       pat = {PAT_BITS{1'b0}};
  reg                       lin = 1'b0;
  reg  [31:0]               lane = 32'd0;
  reg  [15:0]               pad_l = 16'd0, tile_w = 16'd0;
  reg  [15:0]               rows_left = 16'd0;
  wire                      done, nonempty, head_last;
  wire [IN_BITS-1:0]        head;

  sagen_feed_lane #(.BUS(BUS), .IN_BITS(IN_BITS), .M(M), .PAT_BITS(PAT_BITS),
                    .DEPTH(DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .word_vld_i(word_vld), .word_i(word), .word_rel_i(word_rel), .word_adv_i(word_adv),
    .word_seg_i(word_seg), .pass_last_i(pass_last), .pat_i(pat), .pat_top_i(pat_top),
    .start_i(start), .xs_init_i(xs_init), .dg_init_i(dg_init), .rows_left_i(rows_left),
    .ctx_adv_i(ctx_adv),
    .ctx_xs_i(ctx_xs), .ow_xs_i(ow_xs), .xs0_i(xs0), .wrap0_i(wrap0),
    .lin_i(lin), .lane_i(lane), .pad_l_i(pad_l), .tile_w_i(tile_w),
    .pop_i(pop), .done_o(done), .nonempty_o(nonempty), .head_o(head),
    .head_last_o(head_last)
  );

  integer p_bus, p_m, p_depth, p_pat, ncyc;
  reg [63:0] v_wv, v_rel, v_seg, v_pl, v_adv, v_pop, v_start, v_cadv, v_xs0, v_wrap0;
  reg [63:0] v_pat, v_top, v_xsi, v_dgi, v_cxs, v_owxs, v_lin, v_lane, v_padl, v_tilew;
  reg [63:0] v_rl;
  reg [BUS*IN_BITS-1:0] v_data;
  reg [63:0] e_done, e_ne, e_head, e_last;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d", p_bus, p_m, p_depth, p_pat, ncyc);
    if (nread != 5) vec_error("header");
    if (p_bus != BUS || p_m != M || p_depth != DEPTH || p_pat != PAT_BITS || IN_BITS != 8)
      vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h",
                      v_wv, v_rel, v_seg, v_data, v_pl, v_adv, v_pop, v_start, v_cadv, v_xs0,
                      v_wrap0, v_pat, v_top, v_xsi, v_dgi, v_cxs, v_owxs);
      if (nread != 17) vec_error("cycle line");
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h", v_lin, v_lane, v_padl, v_tilew, v_rl,
                      e_done, e_ne, e_head, e_last);
      if (nread != 9) vec_error("cycle line");
      #1;
      word_vld = v_wv[0]; word_rel = v_rel[31:0]; word_seg = v_seg[15:0]; word = v_data;
      pass_last = v_pl[0]; word_adv = v_adv[0]; pop = v_pop[0];
      start = v_start[0]; ctx_adv = v_cadv[0]; xs0 = v_xs0[31:0]; wrap0 = v_wrap0[0];
      pat = v_pat[PAT_BITS-1:0]; pat_top = v_top[31:0];
      xs_init = v_xsi[31:0]; dg_init = v_dgi[15:0]; ctx_xs = v_cxs[31:0]; ow_xs = v_owxs[31:0];
      lin = v_lin[0]; lane = v_lane[31:0]; pad_l = v_padl[15:0]; tile_w = v_tilew[15:0];
      rows_left = v_rl[15:0];
      #1;
      if (v_wv[0]) chk("done_o", done, e_done);
      @(posedge clk);
      #1;
      chk("nonempty_o", nonempty, e_ne);
      if (e_ne[0]) begin
        chk("head_o", head, e_head);
        chk("head_last_o", head_last, e_last);
      end
    end
    summary;
  end
endmodule

`resetall
