// A behavioral model of the ECP5 MULT18X18D, for sagen's block tests of sagen_mul_ecp5.v (the
// PE's multiplier on the DSP block): the configuration that file uses and nothing else. Any
// other parameter value stops the simulation with an error, so a change of the configuration
// cannot pass the tests on a model that does not describe it.
//
// Modelled: A and B input registers on CLK0 with their clock enables (CE0..CE3 as the
// REG_INPUTx_CE parameters name) and synchronous resets (RST0..RST3, RESETMODE "SYNC"); no
// pipeline register; the output register on CLK0 with its enable and reset; the product of A
// and B as signed or unsigned 18-bit numbers by SIGNEDA and SIGNEDB; P is the output register.
// Not modelled (stopped at start if used): the C input's register, the shift chains
// (SOURCEA/SOURCEB high), the clock dividers, the global set/reset, the bypass mode.
`timescale 1ns / 1ps
`default_nettype none

module MULT18X18D (
  A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11,
  A12, A13, A14, A15, A16, A17, B0, B1, B2, B3, B4, B5,
  B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
  C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11,
  C12, C13, C14, C15, C16, C17, SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5,
  SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11, SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17,
  SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11,
  SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17, SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, CLK0, CLK1,
  CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3, P0, P1,
  P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13,
  P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25,
  P26, P27, P28, P29, P30, P31, P32, P33, P34, P35, SIGNEDP, SROA0,
  SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10, SROA11, SROA12,
  SROA13, SROA14, SROA15, SROA16, SROA17, SROB0, SROB1, SROB2, SROB3, SROB4, SROB5, SROB6,
  SROB7, SROB8, SROB9, SROB10, SROB11, SROB12, SROB13, SROB14, SROB15, SROB16, SROB17, ROA0,
  ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9, ROA10, ROA11, ROA12,
  ROA13, ROA14, ROA15, ROA16, ROA17, ROB0, ROB1, ROB2, ROB3, ROB4, ROB5, ROB6,
  ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13, ROB14, ROB15, ROB16, ROB17, ROC0,
  ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10, ROC11, ROC12,
  ROC13, ROC14, ROC15, ROC16, ROC17
);
  input  wire A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11;
  input  wire A12, A13, A14, A15, A16, A17, B0, B1, B2, B3, B4, B5;
  input  wire B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17;
  input  wire C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11;
  input  wire C12, C13, C14, C15, C16, C17, SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5;
  input  wire SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11;
  input  wire SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17;
  input  wire SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11;
  input  wire SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17;
  input  wire SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, CLK0, CLK1;
  input  wire CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3;
  output wire P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11;
  output wire P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23;
  output wire P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35;
  output wire SIGNEDP, SROA0, SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10;
  output wire SROA11, SROA12, SROA13, SROA14, SROA15, SROA16;
  output wire SROA17, SROB0, SROB1, SROB2, SROB3, SROB4;
  output wire SROB5, SROB6, SROB7, SROB8, SROB9, SROB10;
  output wire SROB11, SROB12, SROB13, SROB14, SROB15, SROB16;
  output wire SROB17, ROA0, ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9, ROA10;
  output wire ROA11, ROA12, ROA13, ROA14, ROA15, ROA16, ROA17, ROB0, ROB1, ROB2, ROB3, ROB4;
  output wire ROB5, ROB6, ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13, ROB14, ROB15, ROB16;
  output wire ROB17, ROC0, ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10;
  output wire ROC11, ROC12, ROC13, ROC14, ROC15, ROC16, ROC17;

  parameter REG_INPUTA_CLK = "NONE";
  parameter REG_INPUTA_CE = "CE0";
  parameter REG_INPUTA_RST = "RST0";
  parameter REG_INPUTB_CLK = "NONE";
  parameter REG_INPUTB_CE = "CE0";
  parameter REG_INPUTB_RST = "RST0";
  parameter REG_INPUTC_CLK = "NONE";
  parameter REG_INPUTC_CE = "CE0";
  parameter REG_INPUTC_RST = "RST0";
  parameter REG_PIPELINE_CLK = "NONE";
  parameter REG_PIPELINE_CE = "CE0";
  parameter REG_PIPELINE_RST = "RST0";
  parameter REG_OUTPUT_CLK = "NONE";
  parameter REG_OUTPUT_CE = "CE0";
  parameter REG_OUTPUT_RST = "RST0";
  parameter CLK0_DIV = "ENABLED";
  parameter CLK1_DIV = "ENABLED";
  parameter CLK2_DIV = "ENABLED";
  parameter CLK3_DIV = "ENABLED";
  parameter HIGHSPEED_CLK = "NONE";
  parameter GSR = "ENABLED";
  parameter CAS_MATCH_REG = "FALSE";
  parameter SOURCEB_MODE = "B_SHIFT";
  parameter MULT_BYPASS = "DISABLED";
  parameter RESETMODE = "SYNC";

  wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
  wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
  wire [3:0]  ce  = {CE3, CE2, CE1, CE0};
  wire [3:0]  rst = {RST3, RST2, RST1, RST0};

  // the clock enable or reset a parameter names ("CE0".."CE3", "RST0".."RST3")
  function sel(input [3:0] v, input [8*4-1:0] name);
    sel = v[name[7:0] - "0"];
  endfunction

  initial begin
    if (REG_INPUTA_CLK != "CLK0" && REG_INPUTA_CLK != "NONE") bad("REG_INPUTA_CLK");
    if (REG_INPUTB_CLK != "CLK0" && REG_INPUTB_CLK != "NONE") bad("REG_INPUTB_CLK");
    if (REG_OUTPUT_CLK != "CLK0" && REG_OUTPUT_CLK != "NONE") bad("REG_OUTPUT_CLK");
    if (REG_INPUTC_CLK != "NONE") bad("REG_INPUTC_CLK");
    if (REG_PIPELINE_CLK != "NONE") bad("REG_PIPELINE_CLK");
    if (CLK0_DIV != "DISABLED") bad("CLK0_DIV");
    if (GSR != "DISABLED") bad("GSR");
    if (RESETMODE != "SYNC") bad("RESETMODE");
    if (MULT_BYPASS != "DISABLED") bad("MULT_BYPASS");
    if (HIGHSPEED_CLK != "NONE") bad("HIGHSPEED_CLK");
  end

  task bad(input [8*16-1:0] what);
    begin
      $display("MULT18X18D model: %0s: a value this model does not describe", what);
      $finish;
    end
  endtask

  reg  [17:0] a_q, b_q;
  reg  [35:0] p_q;
  wire [17:0] a_m = (REG_INPUTA_CLK == "CLK0") ? a_q : a;
  wire [17:0] b_m = (REG_INPUTB_CLK == "CLK0") ? b_q : b;
  wire [35:0] a_x = {{18{SIGNEDA & a_m[17]}}, a_m};
  wire [35:0] b_x = {{18{SIGNEDB & b_m[17]}}, b_m};
  wire [35:0] prod = a_x * b_x;

  always @(posedge CLK0) begin
    if (sel(rst, REG_INPUTA_RST)) a_q <= 18'd0;
    else if (sel(ce, REG_INPUTA_CE)) a_q <= a;
    if (sel(rst, REG_INPUTB_RST)) b_q <= 18'd0;
    else if (sel(ce, REG_INPUTB_CE)) b_q <= b;
    if (sel(rst, REG_OUTPUT_RST)) p_q <= 36'd0;
    else if (sel(ce, REG_OUTPUT_CE)) p_q <= prod;
  end

  wire [35:0] p = (REG_OUTPUT_CLK == "CLK0") ? p_q : prod;
assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18,
          P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p;
  // (the shift and cascade outputs are not used)
assign {SIGNEDP, SROA0, SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10,
          SROA11, SROA12, SROA13, SROA14, SROA15, SROA16, SROA17, SROB0, SROB1, SROB2, SROB3,
          SROB4, SROB5, SROB6, SROB7, SROB8, SROB9, SROB10, SROB11, SROB12, SROB13, SROB14,
          SROB15, SROB16, SROB17, ROA0, ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9,
          ROA10, ROA11, ROA12, ROA13, ROA14, ROA15, ROA16, ROA17, ROB0, ROB1, ROB2, ROB3, ROB4,
          ROB5, ROB6, ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13, ROB14, ROB15, ROB16, ROB17,
          ROC0, ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10, ROC11, ROC12, ROC13,
          ROC14, ROC15, ROC16, ROC17} = 91'd0;

endmodule

`resetall
