// sagen_mul: a PE's multiplier with its registers, A_BITS x B_BITS signed.
//
// The operands are registered when ce_i is high (the PE loads them only with a valid operand,
// so a bubble does not switch the multiplier), their product a cycle later, every cycle:
// p_o = a * b of the operands registered at the edge before. Neither register has a reset (the
// PE's valid flags say when the product is read). Nothing else reads the registers, so a
// synthesis tool can put both into a DSP block beside the multiplier (Vivado's DSP48 A, B and
// M/P registers), and a placer that cannot keeps them beside it.
//
// The generated design uses this file; ecp5/ beside it holds a drop-in replacement, the same
// module on an ECP5's MULT18X18D with its own input and output registers
// (rtl_templates/sagen_mul_ecp5.v), which Yosys's synth_ecp5 does not pack by itself.
`default_nettype none

module sagen_mul #(
  parameter integer A_BITS = 8,   // signed operand widths
  parameter integer B_BITS = 8
) (
  input  wire                     clk_i,
  input  wire                     ce_i,   // register a_i and b_i
  input  wire [A_BITS-1:0]        a_i,
  input  wire [B_BITS-1:0]        b_i,
  output reg  [A_BITS+B_BITS-1:0] p_o     // the product of the operands registered before
);

  reg [A_BITS-1:0] a_q;
  reg [B_BITS-1:0] b_q;
  wire signed [A_BITS+B_BITS-1:0] prod = $signed(a_q) * $signed(b_q);

  always @(posedge clk_i) begin
    if (ce_i) begin
      a_q <= a_i;
      b_q <= b_i;
    end
    p_o <= prod;
  end

endmodule

`resetall
