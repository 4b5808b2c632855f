// tb_nz_addr_gen: sagen_nz_addr_gen against the walks of model_nz_addr_gen.c (format there).
// Inputs change just after the falling edge, outputs are checked 1 unit after the rising edge.
// Per walk: start_i for one cycle (adv_i high, which must be ignored, also through the
// prologue); every cycle of the prologue busy_o = 1 and vld_o = 0, and the cycle of the first
// vld_o must be the expected one (the prologue is also measured: min/max go to a note line);
// then each element is checked (vld_o, busy_o, nz_o, addr_o, tap_last_o, last_o) in every cycle
// it is presented: `gap` cycles with adv_i low (it must hold), then one with adv_i high. After
// a complete walk vld_o, busy_o and the flags must be low for two cycles; a cut walk is
// followed at once by the next start.
`default_nettype none

module tb_nz_addr_gen;
  parameter integer AW = 32;
  localparam BLOCK = "sagen_nz_addr_gen";
  localparam integer NF = 18;  // descriptor fields

  `include "tb_common.vh"

  reg          rst_n = 1'b0, start = 1'b0, adv = 1'b0;
  reg  [15:0]  n_pb = 16'd1, n_py = 16'd1, n_px = 16'd1, n_ch = 16'd1, n_r = 16'd1;
  reg  [15:0]  n_s = 16'd1, dil_h = 16'd1, dil_w = 16'd1, off_h = 16'd0, off_w = 16'd0;
  reg  [15:0]  str_h = 16'd1, str_w = 16'd1, hs = 16'd1, ws = 16'd1;
  reg  [31:0]  pitch = 32'd0, pb_stride = 32'd0, ch_stride = 32'd0, base = 32'd0;
  wire         busy, vld, nz, tap_last, last;
  wire [AW-1:0] addr;

  sagen_nz_addr_gen #(.AW(AW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start),
    .n_pb_i(n_pb), .n_py_i(n_py), .n_px_i(n_px), .n_ch_i(n_ch), .n_r_i(n_r), .n_s_i(n_s),
    .dil_h_i(dil_h), .dil_w_i(dil_w), .off_h_i(off_h), .off_w_i(off_w),
    .str_h_i(str_h), .str_w_i(str_w), .hs_i(hs), .ws_i(ws),
    .pitch_i(pitch), .pb_stride_i(pb_stride), .ch_stride_i(ch_stride), .base_i(base),
    .adv_i(adv), .busy_o(busy), .vld_o(vld), .nz_o(nz), .addr_o(addr),
    .tap_last_o(tap_last), .last_o(last)
  );

  integer p_aw;
  reg [8*4-1:0] tag;
  reg [63:0] f [0:NF-1];
  reg [63:0] e_pro, e_n, e_cut, e_wait, e_gap, e_nz, e_addr, e_tl, e_last;
  integer i, k, g, pro, limit;
  integer n_walks = 0, n_elems = 0, pro_min = -1, pro_max = 0;
  integer t_elems, t_nz, t_pub, t_dir, t_miss, t_miss_gen;
  reg done, noted, lost;

  // One clock: the inputs were set after the falling edge; step to 1 unit after the rising one.
  task tick;
    begin
      @(posedge clk);
      #1;
      cycle = cycle + 1;
    end
  endtask

  task chk_idle;
    begin
      chk("vld_o", vld, 0);
      chk("busy_o", busy, 0);
      chk("nz_o", nz, 0);
      chk("tap_last_o", tap_last, 0);
      chk("last_o", last, 0);
    end
  endtask

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d", p_aw);
    if (nread != 1) vec_error("header");
    if (p_aw != AW) vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    tick;
    chk_idle;
    done = 1'b0;
    noted = 1'b0;
    while (!done) begin
      nread = $fscanf(fd, "%s", tag);
      if (nread != 1) vec_error("record tag");
      if (tag == "E") begin
        done = 1'b1;
      end else if (tag == "N") begin
        nread = $fscanf(fd, "%d %d %d %d %d %d", t_elems, t_nz, t_pub, t_dir, t_miss,
                        t_miss_gen);
        if (nread != 6) vec_error("totals");
        noted = 1'b1;
      end else if (tag == "W") begin
        for (i = 0; i < NF; i = i + 1) begin
          nread = $fscanf(fd, "%h", f[i]);
          if (nread != 1) vec_error("walk descriptor");
        end
        nread = $fscanf(fd, "%h %h %h %h", e_pro, e_n, e_cut, e_wait);
        if (nread != 4) vec_error("walk record");
        // the start cycle
        @(negedge clk);
        n_pb = f[0]; n_py = f[1]; n_px = f[2]; n_ch = f[3]; n_r = f[4]; n_s = f[5];
        dil_h = f[6]; dil_w = f[7]; off_h = f[8]; off_w = f[9]; str_h = f[10]; str_w = f[11];
        hs = f[12]; ws = f[13]; pitch = f[14]; pb_stride = f[15]; ch_stride = f[16];
        base = f[17];
        start = 1'b1;
        adv = 1'b1;
        tick;
        // the prologue: cycle `pro` is the one after `pro` rising edges from the start cycle
        pro = 1;
        lost = 1'b0;
        limit = (e_cut[0] && e_n == 0) ? e_wait : e_pro + 4;
        while (!vld && pro < limit) begin
          chk("busy_o", busy, 1);
          chk("nz_o", nz, 0);
          @(negedge clk);
          start = 1'b0;
          tick;
          pro = pro + 1;
        end
        if (e_cut[0] && e_n == 0) begin
          chk("vld_o (prologue)", vld, 0);
          chk("busy_o", busy, 1);
        end else begin
          chk("prologue cycles", pro, e_pro);
          n_walks = n_walks + 1;
          if (pro_min < 0 || pro < pro_min) pro_min = pro;
          if (pro > pro_max) pro_max = pro;
          if (!vld) lost = 1'b1;     // no element: skip this walk's lines, restart with the next
        end
        for (k = 0; k < e_n; k = k + 1) begin
          nread = $fscanf(fd, "%h %h %h %h %h", e_gap, e_nz, e_addr, e_tl, e_last);
          if (nread != 5) vec_error("element");
          if (!lost) begin
            for (g = 0; g <= e_gap; g = g + 1) begin
              // six checks; one comparison when all match (the per-field ones are slow)
              if ({vld, busy, nz, tap_last, last, addr} ===
                  {2'b11, e_nz[0], e_tl[0], e_last[0], e_addr[AW-1:0]} && e_nz[63:1] == 0 &&
                  e_tl[63:1] == 0 && e_last[63:1] == 0 && (e_addr >> AW) == 0) begin
                n_checks = n_checks + 6;
              end else begin
                chk("vld_o", vld, 1);
                chk("busy_o", busy, 1);
                chk("nz_o", nz, e_nz);
                chk("addr_o", addr, e_addr);
                chk("tap_last_o", tap_last, e_tl);
                chk("last_o", last, e_last);
              end
              n_elems = n_elems + (g == 0);
              @(negedge clk);
              start = 1'b0;
              adv = (g == e_gap);
              tick;
            end
          end
        end
        if (!e_cut[0] && !lost) begin
          chk_idle;
          @(negedge clk);
          start = 1'b0;
          adv = cycle[0];
          tick;
          chk_idle;
        end
      end else begin
        vec_error("unknown record");
      end
    end
    $display("%0s prologue: %0d walks, first vld_o %0d..%0d cycles after start_i; ", BLOCK,
             n_walks, pro_min, pro_max, "%0d elements checked", n_elems);
    if (noted && t_dir > 0)
      $display("%0s reference: %0d entries (%0d non-zero) = index map, ", BLOCK, t_elems, t_nz,
               "%0d of them = the published algorithm", t_pub);
    if (noted && t_miss_gen > 0)
      $display("%0s reference: Algorithm 1 as published lacks the bottom/right bound: ", BLOCK,
               "an address past the stored dy for %0d entries (%0d with the generalization)",
               t_miss, t_miss_gen);
    summary;
  end
endmodule

`resetall
