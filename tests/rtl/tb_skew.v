// tb_skew: sagen_skew against the vectors of model_skew.c (file format there). Inputs change
// just after the falling edge, q_o is checked 1 unit after the rising edge. With TAP >= 0 the
// block is sagen_skew_tap (DEPTH stages, tap_i = TAP), whose delay is min(TAP, DEPTH): the
// vectors are the model's for that depth.
`default_nettype none

module tb_skew;
  parameter integer WIDTH = 8;
  parameter integer DEPTH = 1;
  parameter integer TAP   = -1;
  localparam integer DELAY = (TAP < 0 || TAP > DEPTH) ? DEPTH : TAP;
  localparam BLOCK = "sagen_skew";

  `include "tb_common.vh"

  reg              rst_n = 1'b0, en = 1'b0;
  reg  [WIDTH-1:0] d = {WIDTH{1'b0}};
  wire [WIDTH-1:0] q;

  generate
    if (TAP < 0) begin : g_plain
      sagen_skew #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .en_i(en), .d_i(d), .q_o(q)
      );
    end else begin : g_tap
      localparam [15:0] TAP16 = TAP;
      sagen_skew_tap #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .en_i(en), .tap_i(TAP16), .d_i(d), .q_o(q)
      );
    end
  endgenerate

  integer p_w, p_d, ncyc;
  reg [63:0] v_rst, v_en, v_d, e_q;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d", p_w, p_d, ncyc);
    if (nread != 3) vec_error("header");
    if (p_w != WIDTH || p_d != DELAY) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h", v_rst, v_en, v_d, e_q);
      if (nread != 4) vec_error("cycle line");
      #1;
      rst_n = v_rst[0]; en = v_en[0]; d = v_d[WIDTH-1:0];
      @(posedge clk);
      #1;
      chk("q_o", q, e_q);
    end
    summary;
  end
endmodule

`resetall
