// tb_psum_manager: sagen_psum_manager (no column groups) with its output SRAM and its col2im
// line against the vectors of model_psum_manager.c (file format there). Each pass: the
// descriptor and the route table are set, start_i pulses (once done_o is high, or for a chained
// pass as soon as the walk is free: free_o must be high after the last pass's lines), the cycle
// lines drive step_i and the columns' results (inputs change just after the falling edge). The
// output SRAM is copied as each pass_done_o pulse's write lands (the next pass has written
// nothing yet), and every expected word of the pass is compared with that copy (every lane at
// once); there must be one pulse per pass.
`default_nettype none

module tb_psum_manager;
  parameter integer ROWS       = 2;
  parameter integer COLS       = 4;
  parameter integer ACC_BITS   = 16;
  parameter integer LINE_WORDS = 40;
  parameter integer FP         = 0;    // 1: float results (AEW/AFW)
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

  wire            out_re, out_we, line_re, line_we, done, free, pdone, rbank, wbank;
  reg             bank = 1'b0;
  wire [AW-1:0]   out_raddr, out_waddr;
  wire [LAW-1:0]  line_raddr, line_waddr;
  wire [W-1:0]    out_rdata, out_wdata, line_rdata, line_wdata;

  sagen_psum_manager #(
    .ROWS(ROWS), .COLS(COLS), .ACC_BITS(ACC_BITS), .AW(AW), .GROUPS(1),
    .LINE_WORDS(LINE_WORDS), .LINE_AW(LAW), .RT_KGS(4), .LB(LB), .FP(FP), .AEW(AEW), .AFW(AFW)
  ) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start), .accumulate_i(accumulate), .bank_i(bank),
    .n_ctx_i(nctx), .npix_i(npix), .n_kg_i(nkg), .lanes_i(ROWS32[15:0]), .kg_words_i(kgw),
    .dtap_i({(COLS*16){1'b0}}), .c2i_i(c2i), .line_first_i(lfirst), .line_acc_i(lacc),
    .line_kg0_i(lkg0), .owv_i(owv), .route_i(route),
    .line_re_o(line_re), .line_raddr_o(line_raddr), .line_rdata_i(line_rdata),
    .line_we_o(line_we), .line_waddr_o(line_waddr), .line_wdata_o(line_wdata),
    .step_i(step), .res_i(res), .res_vld_i(res_vld),
    .sram_re_o(out_re), .sram_raddr_o(out_raddr), .sram_rbank_o(rbank),
    .sram_rdata_i(out_rdata),
    .sram_we_o(out_we), .sram_waddr_o(out_waddr), .sram_wbank_o(wbank),
    .sram_wdata_o(out_wdata), .free_o(free),
    .pass_done_o(pdone), .done_o(done)
  );

  // Each pass is read whole before the pass before it is played (three slots: the pass played,
  // the next, and the one before, whose words are compared after this one's lines): its
  // descriptor, route table, cycle lines and expected words.
  localparam integer MAXC = 8192;   // cycle lines of a pass
  integer    s_acc [0:2], s_nctx [0:2], s_npix [0:2], s_nkg [0:2], s_owv [0:2], s_c2i [0:2];
  integer    s_lf [0:2], s_la [0:2], s_lkg0 [0:2], s_kgw [0:2], s_chain [0:2], s_bank [0:2];
  integer    s_ncyc [0:2], s_nchk [0:2];
  reg [RT_N*RE-1:0]        s_route [0:2];
  reg                      l_step [0:3*MAXC-1];
  reg [COLS-1:0]           l_vld  [0:3*MAXC-1];
  reg [W-1:0]              l_res  [0:3*MAXC-1];
  reg [63:0]               ck_addr [0:3*4096-1];
  reg [63:0]               ck_exp  [0:3*4096-1];
  integer p_rows, p_cols, p_acc, p_line, npass, pass, e, cy, k, c, wait_cyc, sl, nx;
  reg [63:0] v_e, v_step, v_vld, v_r, v_addr, v_exp;

  task read_pass(input integer slot);
    begin
      nread = $fscanf(fd, "%d %d %d %d %d %d %d %d %d %d %d %d", s_acc[slot], s_nctx[slot],
                      s_npix[slot], s_nkg[slot], s_owv[slot], s_c2i[slot], s_lf[slot],
                      s_la[slot], s_lkg0[slot], s_kgw[slot], s_chain[slot], s_bank[slot]);
      if (nread != 12) vec_error("pass line");
      for (e = 0; e < RT_N; e = e + 1) begin
        nread = $fscanf(fd, "%h", v_e);
        if (nread != 1) vec_error("route table");
        s_route[slot][e*RE +: RE] = v_e[RE-1:0];
      end
      nread = $fscanf(fd, "%d", s_ncyc[slot]);
      if (nread != 1 || s_ncyc[slot] > MAXC) vec_error("cycle count");
      for (cy = 0; cy < s_ncyc[slot]; cy = cy + 1) begin
        nread = $fscanf(fd, "%h %h", v_step, v_vld);
        if (nread != 2) vec_error("cycle line");
        l_step[slot * MAXC + cy] = v_step[0];
        l_vld[slot * MAXC + cy] = v_vld[COLS-1:0];
        for (c = 0; c < COLS; c = c + 1) begin
          nread = $fscanf(fd, "%h", v_r);
          if (nread != 1) vec_error("result");
          l_res[slot * MAXC + cy][c*ACC_BITS +: ACC_BITS] = v_r[ACC_BITS-1:0];
        end
      end
      nread = $fscanf(fd, "%d", s_nchk[slot]);
      if (nread != 1 || s_nchk[slot] > 4096) vec_error("check count");
      for (k = 0; k < s_nchk[slot]; k = k + 1) begin
        nread = $fscanf(fd, "%h %h", v_addr, v_exp);
        if (nread != 2) vec_error("check line");
        ck_addr[slot * 4096 + k] = v_addr;
        ck_exp[slot * 4096 + k] = v_exp;
      end
    end
  endtask

  // The descriptor of slot SL onto the inputs, start_i high for the coming edge (inputs change
  // just after the falling edge).
  task start_pass(input integer slot);
    begin
      accumulate = s_acc[slot][0]; nctx = s_nctx[slot]; npix = s_npix[slot];
      nkg = s_nkg[slot][15:0]; owv = s_owv[slot][15:0]; c2i = s_c2i[slot][0];
      lfirst = s_lf[slot][0]; lacc = s_la[slot][0]; lkg0 = s_lkg0[slot][2:0];
      kgw = s_kgw[slot]; bank = s_bank[slot][0]; route = s_route[slot];
      start = 1'b1;
    end
  endtask

  // done_o within 100 cycles, checked
  task wait_done;
    begin
      wait_cyc = 0;
      while (!done && wait_cyc < 100) begin
        @(negedge clk);
        wait_cyc = wait_cyc + 1;
      end
      chk("done_o", {63'd0, done}, 64'd1);
    end
  endtask

  // start_i for one edge with the descriptor of slot SL
  task launch(input integer slot);
    begin
      start_pass(slot);
      @(negedge clk);
      start = 1'b0;
    end
  endtask

  // The output SRAM as each pass ended (pass_done_o: its last word is written at that edge; the
  // next pass has written nothing yet), two passes' copies by parity.
  reg [W-1:0] snap [0:2*8192-1];
  reg         pdone_q = 1'b0;
  integer     pdone_n = 0, zs;
  always @(posedge clk) pdone_q <= pdone;
  always @(negedge clk) begin
    if (pdone_q) begin
      for (zs = 0; zs < 8192; zs = zs + 1) snap[(pdone_n % 2) * 8192 + zs] = u_out.mem_q[zs];
      pdone_n = pdone_n + 1;
    end
  end
  // Pass P's words (slot P % 3) against its copy, once its pass_done_o has come.
  task check_pass(input integer p);
    integer t, q;
    reg [63:0] got;
    begin
      t = 0;
      while (pdone_n <= p && t < 100) begin
        @(negedge clk);
        t = t + 1;
      end
      chk("pass_done_o", {63'd0, pdone_n > p}, 64'd1);
      for (q = 0; q < s_nchk[p % 3]; q = q + 1) begin
        got = 64'd0;
        got[W-1:0] = snap[(p % 2) * 8192 + ck_addr[(p % 3) * 4096 + q][12:0]];
        chk("word", got, ck_exp[(p % 3) * 4096 + q]);
      end
    end
  endtask

  // both output banks in one memory: bank * 4096 + word
  sagen_sram #(.WIDTH(W), .WORDS(8192), .AW(AW + 1)) u_out (
    .clk_i(clk), .we_i(out_we), .waddr_i({wbank, out_waddr}), .wdata_i(out_wdata),
    .re_i(out_re), .raddr_i({rbank, out_raddr}), .rdata_o(out_rdata)
  );
  sagen_sram #(.WIDTH(W), .WORDS(LWORDS), .AW(LAW)) u_line (
    .clk_i(clk), .we_i(line_we), .waddr_i(line_waddr), .wdata_i(line_wdata),
    .re_i(line_re), .raddr_i(line_raddr), .rdata_o(line_rdata)
  );

  // The model's memories start at zero: a plain pass may accumulate onto words never written,
  // and a col2im tile whose rows are wider than the last row of the tile before it reads line
  // words that row did not write (the grid's columns past its real width: garbage words).
  integer z;
  initial begin
    for (z = 0; z < 8192; z = z + 1) u_out.mem_q[z] = {W{1'b0}};
    for (z = 0; z < LWORDS; z = z + 1) u_line.mem_q[z] = {W{1'b0}};
  end

  reg next_started;
  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d", p_rows, p_cols, p_acc, p_line, npass);
    if (nread != 5) vec_error("header");
    if (p_rows != ROWS || p_cols != COLS || p_acc != ACC_BITS || p_line != LINE_WORDS)
      vec_error("parameters");
    repeat (3) @(posedge clk);
    @(negedge clk) rst_n = 1'b1;
    read_pass(0);
    launch(0);
    for (pass = 0; pass < npass; pass = pass + 1) begin
      sl = pass % 3;
      nx = (pass + 1) % 3;
      if (pass + 1 < npass) read_pass(nx);
      // a chained next pass starts in the first cycle the walk is free (the lines end with the
      // last result: stepping on without results until then)
      next_started = 1'b0;
      for (cy = 0; cy < s_ncyc[sl]; cy = cy + 1) begin
        step = l_step[sl * MAXC + cy];
        res_vld = l_vld[sl * MAXC + cy];
        res = l_res[sl * MAXC + cy];
        #1;
        if (pass + 1 < npass && s_chain[nx] != 0 && free) begin
          if (!next_started) start_pass(nx);
          next_started = 1'b1;
        end
        @(negedge clk);
        start = 1'b0;
        cycle = cycle + 1;
      end
      res_vld = {COLS{1'b0}};
      if (pass + 1 < npass && s_chain[nx] != 0) begin
        step = 1'b1;
        wait_cyc = 0;
        #1;
        while (!next_started && !free && wait_cyc < 100) begin
          @(negedge clk);
          #1;
          wait_cyc = wait_cyc + 1;
        end
        if (!next_started) begin
          chk("free_o", {63'd0, free}, 64'd1);
          launch(nx);
        end
        step = 1'b0;
      end else begin
        step = 1'b0;
        wait_done;
        if (pass + 1 < npass) launch(nx);
      end
      if (pass > 0) check_pass(pass - 1);
    end
    wait_done;
    check_pass(npass - 1);
    repeat (3) @(negedge clk);
    chk("pass_done_o pulses", pdone_n, npass);
    summary;
  end
endmodule

`resetall
