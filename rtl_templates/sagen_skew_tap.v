// sagen_skew_tap: a delay line of DEPTH enabled registers whose output is chosen at run time:
// q_o is d_i delayed by tap_i stages (0: d_i itself; taps past DEPTH read the last stage), the
// tap taken a cycle late (it is a pass's constant: it holds a cycle before the pass's data
// reaches the line, and while a pass's data is in the line). The weight registers and the
// result deskew of an array with column groups (sagen_array) are these: their delay depends on
// the groups' width, which each pass sets.
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
      // stage i at [i*WIDTH +: WIDTH] of shifted, d_i as stage 0
      reg  [DEPTH*WIDTH-1:0]     line_q;
      wire [(DEPTH+1)*WIDTH-1:0] shifted = {line_q, d_i};
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)   line_q <= {(DEPTH*WIDTH){1'b0}};
        else if (en_i) line_q <= shifted[DEPTH*WIDTH-1:0];
      end
      // the output: stage min(tap, DEPTH) of {line, d}, selected by its number (t_q, registered:
      // the select fans out to every bit of every stage, so it starts from a flip-flop; loaded
      // every cycle, it needs no reset)
      localparam integer TB = $clog2(DEPTH + 1);
      localparam [31:0]  D32 = DEPTH;
      reg  [TB-1:0] t_q;
      always @(posedge clk_i)
        t_q <= ({16'd0, tap_i} >= D32) ? D32[TB-1:0] : tap_i[TB-1:0];
      always @* q_o = shifted[t_q*WIDTH +: WIDTH];
    end
  endgenerate

endmodule

`resetall
