// Testbench of the register wrapper scripts/fpga.sh generates for t_fpga_dut (W = 5, dut.v),
// its chains cut every L bits (wrap_v's CHAIN; L >= 11: one chain): random bits into sin_i (one
// bit per input chain); a model of the wrapper beside it checks, every cycle, that the block's
// inputs are the bits shifted in (first data port nearest sin_i: {b_i, a_i, en_i}, bit g of that
// vector taking sin_i[g / L] when g is a multiple of L and bit g - 1 otherwise) and that sout_o
// is the XOR of the output chains' ends ({sum_o, par_o} registered; stage i of a chain takes
// stage i-1 XOR output bit i, and a chain starts at every multiple of L). Prints
// "wrap: <n> checks, <m> mismatches". tests/test_fpga.sh runs it, and again on a wrapper with
// two ports swapped, where it must report mismatches.
`default_nettype none

module tb_wrap;
  parameter integer L = 1024;
  localparam integer NS = (11 + L - 1) / L;   // input chains
  reg  clk = 1'b0;
  reg  rst_n = 1'b0;
  reg  [NS-1:0] sin = {NS{1'b0}};
  wire sout;

  sagen_fpga_wrap u_wrap (
    .clk_i (clk),
    .rst_ni(rst_n),
    .sin_i (sin),
    .sout_o(sout)
  );

  always #5 clk = ~clk;

  reg [10:0] ref_in = 11'd0;    // the block's inputs, bit 0 the newest of the first chain
  reg [6:0]  ref_out_q = 7'd0;  // {sum_o, par_o} one edge later
  reg [6:0]  ref_fold = 7'd0;   // the output chains
  reg        ref_sout;
  reg [31:0] lfsr = 32'h1;
  integer    cyc = 0;
  integer    checks = 0;
  integer    errors = 0;
  integer    g;

  always @(posedge clk) begin
    for (g = 0; g < 11; g = g + 1)
      ref_in[g] <= (g % L == 0) ? sin[g / L] : ref_in[(g > 0) ? g - 1 : 0];
    ref_out_q <= {u_wrap.u_dut.sum_o, u_wrap.u_dut.par_o};
    for (g = 0; g < 7; g = g + 1)
      ref_fold[g] <= ((g % L == 0) ? 1'b0 : ref_fold[(g > 0) ? g - 1 : 0]) ^ ref_out_q[g];
  end
  always @* begin
    ref_sout = 1'b0;
    for (g = 0; g < 7; g = g + 1)
      if (g % L == L - 1 || g == 6) ref_sout = ref_sout ^ ref_fold[g];
  end

  initial begin
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    for (cyc = 0; cyc < 400; cyc = cyc + 1) begin
      @(negedge clk);
      if (cyc >= 12) begin
        checks = checks + 1;
        if ({u_wrap.u_dut.b_i, u_wrap.u_dut.a_i, u_wrap.u_dut.en_i} !== ref_in) begin
          errors = errors + 1;
          if (errors <= 3)
            $display("cycle %0d: block inputs %b, expected %b", cyc,
                     {u_wrap.u_dut.b_i, u_wrap.u_dut.a_i, u_wrap.u_dut.en_i}, ref_in);
        end
      end
      if (cyc >= 30) begin
        checks = checks + 1;
        if (sout !== ref_sout) begin
          errors = errors + 1;
          if (errors <= 3) $display("cycle %0d: sout_o %b, expected %b", cyc, sout, ref_sout);
        end
      end
      for (g = 0; g < NS; g = g + 1) begin
        sin[g] = lfsr[0];
        lfsr   = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
      end
    end
    $display("wrap: %0d checks, %0d mismatches", checks, errors);
    $finish;
  end
endmodule

`resetall
