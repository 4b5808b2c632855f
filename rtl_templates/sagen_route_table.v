// sagen_route_table: the col2im route table (sagen_psum_manager): N entries of W bits, written
// by the host two at a time through the controller's ROUTE_DATA register. A write (we_i) puts
// wdata_i[W-1:0] into entry addr_i and wdata_i[16 +: W] into entry addr_i + 1; an entry past
// the table is not written (an odd last address writes its first half only). Entry e is
// route_o[e*W +: W]; all entries reset to 0 (a write not yet landed is dropped).
//
// Latency: a write of cycle t shows on route_o from cycle t + 2 (registered, decoded, then
// written). The host writes the table once per run before its first pass (tb/host/engine.c), so
// the cycle more is never seen: a pass starts several CSR writes after the last ROUTE_DATA.
//
// The consumer reads a whole filter group's row of entries at once, so the table stays in
// flip-flops. The write is a decoder, no adder: entry e takes the first half when addr_i == e
// and the second when addr_i == e - 1, so an even entry takes the first half of a write to an
// even address and the second of one to an odd address, and an odd entry the other. The address
// is decoded in two one-hot halves, its high and its low bits (the write enable and "zero above
// the table" folded into the high half), and registered with the data as even and odd entries
// take it; the next cycle an entry's enable is one LUT (its bit of each half, or its
// neighbour's), and its data a register: no per-entry mux, no net that drives every entry's
// logic.
`default_nettype none

module sagen_route_table #(
  parameter integer N = 16,   // entries (filter groups x 4 classes x COLS lanes)
  parameter integer W = 3     // bits per entry ({valid, column}), at most 16
) (
  input  wire         clk_i,     // clock
  input  wire         rst_ni,    // asynchronous reset, active low
  input  wire         we_i,      // write two entries
  input  wire [15:0]  addr_i,    // the first of them
  input  wire [31:0]  wdata_i,   // entry addr_i in [W-1:0], entry addr_i + 1 in [16 +: W]
  output wire [N*W-1:0] route_o  // the table, entry e at [e*W +: W]
);

  // the address bits that select an entry (AB), split into a low (AL) and a high (AH) part
  localparam integer AB = (N > 4) ? $clog2(N) : 2;
  localparam integer AL = AB / 2;
  localparam integer AH = AB - AL;
  localparam integer NL = 1 << AL;   // one-hot low part
  localparam integer NH = 1 << AH;   // one-hot high part

  // the write decoded: hot_h[h] = we_i, the bits above AB zero and addr_i[AB-1:AL] == h;
  // hot_l[l] = addr_i[AL-1:0] == l; entry e is addr_i when both of its bits are. Registered
  // (hot_h_q, hot_l_q) with the data of even (ev_q) and odd (od_q) entries, one copy for each
  // group h of NL entries, loaded whenever addr_i[AB-1:AL] is h or h - 1 (a write there may land
  // in the group; without one, or above the table, nothing reads the copy): a copy drives NL
  // entries, not the table, and its enable is one LUT on the address.
  wire          above_zero = (addr_i[15:AB] == {(16-AB){1'b0}});
  reg  [NH-1:0] hot_h;
  reg  [NL-1:0] hot_l;
  integer       h, l;
  always @* begin
    hot_h = {NH{1'b0}};
    hot_l = {NL{1'b0}};
    for (h = 0; h < NH; h = h + 1)
      hot_h[h] = we_i && above_zero && (addr_i[AB-1:AL] == h[AH-1:0]);
    for (l = 0; l < NL; l = l + 1)
      hot_l[l] = (addr_i[AL-1:0] == l[AL-1:0]);
  end
  reg  [NH-1:0] hot_h_q;
  reg  [NL-1:0] hot_l_q;
  reg  [NH*W-1:0] ev_q, od_q;   // group g's copy at [g*W +: W]
  integer         g;            // the clocked block's loop variable (h is the decoder's)
  wire [W-1:0]    ev_d = addr_i[0] ? wdata_i[16 +: W] : wdata_i[W-1:0];
  wire [W-1:0]    od_d = addr_i[0] ? wdata_i[W-1:0] : wdata_i[16 +: W];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hot_h_q <= {NH{1'b0}}; hot_l_q <= {NL{1'b0}}; ev_q <= {(NH*W){1'b0}};
      od_q <= {(NH*W){1'b0}};
    end else begin
      hot_h_q <= hot_h;
      hot_l_q <= hot_l;
      for (g = 0; g < NH; g = g + 1) begin
        if (addr_i[AB-1:AL] == g[AH-1:0] || (g > 0 && addr_i[AB-1:AL] == g[AH-1:0] - 1'b1)) begin
          ev_q[g*W +: W] <= ev_d;
          od_q[g*W +: W] <= od_d;
        end
      end
    end
  end
  wire [N:0]   sel;   // entry e is the registered write's address at [e + 1], 0 at [0]
  genvar ge;
  generate
    for (ge = 0; ge < N; ge = ge + 1) begin : g_sel
      assign sel[ge + 1] = hot_h_q[ge >> AL] && hot_l_q[ge % NL];
    end
  endgenerate
  assign sel[0] = 1'b0;

  reg [N*W-1:0] route_q;
  integer       e;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_q <= {(N*W){1'b0}};
    end else begin
      for (e = 0; e < N; e = e + 1) begin
        if (sel[e + 1] || sel[e])   // the address was e or e - 1
          route_q[e*W +: W] <= (e % 2 == 0) ? ev_q[(e >> AL)*W +: W] : od_q[(e >> AL)*W +: W];
      end
    end
  end
  assign route_o = route_q;

  wire unused_wdata = ^wdata_i;   // an entry is W bits of each half

endmodule

`resetall
