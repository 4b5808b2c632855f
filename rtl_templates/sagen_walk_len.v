// sagen_walk_len: the contexts of a pass's tap walk, n_kg x n_ctx (filter groups of contexts),
// for the tap sequencer's outer pixel count, without a multiplier: n_ctx is added once a cycle,
// n_kg times, from go_i on. In the t-th cycle after go_i (t >= 1), walk_o = min(t, n_kg) x n_ctx:
// n_kg x n_ctx from cycle n_kg on. After reset, until the first go_i, walk_o is 0.
//
// Why a value still on its way is good enough: the tap sequencer (sagen_nz_addr_gen, started
// with go_i) reads its pixel count only at the end of a pixel (a context), to decide whether the
// walk ends (pixel i, counted from 0, is the last iff i + 1 >= count). Its first tap comes 2
// cycles after its start or later and it takes at most one tap a cycle, so the end of context i
// comes at cycle i + 2 or later, when walk_o is n_kg x n_ctx (if n_kg <= i + 2) or at least
// (i + 2) x n_ctx > i + 1 (otherwise): either way the decision is the one the full product
// gives. The controller refuses a pass with n_kg x n_ctx >= 2^16, so no sum wraps.
`default_nettype none

module sagen_walk_len (
  input  wire        clk_i,     // clock
  input  wire        rst_ni,    // asynchronous reset, active low
  input  wire        go_i,      // one cycle: a pass starts (its counts valid from here on)
  input  wire [15:0] n_ctx_i,   // contexts per filter group
  input  wire [15:0] n_kg_i,    // filter groups
  output wire [15:0] walk_o     // contexts of the walk so far added up (see above)
);

  reg [15:0] walk_q;   // k x n_ctx
  reg [15:0] kg_q;     // k: filter groups added (all ones after reset: none to add)

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      walk_q <= 16'd0;
      kg_q   <= 16'hFFFF;
    end else if (go_i) begin
      walk_q <= n_ctx_i;
      kg_q   <= 16'd1;
    end else if (kg_q < n_kg_i) begin
      walk_q <= walk_q + n_ctx_i;
      kg_q   <= kg_q + 16'd1;
    end
  end
  assign walk_o = walk_q;

endmodule

`resetall
