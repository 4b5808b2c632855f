// tb_psum_manager: sagen_psum_manager (no column groups) with its output SRAM and its col2im
// line against the vectors of model_psum_manager.c (file format there). Each pass: the
// descriptor and the route table are set, start_i pulses, the cycle lines drive step_i and the
// columns' results (inputs change just after the falling edge), then, once done_o is high, every
// expected word is compared with the output SRAM's (every lane at once).
`default_nettype none

module tb_psum_manager;
  parameter integer ROWS       = 2;
  parameter integer COLS       = 4;
  parameter integer ACC_BITS   = 16;
  parameter integer LINE_WORDS = 40;
  parameter integer FP         = 0;    // 1: float results (AEW/AFW; LINE_WORDS 0)
  parameter integer AEW        = 8;
  parameter integer AFW        = 7;
  localparam integer LWORDS = (LINE_WORDS > 0) ? LINE_WORDS : 1;   // the line SRAM's
  localparam integer LB    = (COLS > 1) ? $clog2(COLS) : 1;
  localparam integer RE    = 1 + LB;
  localparam integer RT_N  = 4 * 4 * COLS;
  localparam integer AW    = 12;
  localparam integer LAW   = (LINE_WORDS > 1) ? $clog2(LINE_WORDS) : 1;
  localparam integer W     = COLS * ACC_BITS;
  localparam BLOCK = "sagen_psum_manager";

  `include "tb_common.vh"

  reg             rst_n = 1'b0, start = 1'b0, accumulate = 1'b0, c2i = 1'b0;
  reg             lfirst = 1'b0, lacc = 1'b0, step = 1'b0;
  reg  [2:0]      lkg0 = 3'd0;
  reg  [15:0]     owv = 16'd3, nkg = 16'd1;
  reg  [31:0]     nctx = 32'd1, npix = 32'd1, kgw = 32'd1;
  reg  [RT_N*RE-1:0] route = {(RT_N*RE){1'b0}};
  reg  [W-1:0]    res = {W{1'b0}};
  reg  [COLS-1:0] res_vld = {COLS{1'b0}};
  localparam [31:0] ROWS32 = ROWS;

  wire            out_re, out_we, line_re, line_we, done;
  wire [AW-1:0]   out_raddr, out_waddr;
  wire [LAW-1:0]  line_raddr, line_waddr;
  wire [W-1:0]    out_rdata, out_wdata, line_rdata, line_wdata;

  sagen_psum_manager #(
    .ROWS(ROWS), .COLS(COLS), .ACC_BITS(ACC_BITS), .AW(AW), .GROUPS(1),
    .LINE_WORDS(LINE_WORDS), .LINE_AW(LAW), .RT_KGS(4), .LB(LB), .FP(FP), .AEW(AEW), .AFW(AFW)
  ) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start), .accumulate_i(accumulate),
    .n_ctx_i(nctx), .npix_i(npix), .n_kg_i(nkg), .lanes_i(ROWS32[15:0]), .kg_words_i(kgw),
    .dtap_i({(COLS*16){1'b0}}), .c2i_i(c2i), .line_first_i(lfirst), .line_acc_i(lacc),
    .line_kg0_i(lkg0), .owv_i(owv), .route_i(route),
    .line_re_o(line_re), .line_raddr_o(line_raddr), .line_rdata_i(line_rdata),
    .line_we_o(line_we), .line_waddr_o(line_waddr), .line_wdata_o(line_wdata),
    .step_i(step), .res_i(res), .res_vld_i(res_vld),
    .sram_re_o(out_re), .sram_raddr_o(out_raddr), .sram_rdata_i(out_rdata),
    .sram_we_o(out_we), .sram_waddr_o(out_waddr), .sram_wdata_o(out_wdata), .done_o(done)
  );
  sagen_sram #(.WIDTH(W), .WORDS(4096), .AW(AW)) u_out (
    .clk_i(clk), .we_i(out_we), .waddr_i(out_waddr), .wdata_i(out_wdata),
    .re_i(out_re), .raddr_i(out_raddr), .rdata_o(out_rdata)
  );
  sagen_sram #(.WIDTH(W), .WORDS(LWORDS), .AW(LAW)) u_line (
    .clk_i(clk), .we_i(line_we), .waddr_i(line_waddr), .wdata_i(line_wdata),
    .re_i(line_re), .raddr_i(line_raddr), .rdata_o(line_rdata)
  );

  integer p_rows, p_cols, p_acc, p_line, npass, pass, e, ncyc, cy, nchk, k, c, wait_cyc;
  integer d_acc, d_nctx, d_npix, d_nkg, d_owv, d_c2i, d_lf, d_la, d_lkg0, d_kgw;
  reg [63:0] v_e, v_step, v_vld, v_r, v_addr, v_exp, v_got;

  // The model's memories start at zero: a plain pass may accumulate onto words never written,
  // and a col2im tile whose rows are wider than the last row of the tile before it reads line
  // words that row did not write (the grid's columns past its real width: garbage words).
  integer z;
  initial begin
    for (z = 0; z < 4096; z = z + 1) u_out.mem_q[z] = {W{1'b0}};
    for (z = 0; z < LWORDS; z = z + 1) u_line.mem_q[z] = {W{1'b0}};
  end

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d", p_rows, p_cols, p_acc, p_line, npass);
    if (nread != 5) vec_error("header");
    if (p_rows != ROWS || p_cols != COLS || p_acc != ACC_BITS || p_line != LINE_WORDS)
      vec_error("parameters");
    repeat (3) @(posedge clk);
    @(negedge clk) rst_n = 1'b1;
    for (pass = 0; pass < npass; pass = pass + 1) begin
      nread = $fscanf(fd, "%d %d %d %d %d %d %d %d %d %d", d_acc, d_nctx, d_npix, d_nkg, d_owv,
                      d_c2i, d_lf, d_la, d_lkg0, d_kgw);
      if (nread != 10) vec_error("pass line");
      for (e = 0; e < RT_N; e = e + 1) begin
        nread = $fscanf(fd, "%h", v_e);
        if (nread != 1) vec_error("route table");
        route[e*RE +: RE] = v_e[RE-1:0];
      end
      nread = $fscanf(fd, "%d", ncyc);
      if (nread != 1) vec_error("cycle count");
      @(negedge clk);
      accumulate = d_acc[0]; nctx = d_nctx; npix = d_npix; nkg = d_nkg[15:0];
      owv = d_owv[15:0]; c2i = d_c2i[0]; lfirst = d_lf[0]; lacc = d_la[0]; lkg0 = d_lkg0[2:0];
      kgw = d_kgw;
      start = 1'b1;
      @(negedge clk) start = 1'b0;
      for (cy = 0; cy < ncyc; cy = cy + 1) begin
        nread = $fscanf(fd, "%h %h", v_step, v_vld);
        if (nread != 2) vec_error("cycle line");
        step = v_step[0];
        res_vld = v_vld[COLS-1:0];
        for (c = 0; c < COLS; c = c + 1) begin
          nread = $fscanf(fd, "%h", v_r);
          if (nread != 1) vec_error("result");
          res[c*ACC_BITS +: ACC_BITS] = v_r[ACC_BITS-1:0];
        end
        @(negedge clk);
        cycle = cycle + 1;
      end
      step = 1'b0;
      res_vld = {COLS{1'b0}};
      wait_cyc = 0;
      while (!done && wait_cyc < 100) begin
        @(negedge clk);
        wait_cyc = wait_cyc + 1;
      end
      chk("done_o", {63'd0, done}, 64'd1);
      nread = $fscanf(fd, "%d", nchk);
      if (nread != 1) vec_error("check count");
      for (k = 0; k < nchk; k = k + 1) begin
        nread = $fscanf(fd, "%h %h", v_addr, v_exp);
        if (nread != 2) vec_error("check line");
        v_got = 64'd0;
        v_got[W-1:0] = u_out.mem_q[v_addr[AW-1:0]];
        chk("word", v_got, v_exp);
      end
    end
    summary;
  end
endmodule

`resetall
