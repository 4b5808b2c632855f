// tb_route_table: sagen_route_table against the vectors of model_route_table.c (file format
// there). Inputs change just after the falling edge; every entry is checked 1 unit after the
// rising edge.
`default_nettype none

module tb_route_table;
  parameter integer N = 16;
  parameter integer W = 3;
  localparam BLOCK = "sagen_route_table";

  `include "tb_common.vh"

  reg              rst_n = 1'b0, we = 1'b0;
  reg  [15:0]      addr = 16'd0;
  reg  [31:0]      wdata = 32'd0;
  wire [N*W-1:0]   route;

  sagen_route_table #(.N(N), .W(W)) dut (
    .clk_i(clk), .rst_ni(rst_n), .we_i(we), .addr_i(addr), .wdata_i(wdata), .route_o(route)
  );

  integer p_n, p_w, ncyc, e;
  reg [63:0] v_rst, v_we, v_addr, v_wdata, e_ent, got;
  wire unused_vec = ^{v_rst[63:1], v_we[63:1], v_addr[63:16], v_wdata[63:32]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d", p_n, p_w, ncyc);
    if (nread != 3) vec_error("header");
    if (p_n != N || p_w != W) vec_error("parameters");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h", v_rst, v_we, v_addr, v_wdata);
      if (nread != 4) vec_error("cycle line");
      #1;
      rst_n = v_rst[0]; we = v_we[0]; addr = v_addr[15:0]; wdata = v_wdata[31:0];
      @(posedge clk);
      #1;
      for (e = 0; e < N; e = e + 1) begin
        nread = $fscanf(fd, "%h", e_ent);
        if (nread != 1) vec_error("entry line");
        got = 64'd0;
        got[W-1:0] = route[e*W +: W];
        chk("route_o", got, e_ent);
      end
    end
    summary;
  end
endmodule

`resetall
