// tb_step_ctrl: sagen_step_ctrl against the vectors of model_step_ctrl.c (file format there).
// Inputs change just after the falling edge; the outputs (combinational on the inputs and the
// block's state) are checked 1 unit later, before the rising edge that updates the state.
`default_nettype none

module tb_step_ctrl;
  parameter integer ROWS = 4;
  parameter integer MIN_GAP = 1;
  localparam BLOCK = "sagen_step_ctrl";

  `include "tb_common.vh"

  reg  rst_n = 1'b0, go = 1'b0, busy = 1'b0, no_ops = 1'b0, vld = 1'b0, nz = 1'b0;
  reg  last = 1'b0, tbusy = 1'b0, f_ready = 1'b0, f_idle = 1'b0, f_ahead = 1'b0;
  reg  head_last = 1'b0, w_ready = 1'b0, psm_done = 1'b0, chain = 1'b0;
  wire adv, pop, zstep, ctx_end, too_soon, pass_end, feed_free;
  wire bubble, fill, stall, drain, seq_err;

  sagen_step_ctrl #(.ROWS(ROWS), .MIN_GAP(MIN_GAP)) dut (
    .clk_i(clk), .rst_ni(rst_n), .go_i(go), .busy_i(busy), .no_ops_i(no_ops),
    .tap_vld_i(vld), .tap_nz_i(nz), .tap_last_i(last), .tap_busy_i(tbusy),
    .f_ready_i(f_ready), .f_idle_i(f_idle), .f_ahead_i(f_ahead), .f_head_last_i(head_last),
    .w_ready_i(w_ready), .psm_done_i(psm_done), .chain_i(chain),
    .adv_o(adv), .pop_o(pop), .zstep_o(zstep), .ctx_end_o(ctx_end), .too_soon_o(too_soon),
    .pass_end_o(pass_end), .feed_free_o(feed_free), .ev_bubble_o(bubble), .ev_fill_o(fill),
    .ev_stall_o(stall), .ev_drain_o(drain), .seq_err_o(seq_err)
  );

  integer p_rows, p_gap, ncyc, k;
  reg [63:0] v [0:14];
  reg [63:0] e [0:11];

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d", p_rows, p_gap, ncyc);
    if (nread != 3) vec_error("header");
    if (p_rows != ROWS || p_gap != MIN_GAP) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      for (k = 0; k < 15; k = k + 1) begin
        nread = $fscanf(fd, "%h", v[k]);
        if (nread != 1) vec_error("cycle inputs");
      end
      for (k = 0; k < 12; k = k + 1) begin
        nread = $fscanf(fd, "%h", e[k]);
        if (nread != 1) vec_error("cycle outputs");
      end
      #1;
      rst_n = v[0][0]; go = v[1][0]; busy = v[2][0]; no_ops = v[3][0]; vld = v[4][0];
      nz = v[5][0]; last = v[6][0]; tbusy = v[7][0]; f_ready = v[8][0]; f_idle = v[9][0];
      f_ahead = v[10][0]; head_last = v[11][0]; w_ready = v[12][0]; psm_done = v[13][0];
      chain = v[14][0];
      #1;
      chk("adv_o", {63'd0, adv}, e[0]);
      chk("pop_o", {63'd0, pop}, e[1]);
      chk("zstep_o", {63'd0, zstep}, e[2]);
      chk("ctx_end_o", {63'd0, ctx_end}, e[3]);
      chk("too_soon_o", {63'd0, too_soon}, e[4]);
      chk("pass_end_o", {63'd0, pass_end}, e[5]);
      chk("feed_free_o", {63'd0, feed_free}, e[6]);
      chk("ev_bubble_o", {63'd0, bubble}, e[7]);
      chk("ev_fill_o", {63'd0, fill}, e[8]);
      chk("ev_stall_o", {63'd0, stall}, e[9]);
      chk("ev_drain_o", {63'd0, drain}, e[10]);
      chk("seq_err_o", {63'd0, seq_err}, e[11]);
    end
    summary;
  end
endmodule

`resetall
