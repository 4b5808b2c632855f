// tb_common.vh: shared body of the block testbenches in tests/rtl (`include it inside the
// module). A 10-unit clock (rising edges at 5, 15, ...), the vector file given as +vec=<path>,
// and the check bookkeeping: chk() compares with !== so an X or Z on an output is a mismatch,
// prints the first 10 mismatches, and summary() prints the one line run.sh looks for:
// "<block>: <n> checks, <m> mismatches".

  reg clk = 1'b0;
  always #5 clk = ~clk;

  integer n_checks = 0;
  integer n_mism   = 0;
  integer cycle    = 0;
  integer fd       = 0;
  integer nread    = 0;
  reg [8*512-1:0] vec_path;

  task open_vec;
    begin
      if (!$value$plusargs("vec=%s", vec_path)) begin
        $display("%0s: no +vec=<file> given", BLOCK);
        $finish;
      end
      fd = $fopen(vec_path, "r");
      if (fd == 0) begin
        $display("%0s: cannot open %0s", BLOCK, vec_path);
        $finish;
      end
    end
  endtask

  // The vector file ended early or holds something unexpected: no summary line, so run.sh
  // reports the case as failed.
  task vec_error(input [8*48-1:0] what);
    begin
      $display("%0s: vector file error (%0s) at cycle %0d", BLOCK, what, cycle);
      $finish;
    end
  endtask

  task chk(input [8*24-1:0] name, input [63:0] got, input [63:0] exp);
    begin
      n_checks = n_checks + 1;
      if (got !== exp) begin
        n_mism = n_mism + 1;
        if (n_mism <= 10)
          $display("MISMATCH cycle %0d %0s: got %h expected %h", cycle, name, got, exp);
      end
    end
  endtask

  task summary;
    begin
      $display("%0s: %0d checks, %0d mismatches", BLOCK, n_checks, n_mism);
      $finish;
    end
  endtask
