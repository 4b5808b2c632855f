// sagen_route_table: the col2im route table (sagen_psum_manager): N entries of W bits, written
// by the host two at a time through the controller's ROUTE_DATA register. A write (we_i) puts
// wdata_i[W-1:0] into entry addr_i and wdata_i[16 +: W] into entry addr_i + 1; an entry past
// the table is not written (an odd last address writes its first half only). Entry e is
// route_o[e*W +: W]; all entries reset to 0.
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

  reg  [N*W-1:0] route_q;
  wire [16:0]    addr_hi = {1'b0, addr_i} + 17'd1;   // the second entry (no wrap at 2^16)
  integer        e;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_q <= {(N*W){1'b0}};
    end else if (we_i) begin
      for (e = 0; e < N; e = e + 1) begin
        if ({16'd0, addr_i} == e)  route_q[e*W +: W] <= wdata_i[W-1:0];
        if ({15'd0, addr_hi} == e) route_q[e*W +: W] <= wdata_i[16 +: W];
      end
    end
  end
  assign route_o = route_q;

  wire unused_wdata = ^wdata_i;   // an entry is W bits of each half

endmodule

`resetall
