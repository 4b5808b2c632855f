// sagen_pe: output-stationary processing element.
//
// Inputs flow left to right (a, with its valid and context-last flags), weights flow top to
// bottom (b), one register per PE each cycle: the array runs every cycle, and a cycle without
// an operand carries a_vld low (a bubble). Three stages, each a cycle: the operands are
// registered, their product is registered (prod_q, with the operand's valid and last flags),
// and the next cycle it is added to the accumulator. On the last product of a context the PE
// hands acc + prod to the reserve register and restarts at zero, so the next context computes
// without a pause. Reserve registers form a chain per column that shifts toward row 0 (the
// array's read-out edge) every cycle. Latency: a product enters the accumulator two cycles
// after its operands arrive at a_i and b_i, and a context's result is in res_o one cycle after
// its last product.
//
// Each operand is registered twice from the same input: a_o and b_o pass it on to the
// neighbours, every cycle; the multiplier (sagen_mul) registers its own copy, only with a valid
// operand (a bubble does not switch it), and its product. Its path is then register ->
// multiplier -> register with nothing else on those nets, so the registers can sit in the DSP
// block itself (sagen_mul's ECP5 form) or beside it, wherever the chains between PEs run. With
// one register doing both jobs, small8x8 placed on an ECP5 ran at 62.17 MHz: the path from a
// chain's flip-flop through the MULT18X18D (3.93 ns) back into the fabric had 5.02 ns of routing
// to the DSP row and 6.61 ns back. The product is read only when prod_vld_q says so.
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
  wire [PROD_BITS-1:0] prod_q;
  reg                  prod_vld_q, prod_last_q;

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

  sagen_mul #(
    .A_BITS(IN_BITS),
    .B_BITS(W_BITS)
  ) u_mul (
    .clk_i(clk_i),
    .ce_i (a_vld_i),
    .a_i  (a_i),
    .b_i  (b_i),
    .p_o  (prod_q)
  );

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
