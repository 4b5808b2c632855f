// tb_index_counters: sagen_index_counters against the records of model_index_counters.c
// (format there). A D record sets the pass descriptor, a C record is one cycle: start/adv
// change just after the falling edge (with the descriptor of a D record right before), the
// presented word is checked 1 unit after the rising edge: vld_o always, rd_o always (low when
// no word), mask_o/rel_o/seg_o/pass_last_o/ctx_last_o/grp_last_o when a word is presented,
// addr_o when rd_o is expected.
`default_nettype none

module tb_index_counters;
  parameter integer BUS    = 8;
  parameter integer LG_BUS = 3;
  parameter integer AW     = 10;
  localparam BLOCK = "sagen_index_counters";
  localparam integer NF = 25;  // descriptor fields

  `include "tb_common.vh"

  reg         rst_n = 1'b0, start = 1'b0, adv = 1'b0;
  reg  [31:0] n_ch = 32'd1, n_ctx = 32'd1;
  reg  [15:0] n_kr = 16'd1, n_kg = 16'd1;
  reg  [31:0] plane = 32'd0, kr_step = 32'd0, oy_step = 32'd0, ctx_xs = 32'd0, ctx_py = 32'd0;
  reg  [31:0] ow_xs = 32'd1, last_xs = 32'd0, base = 32'd0;
  reg  [15:0] ctx_y = 16'd0, last_dseg = 16'd0;
  reg  [15:0] dil_h = 16'd0, str_h = 16'd0, str_w = 16'd0, pad_t = 16'd0, pad_l = 16'd0;
  reg  [15:0] tile_h = 16'd1, tile_w = 16'd1, kspan = 16'd1;
  reg         lin = 1'b0;
  reg  [15:0] oh_last = 16'd0, ctx_rows = 16'd0;
  wire          vld, rd, pass_last, ctx_last, grp_last;
  wire [AW-1:0] addr;
  wire [BUS-1:0] mask;
  wire [31:0]   rel;
  wire [15:0]   seg;

  sagen_index_counters #(.BUS(BUS), .LG_BUS(LG_BUS), .AW(AW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start),
    .n_ch_i(n_ch), .n_kr_i(n_kr), .n_ctx_i(n_ctx), .n_kg_i(n_kg),
    .plane_i(plane), .kr_step_i(kr_step), .oy_step_i(oy_step), .ctx_xs_i(ctx_xs),
    .ctx_py_i(ctx_py), .ctx_y_i(ctx_y), .ow_xs_i(ow_xs), .last_xs_i(last_xs),
    .last_dseg_i(last_dseg), .base_i(base), .dil_h_i(dil_h), .str_h_i(str_h),
    .str_w_i(str_w), .pad_t_i(pad_t), .pad_l_i(pad_l), .tile_h_i(tile_h), .tile_w_i(tile_w),
    .kspan_i(kspan), .lin_i(lin), .oh_last_i(oh_last), .ctx_rows_i(ctx_rows),
    .adv_i(adv), .vld_o(vld), .rd_o(rd), .addr_o(addr), .mask_o(mask), .rel_o(rel),
    .seg_o(seg), .pass_last_o(pass_last), .ctx_last_o(ctx_last), .grp_last_o(grp_last)
  );

  integer p_bus, p_aw;
  reg [8*4-1:0] tag;
  reg [63:0] f [0:NF-1];
  reg [63:0] v_start, v_adv, e_vld, e_rd, e_addr, e_mask, e_rel, e_seg, e_last, e_clast;
  reg [63:0] e_glast;
  integer i;
  reg done;

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d", p_bus, p_aw);
    if (nread != 2) vec_error("header");
    if (p_bus != BUS || p_aw != AW || (1 << LG_BUS) != BUS) vec_error("parameters");
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    done = 1'b0;
    cycle = 0;
    while (!done) begin
      @(negedge clk);
      nread = $fscanf(fd, "%s", tag);
      if (nread != 1) vec_error("record tag");
      if (tag == "D") begin
        for (i = 0; i < NF; i = i + 1) begin
          nread = $fscanf(fd, "%h", f[i]);
          if (nread != 1) vec_error("descriptor");
        end
        n_ch = f[0]; n_kr = f[1]; n_ctx = f[2]; n_kg = f[3];
        plane = f[4]; kr_step = f[5]; oy_step = f[6]; ctx_xs = f[7]; ctx_py = f[8];
        ctx_y = f[9]; ow_xs = f[10]; last_xs = f[11]; last_dseg = f[12]; base = f[13];
        dil_h = f[14]; str_h = f[15]; str_w = f[16]; pad_t = f[17]; pad_l = f[18];
        tile_h = f[19]; tile_w = f[20]; kspan = f[21]; lin = f[22][0];
        oh_last = f[23]; ctx_rows = f[24];
        nread = $fscanf(fd, "%s", tag);
        if (nread != 1 || tag != "C") vec_error("C record after D");
      end
      if (tag == "E") begin
        done = 1'b1;
      end else if (tag == "C") begin
        nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h", v_start, v_adv, e_vld, e_rd,
                        e_addr, e_mask, e_rel, e_seg, e_last, e_clast, e_glast);
        if (nread != 11) vec_error("cycle record");
        #1;
        start = v_start[0];
        adv   = v_adv[0];
        @(posedge clk);
        #1;
        chk("vld_o", vld, e_vld);
        chk("rd_o", rd, e_rd);
        if (e_vld[0]) begin
          chk("mask_o", mask, e_mask);
          chk("rel_o", rel, e_rel);
          chk("seg_o", seg, e_seg);
          chk("pass_last_o", pass_last, e_last);
          chk("ctx_last_o", ctx_last, e_clast);
          chk("grp_last_o", grp_last, e_glast);
          if (e_rd[0]) chk("addr_o", addr, e_addr);
        end
        cycle = cycle + 1;
      end else begin
        vec_error("unknown record");
      end
    end
    summary;
  end
endmodule

`resetall
