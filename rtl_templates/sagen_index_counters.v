// sagen_index_counters: the read sequence of the data feeder.
//
// A context is LANES consecutive pixels of the output tile, taken in row-major order, so it may
// span several output rows. Its interest region is read once per input channel and kernel row,
// one segment per output row it touches: the bus words of a segment, the segments, the kernel
// rows and the channels (the interest region), then the region moves by LANES pixels to the
// next context (x by a step with wrap-around, y by whole rows), and finally the sweep repeats
// once per group of filters. The ifmap tile lives in the SRAM as [channel][row][column], column
// contiguous, row pitch P elements; a segment starts at element p of the bank (its word p div
// BUS, at offset ofs = p mod BUS) and its words follow.
//
// Contexts that run past the tile's last output row (the last context of a tile whose pixels
// are not a multiple of LANES) read no segment below that row: the lanes of pixels past the
// tile take lane 0's elements instead (their results are dropped), so a phantom row costs no
// cycle.
//
// Padding is never stored: alongside the pointer the counters track the virtual row and column
// of the region, and positions outside the tile come out as zeros (mask_o low). A word with no
// real element is not read from the SRAM at all (rd_o low).
//
// Linear contexts (lin_i, stride 1, the row pitch equal to the output tile width): pixel q of
// the tile and its input element for a kernel tap are a constant apart in the channel plane, so
// a context's interest region for a kernel row is one run of the plane whatever rows its lanes
// are on: one segment per context, LAST_XS + kspan elements (last_xs_i = lanes - 1). Positions
// outside the plane [0, plane_i) come out as zeros; the feed lanes zero the taps that fall left
// or right of their own row.
//
// Pipeline, so that no cycle holds more than one adder: a segment walker (the loop counters and
// running sums: each segment's pointer and virtual row are one addition away from the last
// one's, and each loop's last is a registered flag) emits a segment a cycle into nine register
// stages that work out its start word and offset, its words, the bounds of its real elements
// and the first word's mask, then into a FIFO of FIFO_N records (the walker emits only when the
// FIFO has room for everything in flight, so the stages never stall); the word expander
// presents the segment's words one a cycle, a word's mask from the words its two bounds fall in,
// counted down a word at a time. The first word comes 14 cycles after start_i; after that a
// word is presented every cycle adv_i takes one, segments of one word included. start_i also
// abandons a pass under way.
`default_nettype none

module sagen_index_counters #(
  parameter integer BUS    = 16,  // elements per bus word (power of two, >= 2)
  parameter integer LG_BUS = 4,   // log2(BUS)
  parameter integer AW     = 10,  // SRAM word address bits
  parameter integer XW     = 16,  // width of element positions and pointers (signed)
  parameter integer SW     = 9    // width of a segment index (rows a context spans)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              start_i,      // begin a pass (the descriptor is stable from now on)
  // pass descriptor (held stable during the pass); "xs" values are columns times stride_w
  input  wire [15:0]       n_ch_i,       // channels in the tile
  input  wire [15:0]       n_kr_i,       // kernel rows R
  input  wire [15:0]       n_ctx_i,      // contexts per filter group
  input  wire [15:0]       n_kg_i,       // filter groups
  input  wire [XW-1:0]     plane_i,      // channel step: rows * pitch
  input  wire [XW-1:0]     kr_step_i,    // kernel-row step: dilation_h * pitch
  input  wire [XW-1:0]     oy_step_i,    // output-row step: stride_h * pitch
  input  wire [XW-1:0]     ctx_xs_i,     // x advance per context: (LANES mod out_w) * stride_w
  input  wire [XW-1:0]     ctx_py_i,     // row advance per context: (LANES div out_w) * oy_step
  input  wire [15:0]       ctx_y_i,      // the same in rows: (LANES div out_w) * stride_h
  input  wire [XW-1:0]     ow_xs_i,      // output tile width * stride_w
  input  wire [XW-1:0]     last_xs_i,    // x of lane LANES-1 in the first context
  input  wire [SW-1:0]     last_dseg_i,  // output row of lane LANES-1 in the first context
  input  wire [15:0]       oh_last_i,    // the tile's last output row (output rows - 1)
  input  wire [15:0]       ctx_rows_i,   // output rows per context: LANES div out_w
  input  wire [XW-1:0]     base_i,       // signed: -(pad_top * pitch + pad_left)
  input  wire [15:0]       dil_h_i,      // kernel-row step in rows
  input  wire [15:0]       str_h_i,      // output-row step in rows
  input  wire [15:0]       str_w_i,      // output-column step in columns
  input  wire [15:0]       pad_t_i,      // virtual rows above the tile
  input  wire [15:0]       pad_l_i,      // virtual columns left of the tile
  input  wire [15:0]       tile_h_i,     // rows held in the tile
  input  wire [15:0]       tile_w_i,     // columns held in the tile
  input  wire [XW-1:0]     kspan_i,      // elements of one kernel row: (S-1)*dil_w+1
  input  wire              lin_i,        // linear contexts (see above)
  // word stream
  input  wire              adv_i,        // the presented word is taken: present the next
  output reg               vld_o,        // a word is presented
  output reg               rd_o,         // it holds real data: read it from the SRAM
  output reg  [AW-1:0]     addr_o,       // SRAM word address
  output reg  [BUS-1:0]    mask_o,       // positions that hold real (non-padding) data
  output reg               fs_o,         // the first word of its segment
  output reg  [LG_BUS-1:0] ofs_o,        // where its segment starts in the segment's first word
  output reg  [XW-LG_BUS-1:0] iw_o,      // its index in its segment
  output reg  [SW-1:0]     seg_o,        // segment: output row of the word, from lane 0's row
  output reg               pass_last_o,  // the word is in the last row pass of a context
  output reg               ctx_last_o,   // the last word of its context
  output reg               grp_last_o,   // the last word of a filter group's sweep
  output wire              busy_o        // a pass under way has words left to present
);

  localparam integer FIFO_N = 13;            // segment records between walker and expander
  localparam integer NX     = 9;             // register stages between them
  localparam integer NWW    = XW - LG_BUS;   // width of a word count or index in a segment
  localparam integer YW     = 18;            // virtual rows (signed)

  // 16-bit descriptor fields as positions
  wire [31:0]   str_w32  = {16'd0, str_w_i};
  wire [31:0]   pad_l32  = {16'd0, pad_l_i};
  wire [31:0]   tile_w32 = {16'd0, tile_w_i};
  wire [XW-1:0] str_w_x  = str_w32[XW-1:0];
  wire [XW-1:0] pad_l_x  = pad_l32[XW-1:0];
  wire [XW-1:0] tile_w_x = tile_w32[XW-1:0];
  wire          unused_f = ^{str_w32, pad_l32, tile_w32};   // bits past XW

  // ---- per-pass constants, registered the two cycles after start --------------------------------
  reg          p1_q;                         // the cycle after start
  reg          prime_q;                      // the walker loads the first segment this cycle
  reg [XW:0]   xs_ow_q;                      // ctx_xs - ow_xs (signed)
  reg [XW-1:0] ctx_py_oy_q;                  // ctx_py + oy_step (lane 0 wraps into a new row)
  reg [YW-1:0] ctx_y_sh_q;                   // ctx_y + str_h
  reg [XW:0]   lx_ow_q;                      // last_xs + ctx_xs - ow_xs
  reg [XW-1:0] xl_row_q;                     // ow_xs - str_w: the x of a row's last pixel
  reg [XW-1:0] twp_q;                        // tile_w + pad_l
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q        <= 1'b0;
      prime_q     <= 1'b0;
      xs_ow_q     <= {(XW+1){1'b0}};
      ctx_py_oy_q <= {XW{1'b0}};
      ctx_y_sh_q  <= {YW{1'b0}};
      lx_ow_q     <= {(XW+1){1'b0}};
      xl_row_q    <= {XW{1'b0}};
      twp_q       <= {XW{1'b0}};
    end else begin
      p1_q        <= start_i;
      prime_q     <= p1_q && !start_i;
      xs_ow_q     <= {1'b0, ctx_xs_i} - {1'b0, ow_xs_i};
      ctx_py_oy_q <= ctx_py_i + oy_step_i;
      ctx_y_sh_q  <= {2'b00, ctx_y_i} + {2'b00, str_h_i};
      lx_ow_q     <= {1'b0, last_xs_i} + xs_ow_q;
      xl_row_q    <= ow_xs_i - str_w_x;
      twp_q       <= tile_w_x + pad_l_x;
    end
  end

  // ---- the segment walker ------------------------------------------------------------------------
  // Loop state of the segment to emit: counters as "left" counts, each with registered flags for
  // one and two left (so that the walker's next step is decided from flags alone: kind_q, the
  // loop that moves next, is registered), the context's lanes 0 and LANES-1 (xs and xs + ctx_xs
  // - ow_xs, whose sign says whether the next context wraps), the running pointers A0 (context)
  // .. Ag (segment), Pc = c * plane, the virtual rows Y0 .. Yg, and the segments left to lane
  // LANES-1's row (s2d) and to the tile's last row (s2r).
  localparam integer K_SEG = 0, K_R = 1, K_C = 2, K_X = 3, K_G = 4, K_END = 5;
  reg            l_vld;
  reg [5:0]      kind_q;                    // one-hot: what the next emit moves on
  reg [SW-1:0]   l_seg;
  reg            seg0_q;                    // l_seg == 0
  reg [15:0]     l_rl, l_cl, l_xl, l_gl;    // kernel rows, channels, contexts, groups left
  reg            lr_q, lc_q, lx_q, lg_q;    // ... none left: the loop's last
  reg            lr1_q, lc1_q, lx1_q, lg1_q;// ... one left
  reg [XW-1:0]   l_xs0, l_xsl;
  reg [XW:0]     l_xw0, l_xwl;
  reg [SW-1:0]   l_dseg;
  reg            dz_q, d1_q;                // dseg == 0, 1
  reg [SW:0]     l_s2d;                     // dseg - seg
  reg [15:0]     l_rows;                    // (oh_last - lane 0's row) mod 2^16
  reg            rz_q, r1_q;                // rows == 0, 1
  reg            rc0_q, rc1_q, rc2_q;       // rows == ctx_rows + 0, 1, 2: rows after the context
  reg [16:0]     l_s2r;                     // rows - seg
  reg            lsd_q, lsr_q;              // seg == dseg, seg >= rows: the context's last row
  reg            lsd1_q, lsr1_q;            // ... for seg + 1
  reg [XW-1:0]   l_a0, l_pc, l_pr, l_pg;    // base + lane 0's row; c * plane, r * kr_step,
                                            // seg * oy_step
  reg [YW-1:0]   l_y0, l_yr, l_yg;          // lane 0's row - pad_t; r * dil_h, seg * str_h
  // the loops of one and two counts, and lane LANES-1 and the tile's end at the first row (per
  // pass)
  reg [1:0]      nkr_q, nch_q, nctx_q, nkg_q, d0_q, r0_q;
  reg [2:0]      rc_q;
  reg [16:0]     ctx2_q [0:3];              // 2 * ctx_rows + k
  reg [15:0]     ctx_rows1_q, ctx_rows2_q;  // ctx_rows + 1, + 2

  // What moves next, from the loops' last flags.
  function [5:0] kind_of(input ls, input lr, input lc, input lx, input lg);
    begin
      kind_of = 6'd0;
      if (!ls)      kind_of[K_SEG] = 1'b1;
      else if (!lr) kind_of[K_R] = 1'b1;
      else if (!lc) kind_of[K_C] = 1'b1;
      else if (!lx) kind_of[K_X] = 1'b1;
      else if (!lg) kind_of[K_G] = 1'b1;
      else          kind_of[K_END] = 1'b1;
    end
  endfunction

  wire last_seg = lin_i || lsd_q || lsr_q;
  assign emit   = go_seg || go_r || go_c || go_x || go_g || go_end;
  wire wrap0    = !l_xw0[XW];
  wire wrapl    = !l_xwl[XW];

  // Records in flight or in the FIFO: the walker emits while they leave room (room_d: one more
  // fits next cycle, whatever leaves then).
  reg  [3:0]     n_in_q;
  wire           f_pop;
  wire           emit;
  wire [3:0]     n_in_n = n_in_q + {3'b000, emit} - {3'b000, f_pop};
  wire           room_d = (n_in_n < FIFO_N[3:0] - 4'd2);

  // both sums, then the wrap's choice (the wrap flag selects after the adders)
  wire [XW-1:0] a0_w  = l_a0 + ctx_py_oy_q;
  wire [XW-1:0] a0_s  = l_a0 + ctx_py_i;
  wire [XW-1:0] a0_n  = wrap0 ? a0_w : a0_s;
  wire [YW-1:0] y0_w  = l_y0 + ctx_y_sh_q;
  wire [YW-1:0] y0_s  = l_y0 + {2'b00, ctx_y_i};
  wire [YW-1:0] y0_n  = wrap0 ? y0_w : y0_s;
  wire [XW:0]   xw0_w = l_xw0 + xs_ow_q;
  wire [XW:0]   xw0_s = l_xw0 + {1'b0, ctx_xs_i};
  wire [XW:0]   xwl_w = l_xwl + xs_ow_q;
  wire [XW:0]   xwl_s = l_xwl + {1'b0, ctx_xs_i};
  wire [SW-1:0] dseg_p = l_dseg + {{(SW-1){1'b0}}, 1'b1};
  wire [SW-1:0] dseg_m = l_dseg - {{(SW-1){1'b0}}, 1'b1};
  wire [SW-1:0] dseg_n = (wrapl == wrap0) ? l_dseg : wrapl ? dseg_p : dseg_m;
  wire [15:0]   rows_s = l_rows - ctx_rows_i;
  wire [15:0]   rows_w = l_rows - ctx_rows1_q;
  wire [15:0]   rows_n = wrap0 ? rows_w : rows_s;
  wire [XW-1:0] pr_n  = l_pr + kr_step_i;
  wire [XW-1:0] pc_n  = l_pc + plane_i;
  wire [YW-1:0] yr_n  = l_yr + {2'b00, dil_h_i};
  wire [YW-1:0] y_top = -{2'b00, pad_t_i};
  // the next context's flags: dseg moves by one at most, rows by ctx_rows (+ 1)
  wire          dz_n  = (wrapl == wrap0) ? dz_q : (wrap0 && d1_q);
  wire          d1_n  = (wrapl == wrap0) ? d1_q : wrap0 ? (l_dseg == {{(SW-2){1'b0}}, 2'd2}) : dz_q;
  wire          rz_n  = wrap0 ? rc1_q : rc0_q;
  wire          r1_n  = wrap0 ? rc2_q : rc1_q;
  // rows after the next context (rows - ctx_rows - wrap0) == ctx_rows + k
  wire [3:0]    rck;
  genvar gk;
  generate
    for (gk = 0; gk < 4; gk = gk + 1) begin : g_rck
      assign rck[gk] = ({1'b0, l_rows} == ctx2_q[gk]);
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nkr_q <= 2'd0; nch_q <= 2'd0; nctx_q <= 2'd0; nkg_q <= 2'd0; d0_q <= 2'd0;
      r0_q <= 2'd0; rc_q <= 3'd0;
      ctx2_q[0] <= 17'd0; ctx2_q[1] <= 17'd0; ctx2_q[2] <= 17'd0; ctx2_q[3] <= 17'd0;
      ctx_rows1_q <= 16'd0; ctx_rows2_q <= 16'd0;
    end else if (p1_q) begin
      rc_q <= {oh_last_i == ctx_rows2_q, oh_last_i == ctx_rows1_q, oh_last_i == ctx_rows_i};
    end else if (start_i) begin
      nkr_q  <= {n_kr_i == 16'd2, n_kr_i == 16'd1};
      nch_q  <= {n_ch_i == 16'd2, n_ch_i == 16'd1};
      nctx_q <= {n_ctx_i == 16'd2, n_ctx_i == 16'd1};
      nkg_q  <= {n_kg_i == 16'd2, n_kg_i == 16'd1};
      d0_q   <= {last_dseg_i == {{(SW-1){1'b0}}, 1'b1}, last_dseg_i == {SW{1'b0}}};
      r0_q   <= {oh_last_i == 16'd1, oh_last_i == 16'd0};
      ctx_rows1_q <= ctx_rows_i + 16'd1;
      ctx_rows2_q <= ctx_rows_i + 16'd2;
      ctx2_q[0] <= {ctx_rows_i, 1'b0};
      ctx2_q[1] <= {ctx_rows_i, 1'b0} + 17'd1;
      ctx2_q[2] <= {ctx_rows_i, 1'b0} + 17'd2;
      ctx2_q[3] <= {ctx_rows_i, 1'b0} + 17'd3;
    end
  end

  // What the walker does this cycle: one of these at most. They are registered (decided a
  // cycle ahead from the next state of kind_q, l_vld and room_q), so that the walker's many
  // registers are enabled straight from flip-flops.
  reg  go_seg, go_r, go_c, go_x, go_g, go_end;
  wire go_grp  = prime_q || go_g;                      // a filter group's first segment
  wire go_rc   = go_r || go_c;                         // the same context, its first row

  reg  [5:0] kind_d;
  reg        vld_d;
  always @* begin
    kind_d = kind_q;
    if (prime_q)
      kind_d = kind_of(lin_i || d0_q[0] || r0_q[0], nkr_q[0], nch_q[0], nctx_q[0], nkg_q[0]);
    else if (go_g)
      kind_d = kind_of(lin_i || d0_q[0] || r0_q[0], nkr_q[0], nch_q[0], nctx_q[0], lg1_q);
    else if (go_seg)
      kind_d = kind_of(lin_i || lsd1_q || lsr1_q, lr_q, lc_q, lx_q, lg_q);
    else if (go_r)
      kind_d = kind_of(lin_i || dz_q || rz_q, lr1_q, lc_q, lx_q, lg_q);
    else if (go_c)
      kind_d = kind_of(lin_i || dz_q || rz_q, nkr_q[0], lc1_q, lx_q, lg_q);
    else if (go_x)
      kind_d = kind_of(lin_i || dz_n || rz_n, nkr_q[0], nch_q[0], lx1_q, lg_q);
    vld_d = start_i ? 1'b0 : go_grp ? 1'b1 : go_end ? 1'b0 : l_vld;
  end
  wire emit_d = vld_d && room_d && !start_i;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_vld <= 1'b0;
      kind_q <= 6'd0;
      go_seg <= 1'b0; go_r <= 1'b0; go_c <= 1'b0; go_x <= 1'b0; go_g <= 1'b0; go_end <= 1'b0;
    end else begin
      l_vld  <= vld_d;
      kind_q <= kind_d;
      go_seg <= emit_d && kind_d[K_SEG];
      go_r   <= emit_d && kind_d[K_R];
      go_c   <= emit_d && kind_d[K_C];
      go_x   <= emit_d && kind_d[K_X];
      go_g   <= emit_d && kind_d[K_G];
      go_end <= emit_d && kind_d[K_END];
    end
  end

  // the segment within the context's rows, and the partial sums of its row
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_seg <= {SW{1'b0}}; l_pg <= {XW{1'b0}}; l_yg <= {YW{1'b0}}; seg0_q <= 1'b1;
    end else if (go_seg) begin
      l_seg <= l_seg + {{(SW-1){1'b0}}, 1'b1};
      seg0_q <= 1'b0;
      l_pg  <= l_pg + oy_step_i;
      l_yg  <= l_yg + {2'b00, str_h_i};
    end else if (go_rc || go_x || go_grp) begin
      l_seg <= {SW{1'b0}}; l_pg <= {XW{1'b0}}; l_yg <= {YW{1'b0}}; seg0_q <= 1'b1;
    end
  end

  // the context's last row: lane LANES-1's (s2d) or the tile's (s2r)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_s2d <= {(SW+1){1'b0}}; lsd_q <= 1'b0; lsd1_q <= 1'b0;
      l_s2r <= 17'd0; lsr_q <= 1'b0; lsr1_q <= 1'b0;
    end else if (go_seg) begin
      l_s2d  <= l_s2d - {{SW{1'b0}}, 1'b1};
      lsd_q  <= lsd1_q;
      lsd1_q <= (l_s2d == {{(SW-1){1'b0}}, 2'd2});
      l_s2r  <= l_s2r - 17'd1;
      lsr_q  <= lsr1_q;
      lsr1_q <= (l_s2r == 17'd2);
    end else if (go_rc) begin
      l_s2d <= {1'b0, l_dseg};  {lsd1_q, lsd_q} <= {d1_q, dz_q};
      l_s2r <= {1'b0, l_rows};  {lsr1_q, lsr_q} <= {r1_q, rz_q};
    end else if (go_x) begin
      l_s2d <= {1'b0, dseg_n};  {lsd1_q, lsd_q} <= {d1_n, dz_n};
      l_s2r <= {1'b0, rows_n};  {lsr1_q, lsr_q} <= {r1_n, rz_n};
    end else if (go_grp) begin
      l_s2d <= {1'b0, last_dseg_i};  {lsd1_q, lsd_q} <= d0_q;
      l_s2r <= {1'b0, oh_last_i};    {lsr1_q, lsr_q} <= r0_q;
    end
  end

  // kernel rows
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_rl <= 16'd0; lr_q <= 1'b0; lr1_q <= 1'b0; l_pr <= {XW{1'b0}}; l_yr <= {YW{1'b0}};
    end else if (go_r) begin
      l_rl  <= l_rl - 16'd1;
      lr_q  <= lr1_q;
      lr1_q <= (l_rl == 16'd2);
      l_pr  <= pr_n;
      l_yr  <= yr_n;
    end else if (go_c || go_x || go_grp) begin
      l_rl <= n_kr_i - 16'd1;  {lr1_q, lr_q} <= nkr_q;
      l_pr <= {XW{1'b0}};      l_yr <= {YW{1'b0}};
    end
  end

  // channels
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_cl <= 16'd0; lc_q <= 1'b0; lc1_q <= 1'b0; l_pc <= {XW{1'b0}};
    end else if (go_c) begin
      l_cl  <= l_cl - 16'd1;
      lc_q  <= lc1_q;
      lc1_q <= (l_cl == 16'd2);
      l_pc  <= pc_n;
    end else if (go_x || go_grp) begin
      l_cl <= n_ch_i - 16'd1;  {lc1_q, lc_q} <= nch_q;
      l_pc <= {XW{1'b0}};
    end
  end

  // contexts: lanes 0 and LANES-1, lane 0's row, the rows a context spans, the tile's rows left
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_xl <= 16'd0; lx_q <= 1'b0; lx1_q <= 1'b0;
      l_xs0 <= {XW{1'b0}}; l_xsl <= {XW{1'b0}};
      l_xw0 <= {(XW+1){1'b0}}; l_xwl <= {(XW+1){1'b0}};
      l_dseg <= {SW{1'b0}}; dz_q <= 1'b0; d1_q <= 1'b0;
      l_rows <= 16'd0; rz_q <= 1'b0; r1_q <= 1'b0;
      rc0_q <= 1'b0; rc1_q <= 1'b0; rc2_q <= 1'b0;
      l_a0 <= {XW{1'b0}}; l_y0 <= {YW{1'b0}};
    end else if (go_x) begin
      l_xl  <= l_xl - 16'd1;
      lx_q  <= lx1_q;
      lx1_q <= (l_xl == 16'd2);
      l_xs0 <= wrap0 ? l_xw0[XW-1:0] : l_xs0 + ctx_xs_i;
      l_xw0 <= wrap0 ? xw0_w : xw0_s;
      l_xsl <= wrapl ? l_xwl[XW-1:0] : l_xsl + ctx_xs_i;
      l_xwl <= wrapl ? xwl_w : xwl_s;
      l_dseg <= dseg_n;
      {d1_q, dz_q} <= {d1_n, dz_n};
      l_rows <= rows_n;
      {r1_q, rz_q} <= {r1_n, rz_n};
      rc0_q  <= wrap0 ? rck[1] : rck[0];
      rc1_q  <= wrap0 ? rck[2] : rck[1];
      rc2_q  <= wrap0 ? rck[3] : rck[2];
      l_a0 <= a0_n;
      l_y0 <= y0_n;
    end else if (go_grp) begin
      l_xl  <= n_ctx_i - 16'd1; {lx1_q, lx_q} <= nctx_q;
      l_xs0 <= {XW{1'b0}};
      l_xw0 <= xs_ow_q;
      l_xsl <= last_xs_i;
      l_xwl <= lx_ow_q;
      l_dseg <= last_dseg_i; {d1_q, dz_q} <= d0_q;
      l_rows <= oh_last_i;   {r1_q, rz_q} <= r0_q;   {rc2_q, rc1_q, rc0_q} <= rc_q;
      l_a0 <= base_i;
      l_y0 <= y_top;
    end
  end

  // filter groups
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l_gl <= 16'd0; lg_q <= 1'b0; lg1_q <= 1'b0;
    end else if (prime_q) begin
      l_gl <= n_kg_i - 16'd1;
      {lg1_q, lg_q} <= nkg_q;
    end else if (go_grp) begin
      l_gl  <= l_gl - 16'd1;
      lg_q  <= lg1_q;
      lg1_q <= (l_gl == 16'd2);
    end
  end

  // ---- nine register stages: a segment's start word, offset, words and real elements -----------
  // X0: the segment as the walker emits it, its pointer and virtual row in two partial sums
  reg  [NX-1:0]  x_vld;
  reg [XW-1:0]   x0_u, x0_v, x0_pc, x0_xf, x0_xl;
  reg [YW-1:0]   x0_ya, x0_yb;
  reg [SW-1:0]   x0_seg;
  reg [2:0]      x0_fl;                      // pass_last, context's last segment, group's last
  wire [XW-1:0]  l_xf = (seg0_q || lin_i) ? l_xs0 : {XW{1'b0}};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[0] <= 1'b0;
      x0_u <= {XW{1'b0}}; x0_v <= {XW{1'b0}}; x0_pc <= {XW{1'b0}}; x0_xf <= {XW{1'b0}};
      x0_xl <= {XW{1'b0}}; x0_ya <= {YW{1'b0}}; x0_yb <= {YW{1'b0}}; x0_seg <= {SW{1'b0}};
      x0_fl <= 3'd0;
    end else begin
      x_vld[0] <= emit && !start_i;
      x0_u   <= l_a0 + l_pr;
      x0_v   <= l_pg + l_xf;
      x0_pc  <= l_pc;
      x0_xf  <= l_xf;
      x0_xl  <= lsd_q ? l_xsl : xl_row_q;
      x0_ya  <= l_y0 + l_yr;
      x0_yb  <= l_yg;
      x0_seg <= l_seg;
      x0_fl  <= {lr_q && lc_q, lr_q && lc_q && last_seg, lr_q && lc_q && last_seg && lx_q};
    end
  end

  // X1: the segment's start in the channel plane, its last x minus its first, the bounds of the
  // tile's columns, its virtual row
  reg [XW-1:0]   x1_pf, x1_pc, x1_dx, x1_lo, x1_hi;
  reg [YW-1:0]   x1_y;
  reg [SW-1:0]   x1_seg;
  reg [2:0]      x1_fl;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[1] <= 1'b0;
      x1_pf <= {XW{1'b0}}; x1_pc <= {XW{1'b0}}; x1_dx <= {XW{1'b0}}; x1_lo <= {XW{1'b0}};
      x1_hi <= {XW{1'b0}}; x1_y <= {YW{1'b0}}; x1_seg <= {SW{1'b0}}; x1_fl <= 3'd0;
    end else begin
      x_vld[1] <= x_vld[0] && !start_i;
      x1_pf  <= x0_u + x0_v;
      x1_pc  <= x0_pc;
      x1_dx  <= x0_xl - x0_xf;
      x1_lo  <= pad_l_x - x0_xf;                      // first position in the tile's columns
      x1_hi  <= twp_q - x0_xf;                        // first position past them
      x1_y   <= x0_ya + x0_yb;
      x1_seg <= x0_seg;
      x1_fl  <= x0_fl;
    end
  end

  // X1b: the segment's start in the bank, the row inside the tile
  reg [XW-1:0]   x1b_p, x1b_pf, x1b_dx, x1b_lo, x1b_hi;
  reg            x1b_row;
  reg [SW-1:0]   x1b_seg;
  reg [2:0]      x1b_fl;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[2] <= 1'b0;
      x1b_p <= {XW{1'b0}}; x1b_pf <= {XW{1'b0}}; x1b_dx <= {XW{1'b0}}; x1b_lo <= {XW{1'b0}};
      x1b_hi <= {XW{1'b0}}; x1b_row <= 1'b0; x1b_seg <= {SW{1'b0}}; x1b_fl <= 3'd0;
    end else begin
      x_vld[2] <= x_vld[1] && !start_i;
      x1b_p   <= x1_pf + x1_pc;
      x1b_pf  <= x1_pf;
      x1b_dx  <= x1_dx;
      x1b_lo  <= x1_lo;
      x1b_hi  <= x1_hi;
      x1b_row <= !x1_y[YW-1] && (x1_y < {2'b00, tile_h_i});
      x1b_seg <= x1_seg;
      x1b_fl  <= x1_fl;
    end
  end

  generate
    if (XW > AW + LG_BUS) begin : g_unused_p
      wire unused_p = ^x1b_p[XW-1:AW+LG_BUS];
    end
  endgenerate

  // X2: span, start word and offset, the segment's start in the channel plane
  reg [XW-1:0]     x2_span, x2_pf, x2_lo, x2_hi;
  reg [AW-1:0]     x2_wa;
  reg [LG_BUS-1:0] x2_ofs;
  reg              x2_row;
  reg [SW-1:0]     x2_seg;
  reg [2:0]        x2_fl;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[3] <= 1'b0;
      x2_span <= {XW{1'b0}}; x2_pf <= {XW{1'b0}}; x2_lo <= {XW{1'b0}}; x2_hi <= {XW{1'b0}};
      x2_wa <= {AW{1'b0}}; x2_ofs <= {LG_BUS{1'b0}}; x2_row <= 1'b0; x2_seg <= {SW{1'b0}};
      x2_fl <= 3'd0;
    end else begin
      x_vld[3] <= x_vld[2] && !start_i;
      x2_span <= (lin_i ? last_xs_i : x1b_dx) + kspan_i;
      x2_pf   <= x1b_pf;
      x2_lo   <= x1b_lo;
      x2_hi   <= x1b_hi;
      x2_wa   <= x1b_p[LG_BUS +: AW];
      x2_ofs  <= x1b_p[LG_BUS-1:0];
      x2_row  <= x1b_row || lin_i;
      x2_seg  <= x1b_seg;
      x2_fl   <= x1b_fl;
    end
  end

  // X3: the real elements' bounds (positions in the segment: [0, span) and, in linear
  // contexts, the plane [0, plane), else the tile's columns), and its words less one
  reg [XW:0]       x3_a, x3_b, x3_c;         // lower bound, upper bounds (signed)
  reg [NWW-1:0]    x3_nw1;
  reg [AW-1:0]     x3_wa;
  reg [LG_BUS-1:0] x3_ofs;
  reg              x3_row;
  reg [SW-1:0]     x3_seg;
  reg [2:0]        x3_fl;
  wire [XW:0]      nw_sum = {1'b0, x2_span} + {{(XW+1-LG_BUS){1'b0}}, x2_ofs} - {{XW{1'b0}}, 1'b1};
  wire             unused_nw = ^{nw_sum[XW], nw_sum[LG_BUS-1:0]};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[4] <= 1'b0;
      x3_a <= {(XW+1){1'b0}}; x3_b <= {(XW+1){1'b0}}; x3_c <= {(XW+1){1'b0}};
      x3_nw1 <= {NWW{1'b0}}; x3_wa <= {AW{1'b0}}; x3_ofs <= {LG_BUS{1'b0}};
      x3_row <= 1'b0; x3_seg <= {SW{1'b0}}; x3_fl <= 3'd0;
    end else begin
      x_vld[4] <= x_vld[3] && !start_i;
      x3_a   <= lin_i ? -{x2_pf[XW-1], x2_pf} : {x2_lo[XW-1], x2_lo};
      x3_b   <= lin_i ? {1'b0, plane_i} - {x2_pf[XW-1], x2_pf} : {x2_hi[XW-1], x2_hi};
      x3_c   <= {1'b0, x2_span};
      x3_nw1 <= nw_sum[LG_BUS +: NWW];
      x3_wa  <= x2_wa;
      x3_ofs <= x2_ofs;
      x3_row <= x2_row;
      x3_seg <= x2_seg;
      x3_fl  <= x2_fl;
    end
  end

  // X4: the bounds as positions in the segment's first word (its element j is at segment
  // position j - ofs): j >= ofs (the segment's start), j >= a + ofs, j < b + ofs, j < c + ofs
  reg [XW:0]       x4_lo0, x4_lo1, x4_hi0, x4_hi1;
  reg [NWW-1:0]    x4_nw1;
  reg [AW-1:0]     x4_wa;
  reg [LG_BUS-1:0] x4_ofs;
  reg [SW-1:0]     x4_seg;
  reg [2:0]        x4_fl;
  wire [XW:0]      ofs_x = {{(XW+1-LG_BUS){1'b0}}, x3_ofs};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[5] <= 1'b0;
      x4_lo0 <= {(XW+1){1'b0}}; x4_lo1 <= {(XW+1){1'b0}};
      x4_hi0 <= {(XW+1){1'b0}}; x4_hi1 <= {(XW+1){1'b0}};
      x4_nw1 <= {NWW{1'b0}}; x4_wa <= {AW{1'b0}}; x4_ofs <= {LG_BUS{1'b0}};
      x4_seg <= {SW{1'b0}}; x4_fl <= 3'd0;
    end else begin
      x_vld[5] <= x_vld[4] && !start_i;
      x4_lo0 <= ofs_x;
      x4_lo1 <= x3_a + ofs_x;
      x4_hi0 <= x3_row ? x3_b + ofs_x : {(XW+1){1'b0}};   // a row outside the tile: nothing
      x4_hi1 <= x3_c + ofs_x;
      x4_nw1 <= x3_nw1;
      x4_wa  <= x3_wa;
      x4_ofs <= x3_ofs;
      x4_seg <= x3_seg;
      x4_fl  <= x3_fl;
    end
  end

  // X5: one lower and one upper bound: the real elements are the j of the segment's words
  // with lo <= j < hi, counting the first word's elements from 0
  reg [XW:0]       x5_lo, x5_hi;
  reg [NWW-1:0]    x5_nw1;
  reg [AW-1:0]     x5_wa;
  reg [LG_BUS-1:0] x5_ofs;
  reg [SW-1:0]     x5_seg;
  reg [2:0]        x5_fl;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[6] <= 1'b0;
      x5_lo <= {(XW+1){1'b0}}; x5_hi <= {(XW+1){1'b0}};
      x5_nw1 <= {NWW{1'b0}}; x5_wa <= {AW{1'b0}}; x5_ofs <= {LG_BUS{1'b0}};
      x5_seg <= {SW{1'b0}}; x5_fl <= 3'd0;
    end else begin
      x_vld[6] <= x_vld[5] && !start_i;
      x5_lo  <= ($signed(x4_lo1) > $signed(x4_lo0)) ? x4_lo1 : x4_lo0;
      x5_hi  <= ($signed(x4_hi1) < $signed(x4_hi0)) ? x4_hi1 : x4_hi0;
      x5_nw1 <= x4_nw1;
      x5_wa  <= x4_wa;
      x5_ofs <= x4_ofs;
      x5_seg <= x4_seg;
      x5_fl  <= x4_fl;
    end
  end

  // X6: each bound as the word it falls in (relative to the segment's first: c = bound div
  // BUS, counted down a word at a time by the expander) and the first word's state of it
  // (c = 0: inside the word, c < 0: before it), and the thermometers of its place in that word
  localparam integer CWW = NWW + 1;          // a bound's word, signed
  reg [CWW-1:0]    x6_lc, x6_hc;
  reg [1:0]        x6_lf, x6_hf;             // {c == 0, c < 0} of the first word
  reg [BUS-1:0]    x6_ge, x6_lt;             // bit j: j >= lo mod BUS, j < hi mod BUS
  reg [NWW-1:0]    x6_nw1;
  reg [AW-1:0]     x6_wa;
  reg [LG_BUS-1:0] x6_ofs;
  reg [SW-1:0]     x6_seg;
  reg [2:0]        x6_fl;
  wire [CWW-1:0]   lo_w = x5_lo[XW:LG_BUS];
  wire [CWW-1:0]   hi_w = x5_hi[XW:LG_BUS];
  integer tb;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[7] <= 1'b0;
      x6_lc <= {CWW{1'b0}}; x6_hc <= {CWW{1'b0}}; x6_lf <= 2'd0; x6_hf <= 2'd0;
      x6_ge <= {BUS{1'b0}}; x6_lt <= {BUS{1'b0}};
      x6_nw1 <= {NWW{1'b0}}; x6_wa <= {AW{1'b0}}; x6_ofs <= {LG_BUS{1'b0}};
      x6_seg <= {SW{1'b0}}; x6_fl <= 3'd0;
    end else begin
      x_vld[7] <= x_vld[6] && !start_i;
      x6_lc <= lo_w;
      x6_hc <= hi_w;
      x6_lf <= {lo_w == {CWW{1'b0}}, lo_w[CWW-1]};
      x6_hf <= {hi_w == {CWW{1'b0}}, hi_w[CWW-1]};
      for (tb = 0; tb < BUS; tb = tb + 1) begin
        x6_ge[tb] <= (tb[LG_BUS-1:0] >= x5_lo[LG_BUS-1:0]);
        x6_lt[tb] <= (tb[LG_BUS-1:0] < x5_hi[LG_BUS-1:0]);
      end
      x6_nw1 <= x5_nw1;
      x6_wa  <= x5_wa;
      x6_ofs <= x5_ofs;
      x6_seg <= x5_seg;
      x6_fl  <= x5_fl;
    end
  end

  // The mask of a word from its bounds' states: a lower bound in an earlier word passes every
  // element, one in this word those from its place, one in a later word none; an upper bound
  // the other way round.
  function [BUS-1:0] word_mask(input [1:0] lf, input [1:0] hf, input [BUS-1:0] ge,
                               input [BUS-1:0] lt);
    reg [BUS-1:0] lm, hm;
    begin
      lm = lf[0] ? {BUS{1'b1}} : lf[1] ? ge : {BUS{1'b0}};
      hm = hf[0] ? {BUS{1'b0}} : hf[1] ? lt : {BUS{1'b1}};
      word_mask = lm & hm;
    end
  endfunction

  // X7: the first word's mask
  reg [CWW-1:0]    x7_lc, x7_hc;
  reg [BUS-1:0]    x7_ge, x7_lt, x7_mask;
  reg              x7_rd;
  reg [NWW-1:0]    x7_nw1;
  reg [AW-1:0]     x7_wa;
  reg [LG_BUS-1:0] x7_ofs;
  reg [SW-1:0]     x7_seg;
  reg [2:0]        x7_fl;
  reg              x7_w1, x7_w2;              // the segment has one word, two words
  reg [1:0]        x7_lf1, x7_hf1;            // the bounds' states in its second word
  wire [BUS-1:0]   x6_mask = word_mask(x6_lf, x6_hf, x6_ge, x6_lt);
  localparam [CWW-1:0] ONE = {{(CWW-1){1'b0}}, 1'b1};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_vld[8] <= 1'b0;
      x7_lc <= {CWW{1'b0}}; x7_hc <= {CWW{1'b0}};
      x7_ge <= {BUS{1'b0}}; x7_lt <= {BUS{1'b0}}; x7_mask <= {BUS{1'b0}}; x7_rd <= 1'b0;
      x7_nw1 <= {NWW{1'b0}}; x7_wa <= {AW{1'b0}}; x7_ofs <= {LG_BUS{1'b0}};
      x7_seg <= {SW{1'b0}}; x7_fl <= 3'd0;
      x7_w1 <= 1'b0; x7_w2 <= 1'b0; x7_lf1 <= 2'd0; x7_hf1 <= 2'd0;
    end else begin
      x_vld[8] <= x_vld[7] && !start_i;
      x7_lc <= x6_lc - ONE; x7_hc <= x6_hc - ONE;
      x7_lf1 <= {x6_lc == ONE, x6_lf[1] || x6_lf[0]};
      x7_hf1 <= {x6_hc == ONE, x6_hf[1] || x6_hf[0]};
      x7_w1 <= (x6_nw1 == {NWW{1'b0}});
      x7_w2 <= (x6_nw1 == {{(NWW-1){1'b0}}, 1'b1});
      x7_ge <= x6_ge; x7_lt <= x6_lt;
      x7_mask <= x6_mask;
      x7_rd   <= |x6_mask;
      x7_nw1 <= x6_nw1;
      x7_wa  <= x6_wa;
      x7_ofs <= x6_ofs;
      x7_seg <= x6_seg;
      x7_fl  <= x6_fl;
    end
  end

  // ---- FIFO of segment records ------------------------------------------------------------------
  // (a memory without reset: a record is read only after it was written)
  localparam integer RW = AW + LG_BUS + NWW + SW + 3 + 3 * BUS + 1 + 2 * CWW + 4 + 2;
  wire [RW-1:0]   rec_in = {x7_wa, x7_ofs, x7_nw1, x7_seg, x7_fl, x7_ge, x7_lt, x7_mask, x7_rd,
                            x7_lc, x7_hc, x7_lf1, x7_hf1, x7_w1, x7_w2};
  reg  [FIFO_N*RW-1:0] f_q;     // record e at [e*RW +: RW] (registers, not a memory)
  reg  [3:0]      f_rp_q, f_wp_q;
  reg  [3:0]      f_cnt_q;
  wire            f_push = x_vld[NX-1];
  wire [3:0]      f_cnt_n = f_cnt_q + {3'b000, f_push} - {3'b000, f_pop};
  wire [RW-1:0]   rec = f_q[f_rp_q*RW +: RW];
  // Each record's write enable is a flip-flop (f_we_q), set the cycle before the push: the
  // stages never stall, so the record of the stage before the last is pushed next cycle (unless
  // start_i flushes it), into the entry the write pointer then names. An entry's many
  // flip-flops are enabled by a register, not by a decode of the pointer.
  wire [3:0]      f_wp_n = !f_push ? f_wp_q :
                           (f_wp_q == FIFO_N[3:0] - 4'd1) ? 4'd0 : f_wp_q + 4'd1;
  reg  [FIFO_N-1:0] f_we_q;
  // (one loop variable per always block: a variable two clocked blocks assign is, to Yosys, a
  // register with two drivers)
  integer fe, fw;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_we_q <= {FIFO_N{1'b0}};
    end else begin
      for (fe = 0; fe < FIFO_N; fe = fe + 1)
        f_we_q[fe] <= x_vld[NX-2] && !start_i && {28'd0, f_wp_n} == fe;
    end
  end
  always @(posedge clk_i) begin
    for (fw = 0; fw < FIFO_N; fw = fw + 1)
      if (f_we_q[fw]) f_q[fw*RW +: RW] <= rec_in;
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_rp_q  <= 4'd0;
      f_wp_q  <= 4'd0;
      f_cnt_q <= 4'd0;
      n_in_q  <= 4'd0;
    end else if (start_i) begin
      f_rp_q  <= 4'd0;
      f_wp_q  <= 4'd0;
      f_cnt_q <= 4'd0;
      n_in_q  <= 4'd0;
    end else begin
      f_wp_q  <= f_wp_n;
      if (f_pop)  f_rp_q <= (f_rp_q == FIFO_N[3:0] - 4'd1) ? 4'd0 : f_rp_q + 4'd1;
      f_cnt_q <= f_cnt_n;
      n_in_q  <= n_in_n;
    end
  end

  // ---- the word expander: the presented word, and the next word's bounds ------------------------
  wire [AW-1:0]     r_wa;
  wire [LG_BUS-1:0] r_ofs;
  wire [NWW-1:0]    r_nw1;
  wire [SW-1:0]     r_seg;
  wire [2:0]        r_fl;
  wire [BUS-1:0]    r_ge, r_lt, r_mask;
  wire              r_rd;
  wire [CWW-1:0]    r_lc, r_hc;               // the bounds' words from the second word on
  wire [1:0]        r_lf, r_hf;               // ... and their states in it
  wire              r_w1, r_w2;
  assign {r_wa, r_ofs, r_nw1, r_seg, r_fl, r_ge, r_lt, r_mask, r_rd, r_lc, r_hc, r_lf, r_hf, r_w1,
          r_w2} = rec;

  reg  [NWW-1:0] wl_q;                 // words of the segment after the presented one
  reg            more_q, wl1_q;        // ... at least one, exactly one
  reg            fne_q;                // the FIFO holds a record
  reg  [1:0]     fl_q;                 // the segment's context-last, group-last
  reg  [BUS-1:0] ge_q, lt_q;
  reg  [CWW-1:0] blc_q, bhc_q;         // the bounds' words from the next word on
  reg  [1:0]     blf_q, bhf_q;         // ... and their states in the next word
  wire           take  = !vld_o || adv_i;   // the presented word goes (or there is none)
  wire           more  = vld_o && more_q;
  assign         f_pop = take && !more && fne_q;
  wire [BUS-1:0] n_mask = word_mask(blf_q, bhf_q, ge_q, lt_q);
  assign         busy_o = p1_q || prime_q || l_vld || (|x_vld) || (f_cnt_q != 4'd0) || vld_o;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      fne_q <= 1'b0;
    else if (start_i) fne_q <= 1'b0;
    else              fne_q <= (f_cnt_n != 4'd0);
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vld_o <= 1'b0; rd_o <= 1'b0; addr_o <= {AW{1'b0}}; mask_o <= {BUS{1'b0}};
      fs_o <= 1'b0; ofs_o <= {LG_BUS{1'b0}}; iw_o <= {NWW{1'b0}}; seg_o <= {SW{1'b0}};
      pass_last_o <= 1'b0; ctx_last_o <= 1'b0; grp_last_o <= 1'b0;
      wl_q <= {NWW{1'b0}}; more_q <= 1'b0; wl1_q <= 1'b0; fl_q <= 2'd0;
      ge_q <= {BUS{1'b0}}; lt_q <= {BUS{1'b0}};
      blc_q <= {CWW{1'b0}}; bhc_q <= {CWW{1'b0}}; blf_q <= 2'd0; bhf_q <= 2'd0;
    end else if (start_i) begin
      vld_o <= 1'b0;
      rd_o  <= 1'b0;
    end else if (take) begin
      if (more) begin                            // the segment's next word
        addr_o      <= addr_o + {{(AW-1){1'b0}}, 1'b1};
        mask_o      <= n_mask;
        rd_o        <= |n_mask;
        fs_o        <= 1'b0;
        iw_o        <= iw_o + {{(NWW-1){1'b0}}, 1'b1};
        wl_q        <= wl_q - {{(NWW-1){1'b0}}, 1'b1};
        more_q      <= !wl1_q;
        wl1_q       <= (wl_q == {{(NWW-2){1'b0}}, 2'd2});
        ctx_last_o  <= fl_q[1] && wl1_q;
        grp_last_o  <= fl_q[0] && wl1_q;
        blc_q <= blc_q - ONE;
        bhc_q <= bhc_q - ONE;
        blf_q <= {blc_q == ONE, blf_q[1] || blf_q[0]};
        bhf_q <= {bhc_q == ONE, bhf_q[1] || bhf_q[0]};
      end else if (fne_q) begin                  // the next segment's first word
        vld_o       <= 1'b1;
        addr_o      <= r_wa;
        mask_o      <= r_mask;
        rd_o        <= r_rd;
        fs_o        <= 1'b1;
        ofs_o       <= r_ofs;
        iw_o        <= {NWW{1'b0}};
        seg_o       <= r_seg;
        wl_q        <= r_nw1;
        more_q      <= !r_w1;
        wl1_q       <= r_w2;
        fl_q        <= r_fl[1:0];
        pass_last_o <= r_fl[2];
        ctx_last_o  <= r_fl[1] && r_w1;
        grp_last_o  <= r_fl[0] && r_w1;
        ge_q  <= r_ge;
        lt_q  <= r_lt;
        blc_q <= r_lc;
        bhc_q <= r_hc;
        blf_q <= r_lf;
        bhf_q <= r_hf;
      end else begin
        vld_o <= 1'b0;
        rd_o  <= 1'b0;
      end
    end
  end

endmodule

`resetall
