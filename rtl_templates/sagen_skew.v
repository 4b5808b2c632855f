// sagen_skew: a delay line of DEPTH enabled registers (DEPTH = 0 is a wire). The feed registers
// of lane r and the weight registers of column c are skew lines of depth r and c, and the
// results leaving column c are deskewed by COLS-1-c.
`default_nettype none

module sagen_skew #(
  parameter integer WIDTH = 8,  // bits per stage
  parameter integer DEPTH = 1   // stages; 0 passes d_i straight to q_o
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             en_i,   // shift one stage
  input  wire [WIDTH-1:0] d_i,
  output wire [WIDTH-1:0] q_o
);

  generate
    if (DEPTH == 0) begin : g_wire
      assign q_o = d_i;
      wire unused_ctl = clk_i ^ rst_ni ^ en_i;
    end else begin : g_regs
      reg [WIDTH-1:0] stage_q [0:DEPTH-1];
      integer i;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          for (i = 0; i < DEPTH; i = i + 1) stage_q[i] <= {WIDTH{1'b0}};
        end else if (en_i) begin
          stage_q[0] <= d_i;
          for (i = 1; i < DEPTH; i = i + 1) stage_q[i] <= stage_q[i-1];
        end
      end
      assign q_o = stage_q[DEPTH-1];
    end
  endgenerate

endmodule

`resetall
