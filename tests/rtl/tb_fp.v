// tb_fp: sagen_fp_add (MUL = 0) or sagen_fp_mul (MUL = 1) against the vectors of model_fp.c
// (see there for the file format). A pair of operands enters every cycle, driven just after the
// falling edge; the result of the pair of cycle t is checked 1 unit after the rising edge that
// completes the block's latency (LAT edges, the first at the end of cycle t).
`default_nettype none

module tb_fp;
  parameter integer MUL = 0;    // 0: sagen_fp_add, 1: sagen_fp_mul
  parameter integer EW  = 8;    // operands' exponent and fraction bits
  parameter integer FW  = 23;
  parameter integer OEW = 8;    // the product's (sagen_fp_mul)
  parameter integer OFW = 23;
  localparam integer RW  = (MUL != 0) ? OEW + OFW + 1 : EW + FW + 1;   // the result's width
  localparam integer LAT = 6;
  localparam integer NMAX = 65536;
  localparam BLOCK = (MUL != 0) ? "sagen_fp_mul" : "sagen_fp_add";

  `include "tb_common.vh"

  reg  [EW+FW:0] a = {(EW+FW+1){1'b0}}, b = {(EW+FW+1){1'b0}};
  wire [RW-1:0]  r;

  generate
    if (MUL != 0) begin : g_mul
      sagen_fp_mul #(.IEW(EW), .IFW(FW), .OEW(OEW), .OFW(OFW)) dut (
        .clk_i(clk), .a_i(a), .b_i(b), .prod_o(r)
      );
    end else begin : g_add
      sagen_fp_add #(.EW(EW), .FW(FW)) dut (
        .clk_i(clk), .a_i(a), .b_i(b), .sum_o(r)
      );
    end
  endgenerate

  reg [8*4-1:0] op;
  integer p_ew, p_fw, p_oew, p_ofw, n, t;
  reg [63:0] va [0:NMAX-1];
  reg [63:0] vb [0:NMAX-1];
  reg [63:0] ve [0:NMAX-1];

  initial begin
    open_vec;
    nread = $fscanf(fd, "%s", op);
    if (nread != 1) vec_error("header");
    if (MUL != 0) begin
      nread = $fscanf(fd, "%d %d %d %d %d", p_ew, p_fw, p_oew, p_ofw, n);
      if (nread != 5 || op != "mul") vec_error("header");
      if (p_oew != OEW || p_ofw != OFW) vec_error("parameters");
    end else begin
      nread = $fscanf(fd, "%d %d %d", p_ew, p_fw, n);
      if (nread != 3 || op != "add") vec_error("header");
    end
    if (p_ew != EW || p_fw != FW) vec_error("parameters");
    if (n < 1 || n > NMAX) vec_error("vector count");
    for (t = 0; t < n; t = t + 1) begin
      nread = $fscanf(fd, "%h %h %h", va[t], vb[t], ve[t]);
      if (nread != 3) vec_error("vector line");
    end
    for (cycle = 0; cycle < n + LAT - 1; cycle = cycle + 1) begin
      @(negedge clk);
      #1;
      if (cycle < n) begin
        a = va[cycle][EW+FW:0];
        b = vb[cycle][EW+FW:0];
      end
      @(posedge clk);
      #1;
      if (cycle >= LAT - 1) chk("result", {{(64-RW){1'b0}}, r}, ve[cycle-LAT+1]);
    end
    summary;
  end
endmodule

`resetall
