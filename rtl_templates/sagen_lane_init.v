// sagen_lane_init: where each feed lane's pixel sits in the first context of a pass.
//
// Lane l computes pixel l of the output tile, row-major: its column times stride_w is
// xs_l = (l * str_w) mod ow_xs and its output row dg_l = (l * str_w) div ow_xs (ow_xs: the tile's
// width times stride_w); on lane 0's row (dg_l = 0), xs_l = l * str_w is also its distance from
// lane 0, which is all the lanes need of that distance (sagen_feed_lane). No lane multiplies or
// divides: lane l (l >= 2) adds the positions of lanes floor(l/2) and
// ceil(l/2), wrapping xs once at ow_xs, so every lane is one adder, a compare and a mux from two
// others, and every lane feeds at most three (2l-1, 2l, 2l+1): no signal of the table fans out
// with the lane count. Lane l settles $clog2(l) + 1 cycles after str_w and ow_xs change, the
// whole table $clog2(LANES) + 1 (they change when a pass starts; the lanes load their positions
// later).
`default_nettype none

module sagen_lane_init #(
  parameter integer LANES = 4,     // feed lanes
  parameter integer XW    = 16,    // width of positions
  parameter integer SW    = 9      // width of row offsets
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire [XW-1:0]       str_w_i,    // stride_w
  input  wire [XW-1:0]       ow_xs_i,    // output tile width * stride_w (>= stride_w)
  output wire [LANES*XW-1:0] xs_o,       // lane l at [l*XW +: XW]: its column * stride_w
  output wire [LANES*SW-1:0] dg_o        // its output row, relative to lane 0's
);

  wire unused_in = ^{str_w_i, ow_xs_i};   // a single lane reads neither

  reg [XW-1:0] xs_q [0:LANES-1];
  reg [XW:0]   xm_q [0:LANES-1];   // xs - ow_xs (signed), so that a lane's wrap is one adder away
  reg [SW-1:0] dg_q [0:LANES-1];

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      if (l == 0) begin : g_first
        wire unused_xm0 = ^xm_q[0];   // read by the lanes built from lane 0 (none with one lane)
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            xs_q[0] <= {XW{1'b0}}; dg_q[0] <= {SW{1'b0}};
            xm_q[0] <= {(XW+1){1'b0}};
          end else begin
            xs_q[0] <= {XW{1'b0}}; dg_q[0] <= {SW{1'b0}};
            xm_q[0] <= -{1'b0, ow_xs_i};
          end
        end
      end else if (l == 1) begin : g_one
        wire one_row = (str_w_i == ow_xs_i);   // a tile one pixel wide
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            xs_q[1] <= {XW{1'b0}}; dg_q[1] <= {SW{1'b0}};
            xm_q[1] <= {(XW+1){1'b0}};
          end else begin
            xs_q[1] <= one_row ? {XW{1'b0}} : str_w_i;
            xm_q[1] <= one_row ? -{1'b0, ow_xs_i} : {1'b0, str_w_i} - {1'b0, ow_xs_i};
            dg_q[1] <= {{(SW-1){1'b0}}, one_row};
          end
        end
      end else begin : g_sum
        // lane l from lanes A = floor(l/2) and B = ceil(l/2) (the same lane for an even l)
        localparam integer A = l / 2;
        localparam integer B = l - A;
        // xs_A + xs_B, and the same less ow_xs once and twice, side by side: the sum wraps
        // when the second is not negative
        wire [XW:0] t = {1'b0, xs_q[A]} + {1'b0, xs_q[B]};
        wire [XW:0] u = {1'b0, xs_q[A]} + xm_q[B];
        wire [XW:0] v = xm_q[A] + xm_q[B];
        wire        wrap = !u[XW];
        // the row offset with and without the wrap, so that the wrap only selects
        wire [SW-1:0] dg0 = dg_q[A] + dg_q[B];
        wire [SW-1:0] dg1 = dg_q[A] + dg_q[B] + {{(SW-1){1'b0}}, 1'b1};
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            xs_q[l] <= {XW{1'b0}}; dg_q[l] <= {SW{1'b0}};
            xm_q[l] <= {(XW+1){1'b0}};
          end else begin
            xs_q[l] <= wrap ? u[XW-1:0] : t[XW-1:0];
            xm_q[l] <= wrap ? v : u;
            dg_q[l] <= wrap ? dg1 : dg0;
          end
        end
        wire unused_l = t[XW];
      end
      assign xs_o[l*XW +: XW] = xs_q[l];
      assign dg_o[l*SW +: SW] = dg_q[l];
    end
  endgenerate

endmodule

`resetall
