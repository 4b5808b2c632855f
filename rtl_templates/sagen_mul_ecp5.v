// sagen_mul for an ECP5: the same module as sagen_mul.v (ports, timing, result), built on a
// MULT18X18D whose own registers hold the operands and the product, so that no route between
// the fabric and the DSP block sits on a path through the multiplier. Use it in place of the
// design's sagen_mul.v in an ECP5 flow (scripts/fpga.sh does); Yosys's synth_ecp5 maps a
// behavioral multiply into a MULT18X18D with every register unused and the registers into
// fabric flip-flops, which the placer may put far from the DSP rows.
//
// Configuration: the A and B input registers (REG_INPUTA/B) on CLK0, enabled by CE0 = ce_i; no
// pipeline register; the output register (REG_OUTPUT) on CLK0, enabled by CE1 = 1: p_o is the
// product of the operands registered at the edge before, as in sagen_mul.v. Operands are
// sign-extended to 18 bits and multiplied as signed (SIGNEDA = SIGNEDB = 1); the product's low
// A_BITS + B_BITS of 36 bits are exact. No reset is used (RST0 = 0), the global set/reset is off
// (GSR "DISABLED"), and the clocks are not divided (CLKn_DIV "DISABLED"). The shift chains'
// inputs (SRIA, SRIB) stay unconnected: nextpnr cannot route a constant to them. A_BITS and
// B_BITS are at most 17 (sagen's integer widths are at most 16).
//
// tests/rtl/ecp5_mult18x18d.v is a behavioral model of this configuration of the primitive
// for the block tests; Lattice's simulation library has the full one.
`default_nettype none

module sagen_mul #(
  parameter integer A_BITS = 8,   // signed operand widths, 2..17
  parameter integer B_BITS = 8
) (
  input  wire                     clk_i,
  input  wire                     ce_i,   // register a_i and b_i
  input  wire [A_BITS-1:0]        a_i,
  input  wire [B_BITS-1:0]        b_i,
  output wire [A_BITS+B_BITS-1:0] p_o     // the product of the operands registered before
);

  wire [17:0] a = {{(18-A_BITS){a_i[A_BITS-1]}}, a_i};
  wire [17:0] b = {{(18-B_BITS){b_i[B_BITS-1]}}, b_i};
  wire [35:0] p;
  assign p_o = p[A_BITS+B_BITS-1:0];
  wire unused_p = ^p[35:A_BITS+B_BITS];

  MULT18X18D #(
    .REG_INPUTA_CLK("CLK0"), .REG_INPUTA_CE("CE0"), .REG_INPUTA_RST("RST0"),
    .REG_INPUTB_CLK("CLK0"), .REG_INPUTB_CE("CE0"), .REG_INPUTB_RST("RST0"),
    .REG_INPUTC_CLK("NONE"), .REG_INPUTC_CE("CE0"), .REG_INPUTC_RST("RST0"),
    .REG_PIPELINE_CLK("NONE"), .REG_PIPELINE_CE("CE0"), .REG_PIPELINE_RST("RST0"),
    .REG_OUTPUT_CLK("CLK0"), .REG_OUTPUT_CE("CE1"), .REG_OUTPUT_RST("RST0"),
    .CLK0_DIV("DISABLED"), .CLK1_DIV("DISABLED"), .CLK2_DIV("DISABLED"), .CLK3_DIV("DISABLED"),
    .HIGHSPEED_CLK("NONE"), .GSR("DISABLED"), .CAS_MATCH_REG("FALSE"),
    .SOURCEB_MODE("B_SHIFT"), .MULT_BYPASS("DISABLED"), .RESETMODE("SYNC")
  ) u_mult (
    .A0(a[0]), .A1(a[1]), .A2(a[2]), .A3(a[3]), .A4(a[4]), .A5(a[5]),
    .A6(a[6]), .A7(a[7]), .A8(a[8]), .A9(a[9]), .A10(a[10]), .A11(a[11]),
    .A12(a[12]), .A13(a[13]), .A14(a[14]), .A15(a[15]), .A16(a[16]), .A17(a[17]),
    .B0(b[0]), .B1(b[1]), .B2(b[2]), .B3(b[3]), .B4(b[4]), .B5(b[5]),
    .B6(b[6]), .B7(b[7]), .B8(b[8]), .B9(b[9]), .B10(b[10]), .B11(b[11]),
    .B12(b[12]), .B13(b[13]), .B14(b[14]), .B15(b[15]), .B16(b[16]), .B17(b[17]),
    .C0(1'b0), .C1(1'b0), .C2(1'b0), .C3(1'b0), .C4(1'b0), .C5(1'b0), .C6(1'b0),
    .C7(1'b0), .C8(1'b0), .C9(1'b0), .C10(1'b0), .C11(1'b0), .C12(1'b0), .C13(1'b0),
    .C14(1'b0), .C15(1'b0), .C16(1'b0), .C17(1'b0),
    .SIGNEDA(1'b1), .SIGNEDB(1'b1), .SOURCEA(1'b0), .SOURCEB(1'b0),
    .CLK0(clk_i), .CLK1(1'b0), .CLK2(1'b0), .CLK3(1'b0),
    .CE0(ce_i), .CE1(1'b1), .CE2(1'b0), .CE3(1'b0),
    .RST0(1'b0), .RST1(1'b0), .RST2(1'b0), .RST3(1'b0),
    .P0(p[0]), .P1(p[1]), .P2(p[2]), .P3(p[3]), .P4(p[4]), .P5(p[5]),
    .P6(p[6]), .P7(p[7]), .P8(p[8]), .P9(p[9]), .P10(p[10]), .P11(p[11]),
    .P12(p[12]), .P13(p[13]), .P14(p[14]), .P15(p[15]), .P16(p[16]), .P17(p[17]),
    .P18(p[18]), .P19(p[19]), .P20(p[20]), .P21(p[21]), .P22(p[22]), .P23(p[23]),
    .P24(p[24]), .P25(p[25]), .P26(p[26]), .P27(p[27]), .P28(p[28]), .P29(p[29]),
    .P30(p[30]), .P31(p[31]), .P32(p[32]), .P33(p[33]), .P34(p[34]), .P35(p[35])
  );

endmodule

`resetall
