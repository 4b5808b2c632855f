/* cost_tuning: every tuning constant of the host driver's cost model and of the choices made
 * with it, in one place, each with where its value comes from. The hardware's own limits (the
 * 16-bit descriptor fields, 65535; the route table's filter groups, SAGEN_ROUTE_KGS of the register map) are not
 * tuning: they are facts of sagen_core.v and live with the register map.
 *
 * A margin below 1 (the *_GAIN constants) says how much faster a less certain form must be
 * estimated before it replaces a surer one: the estimate is a model, not a measurement (its mean
 * error was 0.7-1.3% on 70 random small layers per op, its worst 10%; docs/cost-model.md). */
#ifndef SAGEN_HOST_COST_TUNING_H
#define SAGEN_HOST_COST_TUNING_H

/* Cycles a pass takes besides its contexts' steps: its fill and drain (the reserve chains and
 * the deskew). Measured on 30 random layers: 42 to 55 a pass on a 16x16 array, 50 on average,
 * which 2 rows + cols + 2 gives (commit 56b4913; the 3 rows + cols + 40 = 104 before it
 * overcharged every pass); the array edge's register (sagen_core.v) adds 1 to the drain, and
 * the PE's operand register (sagen_pe.v, its multiplier on its own registers) 1 more, and the
 * partial-sums manager's register of the read data (sagen_psum_manager.v: a word written 3
 * cycles after its results leave the deskew) 1 more. */
#define PASS_FILL_DRAIN(c) (2.0 * (c)->rows + (c)->cols + 5 + FP_DRAIN(c))

/* Facts of the float datapath (data.format fp16, bf16, fp32), not tuning: a float PE's result
 * enters its reserve chain 36 cycles later than an integer PE's (sagen_pe_fp.v: its adder's six
 * stages and the reduction of its eight partial sums), and the partial-sums manager writes a
 * word 6 cycles later (its float adder; 12 with a col2im line, whose adders are a tree of two):
 * 42 (48) more cycles of drain a pass. Context ends come at least 18 cycles apart (the PE's
 * reduction) besides the reserve chains' 2 rows - 1. */
#define FP_DRAIN(c) ((c)->fp ? ((c)->line_words > 0 ? 48.0 : 42.0) : 0.0)
#define CTX_GAP(c) ((c)->fp && 2.0 * (c)->rows - 1 < 18.0 ? 18.0 : 2.0 * (c)->rows - 1)

/* A pass's overhead: its fill and drain, one cycle of the queues that decouple a producer's
 * advance from its consumer, and the controller's registered launch (a start taken in one
 * cycle, the descriptor latched in the next): 1.
 * The queue's cycle: where the drain is shorter than the data feeder's fill (its first element
 * is ready 19 cycles after its start: the index counters' first word 14 cycles after start, a
 * cycle in the feeder's queue, the read, the staged word, the lanes' pick; sagen_feeder.v), the
 * feeder's queue lengthens the pass by one; where the drain hides that fill (the feeder starts a
 * pass early, once the last pass's elements have left it), the pass's first step waits for the
 * tap sequencer, whose output queue (sagen_nz_addr_gen.v) presents its first element one cycle
 * after its walk has it. Either way one cycle a pass: over 50 random layers the feeder's queue
 * cost one a pass on tiny1x1 and rect4x8 (PASS_FILL_DRAIN 5 and 18 then, before the array
 * edge's register), and 16 runs of four configurations moved by 0 to 6 cycles, one a pass after
 * the first, with the tap sequencer's queue. */
#define PASS_OVERHEAD(c) (PASS_FILL_DRAIN(c) + 1 + 1)

/* Passes back to back (sagen_ctrl's chain_o): a pass whose start is pending once the pass before
 * has its last tap in the array, and whose first elements the data feeder (started on it
 * ahead) presents, starts then, while that pass's results drain, unless either is col2im or
 * their column groups differ. It then costs PASS_CHAINED instead of PASS_OVERHEAD, or
 * PASS_OVERHEAD where that is less (the hardware chains a pass only where that is sooner): the
 * feeder's restart, which no longer hides in the drain (its first element comes about 19 cycles
 * after its start, sagen_feeder.v), and the controller's end, start and latch. 20: the default
 * configuration's conv5_x 1x1 layer (2048 -> 512 channels on 7x7, 40 passes) spent 627 cycles
 * of fill and 4 launch cycles a pass. A pass that does not chain pays its fill (PASS_FILL: the
 * launch and the first step, 3 measured, and the queue's cycle) after the last pass's drain
 * (PASS_DRAIN, the rest of PASS_OVERHEAD), which the read-out of a tile's results always waits
 * for. */
#define PASS_CHAINED(c) fmin(20.0, PASS_OVERHEAD(c))
#define PASS_FILL 4.0
#define PASS_DRAIN(c) (PASS_OVERHEAD(c) - PASS_FILL)

/* Cycles from a pass's end to the host's job that waits for it (a read-out, a load into the
 * bank the pass read), beyond what a combinational STATUS read gave when the schedule estimate
 * was fitted: the host sees STATUS READ_LATENCY cycles after asking (the register map's
 * constant, the controller's read pipeline), READ_LATENCY - 1 more than then. */
#define STATUS_DELAY (SAGEN_READ_LATENCY - 1)

/* The tilings with the lowest summed estimates (cost_of) that the tiling search plans pass by
 * pass and estimates again as they would run (cost_schedule). 24 came with the schedule
 * estimate (commit 56b4913: on 90 random layers per op the estimates' mean error went from
 * 8.6-14.2% to 1.4-4.4% and the tilings chosen ran 0.95-0.98x the cycles); the history records
 * no sweep of this count itself. It bounds the set-up's work: each candidate is planned pass by
 * pass and replayed. */
#define SCHED_CANDIDATES 24

/* Tilings whose estimated cycles are within COST_TIE of the fastest's are traded against their
 * host-port traffic, 1% of cycles for every TRAFFIC_RATE% of bytes saved. (Where the array
 * binds, many tilings tie on cycles while their traffic differs severalfold: a weight tensor
 * streamed once per small output tile, say, rather than once per large one.) 1.5%: a 1x1
 * input gradient of 1024 channels (tests/cost_model_runs.sh) streams dy twice at 1.1% more
 * cycles, or three times; at 1% it fell just outside the window. TRAFFIC_RATE 10: the
 * gradients of BP-im2col's first, fourth and fifth layers moved 3.16, 6.55 and 11.70 MB without
 * the trade and 2.37, 4.83 and 9.29 MB with it, within 0.3% of the cycles (docs/cost-model.md,
 * "traffic in the tiling choice"). */
#define COST_TIE 0.015
#define TRAFFIC_RATE 10.0

/* The pass shapes whose array cycles cost_schedule keeps (a run's passes come in a few shapes:
 * the full tiles', the edge tiles', the last slices'). A pure cache: a miss recomputes the same
 * figure, so the value trades a few hundred bytes for time and changes no estimate. */
#define SCHED_SHAPES 8

/* H and W are exchanged (orient_choose) only if the exchanged run is estimated below this
 * fraction of the run as given: "a clear gain, since the estimate is a model, not a
 * measurement" (the original comment; no measurement of the value is recorded). 5% is above
 * the estimates' mean error, so a layer does not change orientation on the model's noise. */
#define ORIENT_GAIN 0.95

/* A side-by-side run (images of a batch as one wide image) is taken where its estimate is below
 * this fraction of the images apart' (the model's figures, not measurements; the options can
 * force either). No measurement of the value is recorded (commit 57965cd); 2% is about the
 * estimates' mean error. */
#define SIDE_GAIN 0.98

/* A partition into blocks, some of them joined, replaces all joined or all apart only for a
 * clear gain in the estimate: the model is least sure of blocks (on a 5x5 stride-2 loss with 3
 * channels it estimated them 8% below all joined, and they ran 17% slower). Over 24 random
 * strided losses with 1-8 channels of dx (default, small8x8, rect4x8), blocks chosen at any
 * gain ran 0.932x the cycles of the earlier forms (geometric mean; 1.069x at worst), at 10%
 * 0.939x with none slower, at 20% 0.979x; at 10% on 24 more, 0.932x with none slower. Since
 * partitions of up to 6 phases are all searched and column groups serve joined phases of 16
 * filters or more, 5% and 10% ran alike over 70 random losses with 1-24 channels of
 * dx (within 0.3%), and 5% keeps the blocks of a 7x7 stride-3 loss with 2 channels, which all
 * joined on 2 column groups came within 9% of and ran 13% slower than. */
#define BLOCKS_GAIN 0.95

/* Up to this many phases (a stride of 2 x 3), blocks_choose tries every partition as it would
 * run (203 of 6 phases, 15 of the 4 of a stride of 2 x 2); beyond, it searches greedily (the
 * 4140 partitions of 8 phases would each be planned and estimated). */
#define BLOCKS_EXACT 6

/* col2im replaces the phases' best form only below this fraction of its estimate. No
 * measurement of the value is recorded (commit 3be9780); a 3% margin, as col2im's passes
 * (one-row tiles, the overlap-add line) are the newest to the model. The case it was built for
 * is far past it (BP-im2col's first-layer loss: 408 133 -> 207 381 cycles). */
#define C2I_GAIN 0.97

#endif
