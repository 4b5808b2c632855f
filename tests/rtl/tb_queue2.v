// tb_queue2: sagen_queue2 against the vectors of model_queue2.c (file format there). Inputs
// change just after the falling edge; vld_o and room_o are checked 1 unit after the rising
// edge, q_o where the head is valid; with RESET_DATA, also that q_o is zero (not X) while the
// reset is held.
`default_nettype none

module tb_queue2;
  parameter integer W = 8;
  parameter integer RESET_DATA = 0;
  localparam BLOCK = "sagen_queue2";

  `include "tb_common.vh"

  reg          rst_n = 1'b0, flush = 1'b0, push = 1'b0, pop = 1'b0;
  reg  [W-1:0] d = {W{1'b0}};
  wire         room, vld;
  wire [W-1:0] q;

  sagen_queue2 #(.W(W), .RESET_DATA(RESET_DATA)) dut (
    .clk_i(clk), .rst_ni(rst_n), .flush_i(flush), .push_i(push), .d_i(d), .room_o(room),
    .pop_i(pop), .vld_o(vld), .q_o(q)
  );

  integer p_w, ncyc;
  reg [63:0] v_rst, v_flush, v_push, v_d, v_pop, e_vld, e_room, e_q;
  wire unused_v = ^{v_rst[63:1], v_flush[63:1], v_push[63:1], v_d[63:W], v_pop[63:1]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d", p_w, ncyc);
    if (nread != 2) vec_error("header");
    if (p_w != W) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h", v_rst, v_flush, v_push, v_d, v_pop, e_vld,
                      e_room, e_q);
      if (nread != 8) vec_error("cycle line");
      #1;
      rst_n = v_rst[0]; flush = v_flush[0]; push = v_push[0]; d = v_d[W-1:0]; pop = v_pop[0];
      @(posedge clk);
      #1;
      chk("vld_o", {63'd0, vld}, e_vld);
      chk("room_o", {63'd0, room}, e_room);
      if (e_vld[0]) chk("q_o", {{(64-W){1'b0}}, q}, e_q);
      if (RESET_DATA != 0 && !rst_n) chk("q_o in reset", {{(64-W){1'b0}}, q}, 64'd0);
    end
    summary;
  end
endmodule

`resetall
