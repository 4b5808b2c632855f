// tb_pe_fp: sagen_pe_fp against the vectors of model_pe_fp.c (see there for the file format).
// Inputs are driven just after the falling edge, outputs checked 1 unit after the rising edge.
`default_nettype none

module tb_pe_fp;
  parameter integer IEW = 8;
  parameter integer IFW = 7;
  parameter integer AEW = 8;
  parameter integer AFW = 23;
  localparam integer IN_BITS  = IEW + IFW + 1;
  localparam integer W_BITS   = IN_BITS;
  localparam integer ACC_BITS = AEW + AFW + 1;
  localparam BLOCK = "sagen_pe_fp";

  `include "tb_common.vh"

  reg                 rst_n = 1'b0, a_vld = 1'b0, a_last = 1'b0, res_vld_i = 1'b0;
  reg [IN_BITS-1:0]   a = {IN_BITS{1'b0}};
  reg [W_BITS-1:0]    b = {W_BITS{1'b0}};
  reg [ACC_BITS-1:0]  res_i = {ACC_BITS{1'b0}};
  wire [IN_BITS-1:0]  a_o;
  wire [W_BITS-1:0]   b_o;
  wire [ACC_BITS-1:0] res_o;
  wire                a_vld_o, a_last_o, res_vld_o;

  sagen_pe_fp #(.IEW(IEW), .IFW(IFW), .AEW(AEW), .AFW(AFW)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .a_i(a), .a_vld_i(a_vld), .a_last_i(a_last), .b_i(b),
    .res_i(res_i), .res_vld_i(res_vld_i),
    .a_o(a_o), .a_vld_o(a_vld_o), .a_last_o(a_last_o), .b_o(b_o),
    .res_o(res_o), .res_vld_o(res_vld_o)
  );

  integer p_iew, p_ifw, p_aew, p_afw, ncyc;
  reg                v_rst, v_vld, v_last, v_resvld;
  reg [IN_BITS-1:0]  v_a;
  reg [W_BITS-1:0]   v_b;
  reg [ACC_BITS-1:0] v_resi;
  reg [63:0] e_a, e_vld, e_last, e_b, e_res, e_resvld;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d", p_iew, p_ifw, p_aew, p_afw, ncyc);
    if (nread != 5) vec_error("header");
    if (p_iew != IEW || p_ifw != IFW || p_aew != AEW || p_afw != AFW) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h",
                      v_rst, v_a, v_vld, v_last, v_b, v_resi, v_resvld,
                      e_a, e_vld, e_last, e_b, e_res, e_resvld);
      if (nread != 13) vec_error("cycle line");
      #1;
      rst_n = v_rst; a = v_a; a_vld = v_vld; a_last = v_last; b = v_b; res_i = v_resi;
      res_vld_i = v_resvld;
      @(posedge clk);
      #1;
      chk("a_o", {{(64-IN_BITS){1'b0}}, a_o}, e_a);
      chk("a_vld_o", {63'd0, a_vld_o}, e_vld);
      chk("a_last_o", {63'd0, a_last_o}, e_last);
      chk("b_o", {{(64-W_BITS){1'b0}}, b_o}, e_b);
      chk("res_o", {{(64-ACC_BITS){1'b0}}, res_o}, e_res);
      chk("res_vld_o", {63'd0, res_vld_o}, e_resvld);
    end
    summary;
  end
endmodule

`resetall
