// Testbench of the register wrapper scripts/fpga.sh generates for t_fpga_dut (W = 5, dut.v):
// random bits into sin_i; a model of the wrapper beside it checks, every cycle, that the block's
// inputs are the last 11 bits shifted in (first data port nearest sin_i: {b_i, a_i, en_i}, the
// newest bit in en_i) and that sout_o is the fold of the block's registered outputs ({sum_o,
// par_o}: stage i of the chain takes stage i-1 XOR output bit i). Prints
// "wrap: <n> checks, <m> mismatches". tests/test_fpga.sh runs it, and again on a wrapper with
// two ports swapped, where it must report mismatches.
`default_nettype none

module tb_wrap;
  reg  clk = 1'b0;
  reg  rst_n = 1'b0;
  reg  sin = 1'b0;
  wire sout;

  sagen_fpga_wrap u_wrap (
    .clk_i (clk),
    .rst_ni(rst_n),
    .sin_i (sin),
    .sout_o(sout)
  );

  always #5 clk = ~clk;

  reg [10:0] ref_in = 11'd0;    // the last 11 bits into sin_i, the newest at bit 0
  reg [6:0]  ref_out_q = 7'd0;  // {sum_o, par_o} one edge later
  reg [6:0]  ref_fold = 7'd0;   // the output chain
  reg [31:0] lfsr = 32'h1;
  integer    cyc = 0;
  integer    checks = 0;
  integer    errors = 0;

  always @(posedge clk) begin
    ref_in    <= {ref_in[9:0], sin};
    ref_out_q <= {u_wrap.u_dut.sum_o, u_wrap.u_dut.par_o};
    ref_fold  <= {ref_fold[5:0], 1'b0} ^ ref_out_q;
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
        if (sout !== ref_fold[6]) begin
          errors = errors + 1;
          if (errors <= 3) $display("cycle %0d: sout_o %b, expected %b", cyc, sout, ref_fold[6]);
        end
      end
      sin  = lfsr[0];
      lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
    end
    $display("wrap: %0d checks, %0d mismatches", checks, errors);
    $finish;
  end
endmodule

`resetall
