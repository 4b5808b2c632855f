// A small block for tests/test_fpga.sh: scripts/fpga.sh generates its register wrapper with the
// parameters t_fpga_parent passes it.
`default_nettype none

module t_fpga_dut #(
  parameter integer W    = 8,       // operand width
  parameter [3:0]   MASK = 4'b1111  // a sized parameter, passed through as its bits
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         en_i,     // register the sum
  input  wire [W-1:0] a_i,
  input  wire [W-1:0] b_i,
  output reg  [W:0]   sum_o,    // a + b, registered
  output wire         par_o     // parity of a, b and MASK, combinational
);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sum_o <= {(W + 1){1'b0}};
    else if (en_i) sum_o <= {1'b0, a_i} + {1'b0, b_i};
  end
  assign par_o = ^{a_i, b_i, MASK};
endmodule

`resetall
