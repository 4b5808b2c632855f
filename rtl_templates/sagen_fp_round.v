// sagen_fp_round: the last stage of the float blocks (sagen_fp_add, sagen_fp_mul): a finite
// result's significand, exponent and the guard and sticky bits below it, rounded to nearest,
// ties to even, into the encoding of a binary format of EW exponent and FW fraction bits, or the
// special value decided before; combinational (the caller registers the result).
//
// The exponent field (0 for a subnormal: hidden bit 0) and the fraction side by side, plus the
// rounding increment: a fraction that rounds up to 2 carries into the exponent, the largest
// finite value rounds up into infinity, a subnormal into the least normal number. An exponent
// at or past all ones before the rounding overflows to infinity.
`default_nettype none

module sagen_fp_round #(
  parameter integer EW = 8,    // exponent bits of the result
  parameter integer FW = 23,   // fraction bits of the result
  parameter integer XW = 10    // width of the exponent given (signed, XW > EW)
) (
  input  wire          sign_i,   // the result's sign (of a zero: zero_sign_i)
  input  wire [FW:0]   sig_i,    // the significand, hidden bit first (0: subnormal)
  input  wire          g_i,      // the bit below it
  input  wire          s_i,      // any bit below that
  input  wire [XW-1:0] exp_i,    // the biased exponent (1 for a subnormal), signed
  input  wire          nan_i,    // the result is NaN (canonical quiet)
  input  wire          inf_i,    // ... an infinity of sign_i
  input  wire          zero_i,   // ... a zero of zero_sign_i
  input  wire          zero_sign_i,
  output reg  [EW+FW:0] res_o
);

  localparam [EW-1:0]  EMAX = {EW{1'b1}};
  localparam [EW+FW:0] QNAN = {1'b0, EMAX, 1'b1, {(FW-1){1'b0}}};

  wire          ovf    = !exp_i[XW-1] && (exp_i >= {{(XW-EW){1'b0}}, EMAX});
  wire [EW-1:0] e_fld  = sig_i[FW] ? exp_i[EW-1:0] : {EW{1'b0}};
  wire          rnd_up = g_i && (s_i || sig_i[0]);
  wire [EW+FW-1:0] mag = {e_fld, sig_i[FW-1:0]} + {{(EW+FW-1){1'b0}}, rnd_up};
  always @* begin
    if (nan_i)       res_o = QNAN;
    else if (inf_i)  res_o = {sign_i, EMAX, {FW{1'b0}}};
    else if (zero_i) res_o = {zero_sign_i, {(EW+FW){1'b0}}};
    else if (ovf)    res_o = {sign_i, EMAX, {FW{1'b0}}};
    else             res_o = {sign_i, mag};
  end

endmodule

`resetall
