// sagen_fp_add: IEEE 754 addition, a + b, in a binary format of EW exponent and FW fraction
// bits (binary32: 8, 23; binary16: 5, 10; bfloat16: 8, 7), pipelined over six stages: a new
// pair every cycle, its sum six clock edges later.
//
// Arithmetic: round to nearest, ties to even. Subnormal operands and results are exact IEEE
// (no flushing). An infinity plus a finite value is that infinity; infinities of opposite signs
// and any NaN give the canonical quiet NaN (sign 0, exponent all ones, the fraction's top bit
// alone set); a sum past the largest finite value rounds to infinity. An exact zero sum is +0,
// but -0 when both operands are -0 (so -0 is the sum's identity: -0 + x = x for every x).
//
// The stages, each at most one carry chain or one shifter deep (x: the operand of the larger
// exponent field, or a when the fields are equal, y: the other; a significand carries its
// hidden bit, 1 for a normal number, 0 for a subnormal, whose exponent counts as 1):
//   1. unpack; order the operands by their exponent fields (a compare of EW bits moves them;
//      the difference d, worked out both ways, one taken); the trailing zeros of both
//      fractions; special values decided;
//   2. align: y's significand shifted right by d, with a guard, a round and a sticky bit
//      (whether y's trailing zeros are fewer than d);
//   3. add or subtract the significands; a difference is worked out both ways, x - y and
//      y - x, and the one that is not negative taken (y's is larger only at equal exponents,
//      where nothing was shifted out: both are exact), the sign with it;
//   4. the sum's leading zeros, how far it shifts left: no further than to exponent 1 (a
//      subnormal result keeps its leading zeros; sagen_lzc counts them);
//   5. normalize: a carry shifts right by one, else the shift left, and the exponent with it;
//   6. round (sagen_fp_round).
`default_nettype none

module sagen_fp_add #(
  parameter integer EW = 8,    // exponent bits
  parameter integer FW = 23    // fraction bits (the significand without its hidden bit)
) (
  input  wire            clk_i,
  input  wire [EW+FW:0]  a_i,   // {sign, exponent, fraction}
  input  wire [EW+FW:0]  b_i,
  output wire [EW+FW:0]  sum_o  // a_i + b_i of six edges before
);

  localparam integer SG = FW + 4;             // significand, guard, round, sticky
  localparam integer DW = EW + 1;             // a biased exponent, and one more bit
  localparam integer LW = $clog2(SG + 1);     // a count of leading zeros
  localparam [EW-1:0] EMAX = {EW{1'b1}};
  localparam [EW-1:0] E1   = {{(EW-1){1'b0}}, 1'b1};

  // ---- stage 1: unpack, order -------------------------------------------------------------------
  wire [EW-1:0] ea  = a_i[EW+FW-1:FW];
  wire [EW-1:0] eb  = b_i[EW+FW-1:FW];
  wire          nan_a = (ea == EMAX) && (a_i[FW-1:0] != {FW{1'b0}});
  wire          nan_b = (eb == EMAX) && (b_i[FW-1:0] != {FW{1'b0}});
  wire          inf_a = (ea == EMAX) && (a_i[FW-1:0] == {FW{1'b0}});
  wire          inf_b = (eb == EMAX) && (b_i[FW-1:0] == {FW{1'b0}});
  // exponents as they count (a subnormal's is 1)
  wire [EW-1:0] ea1 = (ea == {EW{1'b0}}) ? E1 : ea;
  wire [EW-1:0] eb1 = (eb == {EW{1'b0}}) ? E1 : eb;

  // The differences both ways, one taken. The sticky bit of the alignment is whether
  // the trailing zeros of the other significand (with three zero bits below it) are fewer than
  // d: they are counted here for both operands, from the fraction alone (with a hidden bit of 1:
  // a significand that is its hidden bit alone, or zero, has FW + 3 of them, which is never
  // fewer than a d that leaves anything: such a y shifts out no one).
  wire [EW-1:0] dab = ea1 - eb1;
  wire [EW-1:0] dba = eb1 - ea1;
  wire [SG-1:0] fa0 = {1'b1, a_i[FW-1:0], 3'b000};
  wire [SG-1:0] fb0 = {1'b1, b_i[FW-1:0], 3'b000};
  reg  [SG-1:0] fa0_r, fb0_r;                 // ... bit-reversed: their leading zeros
  integer       r;
  always @* begin
    for (r = 0; r < SG; r = r + 1) begin
      fa0_r[r] = fa0[SG-1-r];
      fb0_r[r] = fb0[SG-1-r];
    end
  end
  wire [LW-1:0] tza, tzb;
  sagen_lzc #(.W(SG), .CW(LW)) u_tza (.d_i(fa0_r), .cnt_o(tza));
  sagen_lzc #(.W(SG), .CW(LW)) u_tzb (.d_i(fb0_r), .cnt_o(tzb));

  // The order by the exponent fields alone: b's larger makes b x, and d the difference that way
  // round (the fields' order is the counting exponents', but that a subnormal and an exponent
  // field of 1 count the same: d is 0 then, whichever is x). A compare of the whole magnitudes
  // would be a carry chain across the encoding before the operands' multiplexers; stage 3 takes
  // the difference that is not negative instead.
  wire           b_x   = (eb > ea);           // x is b
  // an operand as stage 2 reads it: sign, hidden bit, fraction
  wire [FW+1:0]  pa = {a_i[EW+FW], ea != {EW{1'b0}}, a_i[FW-1:0]};
  wire [FW+1:0]  pb = {b_i[EW+FW], eb != {EW{1'b0}}, b_i[FW-1:0]};

  // (both counts are registered and y's taken in stage 2, where the sticky bit needs it: the
  // counts' trees and the order run side by side, not one after the other)
  reg            s1_nan, s1_inf, s1_bx;
  reg  [FW+1:0]  s1_x, s1_y;
  reg  [EW-1:0]  s1_e, s1_d;
  reg  [LW-1:0]  s1_tza, s1_tzb;
  always @(posedge clk_i) begin
    s1_nan <= nan_a || nan_b || (inf_a && inf_b && (a_i[EW+FW] != b_i[EW+FW]));
    s1_inf <= inf_a || inf_b;                 // (x is the infinity then, or both are)
    s1_bx  <= b_x;
    s1_x   <= b_x ? pb : pa;
    s1_y   <= b_x ? pa : pb;
    s1_e   <= b_x ? eb1 : ea1;
    s1_d   <= b_x ? dba : dab;                // >= 0
    s1_tza <= tza;
    s1_tzb <= tzb;
  end

  // ---- stage 2: align --------------------------------------------------------------------------
  wire [EW-1:0]  d   = s1_d;
  wire [EW-1:0]  ex  = s1_e;
  wire [LW-1:0]  tzy = s1_bx ? s1_tza : s1_tzb;
  wire [FW:0]    mx  = s1_x[FW:0];
  wire [FW:0]    my  = s1_y[FW:0];
  // y's significand with three zero bits below, shifted right by d, the sticky bit ORed into
  // the lowest. From d = SG on nothing is left: such a y is less than a quarter of x's last
  // place, too little to move a rounding to nearest (x - y rounds back to x even where x is a
  // power of two), so it is dropped, sticky bit and all.
  wire [SG-1:0]  y0   = {my, 3'b000};
  wire [31:0]    d32  = {{(32-EW){1'b0}}, d};
  wire           near = (d32 < SG);
  wire [LW-1:0]  d_lo = d32[LW-1:0];         // all of d when near (d < SG < 2^LW)
  wire [SG-1:0]  ya   = near ? (y0 >> d_lo) : {SG{1'b0}};
  wire           stk  = near && ({{(32-LW){1'b0}}, tzy} < {{(32-EW){1'b0}}, d});

  reg           s2_sx, s2_sub, s2_nan, s2_inf, s2_zz;
  reg  [EW-1:0] s2_e;
  reg  [SG-1:0] s2_x, s2_y;
  always @(posedge clk_i) begin
    s2_sx  <= s1_x[FW+1];
    s2_sub <= s1_x[FW+1] ^ s1_y[FW+1];
    s2_nan <= s1_nan;
    s2_inf <= s1_inf;
    s2_zz  <= s1_x[FW+1] && s1_y[FW+1];     // both negative: an exact zero sum is -0
    s2_e   <= ex;
    s2_x   <= {mx, 3'b000};
    s2_y   <= {ya[SG-1:1], ya[0] | stk};
  end

  // ---- stage 3: add or subtract ------------------------------------------------------------------
  // (x - y is negative only for y's significand larger at equal exponents: then y - x, and the
  // sum has y's sign, the other one)
  wire [SG:0] zsum = s2_sub ? ({1'b0, s2_x} - {1'b0, s2_y}) : ({1'b0, s2_x} + {1'b0, s2_y});
  wire [SG:0] zrev = {1'b0, s2_y} - {1'b0, s2_x};
  wire        zneg = s2_sub && zsum[SG];

  // the most the sum may shift left is e - 1: a one marked at bit SG - e stops its count of
  // leading zeros there (e <= SG; a larger e does not limit the shift)
  reg  [SG-1:0] stop;
  integer       m;
  always @* begin
    for (m = 0; m < SG; m = m + 1)
      stop[m] = ({{(32-EW){1'b0}}, s2_e} == SG - m);
  end

  reg           s3_sx, s3_nan, s3_inf, s3_zz;
  reg  [EW-1:0] s3_e;
  reg  [SG-1:0] s3_stop;
  reg  [SG:0]   s3_z;
  always @(posedge clk_i) begin
    s3_sx   <= s2_sx ^ zneg; s3_nan <= s2_nan; s3_inf <= s2_inf; s3_zz <= s2_zz;
    s3_e    <= s2_e;
    s3_stop <= stop;
    s3_z    <= zneg ? zrev : zsum;
  end

  // ---- stage 4: the left shift -------------------------------------------------------------------
  // the leading zeros of the sum below its carry bit, up to the stop: a subnormal result keeps
  // the rest (exponent field 0)
  wire [LW-1:0] lz;
  sagen_lzc #(.W(SG), .CW(LW)) u_lzc (
    .d_i  (s3_z[SG-1:0] | s3_stop),
    .cnt_o(lz)
  );
  wire [31:0]   lz32 = {{(32-LW){1'b0}}, lz};
  wire          unused_lz = ^lz32[31:DW];

  reg           s4_sx, s4_nan, s4_inf, s4_zz, s4_zero;
  reg  [EW-1:0] s4_e;
  reg  [DW-1:0] s4_sh;
  reg  [SG:0]   s4_z;
  always @(posedge clk_i) begin
    s4_sx   <= s3_sx; s4_nan <= s3_nan; s4_inf <= s3_inf; s4_zz <= s3_zz;
    s4_e    <= s3_e;
    s4_sh   <= lz32[DW-1:0];                  // (lz <= SG < 2^DW)
    s4_zero <= (s3_z == {(SG+1){1'b0}});
    s4_z    <= s3_z;
  end

  // ---- stage 5: normalize ------------------------------------------------------------------------
  wire [SG-1:0] zl    = s4_z[SG-1:0] << s4_sh[LW-1:0];   // (sh <= SG < 2^LW)
  reg           s5_sx, s5_nan, s5_inf, s5_zero, s5_zs;
  reg  [FW:0]   s5_sig;                       // the significand, hidden bit first
  reg           s5_g, s5_s;                   // the guard and sticky bits below it
  reg  [DW-1:0] s5_e;
  always @(posedge clk_i) begin
    s5_sx   <= s4_sx; s5_nan <= s4_nan; s5_inf <= s4_inf;
    s5_zero <= s4_zero;
    s5_zs   <= s4_zz;                         // (an exact zero of a subtraction is +0)
    s5_sig  <= s4_z[SG] ? s4_z[SG:4] : zl[SG-1:3];
    s5_g    <= s4_z[SG] ? s4_z[3] : zl[2];
    s5_s    <= s4_z[SG] ? |s4_z[2:0] : |zl[1:0];
    s5_e    <= s4_z[SG] ? {1'b0, s4_e} + {{(DW-1){1'b0}}, 1'b1} : {1'b0, s4_e} - s4_sh;
  end

  // ---- stage 6: round ----------------------------------------------------------------------------
  // (s5_e is at least 1: DW bits read as a signed number of DW + 1)
  wire [EW+FW:0] res;
  sagen_fp_round #(.EW(EW), .FW(FW), .XW(DW + 1)) u_round (
    .sign_i     (s5_sx),
    .sig_i      (s5_sig),
    .g_i        (s5_g),
    .s_i        (s5_s),
    .exp_i      ({1'b0, s5_e}),
    .nan_i      (s5_nan),
    .inf_i      (s5_inf),
    .zero_i     (s5_zero),
    .zero_sign_i(s5_zs),
    .res_o      (res)
  );

  reg [EW+FW:0] s6_res;
  always @(posedge clk_i) s6_res <= res;
  assign sum_o = s6_res;

endmodule

`resetall
