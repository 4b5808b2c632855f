// tb_skew: sagen_skew against the vectors of model_skew.c (file format there). Inputs change
// just after the falling edge, q_o is checked 1 unit after the rising edge. With TAP >= 0 the
// block is sagen_skew_tap (DEPTH stages, tap_i = TAP), whose delay is min(TAP, DEPTH): the
// vectors are the model's for that depth. With TAP = -2 it is sagen_skew_tap with tap_i from the
// vectors (model_skew's run-time tap), and q_o is also checked just before the rising edge.
`default_nettype none

module tb_skew;
  parameter integer WIDTH = 8;
  parameter integer DEPTH = 1;
  parameter integer TAP   = -1;
  localparam integer DELAY = (TAP < 0 || TAP > DEPTH) ? DEPTH : TAP;
  localparam         VARY  = (TAP == -2);
  localparam BLOCK = "sagen_skew";

  `include "tb_common.vh"

  reg              rst_n = 1'b0, en = 1'b0;
  reg  [WIDTH-1:0] d = {WIDTH{1'b0}};
  reg  [15:0]      tap = 16'd0;
  wire [WIDTH-1:0] q;

  generate
    if (TAP == -1) begin : g_plain
      sagen_skew #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .en_i(en), .d_i(d), .q_o(q)
      );
    end else begin : g_tap
      localparam [15:0] TAP16 = VARY ? 16'd0 : TAP;
      sagen_skew_tap #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .en_i(en), .tap_i(VARY ? tap : TAP16), .d_i(d), .q_o(q)
      );
    end
  endgenerate

  integer p_w, p_d, ncyc;
  reg [63:0] v_rst, v_en, v_d, v_pre, e_pre, e_q;
  reg [63:0] v_tap = 64'd0;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d", p_w, p_d, ncyc);
    if (nread != 3) vec_error("header");
    if (p_w != WIDTH || p_d != DELAY) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      if (VARY) begin
        nread = $fscanf(fd, "%h %h %h %h %h %h %h", v_rst, v_en, v_d, v_tap, v_pre, e_pre, e_q);
        if (nread != 7) vec_error("cycle line");
      end else begin
        nread = $fscanf(fd, "%h %h %h %h", v_rst, v_en, v_d, e_q);
        if (nread != 4) vec_error("cycle line");
      end
      #1;
      rst_n = v_rst[0]; en = v_en[0]; d = v_d[WIDTH-1:0]; tap = v_tap[15:0];
      #1;
      if (VARY && v_pre[0]) chk("q_o before the edge", q, e_pre);
      @(posedge clk);
      #1;
      chk("q_o", q, e_q);
    end
    summary;
  end
endmodule

`resetall
