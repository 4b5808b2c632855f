// sagen_col_groups: the column-group map of a pass (array.col_groups, descriptor 4): how many
// feed lanes a context uses, where each array column sits in its group, which columns start a
// group, and how many output words a filter group writes.
//
// A pass with grp_n_i = g in 2..GROUPS groups (0 or 1: none) splits the columns into g groups of
// grp_w_i columns: group k takes columns k*grp_w .. k*grp_w + grp_w - 1 and the lanes
// k*ROWS .. k*ROWS + ROWS - 1, so a context is g*ROWS pixels. Columns past the last group
// continue the last one, at places >= grp_w (they compute nothing). Without groups, one group of
// COLS columns and ROWS lanes. Per column c (16 bits each, column c at [16*c +: 16]):
//   col_j_o  its place j in its group (the filter of the filter group it computes)
//   dtap_o   grp_w - 1 - j for j < grp_w, else 0: results of place j leave the array that many
//            steps before those of the group's last column
//   inj_o    bit c*GROUPS + k: column c is the first of group k >= 1 (lane group k enters there)
// kg_words_o: the output words of a filter group: one per pixel (npix_i), or with groups one per
// row of every context (n_ctx_i * ROWS, a word holds a pixel of each group); 0 in col2im (every
// filter group adds into the same words).
//
// The controller refuses a descriptor whose groups the array does not have (g > GROUPS) or that
// do not fit its columns (g * grp_w > COLS), and n_ctx_i >= 2^16: lanes_o is a table of the
// GROUPS constants k*ROWS (anything else reads as ROWS), and no product is formed at run time:
// a group's first column is the sum of the widths before it, kg_words_o a sum of shifted copies
// of n_ctx_i, one per set bit of ROWS. The same table gives the lanes of the feeder's pass
// (f_grp_n_i -> f_lanes_o), which may be the next pass's.
`default_nettype none

module sagen_col_groups #(
  parameter integer ROWS   = 4,   // array rows: lanes per group
  parameter integer COLS   = 4,   // array columns
  parameter integer GROUPS = 1    // column groups the array can form (1: none), at most 256
) (
  input  wire [7:0]              grp_n_i,     // the pass's column groups (0 or 1: none)
  input  wire [7:0]              grp_w_i,     // their width in columns
  input  wire [7:0]              f_grp_n_i,   // the column groups of the feeder's pass
  input  wire [15:0]             n_ctx_i,     // contexts per filter group (< 2^16)
  input  wire [31:0]             npix_i,      // pixels of the tile per filter group
  input  wire                    c2i_i,       // a col2im pass
  output wire [15:0]             grp_w_o,     // filters per filter group (COLS without groups)
  output wire [15:0]             lanes_o,     // pixels per context: ROWS per group
  output wire [15:0]             f_lanes_o,   // the same for the feeder's pass
  output reg  [COLS*16-1:0]      col_j_o,     // each column's place in its group
  output reg  [COLS*16-1:0]      dtap_o,      // each column's result delay to its group's last
  output reg  [COLS*GROUPS-1:0]  inj_o,       // column c starts group k: bit c*GROUPS + k
  output wire [31:0]             kg_words_o   // output words per filter group
);

  localparam [31:0] ROWS32 = ROWS;
  localparam [31:0] COLS32 = COLS;

  wire        grouped = (GROUPS > 1) && (grp_n_i > 8'd1);
  wire [15:0] grp_w   = grouped ? {8'd0, grp_w_i} : COLS32[15:0];
  assign grp_w_o = grp_w;

  // lanes in use: ROWS per group, from a table of constants (k*ROWS as a running sum)
  function automatic [15:0] lanes_of(input [7:0] g);
    integer m;
    reg [31:0] sum;
    begin
      lanes_of = ROWS32[15:0];
      sum = ROWS32;
      for (m = 2; m <= GROUPS; m = m + 1) begin
        sum = sum + ROWS32;
        if ({24'd0, g} == m) lanes_of = sum[15:0];
      end
    end
  endfunction
  assign lanes_o   = lanes_of(grp_n_i);
  assign f_lanes_o = lanes_of(f_grp_n_i);

  // Without groups, column c is place c of the one group, its delay COLS - 1 - c (constants).
  // With groups: the groups' first columns st_k = k * grp_w for k = 0 .. GROUPS (a sum of
  // shifted copies of grp_w, one per set bit of the constant k; < 2^16 as k <= 256 and
  // grp_w < 256), shared by all columns. Column c is in group k, the last k < grp_n with
  // st_k <= c; for each k the column's place c - st_k, its delay st_(k+1) - 1 - c (0 past the
  // group's width: c >= st_(k+1)) and whether it starts group k are worked out side by side, and
  // the group selects, then whether the pass has groups: no arithmetic waits for another.
  reg  [(GROUPS+1)*16-1:0] st;
  integer                  kk, bb;
  always @* begin
    st = {((GROUPS+1)*16){1'b0}};
    for (kk = 1; kk <= GROUPS; kk = kk + 1)
      for (bb = 0; bb < 9; bb = bb + 1)
        if (((kk >> bb) & 1) != 0) st[kk*16 +: 16] = st[kk*16 +: 16] + ({8'd0, grp_w_i} << bb);
  end

  reg     [15:0] c16, s_k, s_k1, cj, dt;
  integer        c, k;
  always @* begin
    inj_o   = {(COLS*GROUPS){1'b0}};
    col_j_o = {(COLS*16){1'b0}};
    dtap_o  = {(COLS*16){1'b0}};
    c16 = 16'd0;
    s_k = 16'd0;
    s_k1 = 16'd0;
    cj = 16'd0;
    dt = 16'd0;
    for (c = 0; c < COLS; c = c + 1) begin
      c16 = c[15:0];
      cj = c16;
      dt = 16'd0;
      for (k = 0; k < GROUPS; k = k + 1) begin
        s_k  = st[k*16 +: 16];
        s_k1 = st[(k+1)*16 +: 16];
        if (k == 0 || (k < {24'd0, grp_n_i} && s_k <= c16)) begin
          cj = c16 - s_k;
          dt = (c16 < s_k1) ? s_k1 - 16'd1 - c16 : 16'd0;
          inj_o[c*GROUPS +: GROUPS] = {GROUPS{1'b0}};
          if (k != 0 && s_k == c16) inj_o[c*GROUPS + k] = 1'b1;
        end
      end
      col_j_o[c*16 +: 16] = grouped ? cj : c16;
      dtap_o[c*16 +: 16]  = grouped ? dt : COLS32[15:0] - 16'd1 - c16;
      if (!grouped) inj_o[c*GROUPS +: GROUPS] = {GROUPS{1'b0}};
    end
  end

  // n_ctx * ROWS: a shifted copy of n_ctx per set bit of ROWS (a constant)
  reg [31:0] ctx_rows;
  integer    i;
  always @* begin
    ctx_rows = 32'd0;
    for (i = 0; i < 16; i = i + 1)
      if (ROWS32[i]) ctx_rows = ctx_rows + ({16'd0, n_ctx_i} << i);
  end
  assign kg_words_o = c2i_i ? 32'd0 : (grouped ? ctx_rows : npix_i);

endmodule

`resetall
