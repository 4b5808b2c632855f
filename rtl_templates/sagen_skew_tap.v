// sagen_skew_tap: a delay line of DEPTH enabled registers whose output is chosen at run time:
// q_o is d_i delayed by tap_i stages (0: d_i itself; taps past DEPTH read the last stage). The
// weight registers and the result deskew of an array with column groups (sagen_array) are
// these: their delay depends on the groups' width, which each pass sets.
`default_nettype none

module sagen_skew_tap #(
  parameter integer WIDTH = 8,  // bits per stage
  parameter integer DEPTH = 1   // stages (0: a wire)
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             en_i,   // shift one stage
  input  wire [15:0]      tap_i,  // stages of delay
  input  wire [WIDTH-1:0] d_i,
  output reg  [WIDTH-1:0] q_o
);

  generate
    if (DEPTH == 0) begin : g_wire
      always @* q_o = d_i;
      wire unused_ctl = clk_i ^ rst_ni ^ en_i ^ (^tap_i);
    end else begin : g_regs
      // stage i at [i*WIDTH +: WIDTH], packed so that the output mux reads plain bits
      reg  [DEPTH*WIDTH-1:0]     line_q;
      wire [(DEPTH+1)*WIDTH-1:0] shifted = {line_q, d_i};
      wire [WIDTH-1:0]           unused_last = shifted[DEPTH*WIDTH +: WIDTH];
      integer i;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)   line_q <= {(DEPTH*WIDTH){1'b0}};
        else if (en_i) line_q <= shifted[DEPTH*WIDTH-1:0];
      end
      always @* begin
        q_o = d_i;
        for (i = 1; i <= DEPTH; i = i + 1) begin
          if ({16'd0, tap_i} >= i) q_o = line_q[(i-1)*WIDTH +: WIDTH];
        end
      end
    end
  endgenerate

endmodule

`resetall
