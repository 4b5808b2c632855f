// tb_walk_len: sagen_walk_len against the vectors of model_walk_len.c (file format there).
// Inputs change just after the falling edge; walk_o is checked 1 unit later, before the rising
// edge.
`default_nettype none

module tb_walk_len;
  localparam BLOCK = "sagen_walk_len";

  `include "tb_common.vh"

  reg         rst_n = 1'b0, go = 1'b0;
  reg  [15:0] n_ctx = 16'd0, n_kg = 16'd0;
  wire [15:0] walk;

  sagen_walk_len dut (
    .clk_i(clk), .rst_ni(rst_n), .go_i(go), .n_ctx_i(n_ctx), .n_kg_i(n_kg), .walk_o(walk)
  );

  integer ncyc;
  reg [63:0] v_rst, v_go, v_ctx, v_kg, e_walk;
  wire unused_vec = ^{v_rst[63:1], v_go[63:1], v_ctx[63:16], v_kg[63:16]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d", ncyc);
    if (nread != 1) vec_error("header");
    for (cycle = 0; cycle < ncyc; cycle = cycle + 1) begin
      @(negedge clk);
      nread = $fscanf(fd, "%h %h %h %h %h", v_rst, v_go, v_ctx, v_kg, e_walk);
      if (nread != 5) vec_error("cycle line");
      #1;
      rst_n = v_rst[0]; go = v_go[0]; n_ctx = v_ctx[15:0]; n_kg = v_kg[15:0];
      #1;
      chk("walk_o", {48'd0, walk}, e_walk);
    end
    summary;
  end
endmodule

`resetall
