// tb_index_counters: sagen_index_counters against the records of model_index_counters.c
// (format there). For each pass: the descriptor of its D record is applied and start pulses one
// cycle; then every cycle the testbench raises adv with the pass's probability (its own
// $random, seeded per pass), and each word the counters present (vld_o, checked 1 unit after
// every rising edge) must be the pass's next W record until a cycle with adv takes it: rd_o,
// mask_o, fs_o, ofs_o, iw_o, seg_o and the last flags, addr_o when rd_o. A pass that is not cut
// short must then present nothing for 4 cycles; one taken at full speed must present a word
// every cycle from its first to its last; a pass that presents nothing for 64 cycles fails.
`default_nettype none

module tb_index_counters;
  parameter integer BUS    = 8;
  parameter integer LG_BUS = 3;
  parameter integer AW     = 10;
  parameter integer XW     = 16;
  parameter integer SW     = 9;
  localparam BLOCK = "sagen_index_counters";
  localparam integer NF = 25;  // descriptor fields

  `include "tb_common.vh"

  reg         rst_n = 1'b0, start = 1'b0, adv = 1'b0;
  reg  [15:0] n_ch = 16'd1, n_ctx = 16'd1, n_kr = 16'd1, n_kg = 16'd1;
  reg  [XW-1:0] plane = 0, kr_step = 0, oy_step = 0, ctx_xs = 0, ctx_py = 0;
  reg  [XW-1:0] ow_xs = 1, last_xs = 0, base = 0, kspan = 1;
  reg  [15:0] ctx_y = 16'd0;
  reg  [SW-1:0] last_dseg = 0;
  reg  [15:0] dil_h = 16'd0, str_h = 16'd0, str_w = 16'd0, pad_t = 16'd0, pad_l = 16'd0;
  reg  [15:0] tile_h = 16'd1, tile_w = 16'd1;
  reg         lin = 1'b0;
  reg  [15:0] oh_last = 16'd0, ctx_rows = 16'd0;
  wire          vld, rd, fs, pass_last, ctx_last, grp_last;
  wire [AW-1:0] addr;
  wire [BUS-1:0] mask;
  wire [LG_BUS-1:0] ofs;
  wire [XW-LG_BUS-1:0] iw;
  wire [SW-1:0] seg;

  sagen_index_counters #(.BUS(BUS), .LG_BUS(LG_BUS), .AW(AW), .XW(XW), .SW(SW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start),
    .n_ch_i(n_ch), .n_kr_i(n_kr), .n_ctx_i(n_ctx), .n_kg_i(n_kg),
    .plane_i(plane), .kr_step_i(kr_step), .oy_step_i(oy_step), .ctx_xs_i(ctx_xs),
    .ctx_py_i(ctx_py), .ctx_y_i(ctx_y), .ow_xs_i(ow_xs), .last_xs_i(last_xs),
    .last_dseg_i(last_dseg), .base_i(base), .dil_h_i(dil_h), .str_h_i(str_h),
    .str_w_i(str_w), .pad_t_i(pad_t), .pad_l_i(pad_l), .tile_h_i(tile_h), .tile_w_i(tile_w),
    .kspan_i(kspan), .lin_i(lin), .oh_last_i(oh_last), .ctx_rows_i(ctx_rows),
    .adv_i(adv), .vld_o(vld), .rd_o(rd), .addr_o(addr), .mask_o(mask), .fs_o(fs),
    .ofs_o(ofs), .iw_o(iw), .seg_o(seg), .pass_last_o(pass_last), .ctx_last_o(ctx_last),
    .grp_last_o(grp_last)
  );

  localparam integer MAXW = 4096;
  integer p_bus, p_aw;
  reg [8*4-1:0] tag;
  reg [63:0] f [0:NF-1];
  reg [63:0] e_rd [0:MAXW-1], e_addr [0:MAXW-1], e_mask [0:MAXW-1], e_fs [0:MAXW-1];
  reg [63:0] e_ofs [0:MAXW-1], e_iw [0:MAXW-1], e_seg [0:MAXW-1], e_pl [0:MAXW-1];
  reg [63:0] e_cl [0:MAXW-1], e_gl [0:MAXW-1];
  reg [63:0] v_n, v_cut, v_padv;
  integer i, n, idx, idle, seed, started, bubbles;
  reg done, was_vld;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d", p_bus, p_aw);
    if (nread != 2) vec_error("header");
    if (p_bus != BUS || p_aw != AW || (1 << LG_BUS) != BUS) vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    done = 1'b0;
    cycle = 0;
    seed = 1;
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
        nread = $fscanf(fd, "%s %h %h %h", tag, v_n, v_cut, v_padv);
        if (nread != 4 || tag != "S") vec_error("S record after D");
        n = v_n;
        if (n > MAXW) vec_error("too many words");
        for (i = 0; i < n; i = i + 1) begin
          nread = $fscanf(fd, "%s %h %h %h %h %h %h %h %h %h %h", tag, e_rd[i], e_addr[i],
                          e_mask[i], e_fs[i], e_ofs[i], e_iw[i], e_seg[i], e_pl[i], e_cl[i],
                          e_gl[i]);
          if (nread != 11 || tag != "W") vec_error("W record");
        end
        // the pass: descriptor and start
        @(negedge clk);
        n_ch = f[0]; n_kr = f[1]; n_ctx = f[2]; n_kg = f[3];
        plane = f[4]; kr_step = f[5]; oy_step = f[6]; ctx_xs = f[7]; ctx_py = f[8];
        ctx_y = f[9]; ow_xs = f[10]; last_xs = f[11]; last_dseg = f[12]; base = f[13];
        dil_h = f[14]; str_h = f[15]; str_w = f[16]; pad_t = f[17]; pad_l = f[18];
        tile_h = f[19]; tile_w = f[20]; kspan = f[21]; lin = f[22][0];
        oh_last = f[23]; ctx_rows = f[24];
        start = 1'b1;
        adv = 1'b0;
        @(posedge clk);
        #1;
        cycle = cycle + 1;
        start = 1'b0;
        idx = 0;
        idle = 0;
        started = 0;
        bubbles = 0;
        while (idx < n && idle < 64) begin
          // the presented word (after the last rising edge)
          if (vld) begin
            idle = 0;
            started = 1;
            chk("rd_o", rd, e_rd[idx]);
            chk("mask_o", mask, e_mask[idx]);
            chk("fs_o", fs, e_fs[idx]);
            chk("ofs_o", ofs, e_ofs[idx]);
            chk("iw_o", iw, e_iw[idx]);
            chk("seg_o", seg, e_seg[idx]);
            chk("pass_last_o", pass_last, e_pl[idx]);
            chk("ctx_last_o", ctx_last, e_cl[idx]);
            chk("grp_last_o", grp_last, e_gl[idx]);
            if (e_rd[idx][0]) chk("addr_o", addr, e_addr[idx]);
          end else begin
            idle = idle + 1;
            if (started) bubbles = bubbles + 1;
          end
          @(negedge clk);
          adv = (({$random(seed)} % 100) < v_padv);
          was_vld = vld;
          @(posedge clk);
          #1;
          cycle = cycle + 1;
          if (was_vld && adv) idx = idx + 1;
        end
        @(negedge clk);
        adv = 1'b0;
        if (idx < n) begin
          chk("a word within 64 cycles", 0, 1);
        end else begin
          if (v_padv == 100 && !v_cut[0]) chk("bubbles at full speed", bubbles, 0);
          if (!v_cut[0]) begin
            for (i = 0; i < 4; i = i + 1) begin
              @(posedge clk);
              #1;
              cycle = cycle + 1;
              chk("vld_o after the pass", vld, 0);
              @(negedge clk);
            end
          end
        end
      end else begin
        vec_error("unknown record");
      end
    end
    summary;
  end
endmodule

`resetall
