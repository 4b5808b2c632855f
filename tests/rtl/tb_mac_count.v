// tb_mac_count: sagen_mac_count against the vectors of model_mac_count.c (file format there).
// Each pass's fields are applied with its first cycle line (go high) and held to its end.
// Inputs change just after the falling edge; the outputs (combinational on the inputs and the
// block's state) are checked 1 unit later, before the rising edge.
`default_nettype none

module tb_mac_count;
  parameter integer LANES = 4;
  parameter integer COLS  = 4;
  localparam integer LW = $clog2(LANES + 1);
  localparam integer CW = $clog2(COLS + 1);
  localparam BLOCK = "sagen_mac_count";

  `include "tb_common.vh"

  reg           rst_n = 1'b0, go = 1'b0, pop = 1'b0, zstep = 1'b0, ctx_end = 1'b0;
  reg           zero_fill = 1'b0;
  reg  [15:0]   n_ctx = 16'd1, k_act = 16'd1, ow_real = 16'd1, ow_virt = 16'd1;
  reg  [15:0]   n_ch = 16'd1, dn_r = 16'd1, dn_s = 16'd1;
  reg  [31:0]   npix = 32'd1;
  reg  [LW-1:0] lanes = {LW{1'b0}};
  reg  [CW-1:0] grp_w = {CW{1'b0}};
  wire [15:0]   ev_macs, ev_zero_pe;
  wire [31:0]   ev_zskip;

  sagen_mac_count #(.LANES(LANES), .COLS(COLS)) dut (
    .clk_i(clk), .rst_ni(rst_n), .go_i(go),
    .n_ctx_i(n_ctx), .npix_i(npix), .k_act_i(k_act), .lanes_i(lanes), .grp_w_i(grp_w),
    .ow_real_i(ow_real), .ow_virt_i(ow_virt), .zero_fill_i(zero_fill),
    .n_ch_i(n_ch), .dn_r_i(dn_r), .dn_s_i(dn_s),
    .pop_i(pop), .zstep_i(zstep), .ctx_end_i(ctx_end),
    .ev_macs_o(ev_macs), .ev_zero_pe_o(ev_zero_pe), .ev_zskip_o(ev_zskip)
  );

  integer p_lanes, p_cols, npass, pass, ncyc, cy;
  reg [63:0] d_zf, d_nctx, d_npix, d_kact, d_lanes, d_grpw, d_owr, d_owv, d_nch, d_dnr, d_dns;
  reg [63:0] v_go, v_pop, v_zstep, v_end, e_macs, e_zpe, e_zskip;
  wire unused_vec = ^{d_zf[63:1], d_nctx[63:16], d_npix[63:32], d_kact[63:16], d_lanes[63:LW],
                      d_grpw[63:CW], d_owr[63:16], d_owv[63:16], d_nch[63:16], d_dnr[63:16],
                      d_dns[63:16], v_go[63:1], v_pop[63:1], v_zstep[63:1], v_end[63:1]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d", p_lanes, p_cols, npass);
    if (nread != 3) vec_error("header");
    if (p_lanes != LANES || p_cols != COLS) vec_error("parameters");
    repeat (2) @(posedge clk);
    @(negedge clk) rst_n = 1'b1;
    for (pass = 0; pass < npass; pass = pass + 1) begin
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h", d_zf, d_nctx, d_npix, d_kact,
                      d_lanes, d_grpw, d_owr, d_owv, d_nch, d_dnr, d_dns);
      if (nread != 11) vec_error("pass line");
      nread = $fscanf(fd, "%d", ncyc);
      if (nread != 1) vec_error("cycle count");
      for (cy = 0; cy < ncyc; cy = cy + 1) begin
        @(negedge clk);
        nread = $fscanf(fd, "%h %h %h %h %h %h %h", v_go, v_pop, v_zstep, v_end,
                        e_macs, e_zpe, e_zskip);
        if (nread != 7) vec_error("cycle line");
        #1;
        if (cy == 0) begin
          zero_fill = d_zf[0]; n_ctx = d_nctx[15:0]; npix = d_npix[31:0]; k_act = d_kact[15:0];
          lanes = d_lanes[LW-1:0]; grp_w = d_grpw[CW-1:0]; ow_real = d_owr[15:0];
          ow_virt = d_owv[15:0]; n_ch = d_nch[15:0]; dn_r = d_dnr[15:0]; dn_s = d_dns[15:0];
        end
        go = v_go[0]; pop = v_pop[0]; zstep = v_zstep[0]; ctx_end = v_end[0];
        #1;
        chk("ev_macs_o", {48'd0, ev_macs}, e_macs);
        chk("ev_zero_pe_o", {48'd0, ev_zero_pe}, e_zpe);
        chk("ev_zskip_o", {32'd0, ev_zskip}, e_zskip);
        cycle = cycle + 1;
      end
    end
    summary;
  end
endmodule

`resetall
