// sagen_pe_fp: output-stationary processing element in floating point, a MAC a cycle.
//
// The same links as sagen_pe: operands move one register right (a, with its valid and
// context-last flags) and down (b) each cycle, and results leave through the reserve chain,
// which shifts toward row 0. The operands are IEEE binary numbers of IEW exponent and IFW
// fraction bits (bfloat16: 8, 7; binary16: 5, 10; binary32: 8, 23); products and sums are in the
// accumulation format of AEW and AFW bits (binary32 or binary16). sagen_fp_mul rounds a product
// into the accumulation format (exact for bfloat16 or binary16 operands and binary32 sums),
// sagen_fp_add adds; both round to nearest, ties to even (docs/hardware.md, "Floating point").
//
// The order of the sums. An adder takes LA = 6 cycles, so a sum cannot feed the next product's
// add a cycle later. The PE keeps P = 8 partial sums instead: the products of a context,
// numbered k = 0, 1, ... in the order they arrive (bubbles do not count), go to partial k mod 8,
// which adds them in that order, starting from -0 (the sum's identity: -0 + x = x, for x = +0
// too); partial j is (((x_j + x_{j+8}) + x_{j+16}) + ...). At the context's end the eight
// partials are reduced by a second adder as a fixed tree,
//   result = ((s_0 + s_1) + (s_2 + s_3)) + ((s_4 + s_5) + (s_6 + s_7)),
// where a partial that took no product is -0. So a result depends on the products and their
// order alone, never on where the bubbles fell: the golden model reproduces it from the
// reduction order. Zero operands are not gated: in IEEE, 0 * inf is NaN and +0 and -0 differ.
//
// Timing (edges counted from the one that samples a_i, edge 0): the product is out of
// sagen_fp_mul after edge 5; edge 6 registers it with its partial (an 8:1 read) as the adder's
// operands; the sum is out after edge 12 and written back to its partial at edge 13, so product
// k + 8, read at edge 14 at the earliest, reads product k's sum. A context's last product is
// written at edge W = 13; the reduction reads the partials in pairs at edges W + 1 .. W + 4
// (before any product of the next context has written them: its first write is at W + 1 at the
// earliest, to partial 0, which is read at W + 1 from the register's old value), issues its
// second level at W + 9 and W + 11 and its last add at W + 18, and the result enters the
// reserve chain at edge W + 25 = 38 (sagen_pe's: edge 2). Contexts' last products must
// come at least MIN_GAP = 2 LA + 6 = 18 cycles apart, so that the reductions of two contexts do
// not meet in the adder; the step controller keeps them so.
//
// The partials' registers and the data stages have no reset (the valid flags say when they
// are read); the flags, the partial counter and the reduction's schedule do.
`default_nettype none

// (The parameters' defaults are a format no configuration has, 8-bit operands: the array passes
// every parameter, and Verilator 5.006 makes a hierarchical block of a module only where an
// instance's parameters differ from the defaults.)
module sagen_pe_fp #(
  parameter integer IEW = 4,    // operands: exponent bits
  parameter integer IFW = 3,    // operands: fraction bits
  parameter integer AEW = 8,    // accumulation: exponent bits
  parameter integer AFW = 23    // accumulation: fraction bits
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  // from the left neighbour (or the feed lane)
  input  wire [IEW+IFW:0]   a_i,
  input  wire               a_vld_i,
  input  wire               a_last_i,
  // from the top neighbour (or the weight fetcher)
  input  wire [IEW+IFW:0]   b_i,
  // reserve chain, from the PE below
  input  wire [AEW+AFW:0]   res_i,
  input  wire               res_vld_i,
  // to the right neighbour
  output reg  [IEW+IFW:0]   a_o,
  output reg                a_vld_o,
  output reg                a_last_o,
  // to the bottom neighbour
  output reg  [IEW+IFW:0]   b_o,
  // reserve chain, to the PE above
  output reg  [AEW+AFW:0]   res_o,
  output reg                res_vld_o
);

  // A hierarchical block of the Verilated model (verilator --hierarchical): Verilator makes the
  // PE's C++ once and every instance runs it. Within one model Verilator 5.006 writes the code of
  // every instance apart (about 0.7 MB of C++ a binary32 PE: a 16x16 array's took ten minutes to
  // compile); other tools read a comment.
  /* verilator hier_block */

  localparam integer IW = IEW + IFW + 1;    // operand width
  localparam integer AW = AEW + AFW + 1;    // accumulation width
  localparam integer LM = 6;                // sagen_fp_mul's latency
  localparam integer LA = 6;                // sagen_fp_add's latency
  localparam integer P  = 8;                // partial sums
  localparam integer RL = 2 * LA + 13;      // the reduction's schedule, edges W + 1 .. W + RL
  localparam [AW-1:0] NEG0 = {1'b1, {(AW-1){1'b0}}};

  // ---- the links -----------------------------------------------------------------------------
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_o      <= {IW{1'b0}};
      a_vld_o  <= 1'b0;
      a_last_o <= 1'b0;
      b_o      <= {IW{1'b0}};
    end else begin
      a_o      <= a_i;
      a_vld_o  <= a_vld_i;
      a_last_o <= a_last_i;
      b_o      <= b_i;
    end
  end

  // ---- the product, and its flags beside the multiplier ----------------------------------------
  wire [AW-1:0] prod;
  sagen_fp_mul #(.IEW(IEW), .IFW(IFW), .OEW(AEW), .OFW(AFW)) u_mul (
    .clk_i(clk_i), .a_i(a_i), .b_i(b_i), .prod_o(prod)
  );

  reg [LM-1:0] mv_q, ml_q;                  // [LM-1]: the flags of the product out of u_mul
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mv_q <= {LM{1'b0}};
      ml_q <= {LM{1'b0}};
    end else begin
      mv_q <= {mv_q[LM-2:0], a_vld_i};
      ml_q <= {ml_q[LM-2:0], a_vld_i && a_last_i};
    end
  end
  wire p_vld  = mv_q[LM-1];
  wire p_last = ml_q[LM-1];

  // ---- accumulate: the product and its partial into the adder ----------------------------------
  // the partial sums: flip-flops (mem2reg: not a memory for Yosys to infer; every entry is
  // read at once by the reduction)
  (* mem2reg *) reg [AW-1:0] part_q [0:P-1];
  reg  [2:0]    slot_q;                     // the partial of the next product
  reg  [P-1:0]  used_q;                     // partials that took a product in this context
  reg  [P-1:0]  red_used_q;                 // ... in the context being reduced
  reg  [AW-1:0] op_x_q, op_y_q;             // the accumulating adder's operands
  reg  [LA:0]   av_q, al_q;                 // [0]: an issue at the last edge; [LA]: its sum is out
  reg  [3*LA+2:0] as_q;                     // the partial of each add in flight

  wire [P-1:0] slot_bit = {{(P-1){1'b0}}, 1'b1} << slot_q;

  always @(posedge clk_i) begin
    if (p_vld) begin
      op_x_q <= prod;
      op_y_q <= used_q[slot_q] ? part_q[slot_q] : NEG0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_q     <= 3'd0;
      used_q     <= {P{1'b0}};
      red_used_q <= {P{1'b0}};
      av_q       <= {(LA+1){1'b0}};
      al_q       <= {(LA+1){1'b0}};
      as_q       <= {(3*LA+3){1'b0}};
    end else begin
      av_q <= {av_q[LA-1:0], p_vld};
      al_q <= {al_q[LA-1:0], p_vld && p_last};
      as_q <= {as_q[3*LA-1:0], slot_q};
      if (p_vld) begin
        if (p_last) begin
          slot_q     <= 3'd0;
          used_q     <= {P{1'b0}};
          red_used_q <= used_q | slot_bit;
        end else begin
          slot_q <= slot_q + 3'd1;
          used_q <= used_q | slot_bit;
        end
      end
    end
  end

  wire [AW-1:0] acc_sum;
  sagen_fp_add #(.EW(AEW), .FW(AFW)) u_acc (
    .clk_i(clk_i), .a_i(op_x_q), .b_i(op_y_q), .sum_o(acc_sum)
  );

  // write-back: edge W for a context's last product
  wire       w_vld  = av_q[LA];
  wire       w_last = al_q[LA];
  wire [2:0] w_slot = as_q[3*LA+2 -: 3];
  always @(posedge clk_i) begin
    if (w_vld) part_q[w_slot] <= acc_sum;
  end

  // ---- reduce: the eight partials as a tree, in a second adder ---------------------------------
  // ph_q[k] is set in the cycle after edge W + k.
  reg  [RL-1:0] ph_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ph_q <= {RL{1'b0}};
    else         ph_q <= {ph_q[RL-2:0], w_vld && w_last};
  end

  // partial j of the context being reduced (-0 if it took no product)
  function [AW-1:0] red_part(input [2:0] j);
    red_part = red_used_q[j] ? part_q[j] : NEG0;
  endfunction

  wire [AW-1:0] red_sum;
  reg  [AW-1:0] rx_q, ry_q, hold0_q, hold1_q;
  always @(posedge clk_i) begin
    // level 1: edges W + 1 .. W + 4; their sums are out after W + 7 .. W + 10
    if (ph_q[0])        begin rx_q <= red_part(3'd0); ry_q <= red_part(3'd1); end
    if (ph_q[1])        begin rx_q <= red_part(3'd2); ry_q <= red_part(3'd3); end
    if (ph_q[2])        begin rx_q <= red_part(3'd4); ry_q <= red_part(3'd5); end
    if (ph_q[3])        begin rx_q <= red_part(3'd6); ry_q <= red_part(3'd7); end
    // level 2: edges W + 9 and W + 11; out after W + 15 and W + 17
    if (ph_q[LA+1])     hold0_q <= red_sum;                         // s0 + s1
    if (ph_q[LA+2])     begin rx_q <= hold0_q; ry_q <= red_sum; end // + (s2 + s3)
    if (ph_q[LA+3])     hold1_q <= red_sum;                         // s4 + s5
    if (ph_q[LA+4])     begin rx_q <= hold1_q; ry_q <= red_sum; end // + (s6 + s7)
    // level 3: edge W + 18; out after W + 24
    if (ph_q[2*LA+3])   hold0_q <= red_sum;
    if (ph_q[2*LA+5])   begin rx_q <= hold0_q; ry_q <= red_sum; end
  end

  sagen_fp_add #(.EW(AEW), .FW(AFW)) u_red (
    .clk_i(clk_i), .a_i(rx_q), .b_i(ry_q), .sum_o(red_sum)
  );

  // ---- the reserve chain: the result at edge W + 25, else the value from below ----------------
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_o     <= {AW{1'b0}};
      res_vld_o <= 1'b0;
    end else if (ph_q[RL-1]) begin
      res_o     <= red_sum;
      res_vld_o <= 1'b1;
    end else begin
      res_o     <= res_i;
      res_vld_o <= res_vld_i;
    end
  end

endmodule

`resetall
