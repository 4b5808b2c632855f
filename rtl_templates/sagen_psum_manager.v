// sagen_psum_manager: takes the results leaving the top of the array's reserve chains, deskews
// them (column c is COLS-1-c steps ahead of the last column) and writes one word of COLS results
// per output pixel into the output SRAM. When a pass accumulates (a later channel slice of the
// same outputs) it reads the partial sums written by the previous pass and adds (read-modify-
// write through the SRAM's separate read and write ports). The output tile is stored as
// [filter group][pixel] words, pixels row-major, so context c's lane l writes pixel c*ROWS+l;
// lanes past the tile's last pixel are dropped. Its counters follow the feeder's context order.
// With column groups (GROUPS > 1, see sagen_array) a context is LANES = groups x ROWS pixels and
// the word of row r holds, in the columns of group g, pixel c*LANES + g*ROWS + r: words are
// stored as [filter group][context][row] (kg_words_i per filter group), the host sorts the
// pixels out, and each column is deskewed by its place in its group (dtap_i).
`default_nettype none

module sagen_psum_manager #(
  parameter integer ROWS     = 4,
  parameter integer COLS     = 4,
  parameter integer ACC_BITS = 32,
  parameter integer AW       = 10,  // output SRAM address bits
  parameter integer GROUPS   = 1    // column groups the array can form
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     start_i,
  input  wire                     accumulate_i,  // add to the partial sums already stored
  input  wire [31:0]              n_ctx_i,       // contexts per filter group
  input  wire [31:0]              npix_i,        // output pixels of the tile
  input  wire [15:0]              n_kg_i,        // filter groups
  input  wire [15:0]              lanes_i,       // pixels per context (ROWS: no groups)
  input  wire [31:0]              kg_words_i,    // words per filter group (npix: no groups)
  input  wire [COLS*16-1:0]       dtap_i,        // deskew of each column (GROUPS > 1)
  // array side
  input  wire                     step_i,        // the array stepped this cycle
  input  wire [COLS*ACC_BITS-1:0] res_i,
  input  wire [COLS-1:0]          res_vld_i,
  // output SRAM
  output wire                     sram_re_o,
  output wire [AW-1:0]            sram_raddr_o,
  input  wire [COLS*ACC_BITS-1:0] sram_rdata_i,
  output reg                      sram_we_o,
  output reg  [AW-1:0]            sram_waddr_o,
  output reg  [COLS*ACC_BITS-1:0] sram_wdata_o,
  output wire                     done_o         // every result of the pass is written
);

  // Deskew: column c waits COLS-1-c steps so that a pixel's COLS results leave together.
  wire [COLS*ACC_BITS-1:0] res_d;
  wire [COLS-1:0]          vld_d;
  genvar g;
  generate
    for (g = 0; g < COLS; g = g + 1) begin : g_deskew
      if (GROUPS == 1) begin : g_fixed
        sagen_skew #(
          .WIDTH(ACC_BITS + 1),
          .DEPTH(COLS - 1 - g)
        ) u_deskew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (step_i),
          .d_i   ({res_vld_i[g], res_i[g*ACC_BITS +: ACC_BITS]}),
          .q_o   ({vld_d[g], res_d[g*ACC_BITS +: ACC_BITS]})
        );
      end else begin : g_tapped
        sagen_skew_tap #(
          .WIDTH(ACC_BITS + 1),
          .DEPTH(COLS - 1 - g)
        ) u_deskew (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .en_i  (step_i),
          .tap_i (dtap_i[g*16 +: 16]),
          .d_i   ({res_vld_i[g], res_i[g*ACC_BITS +: ACC_BITS]}),
          .q_o   ({vld_d[g], res_d[g*ACC_BITS +: ACC_BITS]})
        );
      end
    end
  endgenerate
  // One column's valid stands for all: the last (no groups) or the first (every group has it).
  localparam integer VCOL = (GROUPS == 1) ? COLS - 1 : 0;
  wire unused_vld = ^vld_d ^ (^dtap_i);

  localparam [31:0] ROWS32 = ROWS;
  localparam [15:0] ROWS16 = ROWS32[15:0];
  reg  stepped_q;   // the deskewed values are new this cycle
  wire fire = stepped_q && vld_d[VCOL];

  reg        run_q;
  reg [15:0] i_row, i_kg;
  reg [31:0] i_ctx;
  reg [31:0] q_q;          // word of the filter group: context * ROWS + row
  reg [31:0] p_q;          // pixel of lane row in group 0: context * lanes + row
  reg [31:0] kg_base_q;    // first word of the filter group: kg * kg_words
  wire        keep  = p_q < npix_i;
  wire [31:0] addr  = kg_base_q + q_q;

  wire last_row = (i_row + 16'd1 >= ROWS16);
  wire last_ctx = (i_ctx + 32'd1 >= n_ctx_i);
  wire last_kg  = (i_kg + 16'd1 >= n_kg_i);

  // Stage 1: read the stored partial sums; stage 2: add and write.
  reg                     s1_vld, s1_acc;
  reg [AW-1:0]            s1_addr;
  reg [COLS*ACC_BITS-1:0] s1_res;

  assign sram_re_o    = fire && keep && accumulate_i;
  assign sram_raddr_o = addr[AW-1:0];
  wire unused_addr    = ^addr[31:AW];

  reg [COLS*ACC_BITS-1:0] sum;
  integer c;
  always @* begin
    for (c = 0; c < COLS; c = c + 1) begin
      sum[c*ACC_BITS +: ACC_BITS] = s1_res[c*ACC_BITS +: ACC_BITS] +
                                    (s1_acc ? sram_rdata_i[c*ACC_BITS +: ACC_BITS]
                                            : {ACC_BITS{1'b0}});
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stepped_q <= 1'b0; run_q <= 1'b0;
      i_row <= 16'd0; i_ctx <= 32'd0; i_kg <= 16'd0; q_q <= 32'd0; p_q <= 32'd0;
      kg_base_q <= 32'd0;
      s1_vld <= 1'b0; s1_acc <= 1'b0; s1_addr <= {AW{1'b0}}; s1_res <= {(COLS*ACC_BITS){1'b0}};
      sram_we_o <= 1'b0; sram_waddr_o <= {AW{1'b0}}; sram_wdata_o <= {(COLS*ACC_BITS){1'b0}};
    end else begin
      stepped_q <= step_i;
      s1_vld    <= fire && keep && run_q;
      s1_acc    <= accumulate_i;
      s1_addr   <= addr[AW-1:0];
      s1_res    <= res_d;
      sram_we_o    <= s1_vld;
      sram_waddr_o <= s1_addr;
      sram_wdata_o <= sum;
      if (start_i) begin
        run_q <= 1'b1;
        i_row <= 16'd0; i_ctx <= 32'd0; i_kg <= 16'd0; q_q <= 32'd0; p_q <= 32'd0;
        kg_base_q <= 32'd0;
      end else if (fire && run_q) begin
        if (!last_row) begin
          i_row <= i_row + 16'd1;
          q_q   <= q_q + 32'd1;
          p_q   <= p_q + 32'd1;
        end else begin
          i_row <= 16'd0;
          if (!last_ctx) begin
            i_ctx <= i_ctx + 32'd1;
            q_q   <= q_q + 32'd1;
            p_q   <= p_q + 32'd1 + {16'd0, lanes_i} - ROWS32;
          end else begin
            i_ctx     <= 32'd0;
            q_q       <= 32'd0;
            p_q       <= 32'd0;
            kg_base_q <= kg_base_q + kg_words_i;
            i_kg      <= i_kg + 16'd1;
            if (last_kg) run_q <= 1'b0;
          end
        end
      end
    end
  end

  // Done once the last word has left stage 2.
  assign done_o = !run_q && !s1_vld && !sram_we_o;

endmodule

`resetall
