// sagen_lzc: the leading zeros of a W-bit word (W when it is all zeros), combinational, as a
// tree of log2(W) levels: a node knows whether its half of the word holds a one and the
// leading zeros within it; a parent takes its upper child's count when that child holds a one,
// else the lower child's plus the upper child's width (an OR: the lower count is less). The
// word is padded below to a power of two with ones, which an all-zero word counts up to.
`default_nettype none

module sagen_lzc #(
  parameter integer W  = 24,                    // word width, >= 1
  parameter integer CW = $clog2(W + 1)          // count width: holds 0 .. W
) (
  input  wire [W-1:0]  d_i,
  output wire [CW-1:0] cnt_o
);

  localparam integer LV = (W > 1) ? $clog2(W) : 1;   // tree levels
  localparam integer P  = 1 << LV;                   // the padded width

  wire [P-1:0] pad;
  generate
    if (P > W) begin : g_pad
      assign pad = {d_i, {(P-W){1'b1}}};
    end else begin : g_nopad
      assign pad = d_i;
    end
  endgenerate

  // level l: P >> l nodes, node n covers bits [n * 2^l +: 2^l] of pad; its count has l bits,
  // held at [n*LV +: LV]
  genvar l, n;
  generate
    for (l = 0; l <= LV; l = l + 1) begin : g_lvl
      localparam integer N = P >> l;
      wire [N-1:0]    v;
      wire [N*LV-1:0] c;
      if (l == 0) begin : g_leaf
        assign v = pad;
        assign c = {(N*LV){1'b0}};
      end else begin : g_node
        for (n = 0; n < N; n = n + 1) begin : g_n
          wire          vh = g_lvl[l-1].v[2*n+1];
          wire          vl = g_lvl[l-1].v[2*n];
          wire [LV-1:0] ch = g_lvl[l-1].c[(2*n+1)*LV +: LV];
          wire [LV-1:0] cl = g_lvl[l-1].c[(2*n)*LV +: LV];
          assign v[n] = vh | vl;
          assign c[n*LV +: LV] = vh ? ch : (cl | ({{(LV-1){1'b0}}, 1'b1} << (l - 1)));
        end
      end
    end
  endgenerate

  // the root: its count, or W when the word is all zeros (the padding's ones stop the count at
  // W where there is padding; without it the root holds no one)
  wire [31:0] root = g_lvl[LV].v[0] ? {{(32-LV){1'b0}}, g_lvl[LV].c[LV-1:0]} : W;
  assign cnt_o = root[CW-1:0];
  wire unused_root = ^root[31:CW];

endmodule

`resetall
