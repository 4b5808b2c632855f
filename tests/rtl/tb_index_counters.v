// tb_index_counters: sagen_index_counters against the records of model_index_counters.c
// (format there). A D record sets the pass descriptor, a C record is one cycle: start/adv
// change just after the falling edge (with the descriptor of a D record right before), the
// presented word is checked 1 unit after the rising edge: vld_o always, rd_o always (low when
// no word), mask_o/rel_o/pass_last_o when a word is presented, addr_o when rd_o is expected.
`default_nettype none

module tb_index_counters;
  parameter integer BUS    = 8;
  parameter integer LG_BUS = 3;
  parameter integer AW     = 10;
  localparam BLOCK = "sagen_index_counters";

  `include "tb_common.vh"

  reg         rst_n = 1'b0, start = 1'b0, adv = 1'b0;
  reg  [15:0] n_ch = 16'd1, n_kr = 16'd1, n_xc = 16'd1, n_oy = 16'd1, n_kg = 16'd1;
  reg  [31:0] plane = 32'd0, kr_step = 32'd0, oy_step = 32'd0, xc_step = 32'd0, base = 32'd0;
  reg  [15:0] dil_h = 16'd0, str_h = 16'd0, pad_t = 16'd0, pad_l = 16'd0;
  reg  [15:0] tile_h = 16'd1, tile_w = 16'd1, span = 16'd1;
  wire          vld, rd, pass_last;
  wire [AW-1:0] addr;
  wire [BUS-1:0] mask;
  wire [31:0]   rel;

  sagen_index_counters #(.BUS(BUS), .LG_BUS(LG_BUS), .AW(AW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start),
    .n_ch_i(n_ch), .n_kr_i(n_kr), .n_xc_i(n_xc), .n_oy_i(n_oy), .n_kg_i(n_kg),
    .plane_i(plane), .kr_step_i(kr_step), .oy_step_i(oy_step), .xc_step_i(xc_step),
    .base_i(base), .dil_h_i(dil_h), .str_h_i(str_h), .pad_t_i(pad_t), .pad_l_i(pad_l),
    .tile_h_i(tile_h), .tile_w_i(tile_w), .span_i(span),
    .adv_i(adv), .vld_o(vld), .rd_o(rd), .addr_o(addr), .mask_o(mask), .rel_o(rel),
    .pass_last_o(pass_last)
  );

  integer p_bus, p_aw;
  reg [8*4-1:0] tag;
  reg [63:0] f [0:16];
  reg [63:0] v_start, v_adv, e_vld, e_rd, e_addr, e_mask, e_rel, e_last;
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
        for (i = 0; i < 17; i = i + 1) begin
          nread = $fscanf(fd, "%h", f[i]);
          if (nread != 1) vec_error("descriptor");
        end
        n_ch = f[0]; n_kr = f[1]; n_xc = f[2]; n_oy = f[3]; n_kg = f[4];
        plane = f[5]; kr_step = f[6]; oy_step = f[7]; xc_step = f[8]; base = f[9];
        dil_h = f[10]; str_h = f[11]; pad_t = f[12]; pad_l = f[13];
        tile_h = f[14]; tile_w = f[15]; span = f[16];
        nread = $fscanf(fd, "%s", tag);
        if (nread != 1 || tag != "C") vec_error("C record after D");
      end
      if (tag == "E") begin
        done = 1'b1;
      end else if (tag == "C") begin
        nread = $fscanf(fd, "%h %h %h %h %h %h %h %h", v_start, v_adv, e_vld, e_rd, e_addr,
                        e_mask, e_rel, e_last);
        if (nread != 8) vec_error("cycle record");
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
          chk("pass_last_o", pass_last, e_last);
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
