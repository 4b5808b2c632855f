// sagen_pe: output-stationary processing element.
//
// Inputs flow left to right (a, with its valid and context-last flags), weights flow top to
// bottom (b), one register per PE each cycle: the array runs every cycle, and a cycle without
// an operand carries a_vld low (a bubble). Three stages, each a cycle: the operands are
// registered (a_o, b_o: the registers that pass them on are the multiplier's operands), their
// product is registered (prod_q, with the operand's valid and last flags), and the next cycle
// it is added to the accumulator. On the last product of a context the PE hands acc + prod to
// the reserve register and restarts at zero, so the next context computes without a pause.
// Reserve registers form a chain per column that shifts toward row 0 (the array's read-out
// edge) every cycle. The product register is cleared instead of loaded when either operand is
// zero (no switching of its fan-out; same result), by a synchronous clear: it has no reset
// (prod_vld_q says when it is read), so the multiplier's output goes straight into its
// flip-flops with no LUT between. Latency: a product enters the accumulator two cycles after
// its operands arrive at a_i and b_i, and a context's result is in res_o one cycle after its
// last product.
//
// The multiplier reads the PE's own operand registers, not its neighbour's: the route from one
// PE to the next is a flip-flop to flip-flop hop, and the multiplier's inputs come from
// registers placed beside it. On an ECP5 the multiplier maps to a MULT18X18D with its
// registers unused (Yosys's synth_ecp5 packs none into it), so the path from the operand
// registers through the multiplier into prod_q bounds the PE's clock: 0.52 ns clock-to-out,
// 3.93 ns through the multiplier and 2-3 ns of routing into and out of it. Placed in the array,
// with the multiplier on the neighbour's registers, the route between two PEs' multiplier sites
// added to that path (an 8x8 array at 69.66 MHz, a PE alone at 144 MHz).
`default_nettype none

module sagen_pe #(
  parameter integer IN_BITS  = 8,   // signed input width
  parameter integer W_BITS   = 8,   // signed weight width
  parameter integer ACC_BITS = 32   // accumulator width, wraps around
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // from the left neighbour (or the feed lane)
  input  wire [IN_BITS-1:0]  a_i,
  input  wire                a_vld_i,
  input  wire                a_last_i,
  // from the top neighbour (or the weight fetcher)
  input  wire [W_BITS-1:0]   b_i,
  // reserve chain, from the PE below
  input  wire [ACC_BITS-1:0] res_i,
  input  wire                res_vld_i,
  // to the right neighbour
  output reg  [IN_BITS-1:0]  a_o,
  output reg                 a_vld_o,
  output reg                 a_last_o,
  // to the bottom neighbour
  output reg  [W_BITS-1:0]   b_o,
  // reserve chain, to the PE above
  output reg  [ACC_BITS-1:0] res_o,
  output reg                 res_vld_o
);

  localparam integer PROD_BITS = IN_BITS + W_BITS;

  // ---- stages 1 and 2: the operands, the product ------------------------------------------------
  wire                        gate_zero = (a_o == {IN_BITS{1'b0}}) || (b_o == {W_BITS{1'b0}});
  wire signed [PROD_BITS-1:0] prod_d    = $signed(a_o) * $signed(b_o);
  reg         [PROD_BITS-1:0] prod_q;
  reg                         prod_vld_q, prod_last_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_o         <= {IN_BITS{1'b0}};
      a_vld_o     <= 1'b0;
      a_last_o    <= 1'b0;
      b_o         <= {W_BITS{1'b0}};
      prod_vld_q  <= 1'b0;
      prod_last_q <= 1'b0;
    end else begin
      a_o         <= a_i;
      a_vld_o     <= a_vld_i;
      a_last_o    <= a_last_i;
      b_o         <= b_i;
      prod_vld_q  <= a_vld_o;
      prod_last_q <= a_vld_o && a_last_o;
    end
  end

  // The product register has no reset (prod_vld_q says when it is read), so that its clear is a
  // synchronous one: the multiplier's output goes straight into the flip-flops, no LUT between.
  always @(posedge clk_i) begin
    if (gate_zero) prod_q <= {PROD_BITS{1'b0}};
    else           prod_q <= prod_d;
  end

  // ---- stage 3: accumulate ---------------------------------------------------------------------
  // Sign-extend (or truncate, if ACC_BITS is narrower) the product to the accumulator.
  wire [ACC_BITS-1:0] prod_ext;
  generate
    if (ACC_BITS > PROD_BITS) begin : g_ext
      assign prod_ext = {{(ACC_BITS-PROD_BITS){prod_q[PROD_BITS-1]}}, prod_q};
    end else begin : g_trunc
      assign prod_ext = prod_q[ACC_BITS-1:0];
      if (ACC_BITS < PROD_BITS) begin : g_unused
        wire unused_prod = ^prod_q[PROD_BITS-1:ACC_BITS];
      end
    end
  endgenerate

  reg  [ACC_BITS-1:0] acc_q;
  wire [ACC_BITS-1:0] acc_sum = acc_q + prod_ext;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q     <= {ACC_BITS{1'b0}};
      res_o     <= {ACC_BITS{1'b0}};
      res_vld_o <= 1'b0;
    end else if (prod_last_q) begin
      acc_q     <= {ACC_BITS{1'b0}};
      res_o     <= acc_sum;
      res_vld_o <= 1'b1;
    end else begin
      if (prod_vld_q) acc_q <= acc_sum;
      res_o     <= res_i;
      res_vld_o <= res_vld_i;
    end
  end

endmodule

`resetall
