// tb_feed_lane: sagen_feed_lane against the vectors of model_feed_lane.c (format there).
// Inputs change just after the falling edge; done_o (combinational) is checked 1 unit later,
// in the same cycle, while a word is presented; nonempty_o, and head_o/head_last_o while the
// FIFO is not empty, are checked 1 unit after the rising edge.
`default_nettype none

module tb_feed_lane;
  parameter integer LANE     = 0;
  parameter integer BUS      = 8;
  parameter integer IN_BITS  = 8;
  parameter integer M        = 3;
  parameter integer PAT_BITS = 16;
  parameter integer DEPTH    = 4;
  localparam BLOCK = "sagen_feed_lane";

  `include "tb_common.vh"

  reg                       rst_n = 1'b0, word_vld = 1'b0, word_adv = 1'b0, pass_last = 1'b0;
  reg                       pop = 1'b0;
  reg  [BUS*IN_BITS-1:0]    word = {(BUS*IN_BITS){1'b0}};
  reg  [31:0]               word_rel = 32'd0, pat_top = 32'd0, stride = 32'd1;
  reg  [PAT_BITS-1:0]       pat = {PAT_BITS{1'b0}};
  wire                      done, nonempty, head_last;
  wire [IN_BITS-1:0]        head;

  sagen_feed_lane #(.LANE(LANE), .BUS(BUS), .IN_BITS(IN_BITS), .M(M), .PAT_BITS(PAT_BITS),
                    .DEPTH(DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .word_vld_i(word_vld), .word_i(word), .word_rel_i(word_rel), .word_adv_i(word_adv),
    .pass_last_i(pass_last), .pat_i(pat), .pat_top_i(pat_top), .stride_w_i(stride),
    .pop_i(pop), .done_o(done), .nonempty_o(nonempty), .head_o(head),
    .head_last_o(head_last)
  );

  integer p_lane, p_bus, p_m, p_depth, p_pat, ncyc;
  reg [63:0] v_wv, v_rel, v_pl, v_adv, v_pop, v_pat, v_top, v_str;
  reg [BUS*IN_BITS-1:0] v_data;
  reg [63:0] e_done, e_ne, e_head, e_last;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d %d", p_lane, p_bus, p_m, p_depth, p_pat, ncyc);
    if (nread != 6) vec_error("header");
    if (p_lane != LANE || p_bus != BUS || p_m != M || p_depth != DEPTH || p_pat != PAT_BITS ||
        IN_BITS != 8)
      vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h", v_wv, v_rel, v_data, v_pl,
                      v_adv, v_pop, v_pat, v_top, v_str, e_done, e_ne, e_head, e_last);
      if (nread != 13) vec_error("cycle line");
      #1;
      word_vld = v_wv[0]; word_rel = v_rel[31:0]; word = v_data; pass_last = v_pl[0];
      word_adv = v_adv[0]; pop = v_pop[0]; pat = v_pat[PAT_BITS-1:0]; pat_top = v_top[31:0];
      stride = v_str[31:0];
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
