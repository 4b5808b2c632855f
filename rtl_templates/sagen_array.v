// sagen_array: ROWS x COLS output-stationary systolic array of sagen_pe (integers) or
// sagen_pe_fp (FP = 1: IEEE operands of IEW/IFW exponent/fraction bits, sums of AEW/AFW; the
// widths then are IN_BITS = W_BITS = IEW + IFW + 1 and ACC_BITS = AEW + AFW + 1). Both PEs have
// the same links; a float PE's result enters its reserve chain 38 cycles after its context's
// last operand instead of 1, and its contexts' ends must come 18 cycles apart or more.
//
// Row r takes the (already skewed) stream of feed lane r at its left edge; column c takes the
// (already skewed) weight stream of column c at its top edge. With GROUPS > 1 the columns can be
// split into groups that compute different pixels: inj_i[c*GROUPS + g] makes column c of row r
// take lane g*ROWS + r instead of the value its left neighbour passes on, so a layer with few
// output channels fills the columns with more pixels (the weights are then skewed within each
// group, which sagen_core arranges). The array runs every cycle: a cycle without an operand
// carries a_vld low. Results leave through the reserve chains at the top edge: res_o[c] is the
// value leaving column c this cycle. Links between PEs are
// per-link nets (arrays of nets), not packed multi-thousand-bit buses: both simulators run an
// order of magnitude faster that way.
`default_nettype none

module sagen_array #(
  parameter integer ROWS     = 4,   // PE rows = feed lanes = output pixels per context
  parameter integer COLS     = 4,   // PE columns = output channels per context
  parameter integer IN_BITS  = 8,   // signed input width
  parameter integer W_BITS   = 8,   // signed weight width
  parameter integer ACC_BITS = 32,  // accumulator width
  parameter integer GROUPS   = 1,   // lane groups (1: every row takes one lane at column 0)
  parameter integer FP       = 0,   // 1: floating-point PEs of the formats below
  parameter integer IEW      = 8,   // operands' exponent and fraction bits (FP = 1)
  parameter integer IFW      = 7,
  parameter integer AEW      = 8,   // sums' exponent and fraction bits (FP = 1)
  parameter integer AFW      = 23
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire [GROUPS*ROWS*IN_BITS-1:0] a_i, // lane l = g*ROWS + r at [l*IN_BITS +: IN_BITS]
  input  wire [GROUPS*ROWS-1:0]   a_vld_i,
  input  wire [GROUPS*ROWS-1:0]   a_last_i,
  input  wire [COLS*GROUPS-1:0]   inj_i,     // column c takes lane group g (g >= 1, c >= 1)
  input  wire [COLS*W_BITS-1:0]   b_i,       // column c at [c*W_BITS +: W_BITS]
  output wire [COLS*ACC_BITS-1:0] res_o,     // column c at [c*ACC_BITS +: ACC_BITS]
  output wire [COLS-1:0]          res_vld_o
);

  // (the formats are read by the float PEs alone)
  wire [31:0] unused_fmt = IEW ^ IFW ^ AEW ^ AFW;

  // Horizontal links: a_h[r*(COLS+1) + c] enters PE (r, c); index c = COLS leaves the array.
  wire [IN_BITS-1:0]  a_h      [0:ROWS*(COLS+1)-1];
  wire                vld_h    [0:ROWS*(COLS+1)-1];
  wire                last_h   [0:ROWS*(COLS+1)-1];
  // What enters PE (r, c) from the left: the link, or an injected lane.
  wire [IN_BITS-1:0]  a_in     [0:ROWS*COLS-1];
  wire                vld_in   [0:ROWS*COLS-1];
  wire                last_in  [0:ROWS*COLS-1];
  // Vertical links: b_v[r*COLS + c] enters PE (r, c) from above; row ROWS leaves the array.
  wire [W_BITS-1:0]   b_v      [0:(ROWS+1)*COLS-1];
  // Reserve chain: res_v[r*COLS + c] leaves PE (r, c) upward; row ROWS is the (empty) bottom.
  wire [ACC_BITS-1:0] res_v    [0:(ROWS+1)*COLS-1];
  wire                resv_v   [0:(ROWS+1)*COLS-1];

  // The lane of the group that starts at a column (INJ one bit per group), else LINK.
  function [IN_BITS+1:0] pick(input [GROUPS-1:0] inj, input [GROUPS*(IN_BITS+2)-1:0] lanes,
                              input [IN_BITS+1:0] link);
    integer k;
    begin
      pick = link;
      for (k = 1; k < GROUPS; k = k + 1)
        if (inj[k]) pick = lanes[k*(IN_BITS+2) +: IN_BITS+2];
    end
  endfunction

  genvar r, c;
  generate
    for (r = 0; r < ROWS; r = r + 1) begin : g_edge_row
      assign a_h[r*(COLS+1)]    = a_i[r*IN_BITS +: IN_BITS];
      assign vld_h[r*(COLS+1)]  = a_vld_i[r];
      assign last_h[r*(COLS+1)] = a_last_i[r];
    end
    for (c = 0; c < COLS; c = c + 1) begin : g_edge_col
      assign b_v[c]                       = b_i[c*W_BITS +: W_BITS];
      assign res_v[ROWS*COLS + c]         = {ACC_BITS{1'b0}};
      assign resv_v[ROWS*COLS + c]        = 1'b0;
      assign res_o[c*ACC_BITS +: ACC_BITS] = res_v[c];
      assign res_vld_o[c]                 = resv_v[c];
    end
    for (r = 0; r < ROWS; r = r + 1) begin : g_inj_row
      for (c = 0; c < COLS; c = c + 1) begin : g_inj_col
        if (GROUPS == 1 || c == 0) begin : g_link
          assign a_in[r*COLS + c]    = a_h[r*(COLS+1) + c];
          assign vld_in[r*COLS + c]  = vld_h[r*(COLS+1) + c];
          assign last_in[r*COLS + c] = last_h[r*(COLS+1) + c];
        end else begin : g_mux
          // lane groups 1..GROUPS-1 of this row, packed; at most one starts at this column
          wire [GROUPS*(IN_BITS+2)-1:0] lanes;
          genvar g;
          assign lanes[IN_BITS+1:0] = {(IN_BITS+2){1'b0}};
          for (g = 1; g < GROUPS; g = g + 1) begin : g_lane
            assign lanes[g*(IN_BITS+2) +: IN_BITS+2] =
                {a_vld_i[g*ROWS + r], a_last_i[g*ROWS + r], a_i[(g*ROWS + r)*IN_BITS +: IN_BITS]};
          end
          wire [IN_BITS+1:0] sel = pick(inj_i[c*GROUPS +: GROUPS], lanes,
              {vld_h[r*(COLS+1) + c], last_h[r*(COLS+1) + c], a_h[r*(COLS+1) + c]});
          assign a_in[r*COLS + c]    = sel[IN_BITS-1:0];
          assign last_in[r*COLS + c] = sel[IN_BITS];
          assign vld_in[r*COLS + c]  = sel[IN_BITS+1];
        end
      end
    end
    for (r = 0; r < ROWS; r = r + 1) begin : g_row
      for (c = 0; c < COLS; c = c + 1) begin : g_col
        if (FP != 0) begin : g_fp
          sagen_pe_fp #(
            .IEW(IEW), .IFW(IFW), .AEW(AEW), .AFW(AFW)
          ) u_pe (
            .clk_i    (clk_i),
            .rst_ni   (rst_ni),
            .a_i      (a_in[r*COLS + c]),
            .a_vld_i  (vld_in[r*COLS + c]),
            .a_last_i (last_in[r*COLS + c]),
            .b_i      (b_v[r*COLS + c]),
            .res_i    (res_v[(r+1)*COLS + c]),
            .res_vld_i(resv_v[(r+1)*COLS + c]),
            .a_o      (a_h[r*(COLS+1) + c + 1]),
            .a_vld_o  (vld_h[r*(COLS+1) + c + 1]),
            .a_last_o (last_h[r*(COLS+1) + c + 1]),
            .b_o      (b_v[(r+1)*COLS + c]),
            .res_o    (res_v[r*COLS + c]),
            .res_vld_o(resv_v[r*COLS + c])
          );
        end else begin : g_int
          sagen_pe #(
            .IN_BITS (IN_BITS),
            .W_BITS  (W_BITS),
            .ACC_BITS(ACC_BITS)
          ) u_pe (
            .clk_i    (clk_i),
            .rst_ni   (rst_ni),
            .a_i      (a_in[r*COLS + c]),
            .a_vld_i  (vld_in[r*COLS + c]),
            .a_last_i (last_in[r*COLS + c]),
            .b_i      (b_v[r*COLS + c]),
            .res_i    (res_v[(r+1)*COLS + c]),
            .res_vld_i(resv_v[(r+1)*COLS + c]),
            .a_o      (a_h[r*(COLS+1) + c + 1]),
            .a_vld_o  (vld_h[r*(COLS+1) + c + 1]),
            .a_last_o (last_h[r*(COLS+1) + c + 1]),
            .b_o      (b_v[(r+1)*COLS + c]),
            .res_o    (res_v[r*COLS + c]),
            .res_vld_o(resv_v[r*COLS + c])
          );
        end
      end
    end
  endgenerate

  // The values leaving the right and bottom edges are not used.
  wire unused_edges;
  generate
    if (1) begin : g_unused
      reg unused_acc;
      integer i;
      always @* begin
        unused_acc = 1'b0;
        for (i = 0; i < ROWS; i = i + 1) begin
          unused_acc = unused_acc ^ (^a_h[i*(COLS+1) + COLS]) ^ vld_h[i*(COLS+1) + COLS]
                       ^ last_h[i*(COLS+1) + COLS];
        end
        for (i = 0; i < COLS; i = i + 1) begin
          unused_acc = unused_acc ^ (^b_v[ROWS*COLS + i]);
        end
        // group 0's injection bits and column 0's never select anything
        unused_acc = unused_acc ^ (^inj_i[GROUPS-1:0]);
        for (i = 0; i < COLS; i = i + 1) unused_acc = unused_acc ^ inj_i[i*GROUPS];
      end
      assign unused_edges = unused_acc;
    end
  endgenerate

endmodule

`resetall
