// sagen_mac_count: the performance events of the array edge that count PE operations: useful
// MACs (ev_macs_o), PEs fed a created zero (ev_zero_pe_o) and zero-space operands never fetched
// (ev_zskip_o). It follows the contexts of the pass as they enter the array.
//
// A pass walks filter groups of n_ctx_i contexts of lanes_i pixels each; a filter group has
// grp_w_i filters (one per column of a column group). A context's active lanes are its pixels
// before the tile's npix_i-th and, with a virtual row width (ow_virt_i > ow_real_i: every
// context inside one output row), before the row's real width; its active columns are the
// filters of its group before the tile's k_act_i-th. Per cycle:
//   ev_macs_o    = active lanes x active columns on a valid step (pop_i), else 0
//   ev_zero_pe_o = the same on a zero step (zstep_i), else 0
//   ev_zskip_o   = the active lanes on a zero step (zero_fill: one created zero per lane);
//                  outside zero_fill, at a context end (ctx_end_i), the zero-space taps of its
//                  dense tap sequence for each active lane: n_ch x (dn_r x dn_s - nz_r x nz_s) x
//                  active lanes, mod 2^32 (nz_r x nz_s: the non-zero taps of a channel); else 0.
// ev_macs_o and ev_zero_pe_o are the product mod 2^16.
//
// What the pass guarantees (sagen_core, sagen_ctrl): its fields hold from go_i to its end;
// n_ctx, n_ch >= 1; outside zero_fill every tap of a context is non-zero, so a context is
// T = n_ch x nz_r x nz_s pops, the last of them its context end, and the first pop comes 3
// cycles after go_i or later (the weight fetcher, started with go_i, issues its first read the
// cycle after, has the data the cycle after that and presents it from its FIFO the next; the
// tap sequencer's first tap comes no sooner: 2 cycles plus one prologue step at dil = str = 1).
//
// No multiplier. The active lanes (<= LANES) and columns (<= COLS) are $clog2-wide; their
// product is a sum of shifted copies of the lanes, one per bit of the columns. The zero-space
// taps of a context (n_ch x dense taps - T) come from a small sequential computation started at
// go_i: the dense taps of a channel, dn_r x dn_s, in two steps of 8 bits of dn_s (one 8-copy
// shift-add shared by both), valid from cycle 2; then n_ch copies of it added one a cycle
// (complete at cycle 2 + n_ch), minus one for each pop of the pass's first context. That
// context ends with its T-th pop, at cycle 2 + T or later, and T >= n_ch: the value is complete
// at its first use, and held from then on. Its product with the active lanes is again one
// shifted copy per bit of the lanes.
`default_nettype none

module sagen_mac_count #(
  parameter integer LANES = 4,   // feed lanes (ROWS x column groups), at most 256
  parameter integer COLS  = 4    // array columns, at most 256
) (
  input  wire                         clk_i,        // clock
  input  wire                         rst_ni,       // asynchronous reset, active low
  input  wire                         go_i,         // one cycle: a pass starts, its fields below
                                                    // are valid from here to its end
  // the pass
  input  wire [15:0]                  n_ctx_i,      // contexts per filter group (>= 1)
  input  wire [31:0]                  npix_i,       // pixels of the tile per filter group
  input  wire [15:0]                  k_act_i,      // filters of the tile
  input  wire [$clog2(LANES+1)-1:0]   lanes_i,      // pixels per context (<= LANES)
  input  wire [$clog2(COLS+1)-1:0]    grp_w_i,      // filters per filter group (<= COLS)
  input  wire [15:0]                  ow_real_i,    // real width of an output row
  input  wire [15:0]                  ow_virt_i,    // row width as the contexts see it
  input  wire                         zero_fill_i,  // zero-space taps are fed as created zeros
  input  wire [15:0]                  n_ch_i,       // channels of a context's reduction
  input  wire [15:0]                  dn_r_i,       // dense taps per context, rows
  input  wire [15:0]                  dn_s_i,       // ... columns
  // the array edge (sagen_step_ctrl)
  input  wire                         pop_i,        // a valid step
  input  wire                         zstep_i,      // a zero step
  input  wire                         ctx_end_i,    // the step is its context's last tap
  // events
  output wire [15:0]                  ev_macs_o,    // useful MACs this cycle
  output wire [15:0]                  ev_zero_pe_o, // PEs fed a created zero this cycle
  output wire [31:0]                  ev_zskip_o    // zero-space operands not fetched
);

  localparam integer LW = $clog2(LANES + 1);              // active lanes: 0..LANES
  localparam integer CW = $clog2(COLS + 1);               // active columns: 0..COLS
  localparam integer MW = (LW + CW > 16) ? LW + CW : 16;  // their product, and ev_macs_o's 16

  // ---- the context at the array's input ------------------------------------------------------
  reg  [31:0] lanes_left_q;   // pixels of the current context and beyond, this filter group
  reg  [15:0] cols_left_q;    // filters of the current filter group and beyond
  reg  [15:0] ctx_q;          // context within the filter group
  reg  [15:0] x_q;            // output column of lane 0 (virtual width: no wrap in a context)

  wire          virt     = (ow_virt_i > ow_real_i);
  wire [15:0]   x_left   = (x_q < ow_real_i) ? ow_real_i - x_q : 16'd0;
  wire          more_pix = (lanes_left_q > {{(32-LW){1'b0}}, lanes_i});
  wire [LW-1:0] pix_act  = more_pix ? lanes_i : lanes_left_q[LW-1:0];
  wire [LW-1:0] lanes_act = (virt && x_left < {{(16-LW){1'b0}}, pix_act}) ? x_left[LW-1:0]
                                                                         : pix_act;
  wire          more_col = (cols_left_q > {{(16-CW){1'b0}}, grp_w_i});
  wire [CW-1:0] cols_act = more_col ? grp_w_i : cols_left_q[CW-1:0];
  wire [15:0]   x_next   = x_q + {{(16-LW){1'b0}}, lanes_i};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lanes_left_q <= 32'd0; cols_left_q <= 16'd0; ctx_q <= 16'd0; x_q <= 16'd0;
    end else if (go_i) begin
      lanes_left_q <= npix_i; cols_left_q <= k_act_i; ctx_q <= 16'd0; x_q <= 16'd0;
    end else if (ctx_end_i) begin
      if ({1'b0, ctx_q} + 17'd1 < {1'b0, n_ctx_i}) begin   // the next context of the group
        ctx_q        <= ctx_q + 16'd1;
        lanes_left_q <= more_pix ? lanes_left_q - {{(32-LW){1'b0}}, lanes_i} : 32'd0;
        x_q          <= (x_next >= ow_virt_i) ? 16'd0 : x_next;
      end else begin                                        // the next filter group
        ctx_q        <= 16'd0;
        x_q          <= 16'd0;
        lanes_left_q <= npix_i;
        cols_left_q  <= more_col ? cols_left_q - {{(16-CW){1'b0}}, grp_w_i} : 16'd0;
      end
    end
  end

  // ---- MACs: active lanes x active columns ---------------------------------------------------
  reg [MW-1:0] macs;
  integer      i;
  always @* begin
    macs = {MW{1'b0}};
    for (i = 0; i < CW; i = i + 1)
      if (cols_act[i]) macs = macs + ({{(MW-LW){1'b0}}, lanes_act} << i);
  end
  assign ev_macs_o    = pop_i   ? macs[15:0] : 16'd0;
  assign ev_zero_pe_o = zstep_i ? macs[15:0] : 16'd0;

  // ---- zero-space operands never fetched -------------------------------------------------------
  // skip_q = n_ch x dn_r x dn_s - n_ch x nz_r x nz_s (mod 2^32), the zero-space taps of every
  // context, without a multiplier (see the header for the bounds this relies on):
  //   cycle 0 (go_i)  part_q  = dn_r x dn_s[7:0]            (8 shifted copies of dn_r)
  //   cycle 1         dense_q = part_q + dn_r x dn_s[15:8] x 256 (the same 8 copies, shared)
  //   cycles 2..      skip_q += dense_q, n_ch times (done at cycle 2 + n_ch)
  //   each pop of the pass's first context subtracts 1 (skip_q starts at -1 and the context end
  //   is its last pop): its T = n_ch x nz_r x nz_s pops are the non-zero taps of a context.
  // The first context ends with its T-th pop, at cycle 2 + T or later, and T >= n_ch: skip_q is
  // complete there, and holds from then on.
  reg  [1:0]  phase_q;    // cycles since go_i, up to 2 (dense_q is valid at 2)
  reg  [23:0] part_q;     // dn_r x dn_s[7:0]
  reg  [31:0] dense_q;    // dn_r x dn_s
  reg  [15:0] adds_q;     // copies of dense_q added into skip_q
  reg         first_q;    // the pass's first context has not ended
  reg  [31:0] skip_q;     // -1 + (copies added) x dense_q - (pops of the first context so far)
  wire [7:0]  dn_s_byte = go_i ? dn_s_i[7:0] : dn_s_i[15:8];
  reg  [23:0] part;       // dn_r x dn_s_byte
  integer     b;
  always @* begin
    part = 24'd0;
    for (b = 0; b < 8; b = b + 1)
      if (dn_s_byte[b]) part = part + ({8'd0, dn_r_i} << b);
  end
  wire        add_dense = (phase_q == 2'd2) && (adds_q < n_ch_i);
  wire        sub_pop   = first_q && pop_i && !ctx_end_i;
  wire [31:0] skip_add  = add_dense ? dense_q : 32'd0;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q <= 2'd0; part_q <= 24'd0; dense_q <= 32'd0; adds_q <= 16'd0;
      first_q <= 1'b0; skip_q <= 32'd0;
    end else if (go_i) begin
      phase_q <= 2'd1; part_q <= part; adds_q <= 16'd0;
      first_q <= 1'b1; skip_q <= 32'hFFFF_FFFF;
    end else begin
      if (phase_q == 2'd1) begin
        phase_q <= 2'd2;
        dense_q <= {8'd0, part_q} + {part, 8'd0};
      end
      if (add_dense) adds_q <= adds_q + 16'd1;
      skip_q <= skip_q + skip_add - {31'd0, sub_pop};
      if (ctx_end_i) first_q <= 1'b0;
    end
  end

  // skip_q x active lanes, mod 2^32
  reg [31:0] skip_lanes;
  integer    l;
  always @* begin
    skip_lanes = 32'd0;
    for (l = 0; l < LW; l = l + 1)
      if (lanes_act[l]) skip_lanes = skip_lanes + (skip_q << l);
  end
  assign ev_zskip_o = zstep_i ? {{(32-LW){1'b0}}, lanes_act}
                              : ((!zero_fill_i && ctx_end_i) ? skip_lanes : 32'd0);

  wire unused_macs = ^{1'b0, macs};   // bits past 16 (wide arrays): ev_macs_o is mod 2^16

endmodule

`resetall
