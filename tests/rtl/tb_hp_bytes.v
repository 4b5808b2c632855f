// tb_hp_bytes: sagen_hp_bytes (combinational) against the vectors of model_hp_bytes.c (file
// format there): each case's inputs are applied and bytes_o is compared 1 unit later.
`default_nettype none

module tb_hp_bytes;
  parameter integer COLS     = 4;
  parameter integer ACC_BITS = 32;
  parameter integer IF_W     = 128;
  parameter integer WT_W     = 32;
  localparam BLOCK = "sagen_hp_bytes";

  `include "tb_common.vh"

  reg         we = 1'b0, mem = 1'b0, re = 1'b0;
  reg  [15:0] lanes = 16'd0;
  wire [15:0] bytes;

  sagen_hp_bytes #(.COLS(COLS), .ACC_BITS(ACC_BITS), .IF_W(IF_W), .WT_W(WT_W)) dut (
    .we_i(we), .mem_i(mem), .re_i(re), .read_lanes_i(lanes), .bytes_o(bytes)
  );

  integer p_cols, p_acc, p_if, p_wt, ncase;
  reg [63:0] v_we, v_mem, v_re, v_lanes, e_bytes;
  wire unused_vec = ^{v_we[63:1], v_mem[63:1], v_re[63:1], v_lanes[63:16]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d", p_cols, p_acc, p_if, p_wt, ncase);
    if (nread != 5) vec_error("header");
    if (p_cols != COLS || p_acc != ACC_BITS || p_if != IF_W || p_wt != WT_W)
      vec_error("parameters");
    for (cycle = 0; cycle < ncase; cycle = cycle + 1) begin
      nread = $fscanf(fd, "%h %h %h %h %h", v_we, v_mem, v_re, v_lanes, e_bytes);
      if (nread != 5) vec_error("case line");
      we = v_we[0]; mem = v_mem[0]; re = v_re[0]; lanes = v_lanes[15:0];
      #1;
      chk("bytes_o", {48'd0, bytes}, e_bytes);
    end
    summary;
  end
endmodule

`resetall
