// sagen_weight_fetcher: streams one weight word (one weight per array column) per array step,
// in the reduction order the feed lanes use. The weight SRAM holds a tile as
// [filter group][channel][kernel row][kernel column] words of COLS weights, so a context reads
// L = C*R*S consecutive words; every context of a filter group reads the same L words. Columns
// past the layer's last filter read as zero. With column groups (sagen_array) a filter group is
// GRP_W filters, repeated in every group: column c holds filter col_j_i[c] of the filter group
// (col_j_i[c] >= GRP_W: a column outside every group, zero). A small FIFO hides the SRAM read
// latency: a word read in one cycle (sram_re_o, with its address) is in the FIFO the next, and
// ready_o the cycle after that.
//
// Latency: the first read is the cycle after start_i, and a word is at head_o (ready_o) two
// cycles after its read.
//
// Timing: every decision of the walk is a flag register (the last word of a context, the last
// context, the last filter group, room in the FIFO), so a read (sram_re_o) is one LUT of
// registers (pop_i moves only the FIFO's pointers and counts); the registers a read moves are
// enabled by one LUT of a qualifier register (a read of their kind is next) and room_q, and
// load muxes of registers selected by those flags. start_i only sets flags and clears counters
// (a synchronous reset), and the wide inputs reach the walk through registers loaded every
// cycle.
`default_nettype none

module sagen_weight_fetcher #(
  parameter integer COLS   = 4,   // array columns
  parameter integer W_BITS = 8,   // bits per weight
  parameter integer AW     = 10   // weight SRAM address bits
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   start_i,
  input  wire [31:0]            len_i,     // L: words per context
  input  wire [31:0]            n_ctx_i,   // contexts per filter group
  input  wire [15:0]            n_kg_i,    // filter groups
  input  wire [15:0]            k_act_i,   // filters in the tile
  input  wire [15:0]            grp_w_i,   // filters per filter group (COLS: no column groups)
  input  wire [COLS*16-1:0]     col_j_i,   // filter of each column within its group; column c's
                                           // is at most c (sagen_col_groups), so below COLS
  output wire                   sram_re_o,
  output wire [AW-1:0]          sram_addr_o,
  input  wire [COLS*W_BITS-1:0] sram_rdata_i,
  input  wire                   pop_i,
  output wire                   ready_o,
  output wire [COLS*W_BITS-1:0] head_o
);

  localparam [2:0]  DEPTH = 3'd4;
  // bits of a column's place in its group (< COLS), and of the counts compared with it
  localparam integer CB = $clog2(COLS + 1);

  // ---- the inputs ------------------------------------------------------------------------------
  // They hold through a pass and are valid from the cycle of start_i on; the first read is the
  // cycle after, so the walk reads them through registers loaded every cycle: the counts less
  // three (for the compares below), whether each count is 1 (or 0, which counts as 1) or 2,
  // and each column's place.
  reg [31:0]     len_m3_q, ctx_m3_q;
  reg [15:0]     kg_m3_q;
  reg            len_1_q, len_2_q, ctx_1_q, ctx_2_q, kg_1_q, kg_2_q;
  reg [15:0]     grp_w_q;
  reg [COLS-1:0] in_grp_q;              // col_j < GRP_W: the column is in a group
  reg [COLS*CB-1:0] cj_q;               // col_j, below COLS < 2^CB (see col_j_i)
  integer c;
  always @(posedge clk_i) begin
    len_m3_q <= len_i - 32'd3;
    ctx_m3_q <= n_ctx_i - 32'd3;
    kg_m3_q  <= n_kg_i - 16'd3;
    len_1_q  <= (len_i[31:1] == 31'd0);
    len_2_q  <= (len_i == 32'd2);
    ctx_1_q  <= (n_ctx_i[31:1] == 31'd0);
    ctx_2_q  <= (n_ctx_i == 32'd2);
    kg_1_q   <= (n_kg_i[15:1] == 15'd0);
    kg_2_q   <= (n_kg_i == 16'd2);
    grp_w_q  <= grp_w_i;
    for (c = 0; c < COLS; c = c + 1) begin
      in_grp_q[c]      <= |grp_w_i[15:CB] || col_j_i[c*16 +: CB] < grp_w_i[CB-1:0];
      cj_q[c*CB +: CB] <= col_j_i[c*16 +: CB];
    end
  end
  wire unused_cj = ^col_j_i;   // only the low CB bits of each place are kept

  // ---- the walk -------------------------------------------------------------------------------
  // Up-counters of the word within its context, the context within its filter group and the
  // filter group, each with two flags: it is the last (last_*) and the one before the last
  // (pre_*: the next step's last_*), set from a compare a step ahead with the count less three.
  // The address moves by the same steps: +1 within a context and from a group's last word to the
  // next group's first (the groups' words are consecutive), back to the group's base at the end
  // of any other context; addresses are AW bits, so they wrap as the SRAM does. A count of 0
  // counts as 1: the walk always makes one step (L >= 1 for the addresses; the controller
  // refuses L = 0).
  //
  // Timing: start_i only sets run_q and first_q and clears the counters and addresses (a
  // synchronous reset), and every register of the walk is enabled by every read (one LUT of
  // run_q and room_q): what a read does is a mux of registers, selected by the flags,
  // which at the first read (first_q) come from the input registers instead.
  reg          run_q;                   // reads left to issue
  reg          first_q;                 // the walk's first read is next
  reg          q_ctx_q, q_grp_q;        // see below
  reg [31:0]   i_cnt_q, ctx_cnt_q;      // the word read next within its context, its context
  reg [15:0]   kg_cnt_q;                // its filter group
  reg          last_i_q, last_ctx_q, last_kg_q;
  reg          pre_i_q, pre_ctx_q, pre_kg_q;
  reg [AW-1:0] addr_q, base_q;          // the word read next, its group's first
  reg [16:0]   kleft_q;                 // filters left from its group on (signed)
  reg          inflight_q;              // a word read last cycle arrives now
  reg [COLS-1:0] inflight_en_q;         // its column mask

  // ---- the FIFO -------------------------------------------------------------------------------
  (* mem2reg *) reg [COLS*W_BITS-1:0] fifo_q [0:DEPTH-1];
  reg [1:0]  wp_q, rp_q;
  reg [2:0]  count_q;                   // words in the FIFO
  reg [2:0]  occ_q;                     // words in the FIFO or on their way
  reg        room_q;                    // occ_q < DEPTH

  // A read when there is room, counting the pops up to last cycle: this cycle's pop (the array
  // edge's decision, a path across the design) reaches no more than the FIFO's pointers and
  // counts. The FIFO holds the two words on their way besides the two the edge may still take,
  // so a pop never finds it empty for want of the read the pop would have allowed.
  wire issue = run_q && room_q;
  assign sram_re_o   = issue;
  assign sram_addr_o = addr_q;

  // the flags of the word read next
  wire li = first_q ? len_1_q : last_i_q;     // the last of its context
  wire lc = first_q ? ctx_1_q : last_ctx_q;   // in the last context of its group
  wire lk = first_q ? kg_1_q  : last_kg_q;    // in the last group
  wire pi = first_q ? len_2_q : pre_i_q;
  wire pc = first_q ? ctx_2_q : pre_ctx_q;
  wire pk = first_q ? kg_2_q  : pre_kg_q;
  wire to_grp = li && lc;                     // the read ends its group
  // the same flags after the read
  wire run_n = !(to_grp && lk);
  wire li_n  = li ? len_1_q : pi;
  wire lc_n  = li ? (lc ? ctx_1_q : pc) : lc;

  // Run, and the qualifiers: the walk's first read is next, or a read that ends a context
  // (q_ctx_q), or a group (q_grp_q); the first read counts as both (it sets their flags).
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0; first_q <= 1'b0; q_ctx_q <= 1'b0; q_grp_q <= 1'b0;
    end else if (start_i) begin
      run_q <= 1'b1; first_q <= 1'b1; q_ctx_q <= 1'b1; q_grp_q <= 1'b1;
    end else if (issue) begin
      run_q   <= run_n;
      first_q <= 1'b0;
      q_ctx_q <= run_n && li_n;
      q_grp_q <= run_n && li_n && lc_n;
    end
  end
  wire go_ctx = q_ctx_q && room_q;
  wire go_grp = q_grp_q && room_q;
  wire ctx_init = first_q && !li;             // the first read, within the first context
  wire grp_init = first_q && !to_grp;         // the first read, within the first group

  // the word: every read
  always @(posedge clk_i) begin
    if (start_i) begin
      i_cnt_q <= 32'd0;
      addr_q  <= {AW{1'b0}};
    end else if (issue) begin
      i_cnt_q  <= li ? 32'd0 : i_cnt_q + 32'd1;
      last_i_q <= li_n;
      pre_i_q  <= li ? len_2_q : (i_cnt_q == len_m3_q);
      addr_q   <= (!li || lc) ? addr_q + {{(AW-1){1'b0}}, 1'b1} : base_q;
    end
  end
  // the context: reads that end one (and the first)
  always @(posedge clk_i) begin
    if (start_i) begin
      ctx_cnt_q <= 32'd0;
    end else if (go_ctx) begin
      ctx_cnt_q  <= (ctx_init || lc) ? 32'd0 : ctx_cnt_q + 32'd1;
      last_ctx_q <= (ctx_init || lc) ? ctx_1_q : pc;
      pre_ctx_q  <= (ctx_init || lc) ? ctx_2_q : (ctx_cnt_q == ctx_m3_q);
    end
  end
  // the filter group: reads that end one (and the first). The filters left from the group read
  // next on: k_act, less GRP_W for each group until it is negative (so that it stays within 17
  // bits, signed; no mux waits for the subtraction's sign).
  wire [16:0] k_next = kleft_q - (kleft_q[16] ? 17'd0 : {1'b0, grp_w_q});
  always @(posedge clk_i) begin
    if (start_i) begin
      kg_cnt_q <= 16'd0;
      base_q   <= {AW{1'b0}};
      kleft_q  <= {1'b0, k_act_i};
    end else if (go_grp) begin
      kg_cnt_q  <= grp_init ? 16'd0 : kg_cnt_q + 16'd1;
      last_kg_q <= grp_init ? kg_1_q : pk;
      pre_kg_q  <= grp_init ? kg_2_q : (kg_cnt_q == kg_m3_q);
      base_q    <= grp_init ? {AW{1'b0}} : addr_q + {{(AW-1){1'b0}}, 1'b1};
      kleft_q   <= grp_init ? {1'b0, k_act_i} : k_next;
    end
  end
  // column c holds a filter while col_j[c] < kleft and col_j[c] < GRP_W
  wire           k_hi = !kleft_q[16] && |kleft_q[15:CB];
  reg [COLS-1:0] colen;
  integer k;   // this block's loop variable (c is the clocked block's)
  always @* begin
    for (k = 0; k < COLS; k = k + 1)
      colen[k] = in_grp_q[k] && !kleft_q[16] && (k_hi || cj_q[k*CB +: CB] < kleft_q[CB-1:0]);
  end

  // The word arriving from the SRAM, its columns without a filter zeroed.
  reg [COLS*W_BITS-1:0] masked;
  integer m;
  always @* begin
    for (m = 0; m < COLS; m = m + 1)
      masked[m*W_BITS +: W_BITS] = inflight_en_q[m] ? sram_rdata_i[m*W_BITS +: W_BITS]
                                                    : {W_BITS{1'b0}};
  end

  // The FIFO's words: registers (mem2reg: not a memory, which sagen_sram alone infers), written
  // with no reset and no start (a word written as a pass starts is not counted, so never read).
  always @(posedge clk_i) begin
    if (inflight_q) fifo_q[wp_q] <= masked;
  end

  // the FIFO's state
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= 1'b0; inflight_en_q <= {COLS{1'b0}};
      wp_q <= 2'd0; rp_q <= 2'd0; count_q <= 3'd0; occ_q <= 3'd0; room_q <= 1'b1;
    end else if (start_i) begin
      inflight_q <= 1'b0;
      wp_q <= 2'd0; rp_q <= 2'd0; count_q <= 3'd0; occ_q <= 3'd0; room_q <= 1'b1;
    end else begin
      inflight_q    <= issue;
      inflight_en_q <= colen;           // the mask of the word read this cycle
      if (inflight_q) wp_q <= wp_q + 2'd1;
      if (pop_i) rp_q <= rp_q + 2'd1;
      count_q <= count_q + {2'd0, inflight_q} - {2'd0, pop_i};
      occ_q   <= occ_q + {2'd0, issue} - {2'd0, pop_i};
      room_q  <= (occ_q + {2'd0, issue} - {2'd0, pop_i}) < DEPTH;
    end
  end

  assign ready_o = (count_q != 3'd0);
  assign head_o  = fifo_q[rp_q];

endmodule

`resetall
