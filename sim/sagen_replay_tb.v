// sagen_replay_tb: replays a cycle record written by the C host driver into a generated top
// module under Icarus Verilog and checks the outputs the driver saw.
//
// Defines: SAGEN_TOP (top module name), HP_AW, HP_DW, OUT_DW (port widths).
// Plusargs: +rec=<path> the record (required), +out=<path> receives every hp_rdata_o observed at
// an H line as one hex value per line, +vcd=<path> dumps a waveform.
//
// Record lines (hex numbers without 0x):
//   R <n>   n cycles with rst_ni=0 and every other input 0
//   I <n>   n cycles with rst_ni=1, csr_addr_i=1 (STATUS), every other input 0
//   C <csr_we> <csr_addr> <csr_wdata> <hp_we> <hp_mem> <hp_bank> <hp_addr> <hp_wdata> <hp_re>
//           one cycle with rst_ni=1 and these inputs
//   S <hex> csr_rdata_o after the previous cycle must equal this
//   H <hex> hp_rdata_o after the previous cycle must equal this
//   E       end: print the summary and finish
// Lines starting with '#' are comments.
//
// One cycle: inputs change while the clock is low (at the falling edge), rising edge 5 time units
// later, outputs sampled 1 unit after the rising edge, falling edge 4 units after that. From the
// first cycle with rst_ni=1 on, busy_o, irq_o and csr_rdata_o are checked for X/Z every cycle.
// Cycle numbers in messages count from 0 (the first cycle of the record).
//
// Output: the first 10 value mismatches and the first 10 X findings, then exactly one summary
// line "replay: <cycles> cycles, <checks> checks, <mismatches> mismatches, <xs> x-checks failed"
// and, as the last line, "replay: PASS" or "replay: FAIL". A malformed record, or one that ends
// without E, prints "replay: error: ..." before the summary and fails.
`default_nettype none

`ifndef SAGEN_TOP
`define SAGEN_TOP sagen_top
`endif
`ifndef HP_AW
`define HP_AW 10
`endif
`ifndef HP_DW
`define HP_DW 128
`endif
`ifndef OUT_DW
`define OUT_DW 128
`endif

module sagen_replay_tb;

  localparam integer AW = `HP_AW;
  localparam integer DW = `HP_DW;
  localparam integer OW = `OUT_DW;
  localparam integer MAX_PRINT = 10;
  localparam integer PATH_CHARS = 1024;

  // ---- DUT ------------------------------------------------------------------------------------
  reg           clk;
  reg           rst_n;
  reg           csr_we;
  reg  [6:0]    csr_addr;
  reg  [31:0]   csr_wdata;
  wire [31:0]   csr_rdata;
  reg           hp_we;
  reg           hp_mem;
  reg           hp_bank;
  reg  [AW-1:0] hp_addr;
  reg  [DW-1:0] hp_wdata;
  reg           hp_re;
  wire [OW-1:0] hp_rdata;
  wire          busy;
  wire          irq;

  `SAGEN_TOP u_dut (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .csr_we_i   (csr_we),
    .csr_addr_i (csr_addr),
    .csr_wdata_i(csr_wdata),
    .csr_rdata_o(csr_rdata),
    .hp_we_i    (hp_we),
    .hp_mem_i   (hp_mem),
    .hp_bank_i  (hp_bank),
    .hp_addr_i  (hp_addr),
    .hp_wdata_i (hp_wdata),
    .hp_re_i    (hp_re),
    .hp_rdata_o (hp_rdata),
    .busy_o     (busy),
    .irq_o      (irq)
  );

  // ---- state ----------------------------------------------------------------------------------
  reg [8*PATH_CHARS-1:0] rec_path, out_path, vcd_path;
  integer fd_rec, fd_out;
  integer ch, nf, n, k;
  integer cycles, checks, mismatches, xs, errors;
  integer printed_mm, printed_x;
  reg     done;

  // Outputs sampled right after the rising edge of the last cycle.
  reg [31:0]   csr_q;
  reg [OW-1:0] hp_q;

  // Fields of a C line and expected values.
  reg [31:0]   f_csr_we, f_csr_addr, f_csr_wdata, f_hp_we, f_hp_mem, f_hp_bank, f_hp_re;
  reg [AW-1:0] f_hp_addr;
  reg [DW-1:0] f_hp_wdata;
  reg [31:0]   exp_csr;
  reg [OW-1:0] exp_hp;

  // One clock cycle with the inputs currently driven; the clock is low on entry and on exit.
  task run_cycle;
    begin
      #5 clk = 1'b1;
      #1;
      csr_q = csr_rdata;
      hp_q  = hp_rdata;
      if (rst_n === 1'b1) begin
        if (^busy === 1'bx) x_found("busy_o");
        if (^irq === 1'bx) x_found("irq_o");
        if (^csr_rdata === 1'bx) x_found("csr_rdata_o");
      end
      cycles = cycles + 1;
      #4 clk = 1'b0;
    end
  endtask

  task x_found(input [8*16-1:0] name);
    begin
      xs = xs + 1;
      if (printed_x < MAX_PRINT) begin
        $display("replay: cycle %0d: X on %0s", cycles, name);
        printed_x = printed_x + 1;
      end
    end
  endtask

  task drive_idle(input r);
    begin
      rst_n     = r;
      csr_we    = 1'b0;
      csr_addr  = r ? 7'd1 : 7'd0;
      csr_wdata = 32'd0;
      hp_we     = 1'b0;
      hp_mem    = 1'b0;
      hp_bank   = 1'b0;
      hp_addr   = {AW{1'b0}};
      hp_wdata  = {DW{1'b0}};
      hp_re     = 1'b0;
    end
  endtask

  task bad_record(input [8*48-1:0] what);
    begin
      if (errors == 0)
        $display("replay: error: %0s after cycle %0d", what, cycles);
      errors = errors + 1;
      done = 1'b1;
    end
  endtask

  // Skip to the end of the current line (for comments).
  task skip_line;
    begin
      ch = $fgetc(fd_rec);
      while (ch != -1 && ch != "\n")
        ch = $fgetc(fd_rec);
    end
  endtask

  initial begin
    clk = 1'b0;
    drive_idle(1'b0);
    cycles = 0; checks = 0; mismatches = 0; xs = 0; errors = 0;
    printed_mm = 0; printed_x = 0;
    csr_q = 32'd0;
    hp_q = {OW{1'b0}};
    done = 1'b0;
    fd_out = 0;

    if ($value$plusargs("vcd=%s", vcd_path)) begin
      $dumpfile(vcd_path);
      $dumpvars(0, sagen_replay_tb);
    end
    if (!$value$plusargs("rec=%s", rec_path)) begin
      $display("replay: error: no +rec=<path> given");
      errors = 1;
      done = 1'b1;
    end else begin
      fd_rec = $fopen(rec_path, "r");
      if (fd_rec == 0) begin
        $display("replay: error: cannot open record %0s", rec_path);
        errors = 1;
        done = 1'b1;
      end
    end
    if (!done && $value$plusargs("out=%s", out_path)) begin
      fd_out = $fopen(out_path, "w");
      if (fd_out == 0) begin
        $display("replay: error: cannot create %0s", out_path);
        errors = 1;
        done = 1'b1;
      end
    end

    while (!done) begin
      ch = $fgetc(fd_rec);
      case (ch)
        -1: bad_record("record ends without E");
        " ", "\t", "\r", "\n": ;
        "#": skip_line;
        "R", "I": begin
          nf = $fscanf(fd_rec, "%d", n);
          if (nf != 1 || n < 0) begin
            bad_record("bad cycle count");
          end else begin
            drive_idle(ch == "I");
            for (k = 0; k < n; k = k + 1)
              run_cycle;
          end
        end
        "C": begin
          nf = $fscanf(fd_rec, "%h %h %h %h %h %h %h %h %h", f_csr_we, f_csr_addr, f_csr_wdata,
                       f_hp_we, f_hp_mem, f_hp_bank, f_hp_addr, f_hp_wdata, f_hp_re);
          if (nf != 9) begin
            bad_record("bad C line");
          end else begin
            rst_n     = 1'b1;
            csr_we    = f_csr_we[0];
            csr_addr  = f_csr_addr[6:0];
            csr_wdata = f_csr_wdata;
            hp_we     = f_hp_we[0];
            hp_mem    = f_hp_mem[0];
            hp_bank   = f_hp_bank[0];
            hp_addr   = f_hp_addr;
            hp_wdata  = f_hp_wdata;
            hp_re     = f_hp_re[0];
            run_cycle;
          end
        end
        "S": begin
          nf = $fscanf(fd_rec, "%h", exp_csr);
          if (nf != 1) begin
            bad_record("bad S line");
          end else begin
            checks = checks + 1;
            if (csr_q !== exp_csr) begin
              mismatches = mismatches + 1;
              if (printed_mm < MAX_PRINT) begin
                $display("replay: cycle %0d: csr_rdata expected %h got %h", cycles - 1, exp_csr,
                         csr_q);
                printed_mm = printed_mm + 1;
              end
            end
          end
        end
        "H": begin
          nf = $fscanf(fd_rec, "%h", exp_hp);
          if (nf != 1) begin
            bad_record("bad H line");
          end else begin
            checks = checks + 1;
            if (fd_out != 0)
              $fwrite(fd_out, "%h\n", hp_q);
            if (hp_q !== exp_hp) begin
              mismatches = mismatches + 1;
              if (printed_mm < MAX_PRINT) begin
                $display("replay: cycle %0d: hp_rdata expected %h got %h", cycles - 1, exp_hp,
                         hp_q);
                printed_mm = printed_mm + 1;
              end
            end
          end
        end
        "E": done = 1'b1;
        default: bad_record("unknown record letter");
      endcase
    end

    if (fd_out != 0)
      $fclose(fd_out);
    $display("replay: %0d cycles, %0d checks, %0d mismatches, %0d x-checks failed", cycles, checks,
             mismatches, xs);
    if (errors == 0 && mismatches == 0 && xs == 0)
      $display("replay: PASS");
    else
      $display("replay: FAIL");
    $finish(0);
  end

endmodule

`resetall
