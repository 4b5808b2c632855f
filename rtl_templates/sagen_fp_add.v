// sagen_fp_add: IEEE 754 addition, a + b, in a binary format of EW exponent and FW fraction
// bits (binary32: 8, 23; binary16: 5, 10; bfloat16: 8, 7), pipelined over five stages: a new
// pair every cycle, its sum five clock edges later.
//
// Arithmetic: round to nearest, ties to even. Subnormal operands and results are exact IEEE
// (no flushing). An infinity plus a finite value is that infinity; infinities of opposite signs
// and any NaN give the canonical quiet NaN (sign 0, exponent all ones, the fraction's top bit
// alone set); a sum past the largest finite value rounds to infinity. An exact zero sum is +0,
// but -0 when both operands are -0 (so -0 is the sum's identity: -0 + x = x for every x).
//
// The stages (x: the operand of the larger magnitude, y: the other; a significand carries its
// hidden bit, 1 for a normal number, 0 for a subnormal, whose exponent counts as 1):
//   1. unpack, order the operands by magnitude (the encodings without their signs compare as
//      the magnitudes do), the exponent difference d; special values decided;
//   2. align: y's significand shifted right by d, with a guard, a round and a sticky bit;
//   3. add or subtract the significands (x's is the larger: the difference is not negative);
//   4. normalize: a carry shifts right by one; else the leading zeros shift left, no further
//      than to exponent 1 (a subnormal result keeps its leading zeros);
//   5. round: the exponent field and the fraction side by side, plus the rounding increment:
//      a fraction that rounds up to 2 carries into the exponent, the largest finite value
//      rounds up into infinity, a subnormal into the least normal number.
`default_nettype none

module sagen_fp_add #(
  parameter integer EW = 8,    // exponent bits
  parameter integer FW = 23    // fraction bits (the significand without its hidden bit)
) (
  input  wire            clk_i,
  input  wire [EW+FW:0]  a_i,   // {sign, exponent, fraction}
  input  wire [EW+FW:0]  b_i,
  output wire [EW+FW:0]  sum_o  // a_i + b_i of five edges before
);

  localparam integer SG = FW + 4;             // significand, guard, round, sticky
  localparam integer DW = EW + 1;             // an exponent difference or a biased exponent
  localparam integer LW = $clog2(SG + 1);     // a shift count of the normalization
  localparam [EW-1:0] EMAX = {EW{1'b1}};
  localparam [EW+FW:0] QNAN = {1'b0, EMAX, 1'b1, {(FW-1){1'b0}}};

  // ---- stage 1: unpack and order -------------------------------------------------------------
  wire [EW-1:0] ea = a_i[EW+FW-1:FW];
  wire [EW-1:0] eb = b_i[EW+FW-1:FW];
  wire          nan_a = (ea == EMAX) && (a_i[FW-1:0] != {FW{1'b0}});
  wire          nan_b = (eb == EMAX) && (b_i[FW-1:0] != {FW{1'b0}});
  wire          inf_a = (ea == EMAX) && (a_i[FW-1:0] == {FW{1'b0}});
  wire          inf_b = (eb == EMAX) && (b_i[FW-1:0] == {FW{1'b0}});
  wire          a_big = (a_i[EW+FW-1:0] >= b_i[EW+FW-1:0]);
  wire [EW+FW:0] x    = a_big ? a_i : b_i;
  wire [EW+FW:0] y    = a_big ? b_i : a_i;
  wire [EW-1:0] ex    = x[EW+FW-1:FW];
  wire [EW-1:0] ey    = y[EW+FW-1:FW];
  // exponents as they count (a subnormal's is 1)
  wire [EW-1:0] ex1   = (ex == {EW{1'b0}}) ? {{(EW-1){1'b0}}, 1'b1} : ex;
  wire [EW-1:0] ey1   = (ey == {EW{1'b0}}) ? {{(EW-1){1'b0}}, 1'b1} : ey;
  wire [EW-1:0] d     = ex1 - ey1;            // x's magnitude is the larger: d >= 0

  reg           s1_sx, s1_sub, s1_nan, s1_inf, s1_zz;
  reg  [EW-1:0] s1_e;
  reg  [FW:0]   s1_mx, s1_my;
  reg  [EW-1:0] s1_d;
  always @(posedge clk_i) begin
    s1_sx  <= x[EW+FW];
    s1_sub <= x[EW+FW] ^ y[EW+FW];
    s1_nan <= nan_a || nan_b || (inf_a && inf_b && (a_i[EW+FW] != b_i[EW+FW]));
    s1_inf <= inf_a || inf_b;                 // (x is the infinity then)
    s1_zz  <= x[EW+FW] && y[EW+FW];           // both negative: an exact zero sum is -0
    s1_e   <= ex1;
    s1_mx  <= {ex != {EW{1'b0}}, x[FW-1:0]};
    s1_my  <= {ey != {EW{1'b0}}, y[FW-1:0]};
    s1_d   <= d;
  end

  // ---- stage 2: align ----------------------------------------------------------------------------
  // y's significand with three zero bits below, shifted right by d; the bits shifted out are
  // ORed into the lowest (sticky) bit. From d = SG on nothing is left: such a y is less than a
  // quarter of x's last place, too little to move a rounding to nearest (x - y rounds back to x
  // even where x is a power of two), so it is dropped, sticky bit and all.
  wire [SG-1:0]   y0 = {s1_my, 3'b000};
  reg  [SG-1:0]   ya;
  reg             stk;
  integer         i;
  always @* begin
    ya  = {SG{1'b0}};
    stk = 1'b0;
    if ({{(32-EW){1'b0}}, s1_d} < SG) begin
      ya = y0 >> s1_d;
      for (i = 0; i < SG; i = i + 1)
        if (i < s1_d) stk = stk | y0[i];
    end
  end

  reg           s2_sx, s2_sub, s2_nan, s2_inf, s2_zz;
  reg  [EW-1:0] s2_e;
  reg  [SG-1:0] s2_x, s2_y;
  always @(posedge clk_i) begin
    s2_sx <= s1_sx; s2_sub <= s1_sub; s2_nan <= s1_nan; s2_inf <= s1_inf; s2_zz <= s1_zz;
    s2_e  <= s1_e;
    s2_x  <= {s1_mx, 3'b000};
    s2_y  <= {ya[SG-1:1], ya[0] | stk};
  end

  // ---- stage 3: add or subtract ------------------------------------------------------------------
  wire [SG:0] zsum = s2_sub ? ({1'b0, s2_x} - {1'b0, s2_y}) : ({1'b0, s2_x} + {1'b0, s2_y});

  reg           s3_sx, s3_nan, s3_inf, s3_zz;
  reg  [EW-1:0] s3_e;
  reg  [SG:0]   s3_z;
  always @(posedge clk_i) begin
    s3_sx <= s2_sx; s3_nan <= s2_nan; s3_inf <= s2_inf; s3_zz <= s2_zz;
    s3_e  <= s2_e;
    s3_z  <= zsum;
  end

  // ---- stage 4: normalize ------------------------------------------------------------------------
  // lz: leading zeros of the sum below its carry bit, at most e - 1 (then the result is
  // subnormal: exponent field 0 and its leading zeros kept)
  reg  [LW-1:0] lz;
  reg           seen;
  integer       k;
  always @* begin
    lz   = {LW{1'b0}};
    seen = 1'b0;
    for (k = SG - 1; k >= 0; k = k - 1) begin
      if (s3_z[k]) seen = 1'b1;
      if (!seen) lz = lz + 1'b1;
    end
  end
  wire [DW-1:0] e_m1   = {1'b0, s3_e} - {{(DW-1){1'b0}}, 1'b1};
  wire [31:0]   lz32   = {{(32-LW){1'b0}}, lz};
  wire [DW-1:0] lz_d   = lz32[DW-1:0];      // (lz <= SG < 2^DW)
  wire          unused_lz = ^lz32[31:DW];
  wire          lz_big = (lz_d > e_m1);
  wire [DW-1:0] sh     = lz_big ? e_m1 : lz_d;   // the left shift
  wire [SG-1:0] zl     = s3_z[SG-1:0] << sh;
  // the significand (hidden bit first) and the guard and sticky bits below it, and the exponent
  wire [FW:0]   n_sig  = s3_z[SG] ? s3_z[SG:4] : zl[SG-1:3];
  wire          n_g    = s3_z[SG] ? s3_z[3] : zl[2];
  wire          n_s    = s3_z[SG] ? |s3_z[2:0] : |zl[1:0];
  wire [DW-1:0] n_e    = s3_z[SG] ? {1'b0, s3_e} + {{(DW-1){1'b0}}, 1'b1} : {1'b0, s3_e} - sh;
  wire          n_zero = (s3_z == {(SG+1){1'b0}});

  reg           s4_sx, s4_nan, s4_inf, s4_zero, s4_zs;
  reg  [FW:0]   s4_sig;
  reg           s4_g, s4_s;
  reg  [DW-1:0] s4_e;
  always @(posedge clk_i) begin
    s4_sx   <= s3_sx; s4_nan <= s3_nan; s4_inf <= s3_inf;
    s4_zero <= n_zero;
    s4_zs   <= s3_zz;                         // (an exact zero of a subtraction is +0)
    s4_sig  <= n_sig;
    s4_g    <= n_g;
    s4_s    <= n_s;
    s4_e    <= n_e;
  end

  // ---- stage 5: round ----------------------------------------------------------------------------
  // the exponent field: 0 for a subnormal (hidden bit 0), the exponent else; exponents at or
  // past all ones overflow to infinity (before rounding: the largest exponent after a carry)
  wire          ovf    = (s4_e >= {1'b0, EMAX});
  wire [EW-1:0] e_fld  = s4_sig[FW] ? s4_e[EW-1:0] : {EW{1'b0}};
  wire          rnd_up = s4_g && (s4_s || s4_sig[0]);
  wire [EW+FW-1:0] mag = {e_fld, s4_sig[FW-1:0]} + {{(EW+FW-1){1'b0}}, rnd_up};
  reg  [EW+FW:0] res;
  always @* begin
    if (s4_nan)       res = QNAN;
    else if (s4_inf)  res = {s4_sx, EMAX, {FW{1'b0}}};
    else if (s4_zero) res = {s4_zs, {(EW+FW){1'b0}}};
    else if (ovf)     res = {s4_sx, EMAX, {FW{1'b0}}};
    else              res = {s4_sx, mag};
  end

  reg [EW+FW:0] s5_res;
  always @(posedge clk_i) s5_res <= res;
  assign sum_o = s5_res;

endmodule

`resetall
