// tb_feeder: sagen_feeder against the passes of model_feeder.c (format and contract there).
// Per pass: at a falling edge the descriptor is applied with start_i high for one cycle, and
// run_i with it or the pass's run_dly cycles later (a pass started ahead of its data): the
// pass's SRAM image is loaded when run_i rises (until then the SRAM holds the last pass's), and
// no read may come before. The SRAM returns the word the cycle after sram_re_o and holds it
// otherwise (like sagen_sram). Every cycle, at the falling edge, pop_i is raised when ready_o is
// high, with the pass's rate; 1 unit later: a read must be the pass's next expected one
// (address), idle_o must be low while elements are left (from the cycle after start), the lanes
// from lanes_i on must read as done and ready (dbg_lane_done_o, dbg_lane_nonempty_o), and a pop
// compares every lane in use: head_last_o always, head_o where the element is checked (lanes of
// real pixels). After the last pop idle_o must be high and ready_o low at once and stay so, with
// no read, until the next start 1..4 cycles later; the pass must have read every expected word,
// and its reads plus ev_pad_word_o cycles must be the words presented. A pass with neither a pop
// nor a read for 1000 cycles after run_i is stuck (the test ends there). Passes popped at every
// ready cycle print their cycles from run_i to the last pop, against one word or one pop a cycle
// ("# full speed" line: a figure, not a check).
`default_nettype none

module tb_feeder;
  parameter integer LANES   = 4;
  parameter integer BUS     = 8;
  parameter integer LG_BUS  = 3;
  parameter integer IN_BITS = 8;
  parameter integer M       = 2;
  parameter integer DEPTH   = 4;
  parameter integer AW      = 10;
  localparam integer XW = AW + LG_BUS + 2;           // as sagen_core sets them
  localparam integer SW = $clog2(LANES + 2) + 1;
  // the widest kernel row model_feeder.c draws (S <= DEPTH, d <= 3): the lanes' tap offsets
  // are as narrow as the feeder allows
  localparam integer PAT_BITS = 3 * (DEPTH - 1) + 1;
  localparam BLOCK = "sagen_feeder";
  localparam integer NF   = 27;      // descriptor fields of a D record
  localparam integer MAXR = 8192;    // reads and pops per pass (model_feeder.c's limits)
  localparam integer MAXP = 8192;
  localparam integer NMEM = 1 << AW;
  localparam integer DW   = BUS * IN_BITS;
  localparam integer HW   = LANES * IN_BITS;

  `include "tb_common.vh"

  reg            rst_n = 1'b0, start = 1'b0, run = 1'b1, pop = 1'b0;
  reg  [15:0]    lanes = 16'd1, n_ch = 16'd1, n_kr = 16'd1, n_ctx = 16'd1, n_kg = 16'd1;
  reg  [XW-1:0]  plane = {XW{1'b0}}, kr_step = {XW{1'b0}}, oy_step = {XW{1'b0}};
  reg  [XW-1:0]  ctx_xs = {XW{1'b0}}, ctx_py = {XW{1'b0}}, ow_xs = {XW{1'b0}};
  reg  [XW-1:0]  last_xs = {XW{1'b0}}, base = {XW{1'b0}};
  reg  [15:0]    ctx_y = 16'd0, oh_last = 16'd0, ctx_rows = 16'd0;
  reg  [SW-1:0]  last_dseg = {SW{1'b0}};
  reg  [15:0]    dil_h = 16'd1, str_h = 16'd1, str_w = 16'd1, pad_t = 16'd0, pad_l = 16'd0;
  reg  [15:0]    tile_h = 16'd1, tile_w = 16'd1, taps = 16'd1, tap_gap = 16'd1;
  reg            lin = 1'b0;
  wire           sram_re, ready, idle, ev_pad_word;
  wire [AW-1:0]  sram_addr;
  reg  [DW-1:0]  sram_rdata = {DW{1'b0}};
  wire [HW-1:0]  head;
  wire [LANES-1:0] head_last, dbg_lane_done, dbg_lane_nonempty;
  wire           dbg_rd_vld, dbg_word_vld;

  sagen_feeder #(
    .LANES  (LANES),
    .BUS    (BUS),
    .LG_BUS (LG_BUS),
    .IN_BITS(IN_BITS),
    .M      (M),
    .DEPTH  (DEPTH),
    .AW     (AW),
    .XW     (XW),
    .SW     (SW),
    .PAT_BITS(PAT_BITS)
  ) dut (
    .clk_i        (clk),
    .rst_ni       (rst_n),
    .start_i      (start),
    .run_i        (run),
    .lanes_i      (lanes),
    .n_ch_i       (n_ch),
    .n_kr_i       (n_kr),
    .n_ctx_i      (n_ctx),
    .n_kg_i       (n_kg),
    .plane_i      (plane),
    .kr_step_i    (kr_step),
    .oy_step_i    (oy_step),
    .ctx_xs_i     (ctx_xs),
    .ctx_py_i     (ctx_py),
    .ctx_y_i      (ctx_y),
    .ow_xs_i      (ow_xs),
    .last_xs_i    (last_xs),
    .last_dseg_i  (last_dseg),
    .oh_last_i    (oh_last),
    .ctx_rows_i   (ctx_rows),
    .base_i       (base),
    .dil_h_i      (dil_h),
    .str_h_i      (str_h),
    .str_w_i      (str_w),
    .pad_t_i      (pad_t),
    .pad_l_i      (pad_l),
    .tile_h_i     (tile_h),
    .tile_w_i     (tile_w),
    .taps_i       (taps),
    .tap_gap_i    (tap_gap),
    .lin_i        (lin),
    .sram_re_o    (sram_re),
    .sram_addr_o  (sram_addr),
    .sram_rdata_i (sram_rdata),
    .pop_i        (pop),
    .ready_o      (ready),
    .head_o       (head),
    .head_last_o  (head_last),
    .idle_o       (idle),
    .ev_pad_word_o(ev_pad_word),
    .dbg_rd_vld_o       (dbg_rd_vld),
    .dbg_word_vld_o     (dbg_word_vld),
    .dbg_lane_done_o    (dbg_lane_done),
    .dbg_lane_nonempty_o(dbg_lane_nonempty)
  );
  wire unused_dbg = ^{dbg_rd_vld, dbg_word_vld};

  // the ifmap SRAM: the word the cycle after the read, held until the next
  reg [DW-1:0] mem [0:NMEM-1];
  reg [DW-1:0] img [0:NMEM-1];     // the pass's image, loaded at run_i
  always @(posedge clk) if (sram_re) sram_rdata <= mem[sram_addr];

  reg [8*4-1:0]  tag;
  reg [31:0]     f [0:NF-1];
  reg [AW-1:0]   e_rd [0:MAXR-1];
  reg [AW-1:0]   ra;
  reg [63:0]     e_chk [0:MAXP-1], e_last [0:MAXP-1];
  reg [HW-1:0]   e_head [0:MAXP-1];
  reg [DW-1:0]   w;
  reg [HW-1:0]   h;
  integer p_lanes, p_bus, p_in, p_m, p_depth, p_aw, p_seed;
  integer i, l, p_pop, run_dly, since, n_img, n_rd, n_pop, n_words, ridx, pidx, pads, quiet;
  integer gap, npass, t0, crs, jj, i_lanes, i_ctx, i_kr, i_taps;
  integer fs_pass, fs_cyc, fs_words, fs_pops, fs_bound;
  reg done, stuck;

  // the pop decisions and the gaps between passes: xorshift32, seeded from the file's seed, the
  // same in every simulator
  reg [31:0] rng;
  task rng_next;
    begin
      rng = rng ^ (rng << 13);
      rng = rng ^ (rng >> 17);
      rng = rng ^ (rng << 5);
    end
  endtask

  // one lane of one pop: its last mark always, its element if checked; a mismatch names the
  // pop's element (filter group, context, channel c, kernel row r, tap s)
  task where(input integer lane);
    begin
      $write("MISMATCH cycle %0d pass %0d pop %0d (group %0d context %0d c %0d r %0d s %0d) ",
             cycle, npass, pidx, pidx / (crs * i_ctx), (pidx / crs) % i_ctx,
             jj / (i_kr * i_taps), (jj / i_taps) % i_kr, jj % i_taps);
      $write("lane %0d: ", lane);
    end
  endtask

  task chk_lane(input integer lane);
    begin
      jj = pidx % crs;
      n_checks = n_checks + 1;
      if (head_last[lane] !== e_last[pidx][lane]) begin
        n_mism = n_mism + 1;
        if (n_mism <= 10) begin
          where(lane);
          $display("head_last got %b expected %b", head_last[lane], e_last[pidx][lane]);
        end
      end
      if (e_chk[pidx][lane]) begin
        n_checks = n_checks + 1;
        if (head[lane*IN_BITS +: IN_BITS] !== e_head[pidx][lane*IN_BITS +: IN_BITS]) begin
          n_mism = n_mism + 1;
          if (n_mism <= 10) begin
            where(lane);
            $display("head got %h expected %h", head[lane*IN_BITS +: IN_BITS],
                     e_head[pidx][lane*IN_BITS +: IN_BITS]);
          end
        end
      end
    end
  endtask

  task fail(input [8*48-1:0] what);
    begin
      n_mism = n_mism + 1;
      if (n_mism <= 10)
        $display("MISMATCH cycle %0d pass %0d: %0s (pop %0d of %0d, read %0d of %0d)", cycle,
                 npass, what, pidx, n_pop, ridx, n_rd);
    end
  endtask

  // each lane's done: its flip-flop (worked out the cycle before, for each value of that cycle's
  // accept and pop) and what the pick gives from the lane's state this cycle
  // A lane that holds the staged word (not done, no accept) must find its next tap in it the
  // cycle after (slot 0 in the word, inw[0]): a lane that held a word for nothing would only
  // cost cycles, which no element check sees.
  wire [LANES-1:0] done_reg, done_now, slot0_in;
  genvar gl;
  generate
    for (gl = 0; gl < LANES; gl = gl + 1) begin : g_done
      assign done_reg[gl] = dut.g_lane[gl].u_lane.done_q;
      assign done_now[gl] = dut.g_lane[gl].u_lane.done_c;
      assign slot0_in[gl] = dut.g_lane[gl].u_lane.inw[0];
    end
  endgenerate
  reg [LANES-1:0] held;             // lanes that held the word at the last sample
  integer         held_cyc;
  initial held_cyc = -2;

  // 1 unit after the falling edge: no X on the control outputs, the cycle's read, its padding
  // word, the lanes that sit out: done and ready (their DEBUG bits), and every lane's registered
  // done equal to its pick's
  integer lo;
  reg     off_bad;
  task sample;
    begin
      if (^{ready, idle, sram_re, ev_pad_word} === 1'bx)
        fail("X on ready_o, idle_o, sram_re_o or ev_pad_word_o");
      n_checks = n_checks + 1;
      if (done_reg !== done_now) fail("a lane's done_q differs from its pick's done");
      if (held_cyc == cycle - 1 && held != {LANES{1'b0}}) begin
        n_checks = n_checks + 1;
        if ((held & ~slot0_in) != {LANES{1'b0}}) fail("a lane held the word for nothing");
      end
      held = (dut.b_vld_q && !dut.accept) ? (~done_reg & dut.lane_on_q) : {LANES{1'b0}};
      held_cyc = cycle;
      off_bad = 1'b0;
      for (lo = 0; lo < LANES; lo = lo + 1)
        if (lo >= i_lanes && (dbg_lane_done[lo] !== 1'b1 || dbg_lane_nonempty[lo] !== 1'b1))
          off_bad = 1'b1;
      if (i_lanes < LANES) begin
        n_checks = n_checks + 1;
        if (off_bad) fail("a lane past lanes_i not done or not ready");
      end
      if (sram_re) begin
        n_checks = n_checks + 1;
        if (!run) fail("a read before run_i");
        if (ridx >= n_rd) fail("a read past the expected ones");
        else if (sram_addr !== e_rd[ridx]) begin
          n_mism = n_mism + 1;
          if (n_mism <= 10)
            $display("MISMATCH cycle %0d pass %0d: read %0d of %0d at address %h expected %h",
                     cycle, npass, ridx, n_rd, sram_addr, e_rd[ridx]);
        end
        ridx = ridx + 1;
      end
      if (ev_pad_word) pads = pads + 1;
    end
  endtask

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d %d %d %d", p_lanes, p_bus, p_in, p_m, p_depth, p_aw,
                    p_seed);
    if (nread != 7) vec_error("header");
    if (p_lanes != LANES || p_bus != BUS || p_in != IN_BITS || p_m != M || p_depth != DEPTH ||
        p_aw != AW || (1 << LG_BUS) != BUS)
      vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    done = 1'b0;
    stuck = 1'b0;
    cycle = 0;
    rng = 32'h9e3779b9 ^ p_seed;
    npass = 0;
    fs_pass = 0; fs_cyc = 0; fs_words = 0; fs_pops = 0; fs_bound = 0;
    // at a falling edge from here on, between passes
    while (!done) begin
      nread = $fscanf(fd, "%s", tag);
      if (nread != 1) vec_error("record tag");
      if (tag == "E") begin
        done = 1'b1;
      end else if (tag == "D") begin
        for (i = 0; i < NF; i = i + 1) begin
          nread = $fscanf(fd, "%h", f[i]);
          if (nread != 1) vec_error("descriptor");
        end
        nread = $fscanf(fd, "%s %h %h %h %h %h %h", tag, p_pop, run_dly, n_img, n_rd, n_pop,
                        n_words);
        if (nread != 7 || tag != "S") vec_error("S record after D");
        if (n_img > NMEM || n_rd > MAXR || n_pop > MAXP) vec_error("pass too large");
        for (i = 0; i < n_img; i = i + 1) begin
          nread = $fscanf(fd, "%h", w);
          if (nread != 1) vec_error("SRAM word");
          img[i] = w;
        end
        for (i = 0; i < n_rd; i = i + 1) begin
          nread = $fscanf(fd, "%s %h", tag, ra);
          if (nread != 2 || tag != "R") vec_error("R record");
          e_rd[i] = ra;
        end
        for (i = 0; i < n_pop; i = i + 1) begin
          nread = $fscanf(fd, "%s %h %h %h", tag, e_chk[i], e_last[i], h);
          if (nread != 4 || tag != "P") vec_error("P record");
          e_head[i] = h;
        end
        // the pass: descriptor and start; run_i with it, or run_dly cycles later (the tile is
        // loaded then: until run_i the SRAM holds the last pass's)
        lanes = f[0][15:0]; n_ch = f[1][15:0]; n_kr = f[2][15:0]; n_ctx = f[3][15:0];
        n_kg = f[4][15:0]; plane = f[5][XW-1:0]; kr_step = f[6][XW-1:0];
        oy_step = f[7][XW-1:0]; ctx_xs = f[8][XW-1:0]; ctx_py = f[9][XW-1:0];
        ctx_y = f[10][15:0]; ow_xs = f[11][XW-1:0]; last_xs = f[12][XW-1:0];
        last_dseg = f[13][SW-1:0]; oh_last = f[14][15:0]; ctx_rows = f[15][15:0];
        base = f[16][XW-1:0]; dil_h = f[17][15:0]; str_h = f[18][15:0]; str_w = f[19][15:0];
        pad_t = f[20][15:0]; pad_l = f[21][15:0]; tile_h = f[22][15:0]; tile_w = f[23][15:0];
        taps = f[24][15:0]; tap_gap = f[25][15:0]; lin = f[26][0];
        i_lanes = {16'd0, lanes};
        i_ctx = {16'd0, n_ctx};
        i_kr = {16'd0, n_kr};
        i_taps = {16'd0, taps};
        crs = {16'd0, n_ch} * i_kr * i_taps;
        start = 1'b1;
        pop = 1'b0;
        run = 1'b0;
        ridx = 0; pidx = 0; pads = 0; quiet = 0; since = 0;
        while (pidx < n_pop && !stuck) begin
          if (!run && since == run_dly) begin
            for (i = 0; i < n_img; i = i + 1) mem[i] = img[i];
            run = 1'b1;
            t0 = cycle;
          end
          rng_next;
          pop = (ready === 1'b1) && ((rng % 100) < p_pop);
          #1;
          sample;
          if (idle !== 1'b0 && since > 0) fail("idle_o while elements are left");
          if (pop) begin
            for (l = 0; l < LANES; l = l + 1)
              if (l < i_lanes) chk_lane(l);
            pidx = pidx + 1;
          end
          if (pop || sram_re || !run) quiet = 0;
          else quiet = quiet + 1;
          if (quiet >= 1000) begin
            fail("stuck: no pop or read for 1000 cycles");
            stuck = 1'b1;
          end
          @(posedge clk);
          cycle = cycle + 1;
          @(negedge clk);
          start = 1'b0;
          since = since + 1;
        end
        pop = 1'b0;
        if (stuck) begin
          done = 1'b1;
        end else begin
          if (p_pop == 100) begin
            fs_pass = fs_pass + 1;
            fs_cyc = fs_cyc + (cycle - t0);
            fs_words = fs_words + n_words;
            fs_pops = fs_pops + n_pop;
            fs_bound = fs_bound + ((n_words > n_pop) ? n_words : n_pop);
          end
          // after the last pop: idle, nothing ready, no read, until the next start (1..4
          // cycles on: the controller starts the next pass once it has seen idle_o)
          rng_next;
          gap = 1 + rng % 4;
          for (i = 0; i < gap; i = i + 1) begin
            #1;
            sample;
            n_checks = n_checks + 1;
            if (idle !== 1'b1 || ready !== 1'b0) fail("idle_o low or ready_o high after the pass");
            @(posedge clk);
            cycle = cycle + 1;
            @(negedge clk);
          end
          n_checks = n_checks + 2;
          if (ridx != n_rd) fail("reads missing");
          if (ridx + pads != n_words) fail("reads + padding words != words presented");
        end
        npass = npass + 1;
      end else begin
        vec_error("unknown record");
      end
    end
    if (fs_pass > 0) begin
      $write("# full speed: %0d passes, %0d cycles from run_i to the last pop; ", fs_pass, fs_cyc);
      $display("%0d words presented, %0d pops (at most one of each a cycle: >= %0d)", fs_words,
               fs_pops, fs_bound);
    end
    summary;
  end
endmodule

`resetall
