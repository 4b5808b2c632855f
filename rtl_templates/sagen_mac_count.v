// sagen_mac_count: the performance events of the array edge that count PE operations: useful
// MACs (ev_macs_o), PEs fed a created zero (ev_zero_pe_o) and zero-space operands never fetched
// (ev_zskip_o). It follows the contexts of the pass as they enter the array.
//
// A pass walks filter groups of n_ctx_i contexts of lanes_i pixels each; a filter group has
// grp_w_i filters (one per column of a column group). A context's active lanes are its pixels
// before the tile's npix_i-th and, with a virtual row width (ow_virt_i > ow_real_i: every
// context inside one output row), before the row's real width; its active columns are the
// filters of its group before the tile's k_act_i-th. For the step of cycle t:
//   macs         = active lanes x active columns (mod 2^16)
//   ev_macs_o    = macs on a valid step (pop_i), else 0
//   ev_zero_pe_o = macs on a zero step (zstep_i), else 0
//   ev_zskip_o   = the active lanes on a zero step (zero_fill: one created zero per lane);
//                  outside zero_fill, at a context end (ctx_end_i), the zero-space taps of its
//                  dense tap sequence for each active lane: n_ch x (dn_r x dn_s - nz_r x nz_s) x
//                  active lanes, mod 2^32 (nz_r x nz_s: the non-zero taps of a channel); else 0.
//
// Latency: the events of cycle t leave at cycle t + LAT, LAT = 3 + NL, NL = $clog2 of
// max($clog2(LANES+1), $clog2(COLS+1)), at least 1 (4 for 1 lane and 1 column, 5 for 8 x 8,
// 6 for 64 lanes x 16 columns); between them the outputs are 0. They only feed sagen_ctrl's
// counters, which the host reads once, after the run's last pass has ended and its results
// have been read (tb/host/engine.c); a pass ends only once its results are written, several
// cycles after its last step, and the host reads no counter before. So every counter the host
// reads holds what it held when the events came without latency. The pipeline does not stop at
// go_i: the events of a pass still in it leave with the values of that pass.
//
// What the pass guarantees (sagen_core, sagen_ctrl): its fields hold from go_i to its end, at
// least 4 cycles; n_ctx, n_ch >= 1; outside zero_fill every tap of a context is non-zero, so a
// context is T = n_ch x nz_r x nz_s pops, the last of them its context end, and the first pop
// comes 3 cycles after go_i or later (the weight fetcher, started with go_i, issues its first
// read the cycle after, has the data the cycle after that and presents it from its FIFO the
// next; the tap sequencer's first tap comes no sooner: 2 cycles plus one prologue step at
// dil = str = 1).
//
// No multiplier, one adder (or compare) between registers (150 MHz on an ECP5):
// - the context state is kept one step ahead: the pixels left minus lanes_i minus 1 (its sign:
//   more pixels than a context), the column of the next context's lane 0 and the real row
//   width left after the context's lane 0; the contexts left in the group minus 1 (its sign:
//   the last);
// - stage 1 registers the context's pixels and columns (min with lanes_i, grp_w_i) and the
//   part of the row left, stage 2 its active lanes, stage 3 the shifted copies the products sum:
//   the lanes once per bit of the columns (macs), the zero-space taps of a context once per bit
//   of the lanes (zskip); then NL levels of an adder tree (registered, two terms per node);
// - the zero-space taps of a context, skip = n_ch x dn_r x dn_s - T: dn_r x dn_s comes from a
//   4-level adder tree of 16 shifted copies of dn_r that runs every cycle on the fields (valid 4
//   cycles after go_i), added n_ch times into one register from go_i + 4; another counts down
//   from -1 for each pop of the pass's first context but its last (seen at stage 1), and their
//   sum goes into stage 3's terms. The first context ends at cycle go_i + 2 + T or later and
//   T >= n_ch: when its event reaches stage 3 the sum is complete, and holds (see the count).
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
  // events, LAT cycles after their step
  output wire [15:0]                  ev_macs_o,    // useful MACs
  output wire [15:0]                  ev_zero_pe_o, // PEs fed a created zero
  output wire [31:0]                  ev_zskip_o    // zero-space operands not fetched
);

  localparam integer LW = $clog2(LANES + 1);              // active lanes: 0..LANES
  localparam integer CW = $clog2(COLS + 1);               // active columns: 0..COLS
  localparam integer MW = (LW + CW < 16) ? LW + CW : 16;  // their product, mod 2^16
  localparam integer NT = (LW > CW) ? LW : CW;            // terms of the products' tree
  localparam integer NL = (NT > 1) ? $clog2(NT) : 1;      // levels of the tree
  localparam integer TW = 32 + MW;                        // a tree node: {zskip, macs}

  // nodes of level lv of a tree of n terms (two per node)
  function automatic integer nodes(input integer n, input integer lv);
    nodes = (n + (1 << lv) - 1) >> lv;
  endfunction
  // width of a node of level lv of the dense-tap tree (dn_r times 2^lv bits of dn_s)
  function automatic integer dwidth(input integer lv);
    dwidth = (lv == 0) ? 16 : 16 + (1 << lv);
  endfunction

  // ---- the context at the array's input, one step ahead ---------------------------------------
  // The pass's state: ll_lo_q = the pixels left in this filter group (from this context on) mod
  // 2^LW, llm_q = the same minus lanes_i minus 1 (33 bits: negative when a context takes them
  // all); xn_q = the output column of the next context's lane 0 (mod 2^16), dv_q = ow_virt_i -
  // xn_q - 1 (17 bits: negative when the next context starts a row), xl_q = the real row width
  // left from this context's lane 0 (17 bits, negative past it); cr_q = the contexts after
  // this one in the group, minus 1 (17 bits: negative at the group's last); cl_lo_q and clm_q: the
  // filters left from this group on, mod 2^CW and minus grp_w_i minus 1 (17 bits).
  reg  [LW-1:0] ll_lo_q;
  reg  [32:0]   llm_q;
  reg  [15:0]   xn_q;
  reg  [16:0]   dv_q;
  reg  [16:0]   xl_q;
  reg  [16:0]   cr_q;
  reg  [CW-1:0] cl_lo_q;
  reg  [16:0]   clm_q;

  wire [32:0] lanes_n33 = ~{{(33-LW){1'b0}}, lanes_i};   // -lanes_i - 1
  wire [16:0] grp_n17   = ~{{(17-CW){1'b0}}, grp_w_i};   // -grp_w_i - 1
  wire        more_pix  = !llm_q[32];                    // lanes left > lanes_i
  wire        more_col  = !clm_q[16];                    // filters left > grp_w_i
  wire        wrap      = dv_q[16];                      // the next context starts a row
  wire [15:0] lanes16   = {{(16-LW){1'b0}}, lanes_i};
  wire [16:0] lanes17   = {1'b0, lanes16};
  wire [16:0] xn_sum    = {1'b0, xn_q} + lanes17;        // [16]: xn_q + lanes_i passes 2^16
  wire [16:0] dv_sub    = dv_q - lanes17;
  wire        last_q    = cr_q[16];                      // the group's last context

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ll_lo_q <= {LW{1'b0}}; llm_q <= 33'h1_FFFF_FFFF; xn_q <= 16'd0; dv_q <= 17'd0;
      xl_q <= 17'd0;
      cr_q <= 17'h1_FFFF; cl_lo_q <= {CW{1'b0}}; clm_q <= 17'h1_FFFF;
    end else if (go_i || (ctx_end_i && last_q)) begin      // a pass, or the next filter group
      ll_lo_q   <= npix_i[LW-1:0];
      llm_q     <= {1'b0, npix_i} + lanes_n33;
      xn_q      <= lanes16;
      dv_q      <= {1'b0, ow_virt_i} + ~lanes17;
      xl_q      <= {1'b0, ow_real_i};
      cr_q      <= {1'b0, n_ctx_i} - 17'd2;   // n_ctx_i 0 or 1: -2 or -1, the last
      if (go_i) begin
        cl_lo_q <= k_act_i[CW-1:0];
        clm_q   <= {1'b0, k_act_i} + grp_n17;
      end else if (more_col) begin
        cl_lo_q <= cl_lo_q - grp_w_i;
        clm_q   <= clm_q - {{(17-CW){1'b0}}, grp_w_i};
      end else begin
        cl_lo_q <= {CW{1'b0}};
        clm_q   <= grp_n17;
      end
    end else if (ctx_end_i) begin                          // the next context of the group
      if (more_pix) begin
        ll_lo_q <= ll_lo_q - lanes_i;
        llm_q   <= llm_q - {{(33-LW){1'b0}}, lanes_i};
      end else begin
        ll_lo_q <= {LW{1'b0}};
        llm_q   <= lanes_n33;
      end
      xn_q      <= wrap ? lanes16 : xn_sum[15:0];
      // dv_q - lanes_i, plus 2^16 when the column wraps at 2^16 (bit 16 of 17 flips)
      dv_q      <= wrap ? {1'b0, ow_virt_i} + ~lanes17 : {dv_sub[16] ^ xn_sum[16], dv_sub[15:0]};
      xl_q      <= wrap ? {1'b0, ow_real_i} : {1'b0, ow_real_i} - {1'b0, xn_q};
      cr_q      <= cr_q - 17'd1;
    end
  end

  // ---- stages 1 to 3: the context's active lanes and columns ----------------------------------
  // stage 1: the pixels (<= lanes_i), the columns, the real width left (clamped to LW bits:
  // xl_small = it is below 2^LW, negative ones read as 0) and whether the row width is virtual
  reg  [LW-1:0] pix1_q, xl1_q;
  reg  [CW-1:0] col1_q, col2_q;
  reg           xs1_q, virt1_q;
  reg  [LW-1:0] act2_q, act3_q;
  // the steps: {go, pop, zstep, ctx_end, zskip context end} at stages 1, 2 and 3
  reg  [4:0]    ev1_q, ev2_q, ev3_q;
  wire          xl_neg = xl_q[16];
  wire          zend   = ctx_end_i && !zero_fill_i && !zstep_i;
  // stage 2: the active lanes, fewer than the pixels where the row's real width ends
  wire          clip   = virt1_q && xs1_q && (xl1_q < pix1_q);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pix1_q <= {LW{1'b0}}; xl1_q <= {LW{1'b0}}; col1_q <= {CW{1'b0}}; xs1_q <= 1'b0;
      virt1_q <= 1'b0; col2_q <= {CW{1'b0}};
      act2_q <= {LW{1'b0}}; act3_q <= {LW{1'b0}};
      ev1_q <= 5'd0; ev2_q <= 5'd0; ev3_q <= 5'd0;
    end else begin
      pix1_q  <= more_pix ? lanes_i : ll_lo_q;
      xl1_q   <= xl_neg ? {LW{1'b0}} : xl_q[LW-1:0];
      xs1_q   <= xl_neg || (xl_q[15:LW] == {(16-LW){1'b0}});
      virt1_q <= (ow_virt_i > ow_real_i);
      col1_q  <= more_col ? grp_w_i : cl_lo_q;
      ev1_q   <= {go_i, pop_i, zstep_i, ctx_end_i, zend};
      act2_q  <= clip ? xl1_q : pix1_q;
      col2_q  <= col1_q;
      ev2_q   <= ev1_q;
      act3_q  <= act2_q;
      ev3_q   <= ev2_q;
    end
  end

  // ---- the zero-space taps of a context ------------------------------------------------------
  // dense = dn_r x dn_s: node k of level lv sums dn_r x dn_s[b] x 2^(b - k*2^lv) over the 2^lv
  // bits b of its block; level 0 is combinational, levels 1..4 registered (every cycle).
  wire [5*16*32-1:0] dn_tree;   // node (lv, k) at [(lv*16 + k)*32 +: 32] (unused slots 0)
  genvar gl, gk;
  generate
    for (gk = 0; gk < 16; gk = gk + 1) begin : g_dn_pp
      assign dn_tree[gk*32 +: 32] = {16'd0, dn_s_i[gk] ? dn_r_i : 16'd0};
    end
    for (gl = 1; gl <= 4; gl = gl + 1) begin : g_dn_lvl
      localparam integer WA = dwidth(gl - 1);   // a child's width
      localparam integer WN = dwidth(gl);       // a node's width
      localparam integer H  = 1 << (gl - 1);    // the second child's shift
      for (gk = 0; gk < (16 >> gl); gk = gk + 1) begin : g_node
        wire [31:0] a = dn_tree[((gl-1)*16 + 2*gk)*32 +: 32];
        wire [31:0] b = dn_tree[((gl-1)*16 + 2*gk + 1)*32 +: 32];
        // a + b x 2^H: the low H bits of a pass, the rest takes one adder
        wire [31:0] hi = (a >> H) + b;
        reg  [WN-1:0] node_q;
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) node_q <= {WN{1'b0}};
          else         node_q <= {hi[WN-H-1:0], a[H-1:0]};
        end
        wire unused_node = ^{a[31:WA], b[31:WA], hi[31:WN-H]};
        if (WN < 32) begin : g_ext
          assign dn_tree[(gl*16 + gk)*32 +: 32] = {{(32-WN){1'b0}}, node_q};
        end else begin : g_full
          assign dn_tree[(gl*16 + gk)*32 +: 32] = node_q;
        end
      end
      assign dn_tree[(gl*16 + (16 >> gl))*32 +: (16 - (16 >> gl))*32] =
        {((16 - (16 >> gl))*32){1'b0}};
    end
  endgenerate
  wire unused_dn = ^dn_tree;
  wire [31:0] dense = dn_tree[(4*16)*32 +: 32];

  // The count: skip = acc_q + pc_q, where acc_q = the copies of dense added so far and pc_q =
  // -1 - (pops of the pass's first context so far, its context end excluded), both following
  // the steps at stage 1 (1 cycle behind the inputs); the sum goes into the terms of stage 3
  // (below) as an event passes from stage 2 to 3. acc_q adds dense at cycles go_i + 4 ..
  // go_i + 3 + n_ch (dense is valid from go_i + 4) and is complete from go_i + 4 + n_ch; the
  // first context ends at t >= go_i + 2 + T >= go_i + 2 + n_ch, its pc_q is final from t + 2,
  // and its event passes to stage 3 at the end of t + 2. The next pass's go_i comes after
  // t + 1 (a pass ends after its last step): acc_q and pc_q change at its go_i + 2 or later,
  // after the last event of the pass has used them.
  wire        go1  = ev1_q[4];
  wire        go3  = ev3_q[4];
  wire        pop1 = ev1_q[3];
  wire        end1 = ev1_q[1];
  reg  [31:0] acc_q, pc_q;
  reg  [15:0] adds_left_q;  // copies of dense still to add after this cycle's
  reg         add_q;        // dense is added this cycle
  reg         first_q;      // the pass's first context has not ended (at stage 1)
  wire        sub_pop = first_q && pop1 && !end1;
  wire [31:0] skip    = acc_q + pc_q;
  // acc_q has no reset: go_i clears it (a synchronous clear, the flip-flop's own, so no gate
  // follows its adder), and no event uses it before (the terms take it only at a context end)
  always @(posedge clk_i) begin
    if (go1) acc_q <= 32'd0;
    else     acc_q <= acc_q + (add_q ? dense : 32'd0);
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q <= 32'hFFFF_FFFF; adds_left_q <= 16'd0; add_q <= 1'b0; first_q <= 1'b0;
    end else begin
      if (go1) begin
        pc_q    <= 32'hFFFF_FFFF;
        first_q <= 1'b1;
      end else begin
        pc_q  <= pc_q - {31'd0, sub_pop};
        if (end1) first_q <= 1'b0;
      end
      if (go3) begin
        add_q       <= (n_ch_i != 16'd0);
        adds_left_q <= n_ch_i - 16'd1;
      end else if (go1) begin   // the pass before may still add (zero_fill: no context waits)
        add_q       <= 1'b0;
      end else if (add_q) begin
        add_q       <= (adds_left_q != 16'd0);
        adds_left_q <= adds_left_q - 16'd1;
      end
    end
  end

  // ---- the products: an adder tree over the shifted copies -------------------------------------
  // Term k (registered at stage 3): {skip x 2^k if bit k of the active lanes and a zskip context
  // end, the active lanes x 2^k if bit k of the active columns}; node k of level lv sums terms
  // k*2^lv .. (k+1)*2^lv-1.
  wire [(NL+1)*NT*TW-1:0] tree;   // node (lv, k) at [(lv*NT + k)*TW +: TW]
  genvar gt;
  generate
    for (gt = 0; gt < NT; gt = gt + 1) begin : g_term
      reg [31:0]    zs_q;
      reg [MW-1:0]  ms_q;
      wire [31:0]   zs;
      wire [MW-1:0] ms;
      if (gt < LW) begin : g_zs
        assign zs = (act2_q[gt] && ev2_q[0]) ? skip << gt : 32'd0;
      end else begin : g_no_zs
        assign zs = 32'd0;
      end
      if (gt < CW) begin : g_ms
        wire [MW+LW-1:0] sh = {{MW{1'b0}}, act2_q} << gt;
        assign ms = col2_q[gt] ? sh[MW-1:0] : {MW{1'b0}};
        wire unused_sh = ^sh[MW+LW-1:MW];   // past 16 bits: macs is mod 2^16
      end else begin : g_no_ms
        assign ms = {MW{1'b0}};
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          zs_q <= 32'd0; ms_q <= {MW{1'b0}};
        end else begin
          zs_q <= zs; ms_q <= ms;
        end
      end
      assign tree[gt*TW +: TW] = {zs_q, ms_q};
    end
    for (gl = 1; gl <= NL; gl = gl + 1) begin : g_lvl
      for (gt = 0; gt < nodes(NT, gl); gt = gt + 1) begin : g_node
        wire [TW-1:0] a = tree[((gl-1)*NT + 2*gt)*TW +: TW];
        reg  [TW-1:0] node_q;
        if (2*gt + 1 < nodes(NT, gl - 1)) begin : g_pair
          wire [TW-1:0] b = tree[((gl-1)*NT + 2*gt + 1)*TW +: TW];
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni) node_q <= {TW{1'b0}};
            else         node_q <= {a[TW-1:MW] + b[TW-1:MW], a[MW-1:0] + b[MW-1:0]};
          end
        end else begin : g_single
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni) node_q <= {TW{1'b0}};
            else         node_q <= a;
          end
        end
        assign tree[(gl*NT + gt)*TW +: TW] = node_q;
      end
      if (nodes(NT, gl) < NT) begin : g_pad
        assign tree[(gl*NT + nodes(NT, gl))*TW +: (NT - nodes(NT, gl))*TW] =
          {((NT - nodes(NT, gl))*TW){1'b0}};
      end
    end
  endgenerate

  // the steps and the active lanes along the tree
  localparam integer EW = 3 + LW;
  reg  [NL*EW-1:0]     evt_q;   // level lv at [lv*EW +: EW]: {pop, zstep, zskip end, lanes}
  wire [(NL+1)*EW-1:0] evt_in = {evt_q, ev3_q[3:2], ev3_q[0], act3_q};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) evt_q <= {(NL*EW){1'b0}};
    else         evt_q <= evt_in[NL*EW-1:0];
  end
  wire [EW-1:0]   evo    = evt_q[(NL-1)*EW +: EW];
  wire [TW-1:0]   root   = tree[NL*NT*TW +: TW];
  wire [15:0]     macs   = {{(16-MW){1'b0}}, root[MW-1:0]};
  assign ev_macs_o    = evo[LW+2] ? macs : 16'd0;
  assign ev_zero_pe_o = evo[LW+1] ? macs : 16'd0;
  assign ev_zskip_o   = evo[LW+1] ? {{(32-LW){1'b0}}, evo[LW-1:0]}
                                  : (evo[LW] ? root[TW-1:MW] : 32'd0);

  wire unused_ev = ^{ev3_q[1], evt_in[NL*EW +: EW], tree};

endmodule

`resetall
