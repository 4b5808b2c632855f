// sagen_feed_lane: one lane of the on-the-fly im2col data feeder, one per array row (and
// column group).
//
// The lane computes one output pixel of each context: it takes, from the bus words the index
// counters read, the S kernel taps of its pixel in every kernel-row pass (a segment), in order,
// into its FIFO, up to M a cycle; the array pops one element per step from the FIFO head.
//
// Where the lane's pixel is. A context is LANES consecutive pixels of the output tile,
// row-major, so it may span several output rows. The lane keeps its pixel's column times
// stride_w (xs) and its output row relative to lane 0's (dg), and moves them on by ctx_xs
// (wrapping at ow_xs into the next row) when the word stream moves to the next context. A word
// belongs to one segment (seg: the output row of the context it reads, relative to lane 0's);
// the lane's segment is seg == dg. Its first tap sits LOC elements after the segment's first:
// lane 0 and the lanes on lane 0's row are c_l = l * stride_w apart (dg == 0), a lane on a later
// row starts that row's segment at its own xs. A pixel below the tile's last output row
// (phantom: dg past the rows the tile has below lane 0's; the context runs past the tile's end)
// has no segment of its own: it takes lane 0's taps, and its result is dropped.
//
// The words pass three stages, all moving together when every lane is done with the staged
// word: the index counters present a word (I; its SRAM read starts), the read completes (S),
// the word is staged (B) and the lanes take their taps from it. At I the lane works out whether
// the word is in its segment and where its first tap would be (loc + ofs), at S where its next
// taps are.
//
// Taps, not bit masks. Tap t of the kernel row sits md_t = t * d elements after the first
// (d: the tap spacing, the dilation). When the first word of the lane's segment enters the
// word stage, the lane places its next taps at p_k = ofs + loc + md_k (k = 0..M), counted from
// the start of the segment's first word (ofs: where the segment starts in it); tap t + k is in
// the staged word iff p_k div BUS is the word's index in the segment and t + k < S. Each cycle
// the lane takes the first npick = min(taps in the word, M, FIFO room) of them, each a BUS-to-1
// select of the word by p_k's low bits, and moves on: the new p_k is p_(k+npick), or past p_M,
// p_M + md_(k+npick-M), added before npick is known, so the lane's loop from its registers
// through the pick back to them holds no adder. The lane is done with the word when its next
// tap is not in it.
//
// Linear contexts (lin_i; stride 1, the row pitch equal to the output width): every word is the
// lane's, its first tap is LANE_I elements after the segment's first, and a tap whose input
// column xs - pad_l + md_t falls outside [0, tile_w) is pushed as zero (its bus position holds
// an element of the neighbouring row): taps t < t_a and t >= t_b, found once per segment as
// md_t < pad_l - xs and md_t < pad_l + tile_w - xs.
//
// The FIFO is a circular buffer of DEPTH + 1 entries: a push never depends on this cycle's pop
// (the room is DEPTH + 1 minus the count at the start of the cycle; the extra entry stands for
// the pop the room does not wait for, so the lane holds what a DEPTH-entry FIFO that counted
// the cycle's pop would), so the lane's pick and its done
// signal come from its own registers. The element of a context's last tap (in the pass's last
// kernel-row pass) is marked last.
`default_nettype none

module sagen_feed_lane #(
  parameter integer BUS     = 16,  // elements per bus word (power of two)
  parameter integer LG_BUS  = 4,   // log2(BUS)
  parameter integer IN_BITS = 8,   // bits per element
  parameter integer M       = 3,   // taps taken per cycle at most (intermediate registers)
  parameter integer DEPTH   = 4,   // FIFO depth in elements, >= M; also the most taps a pass has
  parameter integer XW      = 16,  // width of positions in the tile (xs, loc, pos)
  parameter integer SW      = 9,   // width of a context's row offsets (seg, dg)
  parameter integer NMD     = 6    // entries of the tap-offset table md_i: max(M, DEPTH) + 1
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // pass constants (held during the pass)
  input  wire [DEPTH:0]          taps_left_i,  // bit t set for t < S, the taps of a kernel row
  input  wire [NMD*XW-1:0]       md_i,         // md_t = t * d, t = 0 .. NMD-1
  input  wire                    lin_i,        // linear contexts
  input  wire [XW-1:0]           lane_i,       // linear contexts: this lane's first tap (its number)
  input  wire [XW-1:0]           pad_l_i,      // virtual columns left of the tile
  input  wire [XW-1:0]           twp_i,        // tile_w + pad_l: columns held in the tile, past it
  input  wire [XW:0]             xs_ow_i,      // ctx_xs - ow_xs (signed)
  input  wire [XW-1:0]           ctx_xs_i,     // x advance per context (stride_w units)
  input  wire [SW-1:0]           ctx_rows_i,   // output rows per context: LANES div owt
  input  wire [15:0]             oh_last_i,    // the tile's last output row
  // this lane in the first context of a filter group (from the feeder, held during the pass)
  input  wire [XW-1:0]           c_init_i,     // l * stride_w: the lane's offset on lane 0's row
  input  wire [XW-1:0]           xs_init_i,    // its column * stride_w
  input  wire [SW-1:0]           dg_init_i,    // its output row, relative to lane 0's
  // context control (with the word the index counters present)
  input  wire                    start_i,      // the first context of a group: load the position
  input  wire                    ctx_adv_i,    // the word stream moves to the next context
  input  wire                    wrap0_i,      // lane 0 moves to the next output row with it
  // the word the index counters present (read from the SRAM this cycle if accepted)
  input  wire                    accept_i,     // every stage moves on at the clock edge
  input  wire                    ic_fs_i,      // the first word of its segment
  input  wire [LG_BUS-1:0]       ic_ofs_i,     // where the segment starts in that word
  input  wire [SW-1:0]           ic_seg_i,     // its segment
  // the staged word (the word stage, held until every lane is done with it)
  input  wire                    b_vld_i,      // a word is staged and this lane is in use
  input  wire [XW-LG_BUS-1:0]    b_iw_i,       // its index in its segment
  input  wire [BUS*IN_BITS-1:0]  b_word_i,     // its elements (padding positions already zero)
  input  wire                    b_last_i,     // it is in the last kernel-row pass of a context
  // array side
  input  wire                    pop_i,        // the array takes the head this cycle
  output wire                    done_o,       // taken everything this lane needs of the word
  output wire                    nonempty_o,
  output wire [IN_BITS-1:0]      head_o,
  output wire                    head_last_o   // head is the last element of its context
);

  localparam integer QN = DEPTH + 1;                         // FIFO entries
  localparam integer CW = $clog2(QN + 1);                    // FIFO count width
  localparam integer PW = $clog2(QN);                        // FIFO pointer width
  localparam [31:0]   QN32 = QN, QL32 = QN - 1;
  localparam [PW:0]   QNP = QN32[PW:0];
  localparam [PW-1:0] QLAST = QL32[PW-1:0];
  localparam integer KW = $clog2(M + 1);                     // width of a pick count

  function [XW-1:0] md_at(input [NMD*XW-1:0] md, input integer k);
    md_at = md[k*XW +: XW];
  endfunction

  // ---- the pixel's position, per context ------------------------------------------------------
  reg  [XW-1:0] xs_q;
  reg  [SW-1:0] dg_q;
  reg  [16:0]   drow_q;   // dg - (rows the tile has below lane 0's row): > 0 for a phantom pixel
  wire [XW-1:0] xs_add  = xs_q + ctx_xs_i;
  wire [XW:0]   xs_wrap = {1'b0, xs_q} + xs_ow_i;
  wire          wrap    = !xs_wrap[XW];               // xs + ctx_xs >= ow_xs
  wire [16:0]   drow_init = {{(17-SW){1'b0}}, dg_init_i} - {1'b0, oh_last_i};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xs_q   <= {XW{1'b0}};
      dg_q   <= {SW{1'b0}};
      drow_q <= 17'd0;
    end else if (start_i) begin
      xs_q   <= xs_init_i;
      dg_q   <= dg_init_i;
      drow_q <= drow_init;
    end else if (ctx_adv_i) begin
      xs_q   <= wrap ? xs_wrap[XW-1:0] : xs_add;
      dg_q   <= dg_q + {{(SW-1){1'b0}}, wrap} - {{(SW-1){1'b0}}, wrap0_i};
      drow_q <= drow_q + {{(17-SW){1'b0}}, ctx_rows_i} + {16'd0, wrap};
    end
  end

  wire          phantom = !lin_i && !drow_q[16] && (drow_q != 17'd0);
  wire [SW-1:0] my_seg  = phantom ? {SW{1'b0}} : dg_q;
  wire [XW-1:0] loc     = lin_i ? lane_i : phantom ? {XW{1'b0}} :
                          (dg_q == {SW{1'b0}}) ? c_init_i : xs_q;
  wire          ic_mine = lin_i || (ic_seg_i == my_seg);

  // ---- the staged word: which taps are in it ----------------------------------------------------
  reg  [(M+1)*XW-1:0] p_q;     // tap t + k at [k*XW +: XW], from the segment's first word
  reg  [DEPTH:0] left_q;        // bit k: tap t + k exists (t + k < S)
  reg  [DEPTH:0] za_q, zb_q;    // linear contexts, bit k: t + k < t_a, t + k < t_b
  reg            mine_q;        // the staged word is in this lane's segment
  reg  [CW-1:0]  count_q;

  reg  [M:0]    inw;            // tap t + k is in the staged word
  integer ki;
  always @* begin
    for (ki = 0; ki <= M; ki = ki + 1)
      inw[ki] = b_vld_i && mine_q && left_q[ki] && (p_q[ki*XW + LG_BUS +: XW - LG_BUS] == b_iw_i);
  end

  // Take the first npick of them: as many as are in the word, at most M and the FIFO's room.
  reg  [KW-1:0] npick;
  reg           more;           // a tap of the word is left after this cycle's
  integer j;
  always @* begin
    npick = {KW{1'b0}};
    for (j = 0; j < M; j = j + 1)
      if (inw[j] && {{(32-CW){1'b0}}, count_q} + j < QN) npick = j[KW-1:0] + 1'b1;
    more = inw[0];
    for (j = 1; j <= M; j = j + 1)
      if (npick == j[KW-1:0]) more = inw[j];
  end
  assign done_o = !more;

  // The taps' next places: p_(k+npick), or past p_M, p_M + md_(k+npick-M).
  reg  [(M+1)*XW-1:0] p_far;   // p_M + md_j at [j*XW +: XW], j = 1..M
  reg  [(M+1)*XW-1:0] p_n;
  wire unused_far = ^p_far[XW-1:0];
  integer kf, kn, jn;
  always @* begin
    p_far = {((M+1)*XW){1'b0}};
    for (kf = 1; kf <= M; kf = kf + 1) p_far[kf*XW +: XW] = p_q[M*XW +: XW] + md_at(md_i, kf);
    for (kn = 0; kn <= M; kn = kn + 1) begin
      p_n[(kn)*XW +: XW] = p_q[(kn)*XW +: XW];
      for (jn = 1; jn <= M; jn = jn + 1)
        if (npick == jn[KW-1:0]) p_n[(kn)*XW +: XW] = (kn + jn <= M) ? p_q[(kn + jn)*XW +: XW] : p_far[(kn + jn - M)*XW +: XW];
    end
  end

  // The linear contexts' zeroed taps: md_t < pad_l - xs (left of the tile), md_t < pad_l - xs +
  // tile_w (inside it or left).
  reg  [DEPTH:0] za_d, zb_d;
  integer ti;
  always @* begin
    za_d = {(DEPTH+1){1'b0}};
    zb_d = {(DEPTH+1){1'b0}};
    for (ti = 0; ti < DEPTH; ti = ti + 1) begin
      za_d[ti] = $signed({2'b00, md_at(md_i, ti)}) < $signed(s_u_q);
      zb_d[ti] = $signed({2'b00, md_at(md_i, ti)}) < $signed(s_v_q);
    end
  end

  // ---- stage S: the word whose SRAM read completes ------------------------------------------
  reg            s_mine_q, s_fs_q;
  reg  [XW-1:0]  s_pos_q;              // the lane's first tap from the segment's first word start
  reg  [XW+1:0]  s_u_q, s_v_q;         // linear: pad_l - xs, tile_w + pad_l - xs
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_mine_q <= 1'b0; s_fs_q <= 1'b0; s_pos_q <= {XW{1'b0}};
      s_u_q <= {(XW+2){1'b0}}; s_v_q <= {(XW+2){1'b0}};
    end else if (accept_i) begin
      s_mine_q <= ic_mine;
      s_fs_q   <= ic_fs_i;
      s_pos_q  <= loc + {{(XW-LG_BUS){1'b0}}, ic_ofs_i};
      s_u_q    <= {2'b00, pad_l_i} - {2'b00, xs_q};
      s_v_q    <= {2'b00, twp_i} - {2'b00, xs_q};
    end
  end

  wire          seg_start = accept_i && s_fs_q && s_mine_q;
  integer k;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (k = 0; k <= M; k = k + 1) p_q[(k)*XW +: XW] <= {XW{1'b0}};
      left_q <= {(DEPTH+1){1'b0}};
      za_q   <= {(DEPTH+1){1'b0}};
      zb_q   <= {(DEPTH+1){1'b0}};
      mine_q <= 1'b0;
    end else begin
      if (seg_start) begin
        for (k = 0; k <= M; k = k + 1) p_q[(k)*XW +: XW] <= s_pos_q + md_at(md_i, k);
        left_q <= taps_left_i;
        za_q   <= za_d;
        zb_q   <= zb_d;
      end else begin
        for (k = 0; k <= M; k = k + 1) p_q[(k)*XW +: XW] <= p_n[(k)*XW +: XW];
        left_q <= left_q >> npick;
        za_q   <= za_q >> npick;
        zb_q   <= zb_q >> npick;
      end
      if (accept_i) mine_q <= s_mine_q;
    end
  end

  // ---- the slots: tap t + m from bus position p_m ------------------------------------------------
  reg [M*IN_BITS-1:0] slot_data;
  reg [M-1:0]         slot_last;
  integer m, bi, mw;
  always @* begin
    for (m = 0; m < M; m = m + 1) begin
      slot_data[m*IN_BITS +: IN_BITS] = {IN_BITS{1'b0}};
      for (bi = 0; bi < BUS; bi = bi + 1)
        if (p_q[m*XW +: LG_BUS] == bi[LG_BUS-1:0])
          slot_data[m*IN_BITS +: IN_BITS] = b_word_i[bi*IN_BITS +: IN_BITS];
      if (lin_i && (za_q[m] || !zb_q[m])) slot_data[m*IN_BITS +: IN_BITS] = {IN_BITS{1'b0}};
      slot_last[m] = b_last_i && !left_q[m+1];   // the context's last tap
    end
  end

  // ---- FIFO: a circular buffer; entry e takes slot (e - wp) mod QN when that slot is picked --
  reg [QN*IN_BITS-1:0] q_data;   // entry e at [e*IN_BITS +: IN_BITS]
  reg [QN-1:0]      q_last;
  reg [PW-1:0]      wp_q, rp_q;
  reg [QN-1:0]      q_we;
  reg [QN*IN_BITS-1:0] q_wdata;
  reg [QN-1:0]      q_wlast;
  reg [PW:0]        off;
  integer e;
  always @* begin
    for (e = 0; e < QN; e = e + 1) begin
      off = (e[PW:0] >= {1'b0, wp_q}) ? e[PW:0] - {1'b0, wp_q}
                                      : e[PW:0] + QNP - {1'b0, wp_q};
      q_we[e]    = ({{(32-PW-1){1'b0}}, off} < {{(32-KW){1'b0}}, npick});
      q_wdata[e*IN_BITS +: IN_BITS] = {IN_BITS{1'b0}};
      q_wlast[e] = 1'b0;
      for (mw = 0; mw < M; mw = mw + 1)
        if (off == mw[PW:0]) begin
          q_wdata[e*IN_BITS +: IN_BITS] = slot_data[mw*IN_BITS +: IN_BITS];
          q_wlast[e] = slot_last[mw];
        end
    end
  end

  wire [PW:0] wp_sum = {1'b0, wp_q} + {{(PW+1-KW){1'b0}}, npick};
  wire [PW:0] wp_n   = (wp_sum >= QNP) ? wp_sum - QNP : wp_sum;
  wire        unused_wp = wp_n[PW];
  integer f;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (f = 0; f < QN; f = f + 1) begin
        q_data[f*IN_BITS +: IN_BITS] <= {IN_BITS{1'b0}};
        q_last[f] <= 1'b0;
      end
      wp_q    <= {PW{1'b0}};
      rp_q    <= {PW{1'b0}};
      count_q <= {CW{1'b0}};
    end else begin
      for (f = 0; f < QN; f = f + 1)
        if (q_we[f]) begin
          q_data[f*IN_BITS +: IN_BITS] <= q_wdata[f*IN_BITS +: IN_BITS];
          q_last[f] <= q_wlast[f];
        end
      wp_q <= wp_n[PW-1:0];
      if (pop_i) rp_q <= (rp_q == QLAST) ? {PW{1'b0}} : rp_q + 1'b1;
      count_q <= count_q + {{(CW-KW){1'b0}}, npick} - {{(CW-1){1'b0}}, pop_i};
    end
  end

  assign nonempty_o  = (count_q != {CW{1'b0}});
  assign head_o      = q_data[rp_q*IN_BITS +: IN_BITS];
  assign head_last_o = q_last[rp_q];

endmodule

`resetall
