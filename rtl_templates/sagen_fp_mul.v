// sagen_fp_mul: IEEE 754 multiplication, a * b of a binary format of IEW exponent and IFW
// fraction bits, rounded into a binary format of OEW and OFW bits (the accumulation format; the
// same format, or a wider one: bfloat16 or binary16 operands into binary32), pipelined over
// three stages: a new pair every cycle, its product three clock edges later.
//
// Arithmetic: the exact product, rounded once, to nearest, ties to even. With bfloat16 or
// binary16 operands and a binary32 result the rounding is exact but where the product leaves
// binary32's range (bfloat16 only: past the largest finite value it rounds to infinity, below
// the normal range to a subnormal or zero). Subnormal operands and results are exact IEEE (no
// flushing). Infinity times zero and any NaN give the canonical quiet NaN (sign 0, exponent
// all ones, the fraction's top bit alone set); a zero or infinite product has the sign of the
// operands' signs' exclusive or.
//
// The stages (a significand carries its hidden bit, 1 for a normal number, 0 for a subnormal,
// whose exponent counts as 1):
//   1. unpack, multiply the significands (2 * (IFW + 1) bits, the value's point two bits below
//      the top), add the exponents; special values decided;
//   2. normalize: the product's leading zeros shift left (a subnormal operand's too), and the
//      exponent in the result's bias;
//   3. round: an exponent below the normal range shifts the significand right into a subnormal
//      (the bits shifted out kept as a sticky bit); the exponent field and the fraction side
//      by side, plus the rounding increment (a carry into the exponent makes the rounding up to
//      the next binade, to the least normal number or to infinity).
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
  output wire [OEW+OFW:0]  prod_o   // a_i * b_i of three edges before
);

  localparam integer PW   = 2 * IFW + 2;                     // significands' product
  localparam integer NB   = (PW > OFW + 3) ? PW : OFW + 3;   // the product, left-aligned
  localparam integer LW   = $clog2(PW + 1);                  // leading zeros of the product
  localparam integer XW   = ((IEW > OEW) ? IEW : OEW) + 3;   // exponents, signed
  localparam integer IBIAS = (1 << (IEW - 1)) - 1;
  localparam integer OBIAS = (1 << (OEW - 1)) - 1;
  localparam integer SHW  = $clog2(NB + 1);                  // a subnormal's right shift
  localparam [IEW-1:0] IEMAX = {IEW{1'b1}};
  localparam [OEW-1:0] OEMAX = {OEW{1'b1}};
  localparam [OEW+OFW:0] QNAN = {1'b0, OEMAX, 1'b1, {(OFW-1){1'b0}}};
  // the exponent of the result, biased: ea + eb - 2 * IBIAS + OBIAS + 1 - lz
  localparam integer EOFS = OBIAS - 2 * IBIAS + 1;
  localparam [31:0]   EOFS32 = EOFS;
  localparam [XW-1:0] EOFS_X = EOFS32[XW-1:0];
  localparam [31:0]   NB32 = NB;

  // ---- stage 1: unpack and multiply ----------------------------------------------------------
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

  reg           s1_s, s1_nan, s1_inf, s1_zero;
  reg  [PW-1:0] s1_p;
  reg  [XW-1:0] s1_e;                         // ea + eb + EOFS
  always @(posedge clk_i) begin
    s1_s    <= a_i[IEW+IFW] ^ b_i[IEW+IFW];
    s1_nan  <= nan_a || nan_b || (inf_a && zb) || (inf_b && za);
    s1_inf  <= inf_a || inf_b;
    s1_zero <= za || zb;
    s1_p    <= ma * mb;
    s1_e    <= {{(XW-IEW){1'b0}}, ea1} + {{(XW-IEW){1'b0}}, eb1} + EOFS_X;
  end

  // ---- stage 2: normalize --------------------------------------------------------------------
  reg  [LW-1:0] lz;
  reg           seen;
  integer       k;
  always @* begin
    lz   = {LW{1'b0}};
    seen = 1'b0;
    for (k = PW - 1; k >= 0; k = k - 1) begin
      if (s1_p[k]) seen = 1'b1;
      if (!seen) lz = lz + 1'b1;
    end
  end
  wire [31:0]   lz32 = {{(32-LW){1'b0}}, lz};
  wire [XW-1:0] lz_x = lz32[XW-1:0];         // (lz <= PW < 2^(XW-1))
  wire          unused_lz = ^lz32[31:XW];
  wire [PW-1:0]    p_n   = s1_p << lz;
  wire [NB-1:0]    p_al;                    // ... left-aligned in NB bits
  generate
    if (NB > PW) begin : g_pad
      assign p_al = {p_n, {(NB-PW){1'b0}}};
    end else begin : g_nopad
      assign p_al = p_n;
    end
  endgenerate

  reg           s2_s, s2_nan, s2_inf, s2_zero;
  reg  [NB-1:0] s2_p;                         // the product, its hidden bit at the top
  reg  [XW-1:0] s2_e;                         // the result's exponent, biased (signed)
  always @(posedge clk_i) begin
    s2_s <= s1_s; s2_nan <= s1_nan; s2_inf <= s1_inf; s2_zero <= s1_zero;
    s2_p <= p_al;
    s2_e <= s1_e - lz_x;
  end

  // ---- stage 3: round ------------------------------------------------------------------------
  // below the normal range (e <= 0): shift right by 1 - e into a subnormal
  wire          sub  = s2_e[XW-1] || (s2_e == {XW{1'b0}});
  wire [XW-1:0] rs_x = {{(XW-1){1'b0}}, 1'b1} - s2_e;
  wire          rs_big = ({{(32-XW){1'b0}}, rs_x} >= NB);
  wire [SHW-1:0] rs  = sub ? (rs_big ? NB32[SHW-1:0] : rs_x[SHW-1:0]) : {SHW{1'b0}};
  reg  [NB-1:0] v;
  reg           vstk;
  integer       i;
  always @* begin
    v    = s2_p >> rs;
    vstk = 1'b0;
    for (i = 0; i < NB; i = i + 1)
      if (i < rs) vstk = vstk | s2_p[i];
  end
  wire [OFW:0]  sig    = v[NB-1 -: OFW+1];
  wire          g      = v[NB-OFW-2];
  wire          stk    = |v[NB-OFW-3:0] || vstk;
  wire          ovf    = !s2_e[XW-1] && (s2_e >= {{(XW-OEW){1'b0}}, OEMAX});
  wire [OEW-1:0] e_fld = sig[OFW] ? s2_e[OEW-1:0] : {OEW{1'b0}};
  wire          rnd_up = g && (stk || sig[0]);
  wire [OEW+OFW-1:0] mag = {e_fld, sig[OFW-1:0]} + {{(OEW+OFW-1){1'b0}}, rnd_up};
  reg  [OEW+OFW:0] res;
  always @* begin
    if (s2_nan)       res = QNAN;
    else if (s2_inf)  res = {s2_s, OEMAX, {OFW{1'b0}}};
    else if (s2_zero) res = {s2_s, {(OEW+OFW){1'b0}}};
    else if (ovf)     res = {s2_s, OEMAX, {OFW{1'b0}}};
    else              res = {s2_s, mag};
  end

  reg [OEW+OFW:0] s3_res;
  always @(posedge clk_i) s3_res <= res;
  assign prod_o = s3_res;

endmodule

`resetall
