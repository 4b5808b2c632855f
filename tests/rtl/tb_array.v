// tb_array: sagen_array as a GEMM against the vectors of model_array.c (file format there).
// The testbench applies the skew itself: every cycle it stores step k of the file and drives row
// r with step k-r and column c with step k-c (zeros before the first step), like the feed and
// weight registers. Inputs change just after the falling
// edge; res_o/res_vld_o are checked 1 unit after the rising edge (res_o[c] only where the
// expected res_vld_o[c] is set).
`default_nettype none

module tb_array;
  parameter integer ROWS     = 4;
  parameter integer COLS     = 4;
  parameter integer IN_BITS  = 8;
  parameter integer W_BITS   = 8;
  parameter integer ACC_BITS = 32;
  parameter integer FP       = 0;    // 1: float PEs (the widths then follow the formats)
  parameter integer IEW      = 8;
  parameter integer IFW      = 7;
  parameter integer AEW      = 8;
  parameter integer AFW      = 23;
  localparam BLOCK = "sagen_array";
  localparam integer RING = ROWS + COLS;

  `include "tb_common.vh"

  reg                      rst_n = 1'b0;
  reg  [ROWS*IN_BITS-1:0]  a_i = {(ROWS*IN_BITS){1'b0}};
  reg  [ROWS-1:0]          a_vld = {ROWS{1'b0}}, a_last = {ROWS{1'b0}};
  reg  [COLS*W_BITS-1:0]   b_i = {(COLS*W_BITS){1'b0}};
  wire [COLS*ACC_BITS-1:0] res_o;
  wire [COLS-1:0]          res_vld_o;

  sagen_array #(.ROWS(ROWS), .COLS(COLS), .IN_BITS(IN_BITS), .W_BITS(W_BITS),
                .ACC_BITS(ACC_BITS), .FP(FP), .IEW(IEW), .IFW(IFW), .AEW(AEW), .AFW(AFW)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .a_i(a_i), .a_vld_i(a_vld), .a_last_i(a_last), .b_i(b_i),
    .res_o(res_o), .res_vld_o(res_vld_o)
  );

  // Logical steps seen so far, step k in slot k % RING.
  reg [IN_BITS-1:0] ring_a    [0:RING*ROWS-1];
  reg [ROWS-1:0]    ring_vld  [0:RING-1];
  reg [ROWS-1:0]    ring_last [0:RING-1];
  reg [W_BITS-1:0]  ring_b    [0:RING*COLS-1];

  integer p_r, p_c, p_in, p_w, p_acc, ncyc, k, r, c, slot;
  reg [63:0] v_vm, v_lm, v, e_vm;
  reg [IN_BITS-1:0] v_a [0:ROWS-1];
  reg [W_BITS-1:0]  v_b [0:COLS-1];
  reg [63:0]        e_res [0:COLS-1];

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d %d", p_r, p_c, p_in, p_w, p_acc, ncyc);
    if (nread != 6) vec_error("header");
    if (p_r != ROWS || p_c != COLS || p_in != IN_BITS || p_w != W_BITS || p_acc != ACC_BITS)
      vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    k = 0;
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h", v_vm, v_lm);
      if (nread != 2) vec_error("cycle line");
      for (r = 0; r < ROWS; r = r + 1) begin
        nread = $fscanf(fd, "%h", v);
        if (nread != 1) vec_error("a value");
        v_a[r] = v[IN_BITS-1:0];
      end
      for (c = 0; c < COLS; c = c + 1) begin
        nread = $fscanf(fd, "%h", v);
        if (nread != 1) vec_error("b value");
        v_b[c] = v[W_BITS-1:0];
      end
      nread = $fscanf(fd, "%h", e_vm);
      if (nread != 1) vec_error("expected mask");
      for (c = 0; c < COLS; c = c + 1) begin
        nread = $fscanf(fd, "%h", e_res[c]);
        if (nread != 1) vec_error("expected result");
      end
      #1;
      begin
        slot = k % RING;
        for (r = 0; r < ROWS; r = r + 1) ring_a[slot*ROWS + r] = v_a[r];
        for (c = 0; c < COLS; c = c + 1) ring_b[slot*COLS + c] = v_b[c];
        ring_vld[slot]  = v_vm[ROWS-1:0];
        ring_last[slot] = v_lm[ROWS-1:0];
        for (r = 0; r < ROWS; r = r + 1) begin
          if (k >= r) begin
            slot = (k - r) % RING;
            a_i[r*IN_BITS +: IN_BITS] = ring_a[slot*ROWS + r];
            a_vld[r]  = ring_vld[slot][r];
            a_last[r] = ring_last[slot][r];
          end else begin
            a_i[r*IN_BITS +: IN_BITS] = {IN_BITS{1'b0}};
            a_vld[r]  = 1'b0;
            a_last[r] = 1'b0;
          end
        end
        for (c = 0; c < COLS; c = c + 1) begin
          if (k >= c) b_i[c*W_BITS +: W_BITS] = ring_b[((k - c) % RING)*COLS + c];
          else        b_i[c*W_BITS +: W_BITS] = {W_BITS{1'b0}};
        end
        k = k + 1;
      end
      @(posedge clk);
      #1;
      for (c = 0; c < COLS; c = c + 1) begin
        chk("res_vld_o", res_vld_o[c], e_vm[c]);
        if (e_vm[c]) chk("res_o", res_o[c*ACC_BITS +: ACC_BITS], e_res[c]);
      end
    end
    summary;
  end
endmodule

`resetall
