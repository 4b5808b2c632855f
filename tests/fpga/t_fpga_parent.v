// The parent of t_fpga_dut (tests/test_fpga.sh): it instantiates the block with other parameters
// than its defaults (W = 5 twice, W = 3 once), as the generated designs do; the register wrapper
// of scripts/fpga.sh is generated from Yosys's JSON of this hierarchy.
`default_nettype none

module t_fpga_parent (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [12:0] x_i,
  output wire [14:0] y_o
);
  wire [5:0] s0;
  wire [5:0] s1;
  wire [3:0] s2;
  t_fpga_dut #(.W(5), .MASK(4'b1010)) u_a (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(x_i[0]), .a_i(x_i[5:1]), .b_i(x_i[10:6]),
    .sum_o(s0), .par_o(y_o[12])
  );
  t_fpga_dut #(.W(5), .MASK(4'b1010)) u_b (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(x_i[11]), .a_i(x_i[6:2]), .b_i(x_i[11:7]),
    .sum_o(s1), .par_o(y_o[13])
  );
  t_fpga_dut #(.W(3)) u_c (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(x_i[12]), .a_i(x_i[3:1]), .b_i(x_i[9:7]),
    .sum_o(s2), .par_o(y_o[14])
  );
  assign y_o[11:0] = {s0 ^ s1, s2, 2'b00};
endmodule

`resetall
