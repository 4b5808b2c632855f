// sagen_pe: output-stationary processing element.
//
// Inputs flow left to right (a, with its valid and context-last flags), weights flow top to
// bottom (b). The accumulator adds a*b for every valid input; on the last input of a context it
// hands acc+a*b to the reserve register and restarts at zero, so the next context computes
// without a pause. Reserve registers form a chain per column that shifts toward row 0 (the
// array's read-out edge) one step per cycle the array is enabled. The multiplier is gated when
// either operand is zero (no switching, same result).
`default_nettype none

module sagen_pe #(
  parameter integer IN_BITS  = 8,   // signed input width
  parameter integer W_BITS   = 8,   // signed weight width
  parameter integer ACC_BITS = 32   // accumulator width, wraps around
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire                en_i,        // array step: every register moves only when set
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

  wire                 gate_zero = (a_i == {IN_BITS{1'b0}}) || (b_i == {W_BITS{1'b0}});
  wire signed [PROD_BITS-1:0] prod_full = $signed(a_i) * $signed(b_i);
  wire [PROD_BITS-1:0] prod = gate_zero ? {PROD_BITS{1'b0}} : prod_full;
  // Sign-extend (or truncate, if ACC_BITS is narrower) the product to the accumulator.
  wire [ACC_BITS-1:0]  prod_ext;
  generate
    if (ACC_BITS > PROD_BITS) begin : g_ext
      assign prod_ext = {{(ACC_BITS-PROD_BITS){prod[PROD_BITS-1]}}, prod};
    end else begin : g_trunc
      assign prod_ext = prod[ACC_BITS-1:0];
    end
  endgenerate

  reg  [ACC_BITS-1:0] acc_q;
  wire [ACC_BITS-1:0] acc_sum = acc_q + prod_ext;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_o       <= {IN_BITS{1'b0}};
      a_vld_o   <= 1'b0;
      a_last_o  <= 1'b0;
      b_o       <= {W_BITS{1'b0}};
      acc_q     <= {ACC_BITS{1'b0}};
      res_o     <= {ACC_BITS{1'b0}};
      res_vld_o <= 1'b0;
    end else if (en_i) begin
      a_o      <= a_i;
      a_vld_o  <= a_vld_i;
      a_last_o <= a_last_i;
      b_o      <= b_i;
      if (a_vld_i && a_last_i) begin
        acc_q     <= {ACC_BITS{1'b0}};
        res_o     <= acc_sum;
        res_vld_o <= 1'b1;
      end else begin
        if (a_vld_i) begin
          acc_q <= acc_sum;
        end
        res_o     <= res_i;
        res_vld_o <= res_vld_i;
      end
    end
  end

endmodule

`resetall
