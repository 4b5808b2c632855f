// sagen_fp_mul: IEEE 754 multiplication, a * b of a binary format of IEW exponent and IFW
// fraction bits, rounded into a binary format of OEW and OFW bits (the accumulation format; the
// same format, or a wider one: bfloat16 or binary16 operands into binary32), pipelined over
// six stages: a new pair every cycle, its product six clock edges later.
//
// Arithmetic: the exact product, rounded once, to nearest, ties to even. With bfloat16 or
// binary16 operands and a binary32 result the rounding is exact but where the product leaves
// binary32's range (bfloat16 only: past the largest finite value it rounds to infinity, below
// the normal range to a subnormal or zero). Subnormal operands and results are exact IEEE (no
// flushing). Infinity times zero and any NaN give the canonical quiet NaN (sign 0, exponent
// all ones, the fraction's top bit alone set); a zero or infinite product has the sign of the
// operands' signs' exclusive or.
//
// One encoding is not a number but "no operand": the signaling NaN of the least payload (sign
// 0, exponent all ones, fraction 1), which the design feeds for a padding position and stores
// for a tap a filter lacks. Its product is -0 whatever the other operand, the identity of a
// sum, so such an operand adds nothing (an infinity or a NaN across from it stays out of the
// sum). The host writes every NaN of its tensors as the canonical quiet NaN, so no data holds
// it.
//
// The stages, each at most one carry chain or one shifter deep (a significand carries its
// hidden bit, 1 for a normal number, 0 for a subnormal, whose exponent counts as 1):
//   0. unpack: the significands, the exponents; special values decided;
//   1. multiply the significands (2 * (IFW + 1) bits, the value's point two bits below the
//      top), add the exponents;
//   2. the product's leading zeros (a subnormal operand's too) and trailing zeros (sagen_lzc);
//   3. normalize: shift left by the leading zeros; the exponent in the result's bias, and for a
//      result below the normal range (exponent e <= 0) the right shift 1 - e that makes it
//      subnormal;
//   4. that right shift, the bits shifted out kept as a sticky bit (whether the trailing zeros
//      are fewer than the shift);
//   5. round (sagen_fp_round).
`default_nettype none

module sagen_fp_mul #(
  parameter integer IEW = 8,    // operands: exponent bits
  parameter integer IFW = 7,    // operands: fraction bits
  parameter integer OEW = 8,    // product: exponent bits
  parameter integer OFW = 23    // product: fraction bits
) (
  input  wire              clk_i,
  input  wire [IEW+IFW:0]  a_i,     // {sign, exponent, fraction}
  input  wire [IEW+IFW:0]  b_i,
  output wire [OEW+OFW:0]  prod_o   // a_i * b_i of six edges before
);

  localparam integer PW   = 2 * IFW + 2;                     // significands' product
  localparam integer NB   = (PW > OFW + 3) ? PW : OFW + 3;   // the product, left-aligned
  localparam integer LW   = $clog2(PW + 1);                  // leading zeros of the product
  localparam integer XW   = ((IEW > OEW) ? IEW : OEW) + 3;   // exponents, signed
  localparam integer IBIAS = (1 << (IEW - 1)) - 1;
  localparam integer OBIAS = (1 << (OEW - 1)) - 1;
  localparam integer SHW  = $clog2(NB + 1);                  // a subnormal's right shift
  localparam [IEW-1:0] IEMAX = {IEW{1'b1}};
  // the exponent of the result, biased: ea + eb - 2 * IBIAS + OBIAS + 1 - lz
  localparam integer EOFS = OBIAS - 2 * IBIAS + 1;
  localparam [31:0]   EOFS32 = EOFS;
  localparam [XW-1:0] EOFS_X = EOFS32[XW-1:0];

  // ---- stage 0: unpack ------------------------------------------------------------------------
  wire [IEW-1:0] ea = a_i[IEW+IFW-1:IFW];
  wire [IEW-1:0] eb = b_i[IEW+IFW-1:IFW];
  wire           za = (a_i[IEW+IFW-1:0] == {(IEW+IFW){1'b0}});
  wire           zb = (b_i[IEW+IFW-1:0] == {(IEW+IFW){1'b0}});
  wire           nan_a = (ea == IEMAX) && (a_i[IFW-1:0] != {IFW{1'b0}});
  wire           nan_b = (eb == IEMAX) && (b_i[IFW-1:0] != {IFW{1'b0}});
  wire           inf_a = (ea == IEMAX) && (a_i[IFW-1:0] == {IFW{1'b0}});
  wire           inf_b = (eb == IEMAX) && (b_i[IFW-1:0] == {IFW{1'b0}});
  wire [IFW:0]   ma  = {ea != {IEW{1'b0}}, a_i[IFW-1:0]};
  wire [IFW:0]   mb  = {eb != {IEW{1'b0}}, b_i[IFW-1:0]};
  wire [IEW-1:0] ea1 = (ea == {IEW{1'b0}}) ? {{(IEW-1){1'b0}}, 1'b1} : ea;
  wire [IEW-1:0] eb1 = (eb == {IEW{1'b0}}) ? {{(IEW-1){1'b0}}, 1'b1} : eb;
  localparam [IEW+IFW:0] NONE = {1'b0, IEMAX, {(IFW-1){1'b0}}, 1'b1};   // no operand
  wire           none = (a_i == NONE) || (b_i == NONE);

  reg            s0_s, s0_nan, s0_inf, s0_zero;
  reg  [IEW-1:0] s0_ea, s0_eb;
  always @(posedge clk_i) begin
    s0_s    <= (a_i[IEW+IFW] ^ b_i[IEW+IFW]) || none;
    s0_nan  <= !none && (nan_a || nan_b || (inf_a && zb) || (inf_b && za));
    s0_inf  <= !none && (inf_a || inf_b);
    s0_zero <= none || za || zb;
    s0_ea   <= ea1;
    s0_eb   <= eb1;
  end

  // ---- stage 1: multiply -------------------------------------------------------------------------
  // The significands are registered at stage 0 and multiplied between that register and s1_p,
  // with no logic before or after. Significands that fit a signed 18x18 multiplier with a zero
  // sign bit (bfloat16, binary16) go through sagen_mul, whose registers these are: on an ECP5
  // (the design's ecp5/ file) the MULT18X18D's own, so the multiply runs inside the block;
  // binary32's 24-bit significands are multiplied here.
  wire [PW-1:0] prod;
  generate
    if (IFW + 2 <= 17) begin : g_dsp
      wire [2*IFW+3:0] p;
      sagen_mul #(.A_BITS(IFW + 2), .B_BITS(IFW + 2)) u_mul (
        .clk_i(clk_i),
        .ce_i (1'b1),
        .a_i  ({1'b0, ma}),
        .b_i  ({1'b0, mb}),
        .p_o  (p)
      );
      assign prod = p[PW-1:0];                // (both operands >= 0: the top two bits are 0)
      wire unused_p = ^p[2*IFW+3:PW];
    end else begin : g_lut
      reg [IFW:0]  ma_q, mb_q;
      reg [PW-1:0] p_q;
      always @(posedge clk_i) begin
        ma_q <= ma;
        mb_q <= mb;
        p_q  <= ma_q * mb_q;
      end
      assign prod = p_q;
    end
  endgenerate

  reg           s1_s, s1_nan, s1_inf, s1_zero;
  wire [PW-1:0] s1_p = prod;
  reg  [XW-1:0] s1_e;                         // ea + eb + EOFS
  always @(posedge clk_i) begin
    s1_s    <= s0_s;
    s1_nan  <= s0_nan;
    s1_inf  <= s0_inf;
    s1_zero <= s0_zero;
    s1_e    <= {{(XW-IEW){1'b0}}, s0_ea} + {{(XW-IEW){1'b0}}, s0_eb} + EOFS_X;
  end

  // ---- stage 2: leading and trailing zeros ----------------------------------------------------
  reg  [PW-1:0] p_r;                          // the product bit-reversed
  integer       r;
  always @* begin
    for (r = 0; r < PW; r = r + 1) p_r[r] = s1_p[PW-1-r];
  end
  wire [LW-1:0] lz, tz;
  sagen_lzc #(.W(PW), .CW(LW)) u_lz (.d_i(s1_p), .cnt_o(lz));
  sagen_lzc #(.W(PW), .CW(LW)) u_tz (.d_i(p_r),  .cnt_o(tz));

  reg           s2_s, s2_nan, s2_inf, s2_zero;
  reg  [PW-1:0] s2_p;
  reg  [XW-1:0] s2_e, s2_em;                 // e before the leading zeros, and 1 - e
  reg  [LW-1:0] s2_lz, s2_tz;
  always @(posedge clk_i) begin
    s2_s <= s1_s; s2_nan <= s1_nan; s2_inf <= s1_inf; s2_zero <= s1_zero;
    s2_p  <= s1_p;
    s2_e  <= s1_e;
    s2_em <= {{(XW-1){1'b0}}, 1'b1} - s1_e;
    s2_lz <= lz;
    s2_tz <= tz;
  end

  // ---- stage 3: normalize ----------------------------------------------------------------------
  wire [31:0]   lz32 = {{(32-LW){1'b0}}, s2_lz};
  wire [XW-1:0] lz_x = lz32[XW-1:0];         // (lz <= PW < 2^(XW-1))
  wire          unused_lz = ^lz32[31:XW];
  wire [PW-1:0] p_n  = s2_p << s2_lz;
  wire [NB-1:0] p_al;                         // ... left-aligned in NB bits
  generate
    if (NB > PW) begin : g_pad
      assign p_al = {p_n, {(NB-PW){1'b0}}};
    end else begin : g_nopad
      assign p_al = p_n;
    end
  endgenerate
  // the exponent e = s2_e - lz; below the normal range (e <= 0) the right shift 1 - e, and
  // where the ones of the left-aligned product start (its trailing zeros)
  localparam [31:0]   NBP32 = NB - PW;
  wire [XW-1:0] e_n  = s2_e - lz_x;
  wire [XW-1:0] rs_x = s2_em + lz_x;
  wire [31:0]   tz32 = {{(32-LW){1'b0}}, s2_tz};

  // the right shift: 1 - e where positive (from NB on it leaves nothing)
  wire [XW-1:0] rs_p = rs_x[XW-1] ? {XW{1'b0}} : rs_x;

  reg           s3_s, s3_nan, s3_inf, s3_zero;
  reg  [NB-1:0] s3_p;
  reg  [XW-1:0] s3_e, s3_rs;
  reg  [31:0]   s3_tz;
  always @(posedge clk_i) begin
    s3_s <= s2_s; s3_nan <= s2_nan; s3_inf <= s2_inf; s3_zero <= s2_zero;
    s3_p   <= p_al;
    s3_e   <= e_n;
    s3_rs  <= rs_p;
    s3_tz  <= tz32 + lz32 + NBP32;            // (the product is not zero where this counts)
  end

  // ---- stage 4: below the normal range, shift right ------------------------------------------
  // (a shift of NB or more leaves nothing, not even the guard bit: a sticky bit then cannot
  // round, and is not kept)
  wire [31:0]    rs32 = {{(32-XW){1'b0}}, s3_rs};
  wire           big  = (rs32 >= NB);
  wire [SHW-1:0] rs   = rs32[SHW-1:0];
  wire           unused_rs = ^rs32[31:SHW];

  reg           s4_s, s4_nan, s4_inf, s4_zero;
  reg  [NB-1:0] s4_v;
  reg           s4_stk;                       // a one shifted out
  reg  [XW-1:0] s4_e;
  always @(posedge clk_i) begin
    s4_s <= s3_s; s4_nan <= s3_nan; s4_inf <= s3_inf; s4_zero <= s3_zero;
    s4_v   <= big ? {NB{1'b0}} : (s3_p >> rs);
    s4_stk <= (s3_tz < rs32);
    s4_e   <= s3_e;
  end

  // ---- stage 5: round --------------------------------------------------------------------------
  wire [OEW+OFW:0] res;
  sagen_fp_round #(.EW(OEW), .FW(OFW), .XW(XW)) u_round (
    .sign_i     (s4_s),
    .sig_i      (s4_v[NB-1 -: OFW+1]),
    .g_i        (s4_v[NB-OFW-2]),
    .s_i        (|s4_v[NB-OFW-3:0] || s4_stk),
    .exp_i      (s4_e),
    .nan_i      (s4_nan),
    .inf_i      (s4_inf),
    .zero_i     (s4_zero),
    .zero_sign_i(s4_s),
    .res_o      (res)
  );

  reg [OEW+OFW:0] s5_res;
  always @(posedge clk_i) s5_res <= res;
  assign prod_o = s5_res;

endmodule

`resetall
