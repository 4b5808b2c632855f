// sagen_hp_bytes: the bytes a host-port transfer moves this cycle, for the performance counter
// of host traffic. A write moves one ifmap or weight word (mem_i: 0 ifmap, 1 weight); a read
// (re_i) moves the first read_lanes_i lanes of an output word (0, or COLS and more: all of it),
// rounded up to whole bytes: ceil(read_lanes x ACC_BITS / 8). Neither: 0. Byte counts are mod
// 2^16.
//
// No multiplier: read_lanes is below COLS where the product counts, so it is $clog2(COLS) bits
// wide, and its product with the constant ACC_BITS is a shifted copy per set bit of ACC_BITS.
`default_nettype none

module sagen_hp_bytes #(
  parameter integer COLS     = 4,    // output lanes (array columns), at most 256
  parameter integer ACC_BITS = 32,   // bits per output lane, at most 64
  parameter integer IF_W     = 128,  // bits of an ifmap word
  parameter integer WT_W     = 32    // bits of a weight word
) (
  input  wire        we_i,           // the host writes a word
  input  wire        mem_i,          // into memory: 0 ifmap, 1 weight
  input  wire        re_i,           // the host reads an output word
  input  wire [15:0] read_lanes_i,   // lanes a read moves (0: all)
  output wire [15:0] bytes_o         // bytes moved this cycle
);

  localparam integer LB  = (COLS > 1) ? $clog2(COLS) : 1;   // read_lanes below COLS
  localparam integer BW  = LB + 8;                           // lanes x ACC_BITS (< 2^(LB+7)) + 7
  localparam [31:0]  ACC32 = ACC_BITS, COLS32 = COLS;
  localparam [31:0]  IFB32 = (IF_W + 7) / 8, WTB32 = (WT_W + 7) / 8;
  localparam [31:0]  OUTB32 = (COLS * ACC_BITS + 7) / 8;

  reg [BW-1:0] bits;   // read_lanes x ACC_BITS
  integer      i;
  always @* begin
    bits = {BW{1'b0}};
    for (i = 0; i < 8; i = i + 1)
      if (ACC32[i]) bits = bits + ({{(BW-LB){1'b0}}, read_lanes_i[LB-1:0]} << i);
  end
  wire [BW-1:0] rd_part = (bits + {{(BW-3){1'b0}}, 3'd7}) >> 3;
  wire [31:0]   rd_part32 = {{(32-BW){1'b0}}, rd_part};
  wire          rd_all  = (read_lanes_i == 16'd0) || ({16'd0, read_lanes_i} >= COLS32);
  wire [15:0]   rd_bytes = rd_all ? OUTB32[15:0] : rd_part32[15:0];

  assign bytes_o = we_i ? (mem_i ? WTB32[15:0] : IFB32[15:0]) : (re_i ? rd_bytes : 16'd0);

  wire unused_bytes = ^rd_part32[31:16];   // zeros (a read moves < 2^13 bytes)

endmodule

`resetall
