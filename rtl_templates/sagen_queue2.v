// sagen_queue2: a queue of two entries whose producer moves on a registered condition.
//
// A producer whose advance enables many flip-flops (a walk of counters) should not wait in the
// same cycle for its consumer's decision, which may come from far away: with this queue between
// them it pushes whenever room_o is high, and room_o is a flip-flop (the second entry is free).
// The consumer sees the head (vld_o, q_o, from flip-flops) and pops it with pop_i. With the head
// leaving every cycle one entry is in use and an entry a cycle flows; a word pushed into an
// empty queue is at the head the next cycle (one cycle of latency).
//
// q0 is the head, q1 the entry behind it. A push goes into q0 when q0 is free or leaves this
// cycle and q1 is empty, else into q1. flush_i empties the queue (a push in the same cycle is
// dropped). push_i without room_o, and pop_i without vld_o, are ignored. The entries take no
// reset unless RESET_DATA is 1 (a consumer that reads q_o while vld_o is low then sees zeros
// after reset, never X, as Icarus's four states would show it).
`default_nettype none

module sagen_queue2 #(
  parameter integer W          = 8,  // bits of an entry
  parameter integer RESET_DATA = 0   // 1: the entries are reset to zero
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         flush_i,
  input  wire         push_i,
  input  wire [W-1:0] d_i,
  output wire         room_o,
  input  wire         pop_i,
  output wire         vld_o,
  output wire [W-1:0] q_o
);

  reg         q0_vld_q, q1_vld_q;
  reg [W-1:0] q0_q, q1_q;
  wire        push = push_i && !q1_vld_q;
  wire        pop  = pop_i && q0_vld_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q0_vld_q <= 1'b0;
      q1_vld_q <= 1'b0;
    end else if (flush_i) begin
      q0_vld_q <= 1'b0;
      q1_vld_q <= 1'b0;
    end else begin
      if (!q0_vld_q || pop) q0_vld_q <= q1_vld_q || push;
      if (q1_vld_q)         q1_vld_q <= !pop;
      else                  q1_vld_q <= push && q0_vld_q && !pop;
    end
  end

  // the entries: without RESET_DATA no reset (vld says when they are read)
  generate
    if (RESET_DATA != 0) begin : g_rst
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          q0_q <= {W{1'b0}};
          q1_q <= {W{1'b0}};
        end else begin
          if (!q0_vld_q || pop) q0_q <= q1_vld_q ? q1_q : d_i;
          if (!q1_vld_q)        q1_q <= d_i;
        end
      end
    end else begin : g_norst
      always @(posedge clk_i) begin
        if (!q0_vld_q || pop) q0_q <= q1_vld_q ? q1_q : d_i;
        if (!q1_vld_q)        q1_q <= d_i;
      end
    end
  endgenerate

  assign room_o = !q1_vld_q;
  assign vld_o  = q0_vld_q;
  assign q_o    = q0_q;

endmodule

`resetall
