// sagen_sram: simple dual-port SRAM (one write port, one read port, one clock) of WORDS words of
// WIDTH bits, written so that synthesis tools infer a memory. The read data is registered and
// holds its value while re_i is low. No reset, no initial contents: the host writes before the
// array reads.
`default_nettype none

module sagen_sram #(
  parameter integer WIDTH = 32,   // bits per word
  parameter integer WORDS = 256,  // words
  parameter integer AW    = 8     // address bits, 2**AW >= WORDS
) (
  input  wire             clk_i,
  input  wire             we_i,
  input  wire [AW-1:0]    waddr_i,
  input  wire [WIDTH-1:0] wdata_i,
  input  wire             re_i,
  input  wire [AW-1:0]    raddr_i,
  output reg  [WIDTH-1:0] rdata_o
);

  reg [WIDTH-1:0] mem_q [0:WORDS-1];

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always @(posedge clk_i) begin
    if (re_i) rdata_o <= mem_q[raddr_i];
  end

endmodule

`resetall
