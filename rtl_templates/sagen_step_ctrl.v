// sagen_step_ctrl: the array edge. Each cycle of a pass it decides whether the tap the tap
// sequencer presents enters the array, and says where the cycle went (one event each busy
// cycle); it checks the sequencer's context ends against the feed lanes' and tells the
// controller when the pass has ended and when the feeder is free for the next pass. A pass ends
// when its last tap has entered and its results are written, or, if the next pass is chained
// (chain_i: pending and allowed to start early, sagen_ctrl), as soon as its last tap has
// entered and the feeder, running the next pass ahead, presents that pass's first elements:
// the next pass then starts while this one's results drain (counted as drain only where no
// pass follows at once), and never later than it would after them. gap_q runs on across
// passes, so a chained pass's first context end keeps its distance from the last one's.
//
// The array runs every cycle. A presented tap enters it (adv_o) when it is a zero-space tap, or
// a non-zero one whose operands are all there (every feed lane and the weight fetcher ready): a
// non-zero tap pops the lanes and the weights (pop_o, a valid step), a zero-space tap feeds
// created zeros (zstep_o, a zero step). A context's last tap waits until GAP cycles have passed
// since the previous context's last tap entered: 2*ROWS-1 (the reserve chains must empty), or
// the PEs' own MIN_GAP where that is more (a float PE's reduction: 18); such a cycle is a bubble. Every other busy cycle is fill (before the pass's first step), stall
// (after it) or drain (the sequencer is done and the feeder has nothing of this pass left).
//
// Sequence check: the feed lanes mark the last element of each context (lane 0 stands for all;
// the lanes pop together), the tap sequencer its last tap. A context must end on the element
// the lanes marked, and after that element the sequencer may present no other non-zero tap in
// the same context: seq_err_o is high in a cycle where either fails (a pass without operands
// pops nothing and is not checked at its context ends).
//
// Timing: adv_o, pop_o and the events are a few gates on the inputs and on gap_q/started_q/
// fed_last_q; gap_q counts only to GAP (it saturates there: too_soon_o is all that reads it).
`default_nettype none

module sagen_step_ctrl #(
  parameter integer ROWS    = 4,  // array rows: context ends are at least 2*ROWS-1 cycles apart
  parameter integer MIN_GAP = 1   // ... and at least this many (the PE's)
) (
  input  wire clk_i,           // clock
  input  wire rst_ni,          // asynchronous reset, active low
  input  wire go_i,            // one cycle: a pass starts (the cycle before busy_i rises)
  input  wire busy_i,          // a pass runs
  input  wire no_ops_i,        // the pass has no operand at all (zero_fill, no non-zero tap)
  // the tap sequencer's presented tap
  input  wire tap_vld_i,       // a tap is presented
  input  wire tap_nz_i,        // it holds an operand (low: a zero-space tap)
  input  wire tap_last_i,      // it is its context's last tap
  input  wire tap_busy_i,      // the sequencer is walking (or in its prologue)
  // operands
  input  wire f_ready_i,       // every feed lane presents an element
  input  wire f_idle_i,        // the feeder holds no element (of any pass)
  input  wire f_ahead_i,       // the feeder runs the next pass: none of this pass is left in it
  input  wire f_head_last_i,   // lane 0's presented element is its context's last
  input  wire w_ready_i,       // the weight fetcher presents a weight word
  input  wire psm_done_i,      // the partial-sums manager has written every result
  input  wire chain_i,         // the next pass may start while this one's results drain
  // steps
  output wire adv_o,           // the presented tap enters the array (the sequencer moves on)
  output wire pop_o,           // ... and pops the lanes and the weights (a valid step)
  output wire zstep_o,         // ... and is a zero-space tap: created zeros (a zero step)
  output wire ctx_end_o,       // ... and is its context's last tap
  output wire too_soon_o,      // a context's last tap is presented less than GAP cycles after
                               // the previous one entered (DEBUG bit 5)
  // pass control
  output wire pass_end_o,      // the pass has ended (sequencer and feeder done, and its results
                               // written or the next pass chained)
  output wire feed_free_o,     // the feeder may start the pending pass
  // events, one cycle each: exactly one of pop_o, zstep_o, bubble, fill, stall, drain in every
  // busy cycle
  output wire ev_bubble_o,     // a context end waits for the reserve chains
  output wire ev_fill_o,       // waiting for operands before the pass's first step
  output wire ev_stall_o,      // waiting for operands after it
  output wire ev_drain_o,      // the last tap has entered, results still on their way
  output wire seq_err_o        // the sequencer and the feed lanes disagree on a context end
);

  // GAP = max(2*ROWS-1, MIN_GAP), and gap_q's width: it counts 1..GAP
  localparam integer GAP = ((ROWS << 1) - 1 > MIN_GAP) ? (ROWS << 1) - 1 : MIN_GAP;
  localparam integer GW  = $clog2(GAP + 1);
  localparam [31:0]   GAP32 = GAP, ONE32 = 1;
  localparam [GW-1:0] GAP_W = GAP32[GW-1:0];
  localparam [GW-1:0] ONE_W = ONE32[GW-1:0];

  reg  [GW-1:0] gap_q;       // cycles since the last context end entered the array, up to GAP
  reg           started_q;   // the pass has made its first step
  reg           fed_last_q;  // the lanes' marked element of this context has been popped

  wire ready     = f_ready_i && w_ready_i;
  wire tap_ready = tap_vld_i && (!tap_nz_i || ready);
  wire too_soon  = tap_last_i && (gap_q < GAP_W);
  wire adv       = busy_i && tap_ready && !too_soon;
  wire pop       = adv && tap_nz_i;
  wire ctx_end   = adv && tap_last_i;
  wire bubble    = busy_i && tap_ready && too_soon;
  wire tap_idle  = !tap_vld_i && !tap_busy_i;
  wire f_done    = f_idle_i || f_ahead_i;   // the feeder has no element of this pass left
  wire draining  = busy_i && tap_idle && f_done;
  wire waiting   = busy_i && !adv && !bubble && !draining;

  assign adv_o       = adv;
  assign pop_o       = pop;
  assign zstep_o     = adv && !tap_nz_i;
  assign ctx_end_o   = ctx_end;
  assign too_soon_o  = too_soon;
  wire   next_ready  = chain_i && f_ahead_i && f_ready_i;
  assign pass_end_o  = tap_idle && f_done && (psm_done_i || next_ready);
  // this pass's elements have all left the feeder (a pass without operands never started it)
  assign feed_free_o = f_idle_i && !f_ahead_i;
  assign ev_bubble_o = bubble;
  assign ev_drain_o  = draining;
  assign ev_fill_o   = waiting && !started_q;
  assign ev_stall_o  = waiting && started_q;

  wire ctx_end_ok = pop ? f_head_last_i : fed_last_q;
  assign seq_err_o = (ctx_end && !no_ops_i && !ctx_end_ok) ||
                     (busy_i && tap_vld_i && tap_nz_i && fed_last_q);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gap_q     <= GAP_W;
      started_q <= 1'b0;
    end else if (go_i) begin
      started_q <= 1'b0;
    end else begin
      gap_q <= ctx_end ? ONE_W : ((gap_q == GAP_W) ? gap_q : gap_q + ONE_W);
      if (adv) started_q <= 1'b1;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      fed_last_q <= 1'b0;
    else if (go_i)    fed_last_q <= 1'b0;
    else if (ctx_end) fed_last_q <= 1'b0;
    else if (pop)     fed_last_q <= f_head_last_i;
  end

endmodule

`resetall
