// tb_lzc: sagen_lzc against the vectors of model_lzc.c (see there for the file format). The
// block is combinational: each word is applied and its count checked a unit later.
`default_nettype none

module tb_lzc;
  parameter integer W  = 24;
  localparam integer CW = $clog2(W + 1);
  localparam BLOCK = "sagen_lzc";

  `include "tb_common.vh"

  reg  [W-1:0]  d = {W{1'b0}};
  wire [CW-1:0] cnt;

  sagen_lzc #(.W(W), .CW(CW)) dut (.d_i(d), .cnt_o(cnt));

  integer p_w, n;
  reg [63:0] v_d, e_cnt;
  wire unused_vd = ^v_d;   // (only its low W bits are driven)

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d", p_w, n);
    if (nread != 2) vec_error("header");
    if (p_w != W) vec_error("parameters");
    for (cycle = 0; cycle < n; cycle = cycle + 1) begin
      nread = $fscanf(fd, "%h %h", v_d, e_cnt);
      if (nread != 2) vec_error("vector line");
      d = v_d[W-1:0];
      #1;
      chk("cnt", {{(64-CW){1'b0}}, cnt}, e_cnt);
    end
    summary;
  end
endmodule

`resetall
