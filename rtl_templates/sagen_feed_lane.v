// sagen_feed_lane: one lane of the on-the-fly im2col data feeder, one per array row.
//
// The lane computes one output pixel of each context. It knows where that pixel sits: its
// column times stride_w (xs) and its output row relative to lane 0's (dg). Every lane sees
// every bus word the index counters read; a word belongs to one segment (one output row of the
// context) and comes with REL, the position of its first element relative to the segment's first
// interest element. The lane only looks at words of its own segment. Its first interest element
// sits at its local offset LOC (xs, minus lane 0's xs when both are in the first segment), so the
// kernel pattern (bit s*dilation_w set for each kernel column s) shifted by the word offset
// LOC - REL marks the elements of the bus this lane needs. Up to M of them are taken per cycle
// (the intermediate registers) and pushed into the lane FIFO; if more remain, or the FIFO has no
// room, the lane holds done_o low and the read pipeline stops until every lane has its data.
// The array pops one element per step from the FIFO head; the feed registers that skew row r by
// r steps are a sagen_skew after the lane.
//
// Linear contexts (lin_i; stride 1, the row pitch equal to the output width): every word is the
// lane's, its local offset is its lane number (LANE_I), and a tap whose input column falls
// outside the tile (xs - pad_l + tap position not in [0, tile_w)) is taken as a zero: its bus
// position holds an element of the neighbouring row.
`default_nettype none

module sagen_feed_lane #(
  parameter integer BUS      = 16,  // elements per bus word
  parameter integer IN_BITS  = 8,   // bits per element
  parameter integer M        = 3,   // intermediate registers: elements taken per cycle
  parameter integer PAT_BITS = 64,  // kernel pattern width
  parameter integer DEPTH    = 4    // FIFO depth in elements, >= M
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // current bus word (held by the feeder until every lane is done with it)
  input  wire                    word_vld_i,
  input  wire [BUS*IN_BITS-1:0]  word_i,
  input  wire signed [31:0]   word_rel_i,   // word start - lane 0's first interest element
  input  wire                    word_adv_i,   // every lane is done: the next word comes
  input  wire [15:0]             word_seg_i,   // segment (output row offset) of the word
  input  wire                    pass_last_i,  // this word is in the last row pass of a context
  // configuration of the current pass
  input  wire [PAT_BITS-1:0]     pat_i,        // kernel pattern
  input  wire [31:0]             pat_top_i,    // index of the pattern's highest set bit
  // position of this lane's pixel
  input  wire                    start_i,      // load the position in the first context
  input  wire [31:0]             xs_init_i,    // column * stride_w in the first context
  input  wire [15:0]             dg_init_i,    // output row offset from lane 0 in the first context
  input  wire [15:0]             rows_left_i,  // the tile's output rows below lane 0's
  input  wire                    ctx_adv_i,    // the word stream moves to the next context
  input  wire [31:0]             ctx_xs_i,     // x advance per context (stride_w units)
  input  wire [31:0]             ow_xs_i,      // output tile width * stride_w
  input  wire [31:0]             xs0_i,        // lane 0's xs in the current context
  input  wire                    wrap0_i,      // lane 0 wraps to the next row on this advance
  // linear contexts
  input  wire                    lin_i,        // the pass uses linear contexts
  input  wire [31:0]             lane_i,       // this lane's number
  input  wire [15:0]             pad_l_i,      // virtual columns left of the tile
  input  wire [15:0]             tile_w_i,     // columns held in the tile
  // array side
  input  wire                    pop_i,        // the array takes the head this cycle
  output wire                    done_o,       // taken everything this lane needs of the word
  output wire                    nonempty_o,
  output wire [IN_BITS-1:0]      head_o,
  output wire                    head_last_o   // head is the last element of its context
);

  localparam integer CW = $clog2(DEPTH + 1);  // FIFO count width
  localparam integer BW = $clog2((BUS > DEPTH ? BUS : DEPTH) + 1);  // element count width

  // ---- align the kernel pattern with the bus ------------------------------------------------
  // A pixel below the tile's last output row (phantom: the context runs past the tile's end)
  // has no segment of its own; the lane takes lane 0's elements, and its result is dropped.
  reg  [31:0] xs_q;
  reg  [15:0] dg_q;
  wire        phantom = !lin_i && (dg_q > rows_left_i);
  wire        mine = lin_i || (word_seg_i == (phantom ? 16'd0 : dg_q));
  wire signed [31:0] loc = lin_i   ? $signed(lane_i) :
                           phantom ? 32'sd0 : xs_q - ((dg_q == 16'd0) ? xs0_i : 32'd0);
  wire signed [31:0] sh  = loc - word_rel_i;            // pattern bit 0 sits at bus position sh
  wire signed [31:0] last_pos = sh + $signed(pat_top_i); // bus position of the last kernel tap
  wire [31:0] sh_mag = sh[31] ? -sh : sh;
  wire [BUS+PAT_BITS-1:0] pat_ext = {{BUS{1'b0}}, pat_i};
  wire [BUS+PAT_BITS-1:0] pat_sh  = sh[31] ? (pat_ext >> sh_mag) : (pat_ext << sh_mag);
  wire [BUS-1:0] sel = pat_sh[BUS-1:0];
  wire unused_pat_sh = ^pat_sh[BUS+PAT_BITS-1:BUS];

  // Linear contexts: bus position j is input column xs - pad_l + (j - sh) of the lane's row, so
  // the taps inside the tile sit at positions [col_lo, col_lo + tile_w).
  wire signed [31:0] col_lo = {16'd0, pad_l_i} - xs_q + sh;
  wire signed [31:0] col_hi = col_lo + {16'd0, tile_w_i};
  reg  [BUS-1:0] col_ok;
  integer j;
  always @* begin
    col_ok = {BUS{1'b1}};
    if (lin_i)
      for (j = 0; j < BUS; j = j + 1) col_ok[j] = (j >= col_lo) && (j < col_hi);
  end

  reg  [BUS-1:0] taken_q;
  wire [BUS-1:0] avail = (word_vld_i && mine) ? (sel & ~taken_q) : {BUS{1'b0}};

  // ---- FIFO state ------------------------------------------------------------------------------
  reg [IN_BITS-1:0] q_data [0:DEPTH-1];
  reg               q_last [0:DEPTH-1];
  reg [CW-1:0]      count_q;

  // ---- selection: take the first npick available elements, in bus order -------------------
  reg [BW-1:0]        navail;
  reg [BW-1:0]        npick;
  reg [BW-1:0]        cnt;
  reg [BUS-1:0]       picked;
  reg [M*IN_BITS-1:0] slot_data;
  reg [M-1:0]         slot_last;
  reg [31:0]          room_i, npick_i;
  integer i;
  always @* begin
    navail = {BW{1'b0}};
    for (i = 0; i < BUS; i = i + 1) navail = navail + {{(BW-1){1'b0}}, avail[i]};
    room_i  = DEPTH - {{(32-CW){1'b0}}, count_q} + {31'd0, pop_i};
    npick_i = {{(32-BW){1'b0}}, navail};
    if (npick_i > M)      npick_i = M;
    if (npick_i > room_i) npick_i = room_i;
    npick = npick_i[BW-1:0];
    cnt       = {BW{1'b0}};
    picked    = {BUS{1'b0}};
    slot_data = {(M*IN_BITS){1'b0}};
    slot_last = {M{1'b0}};
    for (i = 0; i < BUS; i = i + 1) begin
      if (avail[i] && cnt < npick) begin
        picked[i] = 1'b1;
        slot_data[cnt*IN_BITS +: IN_BITS] = col_ok[i] ? word_i[i*IN_BITS +: IN_BITS]
                                                      : {IN_BITS{1'b0}};
        slot_last[cnt*1 +: 1] = pass_last_i && (last_pos == i);
        cnt = cnt + 1'b1;
      end
    end
  end

  assign done_o = word_vld_i && (npick == navail);

  // ---- FIFO update: pop from the head, push npick slots behind the survivors ----------------
  wire [CW-1:0] keep = count_q - {{(CW-1){1'b0}}, pop_i};
  integer e, m;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= {CW{1'b0}};
      taken_q <= {BUS{1'b0}};
      for (e = 0; e < DEPTH; e = e + 1) begin
        q_data[e] <= {IN_BITS{1'b0}};
        q_last[e] <= 1'b0;
      end
    end else begin
      for (e = 0; e < DEPTH; e = e + 1) begin
        if (pop_i && e + 1 < DEPTH) begin
          q_data[e] <= q_data[e+1];
          q_last[e] <= q_last[e+1];
        end
        for (m = 0; m < M; m = m + 1) begin
          if (m < {{(32-BW){1'b0}}, npick} && e == {{(32-CW){1'b0}}, keep} + m) begin
            q_data[e] <= slot_data[m*IN_BITS +: IN_BITS];
            q_last[e] <= slot_last[m];
          end
        end
      end
      count_q <= keep + npick[CW-1:0];
      if (word_adv_i) taken_q <= {BUS{1'b0}};
      else            taken_q <= taken_q | picked;
    end
  end

  // Position of the pixel: ROWS pixels on per context, wrapping into the next output row.
  wire [31:0] xs_n = xs_q + ctx_xs_i;
  wire        wrap = (xs_n >= ow_xs_i);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xs_q <= 32'd0;
      dg_q <= 16'd0;
    end else if (start_i) begin
      xs_q <= xs_init_i;
      dg_q <= dg_init_i;
    end else if (ctx_adv_i) begin
      xs_q <= wrap ? xs_n - ow_xs_i : xs_n;
      dg_q <= dg_q + {15'd0, wrap} - {15'd0, wrap0_i};
    end
  end

  assign nonempty_o  = (count_q != {CW{1'b0}});
  assign head_o      = q_data[0];
  assign head_last_o = q_last[0];

endmodule

`resetall
