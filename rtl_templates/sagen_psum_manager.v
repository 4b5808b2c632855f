// sagen_psum_manager: takes the results leaving the top of the array's reserve chains, deskews
// them (column c is COLS-1-c steps ahead of the last column) and writes one word of COLS results
// per output pixel into the output SRAM. When a pass accumulates (a later channel slice of the
// same outputs) it reads the partial sums written by the previous pass and adds (read-modify-
// write through the SRAM's separate read and write ports). The output tile is stored as
// [filter group][pixel] words, pixels row-major, so context c's lane l writes pixel c*ROWS+l;
// lanes past the tile's last pixel are dropped. Its counters follow the feeder's context order.
// With column groups (GROUPS > 1, see sagen_array) a context is LANES = groups x ROWS pixels and
// the word of row r holds, in the columns of group g, pixel c*LANES + g*ROWS + r: words are
// stored as [filter group][context][row] (kg_words_i per filter group), the host sorts the
// pixels out, and each column is deskewed by its place in its group (dtap_i).
//
// col2im (c2i_i, LINE_WORDS > 0): the input gradient as a matrix product of dy's pixels and the
// (tap, channel of dx) filters, whose products overlap-add into dx. The pixels of the pass are a
// grid of owv_i per row, one per super-pixel of dx (the S_h x S_w output phases of a dx position
// block), and every filter group writes the same words (kg_words_i = 0): word q holds the
// super-pixel of pixel q, a lane per (phase, channel). Each column of a filter group sends its
// result to one lane of one of four classes (route_i): 00 the pixel's own word, 01 the word of
// the next pixel in the row, 10 the word below it, 11 the word below the next pixel. A tap can
// reach no further when (R-1) * dilation < 2 * stride. The pixels arrive in row order, so word q
// takes, as pixel q is written, its 00 results, the 01 results of pixel q-1 (held in p01_q) and
// the 10 and 11 results of the row above, which the overlap-add line holds: line word j of the
// filter group's segment carries into column j of the next row what the row above sent down
// (its 10 results at j and its 11 results at j-1, held in p11_q). The line lasts from pass to
// pass, so a tile of rows continues where the one above ended (line_first_i: the first row
// takes the line; not in an image's first tile). The first filter group writes its words
// (unless the pass accumulates), later ones add to them. A pass that accumulates a later slice
// of the reduction over one row (line_acc_i) adds nothing of the line to the words and adds its
// carry into the line instead. Results routed past a row's end or below the grid land in
// columns and rows the host does not read.
//
// Pipeline (integers: three stages from the deskew to the SRAM's write port): stage 0, the
// fire cycle (a deskewed pixel is valid): the walk's registers address the SRAM's and the
// line's reads, each lane and class picks its column (an AND-OR of the route entries of the
// filter group, whose row of the table is a register loaded the cycle before), the previous
// pixel's 01 and 11 results are chosen (not for a row's first), and the word's address is
// compared with the three words still ahead of it (stage 1, stage 2, the write), all into
// stage-1 registers. Stage 1: the read data come back and end in flip-flops, the stored
// partial sums chosen by the registered flags (the read data or a word of stages 2 and 3), the
// line's carry, own + previous and down + previous's down. Stage 2: the stored sums of the
// word just before if it is the same word, a carry-save of own + previous, carry and stored,
// and one carry chain into sram_wdata_o (the line's word: one carry chain). A result leaves
// the deskew at cycle t, its word is written at t + 3; done_o follows the last write, and a
// line word is read again a row (4 pixels or more) after its write has landed.
//
// Floating point (FP = 1: results of AEW exponent and AFW fraction bits, ACC_BITS = AEW + AFW +
// 1): a word is its result plus the stored partial sum, rounded (sagen_fp_add, round to nearest
// even), or the result alone (+ -0, exact) when the pass does not accumulate: the outputs of
// passes P0, P1, ... of one reduction become ((P0 + P1) + P2) + ... in pass order. Stage 1
// registers the operands into stage 2, the adder takes six cycles, and the word is written at
// t + 9. Without col2im no word is read again within a pass, and done_o waits for the adders'
// last word. With the col2im line (LINE_WORDS > 0) the adders are a tree of two levels: word =
// (own + previous) + (line carry + stored), line word = (down + previous's down) + its carry
// (line_acc), an absent operand -0 (the identity: a plain pass's words are those of one adder),
// written at t + 15; line_acc's carry is read 6 cycles late to meet the first level's sum. A
// line word is read again a row later and a word by the next filter group a tile later: the
// controller takes float col2im passes whose rows and tiles have 16 pixels or more.
//
// Passes back to back: the walk is free (free_o) from the fire cycle of its last result on, and
// a start_i then begins the next pass's walk while the last words are still in stages 1 and 2:
// the walk's counts, the accumulate flag and the bank are taken at start_i (the descriptor's
// other fields, col2im's and the column groups' deskew, must not change between two such
// passes: the core starts the next pass early only where they do not). A word of the next
// pass that adds to one still on its way is read from the forwarded write (integers) or comes
// at least a context gap later (float: 18 cycles apart, the adder's path is 9). pass_done_o
// pulses as each pass's last word is written, in pass order.
`default_nettype none

module sagen_psum_manager #(
  parameter integer ROWS     = 4,
  parameter integer COLS     = 4,
  parameter integer ACC_BITS = 32,
  parameter integer AW       = 10,  // output SRAM address bits
  parameter integer GROUPS   = 1,   // column groups the array can form
  parameter integer LINE_WORDS = 0, // words of the col2im overlap-add line (0: no col2im)
  parameter integer LINE_AW  = 1,   // its address bits
  parameter integer RT_KGS   = 4,   // filter groups of a col2im pass
  parameter integer LB       = 1,   // bits of a column index, 2**LB >= COLS
  parameter integer FP       = 0,   // 1: results in floating point
  parameter integer AEW      = 8,   // their exponent and fraction bits (FP = 1)
  parameter integer AFW      = 23
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     start_i,
  input  wire                     accumulate_i,  // add to the partial sums already stored
  input  wire                     bank_i,        // the output bank of the pass
  input  wire [31:0]              n_ctx_i,       // contexts per filter group
  input  wire [31:0]              npix_i,        // output pixels of the tile
  input  wire [15:0]              n_kg_i,        // filter groups
  input  wire [15:0]              lanes_i,       // pixels per context (ROWS: no groups)
  input  wire [31:0]              kg_words_i,    // words per filter group (npix: no groups)
  input  wire [COLS*16-1:0]       dtap_i,        // deskew of each column (GROUPS > 1)
  // col2im (see above)
  input  wire                     c2i_i,
  input  wire                     line_first_i,  // the pass's first row takes the line
  input  wire                     line_acc_i,    // the pass adds its carry into the line
  input  wire [2:0]               line_kg0_i,    // first filter group with a line segment
  input  wire [15:0]              owv_i,         // pixels per row of the grid
  // route table: entry (kg * 4 + class) * COLS + lane = {valid, column}
  input  wire [RT_KGS*4*COLS*(1+LB)-1:0] route_i,
  output wire                     line_re_o,
  output wire [LINE_AW-1:0]       line_raddr_o,
  input  wire [COLS*ACC_BITS-1:0] line_rdata_i,
  output reg                      line_we_o,
  output reg  [LINE_AW-1:0]       line_waddr_o,
  output reg  [COLS*ACC_BITS-1:0] line_wdata_o,
  // array side
  input  wire                     step_i,        // the array stepped this cycle
  input  wire [COLS*ACC_BITS-1:0] res_i,
  input  wire [COLS-1:0]          res_vld_i,
  // output SRAM
  output wire                     sram_re_o,
  output wire [AW-1:0]            sram_raddr_o,
  output wire                     sram_rbank_o,  // the bank of the read (the walk's pass's)
  input  wire [COLS*ACC_BITS-1:0] sram_rdata_i,
  output reg                      sram_we_o,
  output reg  [AW-1:0]            sram_waddr_o,
  output reg                      sram_wbank_o,  // the bank of the write (its word's pass's)
  output reg  [COLS*ACC_BITS-1:0] sram_wdata_o,
  output wire                     free_o,        // the walk takes a start_i this cycle
  output reg                      pass_done_o,   // a pass's last word is written this cycle
  output wire                     done_o         // every result of every pass is written
);

  // (the format is read by the float adders alone)
  wire [31:0] unused_fmt = AEW ^ AFW;
  // No operand: 0 for integers, -0 in floating point (the float sum's identity, -0 + x = x for
  // every x, so a lane no route reaches or a neighbour a row's first pixel lacks adds nothing)
  localparam [ACC_BITS-1:0] NONE1 = (FP != 0) ? {1'b1, {(ACC_BITS-1){1'b0}}} : {ACC_BITS{1'b0}};
  localparam [COLS*ACC_BITS-1:0] NONE = {COLS{NONE1}};

  // Deskew: column c waits COLS-1-c steps so that a pixel's COLS results leave together.
  wire [COLS*ACC_BITS-1:0] res_d;
  wire [COLS-1:0]          vld_d;
  genvar g;
  generate
    for (g = 0; g < COLS; g = g + 1) begin : g_deskew
      if (GROUPS == 1) begin : g_fixed
        sagen_skew #(
          .WIDTH(ACC_BITS + 1),
          .DEPTH(COLS - 1 - g)
        ) u_deskew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (step_i),
          .d_i   ({res_vld_i[g], res_i[g*ACC_BITS +: ACC_BITS]}),
          .q_o   ({vld_d[g], res_d[g*ACC_BITS +: ACC_BITS]})
        );
      end else begin : g_tapped
        sagen_skew_tap #(
          .WIDTH(ACC_BITS + 1),
          .DEPTH(COLS - 1 - g)
        ) u_deskew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (step_i),
          .tap_i (dtap_i[g*16 +: 16]),
          .d_i   ({res_vld_i[g], res_i[g*ACC_BITS +: ACC_BITS]}),
          .q_o   ({vld_d[g], res_d[g*ACC_BITS +: ACC_BITS]})
        );
      end
    end
  endgenerate
  // One column's valid stands for all: the last (no groups) or the first (every group has it).
  localparam integer VCOL = (GROUPS == 1) ? COLS - 1 : 0;
  wire unused_vld = ^vld_d ^ (^dtap_i);

  localparam [31:0] ROWS32 = ROWS;
  localparam [15:0] ROWS16 = ROWS32[15:0];
  reg  stepped_q;   // the deskewed values are new this cycle
  wire fire = stepped_q && vld_d[VCOL];
  // Without column groups every column's result of a pixel leaves the deskew in the same cycle,
  // so each column's valid is a copy of fire: the walk's registers take theirs from column 0's
  // and each lane's held results (col2im) from its own column's, so that no one net enables
  // every register of the block.
  localparam integer WCOL = (GROUPS == 1) ? 0 : VCOL;
  wire fire_w = stepped_q && vld_d[WCOL];

  // The walk over the words: every position the SRAM and the line see is a register moved by
  // the walk's steps, and each loop counts down to its last (no adder before an address, no
  // compare of a sum), set at start_i from the pass's counts (held during the pass).
  reg        run_q;
  // the pass's counts the walk reads after start_i, taken at start_i (so that the next pass's
  // descriptor may come while this pass's last results are still on their way, see free_o)
  reg        acc_q;        // the pass accumulates
  reg        bank_q;       // its output bank: a word carries it to its write (banks may
                           // differ between two passes back to back)
  reg [31:0] ctx_m1_q;     // contexts per filter group - 1
  reg        ctx1_q;       // ... at most one
  reg        npix_nz_q;    // the tile has pixels
  reg        owv_nz_q;     // col2im: the grid's rows have pixels
  reg [31:0] kgw_q;        // words per filter group
  reg [15:0] i_row, i_kg;
  reg [31:0] ctx_left_q;   // contexts of the filter group after this one
  reg [15:0] kg_m1_q;      // filter groups - 1
  reg [15:0] owv_m1_q;     // col2im: pixels per row - 1
  reg [31:0] p_q;          // pixel of lane row in group 0: context * lanes + row
  reg [31:0] kg_base_q;    // first word of the filter group: kg * kg_words
  reg [31:0] addr_q;       // the word: kg_base + context * ROWS + row
  reg [31:0] jump_q;       // p_next - p_q from a context's last row: 1 + lanes - ROWS
  // Whether the next pixel exists and sits in the grid's first row, for the two moves within a
  // filter group (+1, +jump), as compares of p_q with limits set at start_i: p_q + d < n is
  // p_q < n - d (33-bit signed, so a limit below zero holds no pixel). One carry chain from
  // p_q to keep_q, beside the adder of p_next rather than after it.
  reg signed [32:0] keep_lim1_q, keep_limj_q, row_lim1_q, row_limj_q;
  reg        keep_q;       // p_q < npix: the pixel exists
  reg        first_row_q;  // col2im: p_q < owv, the grid's first row
  reg [15:0] j_q;          // col2im: the pixel's column in its row (p_q mod owv)
  reg        pv_q;         // col2im: j_q != 0 (takes the row's previous pixel's 01 and 11)
  reg [31:0] lbase_q;      // col2im: first line word of the filter group's segment
  reg [31:0] laddr_q;      // col2im: its line word, lbase + j
  wire        keep  = keep_q;
  wire [31:0] addr  = addr_q;
  // col2im: the filter group has a line segment; the pixel takes the line into its word (not
  // in the first row unless line_first); the first filter group writes, later ones add
  // the walk's decisions are flip-flops set with the registers they test (no compare between the
  // walk's registers and the fire cycle's logic): the filter group has a line segment, is the
  // first, is the last; the pixel is the last of its row (j_q = owv - 1), the context the last
  reg         line_kg_q, kg0_q, last_kg_q, j_wrap_q, last_ctx_q;
  wire        has_line  = c2i_i && line_kg_q;
  wire        first_row = first_row_q;
  wire        add_line  = has_line && !line_acc_i && (!first_row || line_first_i);
  wire        rmw       = acc_q || (c2i_i && !kg0_q);
  wire        j_wrap    = j_wrap_q;
  wire [15:0] j_next    = j_wrap ? 16'd0 : j_q + 16'd1;
  wire [31:0] laddr     = laddr_q;

  reg  last_row_q;   // i_row = ROWS - 1 (set with i_row: no adder before the walk's moves)
  wire last_row = last_row_q;
  wire last_ctx = last_ctx_q;
  wire last_kg  = last_kg_q;
  wire [15:0] kg_p1 = i_kg + 16'd1;
  // the walk moves to the next filter group (start_i takes it to the first)
  wire kg_adv   = fire_w && run_q && !start_i && last_row && last_ctx;
  // the pixel the walk moves to, and whether it exists and sits in the grid's first row
  wire [31:0] p_next = !last_row ? p_q + 32'd1 :
                       !last_ctx ? p_q + jump_q : 32'd0;
  wire signed [32:0] p_s = $signed({1'b0, p_q});
  wire keep_next  = !last_row ? (p_s < keep_lim1_q) : !last_ctx ? (p_s < keep_limj_q) :
                    npix_nz_q;
  wire first_next = !last_row ? (p_s < row_lim1_q) : !last_ctx ? (p_s < row_limj_q) :
                    owv_nz_q;
  wire [32:0] jump_d = {1'b0, 32'd1 + {16'd0, lanes_i} - ROWS32};
  function automatic [15:0] m1(input [15:0] n);
    m1 = (n == 16'd0) ? 16'd0 : n - 16'd1;
  endfunction

  // Stage 0 (the fire cycle): read the stored partial sums (and the line), pick the results of
  // each lane and class from the deskewed columns, and decide where the stored sums of the word
  // come from (registered flags: no compare and no pick after stage 0). Stages 1 and 2: see the
  // header (integers) and g_fp (floating point).
  wire                    s0_vld = fire && keep && run_q;
  // the walk's last fire: its word (if kept) is the pass's last; the walk is free for the next
  // pass's start_i in the same cycle (the start takes the walk's registers, this word goes on)
  wire                    s0_end = fire_w && run_q && last_row && last_ctx && last_kg;
  reg                     s1_vld, s1_end;
  reg [AW:0]              s1_addr;   // {bank, address}
  reg [COLS*ACC_BITS-1:0] s1_own, s1_prev, s1_down, s1_lprev;
  reg                     s1_carry;  // the word takes the line's carry (col2im, add_line)
  reg                     s1_lacc;   // the line adds its carry (col2im, line_acc)
  reg                     s1_line;
  reg [LINE_AW-1:0]       s1_laddr;
  // where the stored partial sums come from (see stored)
  reg                     s1_st_n, s1_st_o, s1_st_b, s1_st_r;

  assign sram_re_o    = fire && keep && rmw;
  assign sram_raddr_o = addr[AW-1:0];
  assign sram_rbank_o = bank_q;
  wire                    line_rd_o;   // the line's read port (float col2im: see g_two)
  wire [LINE_AW-1:0]      line_rad_o;
  wire                    line_re0 = fire && keep && run_q &&
                                     (add_line || (has_line && line_acc_i));
  wire [LINE_AW-1:0]      line_ra0 = laddr[LINE_AW-1:0];
  assign line_re_o    = line_rd_o;
  assign line_raddr_o = line_rad_o;
  wire unused_addr    = ^{addr[31:AW], laddr[31:LINE_AW]};

  // col2im: the four classes of the deskewed results, routed to their lanes
  wire [COLS*ACC_BITS-1:0] v00, v01, v10, v11;
  wire [COLS*ACC_BITS-1:0] p01_q, p11_q;
  generate
    if (LINE_WORDS > 0) begin : g_c2i
      localparam integer RE = 1 + LB;
      localparam integer VW = COLS * ACC_BITS;
      localparam integer RW = 4 * COLS * RE;   // the route table of one filter group
      // The filter group's route row, decoded and registered (e of g_lane: for each class
      // and lane a one-hot select of the columns and a none bit), so the pick is an AND-OR
      // of flip-flops' selects. The groups are a one-hot register kept with i_kg (kg1h_q; a
      // pass has at most RT_KGS filter groups, the controller refuses more), and the row of
      // the group after the walk's is an AND-OR of the table's rows by it, registered too
      // (rnext_q), so that the walk's move to the next group (kg_adv) enables the entries
      // to take rnext_q, decoded: no logic between the late move and the row's flip-flops
      // but their enable. rnext_q follows kg1h_q a cycle late, which a move finds right as
      // moves are ROWS fires apart (a group's rows); with one row the move takes the AND-OR
      // itself. While the walk is idle the two hold the rows of groups 0 and 1 as the table
      // is in start_i's cycle: a col2im pass starts from an idle walk (the core chains no
      // col2im pass), and the table is held during a pass.
      reg  [RT_KGS-1:0] kg1h_q;
      wire [RT_KGS-1:0] kg1h_nxt = {kg1h_q[RT_KGS-2:0], 1'b0};
      wire              unused_kg1h = kg1h_q[RT_KGS-1];   // the last group has no next
      localparam integer SE = COLS + 1;        // a decoded entry: {none, one-hot column}
      localparam integer RS = 4 * COLS * SE;   // a decoded row
      reg  [RW-1:0]     row_nxt, rnext_q;
      // a row's entries decoded into one-hot selects of the columns, and a none bit
      function automatic [RS-1:0] dec_row(input [RW-1:0] r);
        integer j, cc;
        begin
          dec_row = {RS{1'b0}};
          for (j = 0; j < 4 * COLS; j = j + 1) begin
            dec_row[j*SE + COLS] = !r[j*RE + RE - 1];
            for (cc = 0; cc < COLS; cc = cc + 1)
              dec_row[j*SE + cc] = r[j*RE + RE - 1] &&
                                   {{(32-LB){1'b0}}, r[j*RE +: LB]} == cc;
          end
        end
      endfunction
      integer k0;
      always @* begin
        row_nxt = {RW{1'b0}};
        for (k0 = 0; k0 < RT_KGS; k0 = k0 + 1)
          row_nxt = row_nxt | ({RW{kg1h_nxt[k0]}} & route_i[k0 * RW +: RW]);
      end
      wire [RW-1:0] row_to = (ROWS > 1) ? rnext_q : row_nxt;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          kg1h_q  <= {{(RT_KGS-1){1'b0}}, 1'b1};
          rnext_q <= {RW{1'b0}};
        end else begin
          if (start_i)     kg1h_q <= {{(RT_KGS-1){1'b0}}, 1'b1};
          else if (kg_adv) kg1h_q <= kg1h_nxt;
          rnext_q <= run_q ? row_nxt : route_i[RW +: RW];
        end
      end
      wire [RS-1:0] rsel_idle = dec_row(route_i[0 +: RW]);   // the row the walk starts from
      wire [RS-1:0] rsel_to   = dec_row(row_to);             // the row it moves to
      wire [4*VW-1:0] vv;
      genvar k, ln;
      for (k = 0; k < 4; k = k + 1) begin : g_class
        for (ln = 0; ln < COLS; ln = ln + 1) begin : g_lane
          // lane ln of class k takes the result of the column its entry names, if valid (an
          // AND-OR of exclusive selects, decoded before the row's flip-flops). The entry moves
          // with the walk's group (kg_adv), enabled by the move worked out from its own
          // column's copy of fire (see fire_w): one enable net per column, a class's 4 entries
          // of COLS + 1 flip-flops each, rather than one for every entry of the row (placed on
          // an ECP5, that net's routing bounded the whole small8x8 design).
          localparam integer J = k * COLS + ln;
          wire adv_l = ((GROUPS == 1) ? stepped_q && vld_d[ln] : fire_w) && run_q && !start_i &&
                       last_row && last_ctx;
          reg [SE-1:0] e;
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni)     e <= {SE{1'b0}};
            else if (!run_q) e <= rsel_idle[J*SE +: SE];
            else if (adv_l)  e <= rsel_to[J*SE +: SE];
          end
          reg [ACC_BITS-1:0] pick;
          integer c;
          always @* begin
            pick = {ACC_BITS{e[COLS]}} & NONE1;   // no entry: no operand
            for (c = 0; c < COLS; c = c + 1)
              pick = pick | ({ACC_BITS{e[c]}} & res_d[c*ACC_BITS +: ACC_BITS]);
          end
          assign vv[k*VW + ln*ACC_BITS +: ACC_BITS] = pick;
        end
      end
      assign v00 = c2i_i ? vv[0*VW +: VW] : res_d;
      assign v01 = vv[1*VW +: VW];
      assign v10 = vv[2*VW +: VW];
      assign v11 = vv[3*VW +: VW];
      // the 01 and 11 results of the row's previous pixel (taken in its fire cycle), each lane's
      // enabled by its own column's copy of fire (see fire_w)
      for (ln = 0; ln < COLS; ln = ln + 1) begin : g_held
        wire fire_l = (GROUPS == 1) ? stepped_q && vld_d[ln] : fire;
        reg [ACC_BITS-1:0] p01_r, p11_r;
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            p01_r <= NONE1;
            p11_r <= NONE1;
          end else if (fire_l && keep && run_q && c2i_i) begin
            p01_r <= v01[ln*ACC_BITS +: ACC_BITS];
            p11_r <= v11[ln*ACC_BITS +: ACC_BITS];
          end
        end
        assign p01_q[ln*ACC_BITS +: ACC_BITS] = p01_r;
        assign p11_q[ln*ACC_BITS +: ACC_BITS] = p11_r;
      end
    end else begin : g_no_c2i
      assign v00 = res_d;
      assign v01 = NONE;
      assign v10 = NONE;
      assign v11 = NONE;
      assign p01_q = NONE;
      assign p11_q = NONE;
      wire unused_rt = ^{route_i, v01, v11, kg_adv};
    end
  endgenerate

  // The stored partial sums as they are now. An integer word reaches the SRAM three cycles
  // after its fire (stage 1, stage 2, the write; float: see g_fp) and a read returns the memory
  // as it was in its fire cycle, so the words of the three fires before it have not reached the
  // read data (col2im: every filter group adds into the same words, so a tile of a few pixels
  // with short contexts reads a word again at once; passes back to back add to the words of
  // the pass before). The fire cycle compares the word's address with the words of stage 1
  // (fwd_w), stage 2 (fwd_2) and the write (fwd_b), and registers the latest match: stage 1
  // takes the stage-2 word from the write register and the written one from its copy
  // (wb_data), or the read data (s1_st_o, s1_st_b, s1_st_r); the stage-1 word is taken in stage
  // 2, from the write register (s1_st_n). In floating point (no stage 2 of words; a word is
  // read again no sooner than the adders' path) stage 1 takes the stage-1 word (s1_st_o).
  reg [COLS*ACC_BITS-1:0] wb_data;
  wire             s2_vld;    // (integers) the word of stage 2, and its {bank, address}
  wire [AW:0]      s2_addr;
  wire [AW:0]      cur   = {bank_q, addr[AW-1:0]};
  wire             fwd_w = s1_vld && s1_addr == cur;
  wire             fwd_2 = s2_vld && s2_addr == cur;
  wire             fwd_b = sram_we_o && {sram_wbank_o, sram_waddr_o} == cur;
  wire [COLS*ACC_BITS-1:0] stored = ({(COLS*ACC_BITS){s1_st_o}} & sram_wdata_o) |
                                    ({(COLS*ACC_BITS){s1_st_b}} & wb_data) |
                                    ({(COLS*ACC_BITS){s1_st_r}} & sram_rdata_i);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_data <= {(COLS*ACC_BITS){1'b0}};
    end else begin
      wb_data <= sram_wdata_o;
    end
  end

  // Each sum of three is a carry-save and one carry chain.
  function automatic [2*ACC_BITS-1:0] csa(input [ACC_BITS-1:0] a, input [ACC_BITS-1:0] b,
                                          input [ACC_BITS-1:0] d);
    csa = {((a & b) | (a & d) | (b & d)) << 1, a ^ b ^ d};
  endfunction

  // The word as it is written: the sum of stage 1 (integers), or of the float adders; the
  // line's word likewise, and the line's read port.
  wire                    wr_vld, wr_end;
  wire [AW:0]             wr_addr;
  wire [COLS*ACC_BITS-1:0] wr_data;
  wire                    late_busy;   // words in the stages after stage 1
  wire                    ln_vld;
  wire [LINE_AW-1:0]      ln_addr;
  wire [COLS*ACC_BITS-1:0] ln_data;
  generate
    if (FP != 0) begin : g_fp
      localparam integer LA = 6;                        // sagen_fp_add's latency
      localparam integer LV = (LINE_WORDS > 0) ? 2 : 1; // adder levels (col2im: a tree of two)
      localparam integer LD = LV * LA;                  // the adders' path
      // stage 2: the operands (an absent one -0, the sum's identity); the delay lines of each
      // word's valid, last mark and {bank, address}, and of the line's writes, [0] stage 2
      wire                    st_any = s1_st_o || s1_st_b || s1_st_r;
      reg [COLS*ACC_BITS-1:0] s2_own, s2_st;
      reg [LD:0]              d_vld, d_end, d_line, d_lacc;
      reg [(LD+1)*(AW+1)-1:0] d_addr;
      reg [(LD+1)*LINE_AW-1:0] d_laddr;
      always @(posedge clk_i) begin
        s2_own <= s1_own;
        s2_st  <= st_any ? stored : NONE;
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          d_vld   <= {(LD+1){1'b0}};
          d_end   <= {(LD+1){1'b0}};
          d_line  <= {(LD+1){1'b0}};
          d_lacc  <= {(LD+1){1'b0}};
          d_addr  <= {((LD+1)*(AW+1)){1'b0}};
          d_laddr <= {((LD+1)*LINE_AW){1'b0}};
        end else begin
          d_vld   <= {d_vld[LD-1:0], s1_vld};
          d_end   <= {d_end[LD-1:0], s1_end};
          d_line  <= {d_line[LD-1:0], s1_vld && s1_line};
          d_lacc  <= {d_lacc[LD-1:0], s1_vld && s1_line && s1_lacc};
          d_addr  <= {d_addr[LD*(AW+1)-1:0], s1_addr};
          d_laddr <= {d_laddr[LD*LINE_AW-1:0], s1_laddr};
        end
      end
      genvar fc;
      if (LV == 1) begin : g_one
        // word = result + stored: written at t + 9
        for (fc = 0; fc < COLS; fc = fc + 1) begin : g_add
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_add (
            .clk_i(clk_i),
            .a_i  (s2_own[fc*ACC_BITS +: ACC_BITS]),
            .b_i  (s2_st[fc*ACC_BITS +: ACC_BITS]),
            .sum_o(wr_data[fc*ACC_BITS +: ACC_BITS])
          );
        end
        assign line_rd_o   = line_re0;
        assign line_rad_o  = line_ra0;
        assign ln_vld      = 1'b0;
        assign ln_addr     = {LINE_AW{1'b0}};
        assign ln_data     = NONE;
        wire unused_fp = ^{s1_prev, s1_down, s1_lprev, s1_carry, s1_lacc, d_line,
                           d_lacc, d_laddr, line_rdata_i};
      end else begin : g_two
        // col2im: word = (own + previous) + (line carry + stored), the line's word = (down +
        // previous's down) + its carry (line_acc), each + rounded: the word and the line are
        // written at t + 15. The line's carry for line_acc is read LA cycles late, so that it
        // comes back as the first level's sum does (line_acc passes read the line only for it;
        // a pass that takes the line into its words reads it in the fire cycle).
        reg [COLS*ACC_BITS-1:0] s2_prev, s2_carry, s2_down, s2_lprev;
        always @(posedge clk_i) begin
          s2_prev  <= s1_prev;
          s2_carry <= s1_carry ? line_rdata_i : NONE;
          s2_down  <= s1_down;
          s2_lprev <= s1_lprev;
        end
        wire [COLS*ACC_BITS-1:0] x, y, lx, ly;
        assign ly = d_lacc[LA] ? line_rdata_i : NONE;
        for (fc = 0; fc < COLS; fc = fc + 1) begin : g_add
          localparam integer B = fc * ACC_BITS;
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_own (
            .clk_i(clk_i), .a_i(s2_own[B +: ACC_BITS]), .b_i(s2_prev[B +: ACC_BITS]),
            .sum_o(x[B +: ACC_BITS]));
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_in (
            .clk_i(clk_i), .a_i(s2_carry[B +: ACC_BITS]), .b_i(s2_st[B +: ACC_BITS]),
            .sum_o(y[B +: ACC_BITS]));
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_word (
            .clk_i(clk_i), .a_i(x[B +: ACC_BITS]), .b_i(y[B +: ACC_BITS]),
            .sum_o(wr_data[B +: ACC_BITS]));
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_down (
            .clk_i(clk_i), .a_i(s2_down[B +: ACC_BITS]), .b_i(s2_lprev[B +: ACC_BITS]),
            .sum_o(lx[B +: ACC_BITS]));
          sagen_fp_add #(.EW(AEW), .FW(AFW)) u_line (
            .clk_i(clk_i), .a_i(lx[B +: ACC_BITS]), .b_i(ly[B +: ACC_BITS]),
            .sum_o(ln_data[B +: ACC_BITS]));
        end
        // the line's reads: in the fire cycle for the words' carry, LA - 1 cycles after stage 2
        // for line_acc's (a pass does one or the other)
        assign line_rd_o  = (line_re0 && !line_acc_i) || d_lacc[LA-1];
        assign line_rad_o = d_lacc[LA-1] ? d_laddr[(LA-1)*LINE_AW +: LINE_AW] : line_ra0;
        assign ln_vld     = d_line[LD];
        assign ln_addr    = d_laddr[LD*LINE_AW +: LINE_AW];
        wire unused_fp = s1_lacc;
      end
      assign wr_vld  = d_vld[LD];
      assign wr_end  = d_end[LD];
      assign wr_addr = d_addr[LD*(AW+1) +: AW+1];
      assign late_busy = |{d_vld, d_end, d_line};
      assign s2_vld    = 1'b0;
      assign s2_addr   = {(AW+1){1'b0}};
      wire unused_st_n = s1_st_n;
    end else begin : g_int
      // Stage 1 registers the stored partial sums as chosen (st_q; the stage-1 word's is the
      // write register in stage 2, n_q), the line's read data (the word's carry, lc_q, or the
      // line's own, la_q), own + previous (x_q) and down + previous's down (xd_q). So the
      // memories' read data (a block RAM's clock-to-out) end in flip-flops, and stage 2 adds:
      // word = x + carry + stored, line word = xd + its carry, each a carry chain (the word's
      // after a carry-save).
      reg                     v2_q, e2_q, l2_q, n_q;
      reg [AW:0]              a2_q;
      reg [LINE_AW-1:0]       la2_q;
      reg [COLS*ACC_BITS-1:0] st_q, lc_q, la_q, x_q, xd_q;
      reg [COLS*ACC_BITS-1:0] x_d, xd_d, sum, lsum;
      reg [2*ACC_BITS-1:0]    sc;
      integer c;
      always @* begin
        for (c = 0; c < COLS; c = c + 1) begin
          x_d[c*ACC_BITS +: ACC_BITS]  = s1_own[c*ACC_BITS +: ACC_BITS] +
                                         s1_prev[c*ACC_BITS +: ACC_BITS];
          xd_d[c*ACC_BITS +: ACC_BITS] = s1_down[c*ACC_BITS +: ACC_BITS] +
                                         s1_lprev[c*ACC_BITS +: ACC_BITS];
          sc = csa(x_q[c*ACC_BITS +: ACC_BITS], lc_q[c*ACC_BITS +: ACC_BITS],
                   n_q ? sram_wdata_o[c*ACC_BITS +: ACC_BITS] : st_q[c*ACC_BITS +: ACC_BITS]);
          sum[c*ACC_BITS +: ACC_BITS]  = sc[0 +: ACC_BITS] + sc[ACC_BITS +: ACC_BITS];
          lsum[c*ACC_BITS +: ACC_BITS] = xd_q[c*ACC_BITS +: ACC_BITS] +
                                         la_q[c*ACC_BITS +: ACC_BITS];
        end
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          v2_q <= 1'b0; e2_q <= 1'b0; l2_q <= 1'b0; n_q <= 1'b0;
          a2_q <= {(AW+1){1'b0}}; la2_q <= {LINE_AW{1'b0}};
        end else begin
          v2_q  <= s1_vld;
          e2_q  <= s1_end;
          l2_q  <= s1_vld && s1_line;
          n_q   <= s1_st_n;
          a2_q  <= s1_addr;
          la2_q <= s1_laddr;
        end
      end
      always @(posedge clk_i) begin
        st_q <= stored;
        lc_q <= s1_carry ? line_rdata_i : {(COLS*ACC_BITS){1'b0}};
        la_q <= s1_lacc ? line_rdata_i : {(COLS*ACC_BITS){1'b0}};
        x_q  <= x_d;
        xd_q <= xd_d;
      end
      assign s2_vld     = v2_q;
      assign s2_addr    = a2_q;
      assign wr_vld     = v2_q;
      assign wr_end     = e2_q;
      assign wr_addr    = a2_q;
      assign wr_data    = sum;
      assign late_busy  = v2_q || e2_q || l2_q;
      assign line_rd_o  = line_re0;
      assign line_rad_o = line_ra0;
      assign ln_vld     = l2_q;
      assign ln_addr    = la2_q;
      assign ln_data    = lsum;
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stepped_q <= 1'b0; run_q <= 1'b0;
      acc_q <= 1'b0; kgw_q <= 32'd0; ctx_m1_q <= 32'd0; ctx1_q <= 1'b0; npix_nz_q <= 1'b0;
      owv_nz_q <= 1'b0; s1_end <= 1'b0; pass_done_o <= 1'b0;
      i_row <= 16'd0; ctx_left_q <= 32'd0; i_kg <= 16'd0; p_q <= 32'd0; last_row_q <= 1'b0;
      line_kg_q <= 1'b0; kg0_q <= 1'b0; last_kg_q <= 1'b0; j_wrap_q <= 1'b0; last_ctx_q <= 1'b0;
      kg_m1_q <= 16'd0; owv_m1_q <= 16'd0; addr_q <= 32'd0; keep_q <= 1'b0; first_row_q <= 1'b0;
      laddr_q <= 32'd0;
      kg_base_q <= 32'd0; jump_q <= 32'd0;
      keep_lim1_q <= 33'sd0; keep_limj_q <= 33'sd0; row_lim1_q <= 33'sd0; row_limj_q <= 33'sd0;
      s1_vld <= 1'b0; s1_addr <= {(AW+1){1'b0}}; bank_q <= 1'b0; sram_wbank_o <= 1'b0;
      s1_own <= {(COLS*ACC_BITS){1'b0}}; s1_prev <= {(COLS*ACC_BITS){1'b0}};
      s1_down <= {(COLS*ACC_BITS){1'b0}}; s1_lprev <= {(COLS*ACC_BITS){1'b0}};
      s1_carry <= 1'b0; s1_lacc <= 1'b0; s1_line <= 1'b0; s1_laddr <= {LINE_AW{1'b0}};
      s1_st_n <= 1'b0; s1_st_o <= 1'b0; s1_st_b <= 1'b0; s1_st_r <= 1'b0;
      j_q <= 16'd0; pv_q <= 1'b0; lbase_q <= 32'd0;
      sram_we_o <= 1'b0; sram_waddr_o <= {AW{1'b0}}; sram_wdata_o <= {(COLS*ACC_BITS){1'b0}};
      line_we_o <= 1'b0; line_waddr_o <= {LINE_AW{1'b0}}; line_wdata_o <= {(COLS*ACC_BITS){1'b0}};
    end else begin
      stepped_q <= step_i;
      s1_vld    <= s0_vld;
      s1_end    <= s0_end;
      pass_done_o  <= wr_end;
      s1_addr   <= {bank_q, addr[AW-1:0]};
      s1_own    <= v00;
      // the row's previous pixel (not for the row's first)
      s1_prev   <= pv_q ? p01_q : NONE;
      s1_down   <= v10;
      s1_lprev  <= pv_q ? p11_q : NONE;
      s1_carry  <= c2i_i && add_line;
      s1_lacc   <= c2i_i && line_acc_i;
      s1_line   <= has_line;
      s1_laddr  <= laddr[LINE_AW-1:0];
      s1_st_n   <= rmw && fwd_w && (FP == 0);
      s1_st_o   <= rmw && ((FP != 0) ? fwd_w : !fwd_w && fwd_2);
      s1_st_b   <= rmw && !fwd_w && !fwd_2 && fwd_b;
      s1_st_r   <= rmw && !fwd_w && !fwd_2 && !fwd_b;
      sram_we_o    <= wr_vld;
      sram_waddr_o <= wr_addr[AW-1:0];
      sram_wbank_o <= wr_addr[AW];
      sram_wdata_o <= wr_data;
      line_we_o    <= ln_vld;
      line_waddr_o <= ln_addr;
      line_wdata_o <= ln_data;
      if (start_i) begin
        run_q <= 1'b1;
        acc_q <= accumulate_i; bank_q <= bank_i; kgw_q <= kg_words_i;
        ctx_m1_q <= (n_ctx_i == 32'd0) ? 32'd0 : n_ctx_i - 32'd1;
        ctx1_q <= (n_ctx_i[31:1] == 31'd0);
        npix_nz_q <= (npix_i != 32'd0); owv_nz_q <= (owv_i != 16'd0);
        i_row <= 16'd0; ctx_left_q <= (n_ctx_i == 32'd0) ? 32'd0 : n_ctx_i - 32'd1;
        i_kg <= 16'd0; p_q <= 32'd0; last_row_q <= (ROWS == 1);
        line_kg_q <= (line_kg0_i == 3'd0); kg0_q <= 1'b1; last_kg_q <= (n_kg_i[15:1] == 15'd0);
        j_wrap_q <= (owv_i[15:1] == 15'd0); last_ctx_q <= (n_ctx_i[31:1] == 31'd0);
        kg_m1_q <= m1(n_kg_i); owv_m1_q <= m1(owv_i);
        kg_base_q <= 32'd0; addr_q <= 32'd0; j_q <= 16'd0; pv_q <= 1'b0;
        lbase_q <= 32'd0; laddr_q <= 32'd0;
        keep_q <= (npix_i != 32'd0); first_row_q <= (owv_i != 16'd0);
        jump_q <= jump_d[31:0];
        keep_lim1_q <= $signed({1'b0, npix_i}) - 33'sd1;
        keep_limj_q <= $signed({1'b0, npix_i}) - $signed(jump_d);
        row_lim1_q  <= $signed({17'd0, owv_i}) - 33'sd1;
        row_limj_q  <= $signed({17'd0, owv_i}) - $signed(jump_d);
      end else if (fire_w && run_q) begin
        j_q     <= j_next;
        j_wrap_q <= j_wrap ? (owv_m1_q == 16'd0) : (j_q + 16'd1 >= owv_m1_q);
        pv_q    <= c2i_i && !j_wrap;  // j_q + 1 != 0: j_q < owv - 1 <= 16'hfffe
        laddr_q <= j_wrap ? lbase_q : laddr_q + 32'd1;
        p_q     <= p_next;
        keep_q  <= keep_next;
        first_row_q <= first_next;
        if (!last_row) begin
          i_row  <= i_row + 16'd1;
          last_row_q <= (i_row + 16'd2 >= ROWS16);   // (i_row >= ROWS - 2, no constant compare at 2 rows)
          addr_q <= addr_q + 32'd1;
        end else begin
          i_row <= 16'd0;
          last_row_q <= (ROWS == 1);
          if (!last_ctx) begin
            ctx_left_q <= ctx_left_q - 32'd1;
            last_ctx_q <= (ctx_left_q == 32'd1);
            addr_q     <= addr_q + 32'd1;
          end else begin
            ctx_left_q <= ctx_m1_q;
            last_ctx_q <= ctx1_q;
            kg0_q      <= 1'b0;
            last_kg_q  <= (kg_p1 >= kg_m1_q);
            line_kg_q  <= ({13'd0, line_kg0_i} <= kg_p1);
            j_wrap_q   <= (owv_m1_q == 16'd0);
            kg_base_q  <= kg_base_q + kgw_q;
            addr_q     <= kg_base_q + kgw_q;
            i_kg       <= kg_p1;
            j_q        <= 16'd0;
            pv_q       <= 1'b0;
            laddr_q    <= has_line ? lbase_q + {16'd0, owv_i} : lbase_q;
            if (has_line) lbase_q <= lbase_q + {16'd0, owv_i};
            if (last_kg) run_q <= 1'b0;
          end
        end
      end
    end
  end

  // Done once the last word has left stage 2.
  assign done_o = !run_q && !s1_vld && !s1_end && !late_busy && !sram_we_o && !line_we_o &&
                  !pass_done_o;
  assign free_o = !run_q || s0_end;

endmodule

`resetall
