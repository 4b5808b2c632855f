// tb_col_groups: sagen_col_groups (combinational) against the vectors of model_col_groups.c
// (file format there): each case's inputs are applied, and 1 unit later every output is compared,
// column by column.
`default_nettype none

module tb_col_groups;
  parameter integer ROWS   = 4;
  parameter integer COLS   = 4;
  parameter integer GROUPS = 1;
  localparam BLOCK = "sagen_col_groups";

  `include "tb_common.vh"

  reg  [7:0]             grp_n = 8'd0, grp_w = 8'd0, f_grp_n = 8'd0;
  reg  [15:0]            n_ctx = 16'd0;
  reg  [31:0]            npix = 32'd0;
  reg                    c2i = 1'b0;
  wire [15:0]            grp_w_o, lanes, f_lanes;
  wire [COLS*16-1:0]     col_j, dtap;
  wire [COLS*GROUPS-1:0] inj;
  wire [31:0]            kg_words;

  sagen_col_groups #(.ROWS(ROWS), .COLS(COLS), .GROUPS(GROUPS)) dut (
    .grp_n_i(grp_n), .grp_w_i(grp_w), .f_grp_n_i(f_grp_n), .n_ctx_i(n_ctx), .npix_i(npix),
    .c2i_i(c2i), .grp_w_o(grp_w_o), .lanes_o(lanes), .f_lanes_o(f_lanes), .col_j_o(col_j),
    .dtap_o(dtap), .inj_o(inj), .kg_words_o(kg_words)
  );

  integer p_rows, p_cols, p_groups, ncase, c;
  reg [63:0] v_n, v_w, v_fn, v_ctx, v_pix, v_c2i, e_w, e_lanes, e_flanes, e_kgw;
  reg [63:0] e_j, e_dtap, e_inj, got_inj;
  wire unused_vec = ^{v_n[63:8], v_w[63:8], v_fn[63:8], v_ctx[63:16], v_pix[63:32], v_c2i[63:1]};

  initial begin
    open_vec;
    nread = $fscanf(fd, "%d %d %d %d", p_rows, p_cols, p_groups, ncase);
    if (nread != 4) vec_error("header");
    if (p_rows != ROWS || p_cols != COLS || p_groups != GROUPS) vec_error("parameters");
    for (cycle = 0; cycle < ncase; cycle = cycle + 1) begin
      nread = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h", v_n, v_w, v_fn, v_ctx, v_pix, v_c2i,
                      e_w, e_lanes, e_flanes, e_kgw);
      if (nread != 10) vec_error("case line");
      grp_n = v_n[7:0]; grp_w = v_w[7:0]; f_grp_n = v_fn[7:0]; n_ctx = v_ctx[15:0];
      npix = v_pix[31:0]; c2i = v_c2i[0];
      #1;
      chk("grp_w_o", {48'd0, grp_w_o}, e_w);
      chk("lanes_o", {48'd0, lanes}, e_lanes);
      chk("f_lanes_o", {48'd0, f_lanes}, e_flanes);
      chk("kg_words_o", {32'd0, kg_words}, e_kgw);
      for (c = 0; c < COLS; c = c + 1) begin
        nread = $fscanf(fd, "%h %h %h", e_j, e_dtap, e_inj);
        if (nread != 3) vec_error("column line");
        got_inj = 64'd0;
        got_inj[GROUPS-1:0] = inj[c*GROUPS +: GROUPS];
        chk("col_j_o", {48'd0, col_j[c*16 +: 16]}, e_j);
        chk("dtap_o", {48'd0, dtap[c*16 +: 16]}, e_dtap);
        chk("inj_o", got_inj, e_inj);
      end
    end
    summary;
  end
endmodule

`resetall
