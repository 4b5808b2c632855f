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
// the lane's segment is seg == dg. Its first tap sits loc elements after the segment's first:
// lane 0 and the lanes on lane 0's row are c_l = l * stride_w apart (dg == 0), a lane on a later
// row starts that row's segment at its own xs. A lane that is ever on lane 0's row is fewer than
// a row's pixels from lane 0, so c_l < ow_xs and c_l is its column in the first context,
// xs_init: the lane keeps no c_l of its own. A pixel below the tile's last output row
// (phantom: dg at or past ph_row, which the feeder keeps for all lanes; the context runs past
// the tile's end) has no segment of its own: it takes lane 0's taps, and its result is dropped.
//
// The words pass three stages, all moving together when every lane is done with the staged
// word: the word at the head of the feeder's queue (Q; its SRAM read starts), the read
// completes (S), the word is staged (B) and the lanes take their taps from it. At Q the lane
// works out whether the word is in its segment and where its first tap is (loc), at S where
// that is from the start of the segment's first word (loc + ofs: word w0, offset s_lo). The
// lane's done (and so the feeder's accept) is a flip-flop, worked out the cycle before for each
// value of that cycle's accept and pop (done_q): the feeder's accept is an AND of flip-flops,
// and the logic it drives selects between results made for both of its values.
//
// Taps. Tap t of the kernel row sits md_t = t * d elements after the first (d: the tap spacing,
// the dilation); within a kernel row md_t < pattern_bits <= 2^DW, so the lane holds the offsets,
// and the places of its taps, in few bits: a place is an offset in a word (LG_BUS bits) and a
// count of words (WDW bits) from the staged word. M trackers hold the next M taps: tracker r the
// segment's next tap t_r = r (mod M), with its place and, per later tap t_r + j*M of the kernel
// row, whether it exists (e), lies outside the tile's row (z, linear contexts) and is the row's
// last (l). Tracker tr0 holds tap t, the next to take; slot k is tap t + k, tracker
// (tr0 + k) mod M. When a tracker's tap is taken it moves on to t_r + M, md_M further: one small
// adder, no shifting of places between trackers. Until the word of tap 0 (w0) has passed, the
// trackers count words from w0 (first_q: the staged word is compared with w0); after, from the
// staged word, one less each time a word of the segment leaves. Whether slot k's tap is in the
// next staged word is worked out the cycle before (sr_q), so the pick starts from flip-flops.
//
// Each cycle the lane takes the first npick slots, npick = min(taps in the word, M, FIFO room),
// and is done with the word when its next tap is not in it.
//
// Linear contexts (lin_i; stride 1, the row pitch equal to the output width): every word is the
// lane's, its first tap is lane_i elements after the segment's first, and a tap whose input
// column xs - pad_l + md_t falls outside [0, tile_w) is pushed as padding, PAD (its bus position
// holds an element of the neighbouring row): md_t < pad_l - xs or md_t >= pad_l + tile_w - xs, with
// both bounds clamped to 0 .. 2^DW (md_t < 2^DW), found per segment.
//
// The FIFO holds DEPTH + 1 elements: a push never depends on this cycle's pop (the room is
// DEPTH + 1 minus the count at the start of the cycle, a thermometer free_q; the extra entry
// stands for the pop the room does not wait for, so the lane holds what a DEPTH-entry FIFO
// that counted the cycle's pop would), so the lane's pick and its done signal come from its
// own registers. It is M banks of QD entries: element i of the lane goes to bank i mod M, so a
// cycle writes each bank once at most, bank b the tap of tracker (b - base) mod M (base: the
// bank of the segment's tap 0), a BUS-to-1 select of the word by that tracker's offset. The
// element of a context's last tap (in the pass's last kernel-row pass) is marked last.
`default_nettype none

module sagen_feed_lane #(
  parameter integer BUS     = 16,  // elements per bus word (power of two)
  parameter integer LG_BUS  = 4,   // log2(BUS)
  parameter integer IN_BITS = 8,   // bits per element
  parameter integer M       = 3,   // taps taken per cycle at most (intermediate registers)
  parameter integer DEPTH   = 4,   // FIFO depth in elements, >= M; also the most taps a pass has
  parameter integer XW      = 16,  // width of positions in the tile (xs, loc)
  parameter integer SW      = 9,   // width of a context's row offsets (seg, dg)
  parameter integer DW      = 6,   // width of tap offsets: md_t < 2^DW for t < S
  parameter integer NMD     = 6,   // tap offsets md_0 .. md_(NMD-1): max(M, DEPTH) + 1
  parameter [63:0]  PAD     = 64'd0 // what a padding position reads as (its low IN_BITS)
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // pass constants (held during the pass)
  input  wire [$clog2(DEPTH+1)-1:0] taps_i,    // S: taps of a kernel row (1 .. DEPTH)
  input  wire [(NMD-1)*DW-1:0]   md_i,         // md_t = t * d mod 2^DW at [(t-1)*DW +: DW]
  input  wire                    lin_i,        // linear contexts
  input  wire [XW-1:0]           lane_i,       // linear contexts: this lane's first tap (its number)
  input  wire [XW-1:0]           pad_l_i,      // virtual columns left of the tile
  input  wire [XW-1:0]           twp_i,        // tile_w + pad_l: columns held in the tile, past it
  input  wire [XW:0]             xs_ow_i,      // ctx_xs - ow_xs (signed)
  input  wire [XW-1:0]           ctx_xs_i,     // x advance per context (stride_w units)
  // this lane in the first context of a filter group (from the feeder, held during the pass)
  input  wire [XW-1:0]           xs_init_i,    // its column * stride_w (l * stride_w on lane 0's row)
  input  wire [SW-1:0]           dg_init_i,    // its output row, relative to lane 0's
  // context control (with the word at the head of the feeder's queue)
  input  wire                    start_i,      // the first context of a group: load the position
  input  wire                    ctx_adv_i,    // the word stream moves to the next context
  input  wire                    wrap0_i,      // lane 0 moves to the next output row with it
  input  wire [SW-1:0]           ph_row_i,     // the least row offset of a phantom pixel (clamped)
  // the word at the head of the feeder's queue (read from the SRAM this cycle if accepted)
  input  wire                    accept_i,     // every stage moves on at the clock edge
  input  wire                    ic_fs_i,      // the first word of its segment
  input  wire [LG_BUS-1:0]       ic_ofs_i,     // where the segment starts in that word
  input  wire [SW-1:0]           ic_seg_i,     // its segment
  // the word whose SRAM read completes (stage S)
  input  wire [XW-LG_BUS-1:0]    s_iw_i,       // its index in its segment
  // the staged word (the word stage, held until every lane is done with it)
  input  wire                    b_vld_i,      // a word is staged and this lane is in use
  input  wire [1:0]              b_vld_n_i,    // ... next cycle: bit a for accept_i = a
  input  wire [BUS*IN_BITS-1:0]  b_word_i,     // its elements (padding positions already PAD)
  input  wire                    b_last_i,     // it is in the last kernel-row pass of a context
  // array side
  input  wire                    pop_i,        // the array takes the head this cycle
  output wire                    done_o,       // taken everything this lane needs of the word
  output wire                    nonempty_o,
  output wire [IN_BITS-1:0]      head_o,
  output wire                    head_last_o   // head is the last element of its context
);

  localparam integer QN   = DEPTH + 1;                       // FIFO entries
  localparam integer KW   = $clog2(M + 1);                   // width of a pick count
  localparam integer TW   = $clog2(DEPTH + 1);               // width of a tap count
  localparam integer NWW  = XW - LG_BUS;                     // width of a word index
  localparam integer SUMW = ((DW > LG_BUS) ? DW : LG_BUS) + 1;   // an offset in a word + md_t
  localparam integer WDW  = SUMW - LG_BUS;                   // words from a tap to the next's
  localparam integer MB   = (M > 1) ? $clog2(M) : 1;         // a tracker or bank number
  localparam integer QD   = (QN + M - 1) / M;                // FIFO entries per bank
  localparam integer BW   = (QD > 1) ? $clog2(QD) : 1;       // a bank's entry pointer
  localparam integer L    = (DEPTH + M - 1) / M;             // a tracker's taps in a kernel row
  localparam [31:0]  M32 = M, QDL32 = QD - 1;
  localparam [MB:0]  MM  = M32[MB:0];
  localparam [MB-1:0] MLAST = M32[MB-1:0] - 1'b1;
  localparam [BW-1:0] QDLAST = QDL32[BW-1:0];

  // md_t (md_0 = 0)
  function [DW-1:0] md_at(input [(NMD-1)*DW-1:0] md, input integer t);
    md_at = (t == 0) ? {DW{1'b0}} : md[((t > 0) ? t - 1 : 0)*DW +: DW];
  endfunction
  // (a + n) mod M, for a < M and n <= M
  function [MB-1:0] add_mod(input [MB-1:0] a, input [KW:0] n);
    reg [MB+KW:0] s;
    begin
      s = {{(KW+1){1'b0}}, a} + {{MB{1'b0}}, n};
      add_mod = (s >= {{KW{1'b0}}, MM}) ? s[MB-1:0] - MM[MB-1:0] : s[MB-1:0];
    end
  endfunction
  // (b - w) mod M, for b, w < M
  function [MB-1:0] sub_mod(input [MB-1:0] b, input [MB-1:0] w);
    reg [MB:0] d;
    begin
      d = {1'b0, b} - {1'b0, w};
      sub_mod = d[MB] ? d[MB-1:0] + MM[MB-1:0] : d[MB-1:0];
    end
  endfunction

  // ---- the pixel's position, per context ------------------------------------------------------
  reg  [XW-1:0] xs_q;
  reg  [SW-1:0] dg_q;
  wire [XW-1:0] xs_add  = xs_q + ctx_xs_i;
  wire [XW:0]   xs_wrap = {1'b0, xs_q} + xs_ow_i;
  wire          wrap    = !xs_wrap[XW];               // xs + ctx_xs >= ow_xs
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xs_q <= {XW{1'b0}};
      dg_q <= {SW{1'b0}};
    end else if (start_i) begin
      xs_q <= xs_init_i;
      dg_q <= dg_init_i;
    end else if (ctx_adv_i) begin
      xs_q <= wrap ? xs_wrap[XW-1:0] : xs_add;
      dg_q <= dg_q + {{(SW-1){1'b0}}, wrap} - {{(SW-1){1'b0}}, wrap0_i};
    end
  end

  wire          phantom = !lin_i && (dg_q >= ph_row_i);
  wire [SW-1:0] my_seg  = phantom ? {SW{1'b0}} : dg_q;
  wire [XW-1:0] loc     = lin_i ? lane_i : phantom ? {XW{1'b0}} :
                          (dg_q == {SW{1'b0}}) ? xs_init_i : xs_q;
  wire          ic_mine = lin_i || (ic_seg_i == my_seg);

  // linear contexts: pad_l - xs and tile_w + pad_l - xs, clamped to 0 .. 2^DW
  wire [XW:0]   u_full  = {1'b0, pad_l_i} - {1'b0, xs_q};
  wire [XW:0]   v_full  = {1'b0, twp_i} - {1'b0, xs_q};
  function [DW:0] clamp(input [XW:0] v);
    if (v[XW])                   clamp = {(DW+1){1'b0}};
    else if (|(v[XW-1:0] >> DW)) clamp = {1'b1, {DW{1'b0}}};
    else                         clamp = {1'b0, v[DW-1:0]};
  endfunction

  // ---- stage S: the word whose SRAM read completes ------------------------------------------
  reg               s_mine_q, s_fs_q;
  reg  [XW-1:0]     s_loc_q;           // the lane's first tap from the segment's start
  reg  [LG_BUS-1:0] s_ofs_q;           // where the segment starts in its first word
  reg  [DW:0]       s_u_q, s_v_q;      // linear contexts: the clamped bounds
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_mine_q <= 1'b0; s_fs_q <= 1'b0; s_loc_q <= {XW{1'b0}}; s_ofs_q <= {LG_BUS{1'b0}};
      s_u_q <= {(DW+1){1'b0}}; s_v_q <= {(DW+1){1'b0}};
    end else if (accept_i) begin
      s_mine_q <= ic_mine;
      s_fs_q   <= ic_fs_i;
      s_loc_q  <= loc;
      s_ofs_q  <= ic_ofs_i;
      s_u_q    <= clamp(u_full);
      s_v_q    <= clamp(v_full);
    end
  end
  // the first word of the lane's segment enters the word stage
  wire              seg_start = accept_i && s_fs_q && s_mine_q;
  // the lane's first tap from the start of the segment's first word: word s_w0, offset s_lo
  wire [LG_BUS:0]   s_lo  = {1'b0, s_loc_q[LG_BUS-1:0]} + {1'b0, s_ofs_q};
  wire [NWW-1:0]    s_w0  = s_loc_q[XW-1:LG_BUS] + {{(NWW-1){1'b0}}, s_lo[LG_BUS]};
  wire              s_w0z = (s_loc_q[XW-1:LG_BUS] == {NWW{1'b0}}) && !s_lo[LG_BUS];

  // What tracker r takes at the segment's start: tap r, at s_lo + md_r from the start of w0
  // (offset oc, words wc), and bit j of taps r + j*M (ec, zc, lc as e, z, l).
  reg  [M*LG_BUS-1:0] oc;
  reg  [M*WDW-1:0]    wc;
  reg  [M*L-1:0]      ec, zc, lc;
  reg  [SUMW-1:0]     sc;
  reg  [DW:0]         mdc;
  integer c, jc, tc;
  always @* begin
    for (c = 0; c < M; c = c + 1) begin
      sc = {{(SUMW-LG_BUS){1'b0}}, s_lo[LG_BUS-1:0]} + {{(SUMW-DW){1'b0}}, md_at(md_i, c)};
      oc[c*LG_BUS +: LG_BUS] = sc[LG_BUS-1:0];
      wc[c*WDW +: WDW]       = sc[SUMW-1:LG_BUS];
      for (jc = 0; jc < L; jc = jc + 1) begin
        tc  = c + jc * M;
        mdc = {1'b0, md_at(md_i, (tc < DEPTH) ? tc : 0)};
        ec[c*L + jc] = ({{(32-TW){1'b0}}, taps_i} > tc);
        lc[c*L + jc] = ({{(32-TW){1'b0}}, taps_i} == tc + 1);
        zc[c*L + jc] = lin_i && (tc < DEPTH) && ((mdc < s_u_q) || !(mdc < s_v_q));
      end
    end
  end

  // ---- the segment's first word, and the staged word ---------------------------------------------
  // eqw_q: the staged word is w0; first_q: w0 has not left yet (the trackers count from it).
  reg  [NWW-1:0] w0_q;
  reg            first_q, eqw_q, mine_q;
  wire           leave   = accept_i && b_vld_i && mine_q;     // a word of the segment leaves
  wire           dec     = leave && (!first_q || eqw_q);      // ... and the trackers count it
  wire           first_n = seg_start || (first_q && !(leave && eqw_q));
  wire           eqw_n   = !accept_i ? eqw_q : seg_start ? s_w0z : (w0_q == s_iw_i);
  wire           mine_n  = accept_i ? s_mine_q : mine_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q <= {NWW{1'b0}}; first_q <= 1'b0; eqw_q <= 1'b0; mine_q <= 1'b0;
    end else begin
      if (seg_start) w0_q <= s_w0;
      first_q <= first_n;
      eqw_q   <= eqw_n;
      mine_q  <= mine_n;
    end
  end

  // ---- the trackers -------------------------------------------------------------------------------
  reg  [M*LG_BUS-1:0] o_q;            // tracker r's tap: its offset in its word
  reg  [M*WDW-1:0]    wd_q;           // ... words to it from the staged word (or w0)
  reg  [M*L-1:0]      e_q, z_q, l_q;  // ... bit j: tap t_r + j*M is there, zero, the last
  reg  [MB-1:0]       tr0_q;          // the tracker of tap t (slot 0)
  reg  [M-1:0]        sr_q;           // slot k's tap is in the staged word (if one is staged)
  reg  [QN-1:0]       free_q;         // bit k: room for k + 1 more elements
  reg  [M-1:0]        nxw_q;          // tracker r's tap M taps on is there, in its tap's word

  // Per tracker: its tap M taps on, registered (nx_q: o + md_M from the start of its tap's word,
  // loaded with the tap: nxc at a segment's start, nxn when the tap is taken). nxw_q (the lane's
  // done depends on it, so it comes from a flip-flop) is worked out for the places the tracker
  // takes next: at a segment's start (nxw_c, from nxc and ec) and when its tap is taken (nxw_t:
  // from nxn, with its tap 2M on).
  reg  [M*SUMW-1:0]   nx_q;
  reg  [M*SUMW-1:0]   nxc, nxn;
  reg  [M-1:0]        nxw_c, nxw_t;
  integer r;
  always @* begin
    for (r = 0; r < M; r = r + 1) begin
      nxc[r*SUMW +: SUMW] = {{(SUMW-LG_BUS){1'b0}}, oc[r*LG_BUS +: LG_BUS]} +
                            {{(SUMW-DW){1'b0}}, md_at(md_i, M)};
      nxn[r*SUMW +: SUMW] = {{(SUMW-LG_BUS){1'b0}}, nx_q[r*SUMW +: LG_BUS]} +
                            {{(SUMW-DW){1'b0}}, md_at(md_i, M)};
      nxw_c[r] = (L > 1) && ec[r*L + ((L > 1) ? 1 : 0)] &&
                 (nxc[r*SUMW + LG_BUS +: WDW] == {WDW{1'b0}});
      nxw_t[r] = (L > 2) && e_q[r*L + ((L > 2) ? 2 : 0)] &&
                 (nxn[r*SUMW + LG_BUS +: WDW] == {WDW{1'b0}});
    end
  end
  // (dec comes late in the cycle: it follows every lane's done, so it only selects between
  // comparisons made for both of its values; likewise for the word counts, wd1 and nx1 below)
  localparam [WDW-1:0] W1 = {{(WDW-1){1'b0}}, 1'b1};
  reg  [WDW-1:0]      wd_r, nx_r;
  reg  [M*WDW-1:0]    wd1, nx1;       // tracker r's word count, and its tap M on's, minus one
  integer rs;
  always @* begin
    for (rs = 0; rs < M; rs = rs + 1) begin
      wd_r = wd_q[rs*WDW +: WDW];
      nx_r = nx_q[rs*SUMW + LG_BUS +: WDW];
      wd1[rs*WDW +: WDW] = wd_r - W1;
      nx1[rs*WDW +: WDW] = nx_r - W1;
    end
  end

  // The pick's done, from its inputs: inw[k], slot k (tap t + k) is in the staged word, and the
  // FIFO's room (free, a thermometer). The pick takes the first npick slots: as many as are in
  // the word, at most M and the room; a tap of the word is left after it when the slots in the
  // word run past the room (slots 0 .. k in the word, no room for k + 1) or past M.
  function done_of(input [M:0] inw, input [QN-1:0] free);
    reg     run, more;
    integer j;
    begin
      run  = 1'b1;
      more = 1'b0;
      for (j = 0; j <= M; j = j + 1) begin
        run  = run && inw[j];
        more = more || (run && ((j == M) || !free[(j < M) ? j : 0]));
      end
      done_of = !more;
    end
  endfunction

  reg  [M:0]    inw;            // slot k (tap t + k) in the staged word
  reg  [M-1:0]  pk;             // slot k taken
  reg  [M-1:0]  tw;             // tracker r's tap taken
  reg  [KW-1:0] npick;
  reg           more;           // a tap of the word is left after this cycle's
  integer k;
  always @* begin
    for (k = 0; k < M; k = k + 1)
      inw[k] = b_vld_i && sr_q[k];
    inw[M] = b_vld_i && sr_q[0] && nxw_q[tr0_q];
    npick = {KW{1'b0}};
    for (k = 0; k < M; k = k + 1) begin
      pk[k] = inw[k] && free_q[k] && ((k == 0) || pk[(k > 0) ? k - 1 : 0]);
      if (pk[k]) npick = k[KW-1:0] + 1'b1;
    end
    for (k = 0; k < M; k = k + 1)
      tw[k] = pk[sub_mod(k[MB-1:0], tr0_q)];
    more = inw[0];
    for (k = 1; k <= M; k = k + 1)
      if (npick == k[KW-1:0]) more = inw[k];
  end
  // (this cycle's done from this cycle's pick: what done_q holds; the testbench compares them)
  wire          done_c = !more;
  wire          unused_done_c = done_c;

  wire [MB-1:0] tr0_n = add_mod(tr0_q, {1'b0, npick});

  // The lane's done one cycle ahead. done_o comes from a flip-flop: the feeder ANDs every lane's
  // done into accept_i, which moves every lane's registers, so a done worked out from this
  // cycle's state would cross the feeder twice in one cycle. What the pick reads next cycle
  // (its slots sr, nxw, tr0, the FIFO's room and the staged word's valid) is worked out here for
  // each value of accept_i and pop_i (both come late: accept_i from every lane's done, pop_i from
  // every lane's nonempty), and done_q takes the pick's done of the one that happens. Slot k next
  // cycle: now slot npick + k (its tracker stays) or, from M on, slot npick + k - M (its tracker
  // moves on); at a segment's start, tracker k. sr_n (slot k's tap in the next staged word) is
  // also selected from the two.
  wire [2*M-1:0] sr_na;         // sr_n if accept_i were a, at [a*M +: M]
  wire [3:0]     done_na;       // done next cycle, at [2*a + pop]
  // npick as one-hot (from the pick's thermometer pk): what depends on it is worked out for each
  // of its values and selected, with no arithmetic on it
  reg  [M:0]     np_oh;
  integer v0;
  always @* begin
    for (v0 = 0; v0 <= M; v0 = v0 + 1)
      np_oh[v0] = ((v0 == 0) || pk[(v0 > 0) ? v0 - 1 : 0]) &&
                  ((v0 == M) || !pk[(v0 < M) ? v0 : 0]);
  end
  // vec[(base + ofs) mod M], for base < M
  function rot(input [M-1:0] vec, input [MB-1:0] base, input integer ofs);
    integer rb;
    begin
      rot = 1'b0;
      for (rb = 0; rb < M; rb = rb + 1)
        if (base == rb[MB-1:0]) rot = vec[(rb + ofs) % M];
    end
  endfunction
  // the FIFO's room next cycle, for each value of pop_i
  reg  [QN-1:0]  room0, room1;
  reg  [QN+M:0]  fsh;
  integer v1;
  always @* begin
    room0 = {QN{1'b0}};
    room1 = {QN{1'b0}};
    for (v1 = 0; v1 <= M; v1 = v1 + 1) begin
      fsh = {{M{1'b0}}, free_q, 1'b1};
      if (np_oh[v1]) begin
        room1 = room1 | fsh[v1 +: QN];
        room0 = room0 | fsh[v1 + 1 +: QN];
      end
    end
  end

  genvar ga;
  generate
    for (ga = 0; ga < 2; ga = ga + 1) begin : g_acc
      wire acc = (ga == 1);
      wire ss  = acc && s_fs_q && s_mine_q;               // seg_start
      wire lv  = acc && b_vld_i && mine_q;                // leave
      wire dc  = lv && (!first_q || eqw_q);               // dec
      wire fn  = ss || (first_q && !(lv && eqw_q));       // first_n
      wire en  = !acc ? eqw_q : ss ? s_w0z : (w0_q == s_iw_i);   // eqw_n
      wire mn  = acc ? s_mine_q : mine_q;                 // mine_n
      wire hn  = mn && (!fn || en);                       // here_n
      reg  [M-1:0]  stay, adv, sn, sv;
      reg  [M:0]    inw_n;
      reg           nwv, last_in;
      reg  [WDW-1:0] wr, xr;
      integer r2, kn, v;
      always @* begin
        // tracker r's tap in the next word of the segment if it stays (stay) or moves on (adv)
        for (r2 = 0; r2 < M; r2 = r2 + 1) begin
          wr = wd_q[r2*WDW +: WDW];
          xr = nx_q[r2*SUMW + LG_BUS +: WDW];
          stay[r2] = e_q[r2*L] && (dc ? (wr == W1) : (wr == {WDW{1'b0}}));
          adv[r2]  = (L > 1) && e_q[r2*L + ((L > 1) ? 1 : 0)] &&
                     (dc ? (xr == W1) : (xr == {WDW{1'b0}}));
        end
        // with npick = v, slot k next cycle is slot v + k now: its tracker stays (v + k < M) or
        // has moved on; slot M is slot 0's tracker with its tap M on (nwv: there, in the word
        // of slot 0's tap). At a segment's start, tracker k and tracker 0's nxw_c.
        sn = {M{1'b0}};
        last_in = 1'b0;
        for (v = 0; v <= M; v = v + 1) begin
          for (kn = 0; kn < M; kn = kn + 1)
            sv[kn] = (kn + v < M) ? rot(stay, tr0_q, kn + v) : rot(adv, tr0_q, kn + v - M);
          nwv = (v == M) ? rot(nxw_t, tr0_q, 0) : rot(nxw_q, tr0_q, v);
          if (np_oh[v]) begin
            sn = sn | sv;
            last_in = last_in | nwv;
          end
        end
        if (ss) begin
          for (kn = 0; kn < M; kn = kn + 1)
            sn[kn] = ec[kn*L] && (wc[kn*WDW +: WDW] == {WDW{1'b0}});
          last_in = nxw_c[0];
        end
        sn = sn & {M{hn}};
        for (kn = 0; kn < M; kn = kn + 1)
          inw_n[kn] = b_vld_n_i[ga] && sn[kn];
        inw_n[M] = b_vld_n_i[ga] && sn[0] && last_in;
      end
      assign sr_na[ga*M +: M] = sn;
      assign done_na[2*ga]     = done_of(inw_n, room0);
      assign done_na[2*ga + 1] = done_of(inw_n, room1);
    end
  endgenerate
  wire [M-1:0] sr_n = accept_i ? sr_na[M +: M] : sr_na[0 +: M];
  // free' = free - npick + pop, as a thermometer
  wire [QN-1:0] free_n = pop_i ? room1 : room0;
  reg          done_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) done_q <= 1'b1;                  // nothing staged
    else         done_q <= done_na[{accept_i, pop_i}];
  end
  assign done_o = done_q;

  integer f;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_q <= {(M*LG_BUS){1'b0}}; wd_q <= {(M*WDW){1'b0}};
      e_q <= {(M*L){1'b0}}; z_q <= {(M*L){1'b0}}; l_q <= {(M*L){1'b0}};
      tr0_q <= {MB{1'b0}};
      sr_q  <= {M{1'b0}};
      nxw_q <= {M{1'b0}};
      nx_q  <= {(M*SUMW){1'b0}};
    end else begin
      sr_q <= sr_n;
      if (seg_start) begin
        nxw_q <= nxw_c;
        nx_q  <= nxc;
        o_q   <= oc;
        wd_q  <= wc;
        e_q   <= ec;
        z_q   <= zc;
        l_q   <= lc;
        tr0_q <= {MB{1'b0}};
      end else begin
        for (f = 0; f < M; f = f + 1) begin
          if (tw[f]) begin
            nxw_q[f] <= nxw_t[f];
            nx_q[f*SUMW +: SUMW] <= nxn[f*SUMW +: SUMW];
            o_q[f*LG_BUS +: LG_BUS] <= nx_q[f*SUMW +: LG_BUS];
            wd_q[f*WDW +: WDW] <= dec ? nx1[f*WDW +: WDW] : nx_q[f*SUMW + LG_BUS +: WDW];
            e_q[f*L +: L] <= e_q[f*L +: L] >> 1;
            z_q[f*L +: L] <= z_q[f*L +: L] >> 1;
            l_q[f*L +: L] <= l_q[f*L +: L] >> 1;
          end else if (dec) begin
            wd_q[f*WDW +: WDW] <= wd1[f*WDW +: WDW];
          end
        end
        tr0_q <= tr0_n;
      end
    end
  end

  // ---- the FIFO: bank b, QD entries, takes the lane's elements i with i mod M = b ---------------
  reg [M*QD*IN_BITS-1:0] q_data;      // bank b, entry e at [(b*QD + e)*IN_BITS +: IN_BITS]
  reg [M*QD-1:0]         q_last;
  reg [MB-1:0]           wb_q, rb_q;  // the banks of the next write and of the head
  reg [MB-1:0]           base_q;      // the bank of the segment's tap 0
  reg [M*BW-1:0]         bw_q, br_q;  // each bank's next write and head entry

  // bank b takes tracker (b - base) mod M's tap when slot (b - wb) mod M is taken
  reg [M*IN_BITS-1:0]    b_wdata;
  reg [M-1:0]            b_we, b_last, b_zero;
  reg [LG_BUS-1:0]       b_sel;
  integer wb, wt;
  always @* begin
    for (wb = 0; wb < M; wb = wb + 1) begin
      b_we[wb]   = pk[sub_mod(wb[MB-1:0], wb_q)];
      b_last[wb] = 1'b0;
      b_zero[wb] = 1'b0;
      b_sel      = {LG_BUS{1'b0}};
      for (wt = 0; wt < M; wt = wt + 1)
        if (sub_mod(wb[MB-1:0], base_q) == wt[MB-1:0]) begin
          b_last[wb] = b_last_i && l_q[wt*L];
          b_zero[wb] = z_q[wt*L];
          b_sel      = o_q[wt*LG_BUS +: LG_BUS];
        end
      // (the element by its number: a select of whole elements, a BUS-to-1 multiplexer per bit)
      b_wdata[wb*IN_BITS +: IN_BITS] = b_zero[wb] ? PAD[IN_BITS-1:0]
                                                  : b_word_i[b_sel*IN_BITS +: IN_BITS];
    end
  end

  integer fb, fe;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_data <= {(M*QD*IN_BITS){1'b0}};
      q_last <= {(M*QD){1'b0}};
      wb_q <= {MB{1'b0}}; rb_q <= {MB{1'b0}}; base_q <= {MB{1'b0}};
      bw_q <= {(M*BW){1'b0}}; br_q <= {(M*BW){1'b0}};
      free_q <= {QN{1'b1}};
    end else begin
      for (fb = 0; fb < M; fb = fb + 1) begin
        if (b_we[fb]) begin
          for (fe = 0; fe < QD; fe = fe + 1)
            if (bw_q[fb*BW +: BW] == fe[BW-1:0]) begin
              q_data[(fb*QD + fe)*IN_BITS +: IN_BITS] <= b_wdata[fb*IN_BITS +: IN_BITS];
              q_last[fb*QD + fe] <= b_last[fb];
            end
          bw_q[fb*BW +: BW] <= (bw_q[fb*BW +: BW] == QDLAST) ? {BW{1'b0}}
                                                             : bw_q[fb*BW +: BW] + 1'b1;
        end
        if (pop_i && rb_q == fb[MB-1:0])
          br_q[fb*BW +: BW] <= (br_q[fb*BW +: BW] == QDLAST) ? {BW{1'b0}}
                                                             : br_q[fb*BW +: BW] + 1'b1;
      end
      if (pop_i) rb_q <= (rb_q == MLAST) ? {MB{1'b0}} : rb_q + 1'b1;
      wb_q <= add_mod(wb_q, {1'b0, npick});
      if (seg_start) base_q <= add_mod(wb_q, {1'b0, npick});
      free_q <= free_n;
    end
  end

  // the head: each bank's head entry, then the head bank's
  reg [M*IN_BITS-1:0] bh_data;
  reg [M-1:0]         bh_last;
  reg [IN_BITS-1:0]   head;
  reg                 head_last;
  integer hb, he;
  always @* begin
    bh_data = {(M*IN_BITS){1'b0}};
    bh_last = {M{1'b0}};
    for (hb = 0; hb < M; hb = hb + 1)
      for (he = 0; he < QD; he = he + 1)
        if (br_q[hb*BW +: BW] == he[BW-1:0]) begin
          bh_data[hb*IN_BITS +: IN_BITS] = q_data[(hb*QD + he)*IN_BITS +: IN_BITS];
          bh_last[hb] = q_last[hb*QD + he];
        end
    head = {IN_BITS{1'b0}};
    head_last = 1'b0;
    for (hb = 0; hb < M; hb = hb + 1)
      if (rb_q == hb[MB-1:0]) begin
        head = bh_data[hb*IN_BITS +: IN_BITS];
        head_last = bh_last[hb];
      end
  end
  assign nonempty_o  = !free_q[QN-1];
  assign head_o      = head;
  assign head_last_o = head_last;

endmodule

`resetall
