// sagen_feeder: the on-the-fly im2col data feeder: index counters, a two-word queue and a
// three-stage word pipeline shared by all lanes, LANES feed lanes. It reads every word of a
// context's interest region once and lets each lane pick the elements its output pixel needs.
// The array side sees one FIFO head per lane; the array pops all heads together. Lanes from
// lanes_i on sit out the pass (an array with column groups has a lane per row and group; a pass
// with fewer groups uses fewer): they take nothing, and read as done and ready. The feed
// registers (row skew) follow in sagen_core.
//
// The word pipeline: I, the word the index counters present; Q, a queue of two words (the
// head's SRAM read is issued when it moves on); S, the read completes; B, the word is staged and
// the lanes take their taps from it. Q's head, S and B move together (accept), when every lane
// in use is done with the staged word (or none is staged). The index counters move on whenever
// the queue has room, a registered condition, so their advance (which enables most of their
// flip-flops) never waits in the same cycle for the lanes' done, and a word a cycle still flows
// (with the head leaving every cycle the queue holds one word). The queue costs one cycle of
// fill where a pass's first word is read as soon as it is presented. The lanes' context
// positions move with the word at Q's head.
//
// The kernel row of a pass is S taps (taps_i) d elements apart (tap_gap_i): the feeder works out
// the tap offsets md_t = t * d (shifts and adds of d), the row's span (S-1) * d + 1 and each
// lane's pixel in the first context (sagen_lane_init) once per pass, before its first word. The
// controller refuses a row wider than PAT_BITS, so md_t < PAT_BITS for t < S: the lanes hold the
// offsets, and the places of their taps within a kernel row, in DW = log2(PAT_BITS) bits.
// What all lanes share per context is worked out here once: lane 0's position, and the least
// row offset of a pixel below the tile (ph_row: such a lane is phantom and takes lane 0's taps).
//
// A pass may start before its data is in the ifmap memory (its descriptor is known while the
// host still loads its tile): the index counters and the lanes' constants fill the pipeline up
// to the queue, and no word is read until run_i.
`default_nettype none

module sagen_feeder #(
  parameter integer LANES    = 4,   // feed lanes (array rows x column groups)
  parameter integer BUS      = 16,  // elements per bus word
  parameter integer LG_BUS   = 4,   // log2(BUS)
  parameter integer IN_BITS  = 8,   // bits per element
  parameter integer M        = 3,   // taps a lane takes per cycle at most
  parameter integer DEPTH    = 4,   // lane FIFO depth; also the most taps of a kernel row pass
  parameter integer AW       = 10,  // ifmap SRAM address bits
  parameter integer XW       = 16,  // width of element positions in the tile (signed)
  parameter integer SW       = 9,   // width of a context's row offsets
  parameter integer PAT_BITS = 64,  // the widest kernel row: (S-1) * d + 1 <= PAT_BITS
  parameter [63:0]  PAD      = 64'd0 // what a padding position reads as (its low IN_BITS): 0,
                                     // or a float design's "no operand" (sagen_fp_mul)
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     start_i,
  input  wire                     run_i,       // the pass's data is in: read it (see below)
  input  wire [15:0]              lanes_i,     // lanes in use this pass (the first lanes_i)
  // pass descriptor (see sagen_index_counters)
  input  wire [15:0]              n_ch_i,
  input  wire [15:0]              n_kr_i,
  input  wire [15:0]              n_ctx_i,
  input  wire [15:0]              n_kg_i,
  input  wire [XW-1:0]            plane_i,
  input  wire [XW-1:0]            kr_step_i,
  input  wire [XW-1:0]            oy_step_i,
  input  wire [XW-1:0]            ctx_xs_i,
  input  wire [XW-1:0]            ctx_py_i,
  input  wire [15:0]              ctx_y_i,
  input  wire [XW-1:0]            ow_xs_i,
  input  wire [XW-1:0]            last_xs_i,
  input  wire [SW-1:0]            last_dseg_i,
  input  wire [15:0]              oh_last_i,
  input  wire [15:0]              ctx_rows_i,
  input  wire [XW-1:0]            base_i,
  input  wire [15:0]              dil_h_i,
  input  wire [15:0]              str_h_i,
  input  wire [15:0]              str_w_i,
  input  wire [15:0]              pad_t_i,
  input  wire [15:0]              pad_l_i,
  input  wire [15:0]              tile_h_i,
  input  wire [15:0]              tile_w_i,
  input  wire [15:0]              taps_i,      // S: taps of a kernel row (1 .. DEPTH)
  input  wire [15:0]              tap_gap_i,   // d: elements between two taps (the dilation)
  input  wire                     lin_i,       // linear contexts (see sagen_index_counters)
  // ifmap SRAM read port (data the cycle after the read)
  output wire                     sram_re_o,
  output wire [AW-1:0]            sram_addr_o,
  input  wire [BUS*IN_BITS-1:0]   sram_rdata_i,
  // array side
  input  wire                     pop_i,
  output wire                     ready_o,     // every lane has an element
  output wire [LANES*IN_BITS-1:0] head_o,
  output wire [LANES-1:0]         head_last_o,
  output wire                     idle_o,      // the pass's elements have all left the lanes
  // performance events
  output wire                     ev_pad_word_o, // a word of padding only, not read
  // state for the DEBUG register
  output wire                     dbg_rd_vld_o,     // a word waits for its read (I or Q)
  output wire                     dbg_word_vld_o,   // the word stage holds a word
  output wire [LANES-1:0]         dbg_lane_done_o,  // lanes done with the staged word
  output wire [LANES-1:0]         dbg_lane_nonempty_o
);

  localparam integer NMD  = ((M > DEPTH) ? M : DEPTH) + 1;   // tap offsets md_0 .. md_(NMD-1)
  localparam integer NWW  = XW - LG_BUS;
  localparam integer TWD  = $clog2(NMD + 1);
  localparam integer LTW  = $clog2(DEPTH + 1);               // width of S
  // a tap offset within a kernel row: md_t <= PAT_BITS - 1 for t < S (the controller refuses
  // wider rows), so the lanes hold md_t in DW bits
  localparam integer DW   = (PAT_BITS > 2) ? $clog2(PAT_BITS) : 1;
  // cycles from start to the lanes' first context: the lane table settles first
  localparam integer LSTART = ((LANES > 1) ? $clog2(LANES) + 1 : 1) + 1;

  // 16-bit descriptor fields as positions
  wire [31:0]   str_w32 = {16'd0, str_w_i};
  wire [31:0]   pad_l32 = {16'd0, pad_l_i};
  wire [31:0]   twp32   = {16'd0, tile_w_i} + {16'd0, pad_l_i};
  wire [31:0]   gap32   = {16'd0, tap_gap_i};
  wire [XW-1:0] str_w_x = str_w32[XW-1:0];
  wire [XW-1:0] pad_l_x = pad_l32[XW-1:0];
  wire [XW-1:0] twp_x   = twp32[XW-1:0];
  wire [DW-1:0] gap_d   = gap32[DW-1:0];
  wire          unused_f = ^{str_w32, pad_l32, twp32, gap32, taps_i[15:TWD]};

  // ---- per-pass constants ---------------------------------------------------------------------
  // md_t = t * d mod 2^DW: a sum of d shifted by the bits of the constant t
  reg  [NMD*DW-1:0] md_q;
  reg  [XW-1:0]     kspan_q;        // (S-1) * d + 1
  reg  [XW:0]       xs_ow_q;        // ctx_xs - ow_xs
  reg  [LSTART:0]   st_q;           // start, delayed
  reg  [NMD*DW-1:0] md_d;
  integer t, b;
  always @* begin
    md_d = {(NMD*DW){1'b0}};
    for (t = 0; t < NMD; t = t + 1)
      for (b = 0; b < TWD; b = b + 1)
        if (((t >> b) & 1) != 0) md_d[t*DW +: DW] = md_d[t*DW +: DW] + (gap_d << b);
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      md_q <= {(NMD*DW){1'b0}};
      xs_ow_q <= {(XW+1){1'b0}};
    end else begin
      md_q <= md_d;
      xs_ow_q <= {1'b0, ctx_xs_i} - {1'b0, ow_xs_i};
    end
  end
  wire unused_md0 = ^md_q[DW-1:0];   // md_0 = 0
  // the span: md_(S-1) + 1 (S >= 1; the controller refuses S = 0)
  reg  [31:0] kspan32;
  integer ts;
  always @* begin
    kspan32 = 32'd1;
    for (ts = 1; ts < NMD; ts = ts + 1)
      if ({16'd0, taps_i} == ts + 1) kspan32 = {{(32-DW){1'b0}}, md_q[ts*DW +: DW]} + 32'd1;
  end
  wire unused_ks = ^kspan32;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) kspan_q <= {XW{1'b0}};
    else         kspan_q <= kspan32[XW-1:0];
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) st_q <= {(LSTART+1){1'b0}};
    else         st_q <= {st_q[LSTART-1:0], start_i};
  end

  // each lane's pixel in the first context
  wire [LANES*XW-1:0] xs_init;
  wire [LANES*SW-1:0] dg_init;
  sagen_lane_init #(
    .LANES(LANES),
    .XW   (XW),
    .SW   (SW)
  ) u_lane_init (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .str_w_i(str_w_x),
    .ow_xs_i(ow_xs_i),
    .xs_o   (xs_init),
    .dg_o   (dg_init)
  );

  // ---- index counters (stage I) ---------------------------------------------------------------
  wire              ic_vld, ic_rd, ic_fs, ic_last, ic_ctx_last, ic_grp_last;
  wire [AW-1:0]     ic_addr;
  wire [BUS-1:0]    ic_mask;
  wire [LG_BUS-1:0] ic_ofs;
  wire [NWW-1:0]    ic_iw;
  wire [SW-1:0]     ic_seg;
  wire              ic_busy;
  wire              accept;
  wire              room_q;         // the queue (below) takes the word the counters present

  sagen_index_counters #(
    .BUS   (BUS),
    .LG_BUS(LG_BUS),
    .AW    (AW),
    .XW    (XW),
    .SW    (SW)
  ) u_index_counters (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (start_i),
    .n_ch_i     (n_ch_i),
    .n_kr_i     (n_kr_i),
    .n_ctx_i    (n_ctx_i),
    .n_kg_i     (n_kg_i),
    .plane_i    (plane_i),
    .kr_step_i  (kr_step_i),
    .oy_step_i  (oy_step_i),
    .ctx_xs_i   (ctx_xs_i),
    .ctx_py_i   (ctx_py_i),
    .ctx_y_i    (ctx_y_i),
    .ow_xs_i    (ow_xs_i),
    .last_xs_i  (last_xs_i),
    .last_dseg_i(last_dseg_i),
    .oh_last_i  (oh_last_i),
    .ctx_rows_i (ctx_rows_i),
    .base_i     (base_i),
    .dil_h_i    (dil_h_i),
    .str_h_i    (str_h_i),
    .str_w_i    (str_w_i),
    .pad_t_i    (pad_t_i),
    .pad_l_i    (pad_l_i),
    .tile_h_i   (tile_h_i),
    .tile_w_i   (tile_w_i),
    .kspan_i    (kspan_q),
    .lin_i      (lin_i),
    .adv_i      (room_q),
    .vld_o      (ic_vld),
    .rd_o       (ic_rd),
    .addr_o     (ic_addr),
    .mask_o     (ic_mask),
    .fs_o       (ic_fs),
    .ofs_o      (ic_ofs),
    .iw_o       (ic_iw),
    .seg_o      (ic_seg),
    .pass_last_o(ic_last),
    .ctx_last_o (ic_ctx_last),
    .grp_last_o (ic_grp_last),
    .busy_o     (ic_busy)
  );

  // ---- the queue (stage Q) ----------------------------------------------------------------------
  // Two entries (sagen_queue2) between the index counters and stage S, so that the index
  // counters move on a registered condition (room_q: the second entry is free) and never on the
  // lanes' done: the lanes' done logic and the counters' advance are in different cycles. The
  // head's SRAM read is issued when it moves on to S; the queue takes a word every cycle it has
  // room (before run_i too: the pass's first words wait here), so with the head leaving every
  // cycle one entry is in use and the counters move every cycle.
  localparam integer QW = 1 + AW + BUS + 1 + LG_BUS + NWW + SW + 3;   // an entry's fields
  wire          q_push;
  wire          q_pop;
  wire          q_vld;
  wire [QW-1:0] q_head;
  wire [QW-1:0] ic_ent = {ic_rd, ic_addr, ic_mask, ic_fs, ic_ofs, ic_iw, ic_seg, ic_last,
                          ic_ctx_last, ic_grp_last};
  assign        q_push = ic_vld && room_q;
  // (the fields are reset too: the lanes see the head's while no word is there)
  sagen_queue2 #(.W(QW), .RESET_DATA(1)) u_queue (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .flush_i(start_i),
    .push_i (q_push),
    .d_i    (ic_ent),
    .room_o (room_q),
    .pop_i  (q_pop),
    .vld_o  (q_vld),
    .q_o    (q_head)
  );
  wire              q_rd, q_fs, q_last, q_ctx_last, q_grp_last;
  wire [AW-1:0]     q_addr;
  wire [BUS-1:0]    q_mask;
  wire [LG_BUS-1:0] q_ofs;
  wire [NWW-1:0]    q_iw;
  wire [SW-1:0]     q_seg;
  assign {q_rd, q_addr, q_mask, q_fs, q_ofs, q_iw, q_seg, q_last, q_ctx_last, q_grp_last} = q_head;

  // ---- stages S and B ---------------------------------------------------------------------------
  wire [LANES-1:0] lane_done;
  wire [LANES-1:0] lane_nonempty;
  wire [LANES-1:0] lane_on;         // in use this pass (lanes_i as it is)
  reg  [LANES-1:0] lane_on_q;       // ... registered: for all but the DEBUG bits
  wire [LANES-1:0] on_done  = lane_done | ~lane_on_q;
  wire [LANES-1:0] on_ready = lane_nonempty | ~lane_on_q;
  reg              s_vld_q, s_last_q;
  reg  [BUS-1:0]   s_mask_q;
  reg  [NWW-1:0]   s_iw_q;
  reg              b_vld_q, b_last_q;
  reg  [BUS*IN_BITS-1:0] b_word_q;
  wire             adv_b = b_vld_q && (&on_done);
  assign           accept = !b_vld_q || adv_b;

  wire q_v = q_vld && run_i;    // a word at the head, and the pass may read
  assign q_pop         = accept && q_v;
  assign sram_re_o     = q_pop && q_rd;
  assign sram_addr_o   = q_addr;
  assign ev_pad_word_o = q_pop && !q_rd;

  // positions without real data read as PAD (padding, or not read at all)
  reg [BUS*IN_BITS-1:0] s_word;
  integer i;
  always @* begin
    for (i = 0; i < BUS; i = i + 1)
      s_word[i*IN_BITS +: IN_BITS] = s_mask_q[i] ? sram_rdata_i[i*IN_BITS +: IN_BITS]
                                                 : PAD[IN_BITS-1:0];
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_vld_q <= 1'b0; s_last_q <= 1'b0; s_mask_q <= {BUS{1'b0}}; s_iw_q <= {NWW{1'b0}};
      b_vld_q <= 1'b0; b_last_q <= 1'b0; b_word_q <= {(BUS*IN_BITS){1'b0}};
    end else if (start_i) begin
      s_vld_q <= 1'b0;
      b_vld_q <= 1'b0;
    end else if (accept) begin
      s_vld_q  <= q_v;
      s_last_q <= q_last;
      s_mask_q <= q_mask;
      s_iw_q   <= q_iw;
      b_vld_q  <= s_vld_q;
      b_last_q <= s_last_q;
      b_word_q <= s_word;
    end
  end

  // ---- lane 0's x at Q's head, and the lanes' context moves -------------------------------------
  reg  [XW-1:0] xs0_q;
  reg  [XW:0]   xw0_q;              // xs0 + ctx_xs - ow_xs: its sign says whether lane 0 wraps
  wire          wrap0    = !xw0_q[XW];
  wire          lane_st  = st_q[LSTART] || (q_pop && q_grp_last);   // a group's first context
  wire          ctx_adv  = q_pop && q_ctx_last && !q_grp_last;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xs0_q <= {XW{1'b0}};
      xw0_q <= {(XW+1){1'b0}};
    end else if (lane_st) begin
      xs0_q <= {XW{1'b0}};
      xw0_q <= xs_ow_q;
    end else if (ctx_adv) begin
      xs0_q <= wrap0 ? xw0_q[XW-1:0] : xs0_q + ctx_xs_i;
      xw0_q <= xw0_q + (wrap0 ? xs_ow_q : {1'b0, ctx_xs_i});
    end
  end

  // The tile's output rows below lane 0's, plus one (signed): the first row offset of a phantom
  // pixel. The lanes compare their row offsets with it, clamped to SW bits (ph_row).
  // (both values, and their clamps, are worked out before lane_st picks one: it comes late)
  reg  [16:0]   rb1_q;
  reg  [SW-1:0] ph_row_q;
  function [SW-1:0] ph_clamp(input [16:0] v);
    ph_clamp = v[16] ? {SW{1'b0}} :
               (v >= {{(17-SW){1'b0}}, {SW{1'b1}}}) ? {SW{1'b1}} : v[SW-1:0];
  endfunction
  wire [16:0]   rb1_st  = {1'b0, oh_last_i} + 17'd1;
  wire [16:0]   rb1_adv = rb1_q - {{(17-SW){1'b0}}, ctx_rows_i[SW-1:0]} - {16'd0, wrap0};
  wire [16:0]   rb1_d    = lane_st ? rb1_st : rb1_adv;
  wire [SW-1:0] ph_row_d = lane_st ? ph_clamp(rb1_st) : ph_clamp(rb1_adv);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rb1_q    <= 17'd1;
      ph_row_q <= {{(SW-1){1'b0}}, 1'b1};
    end else if (lane_st || ctx_adv) begin
      rb1_q    <= rb1_d;
      ph_row_q <= ph_row_d;
    end
  end

  // ---- the lanes ----------------------------------------------------------------------------------
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      localparam [31:0] L32 = l;
      assign lane_on[l] = (L32 < {16'd0, lanes_i});
      sagen_feed_lane #(
        .BUS    (BUS),
        .LG_BUS (LG_BUS),
        .IN_BITS(IN_BITS),
        .M      (M),
        .DEPTH  (DEPTH),
        .XW     (XW),
        .SW     (SW),
        .DW     (DW),
        .NMD    (NMD),
        .PAD    (PAD)
      ) u_lane (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .taps_i     (taps_i[LTW-1:0]),
        .md_i       (md_q[NMD*DW-1:DW]),
        .lin_i      (lin_i),
        .lane_i     (L32[XW-1:0]),
        .pad_l_i    (pad_l_x),
        .twp_i      (twp_x),
        .xs_ow_i    (xs_ow_q),
        .ctx_xs_i   (ctx_xs_i),
        .xs_init_i  (xs_init[l*XW +: XW]),
        .dg_init_i  (dg_init[l*SW +: SW]),
        .start_i    (lane_st),
        .ctx_adv_i  (ctx_adv),
        .wrap0_i    (wrap0),
        .ph_row_i   (ph_row_q),
        .accept_i   (accept),
        .ic_fs_i    (q_fs && q_v),
        .ic_ofs_i   (q_ofs),
        .ic_seg_i   (q_seg),
        .b_vld_i    (b_vld_q && lane_on_q[l]),
        .b_vld_n_i  ({!start_i && s_vld_q, !start_i && b_vld_q} &
                     {2{lane_on[l]}}),
        .s_iw_i     (s_iw_q),
        .b_word_i   (b_word_q),
        .b_last_i   (b_last_q),
        .pop_i      (pop_i && lane_on_q[l]),
        .done_o     (lane_done[l]),
        .nonempty_o (lane_nonempty[l]),
        .head_o     (head_o[l*IN_BITS +: IN_BITS]),
        .head_last_o(head_last_o[l])
      );
    end
  endgenerate

  // lanes_i is the pass's from start_i on; lane_on_q from the cycle after, before any word is
  // staged or any element popped (the previous pass has left the lanes when start_i comes)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lane_on_q <= {LANES{1'b1}};   // (none ready until the first cycle's lanes_i)
    else         lane_on_q <= lane_on;
  end

  assign ready_o = &on_ready;
  assign dbg_rd_vld_o        = ic_vld || q_vld;
  assign dbg_word_vld_o      = b_vld_q;
  assign dbg_lane_done_o     = lane_done | ~lane_on;
  assign dbg_lane_nonempty_o = lane_nonempty | ~lane_on;
  assign idle_o  = !ic_busy && !q_vld && !s_vld_q && !b_vld_q &&
                   !(|(lane_nonempty & lane_on_q)) && !(|st_q);

endmodule

`resetall
