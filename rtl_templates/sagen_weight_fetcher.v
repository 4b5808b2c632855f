// sagen_weight_fetcher: streams one weight word (one weight per array column) per array step,
// in the reduction order the feed lanes use. The weight SRAM holds a tile as
// [filter group][channel][kernel row][kernel column] words of COLS weights, so a context reads
// L = C*R*S consecutive words; every context of a filter group reads the same L words. Columns
// past the layer's last filter read as zero. With column groups (sagen_array) a filter group is
// GRP_W filters, repeated in every group: column c holds filter col_j_i[c] of the filter group
// (col_j_i[c] >= GRP_W: a column outside every group, zero). A small FIFO hides the SRAM read latency.
`default_nettype none

module sagen_weight_fetcher #(
  parameter integer COLS   = 4,   // array columns
  parameter integer W_BITS = 8,   // bits per weight
  parameter integer AW     = 10   // weight SRAM address bits
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   start_i,
  input  wire [31:0]            len_i,     // L: words per context
  input  wire [31:0]            n_ctx_i,   // contexts per filter group
  input  wire [15:0]            n_kg_i,    // filter groups
  input  wire [15:0]            k_act_i,   // filters in the tile
  input  wire [15:0]            grp_w_i,   // filters per filter group (COLS: no column groups)
  input  wire [COLS*16-1:0]     col_j_i,   // filter of each column within its group
  output wire                   sram_re_o,
  output wire [AW-1:0]          sram_addr_o,
  input  wire [COLS*W_BITS-1:0] sram_rdata_i,
  input  wire                   pop_i,
  output wire                   ready_o,
  output wire [COLS*W_BITS-1:0] head_o
);

  localparam [2:0]  DEPTH = 3'd4;

  reg        run_q;                 // reads left to issue
  // The walk as down-counters (the last word of a context, the last context, the last filter
  // group: a compare with zero) and the address as a register moved by the same steps, so that
  // the SRAM address leaves a flip-flop and no loop holds a compare-then-add.
  reg [31:0] i_left_q, ctx_left_q;  // words left in this context, contexts left in this group
  reg [15:0] kg_left_q;             // filter groups left after this one
  reg [31:0] base_q, addr_q;        // this group's first word, the word read next
  reg [15:0] kleft_q;               // filters left from this group on
  reg        inflight_q;
  reg [15:0] inflight_kleft_q;

  reg [COLS*W_BITS-1:0] fifo_q [0:DEPTH-1];
  reg [1:0]  wp_q, rp_q;
  reg [2:0]  count_q;

  wire [2:0] occupancy = count_q + {2'd0, inflight_q};
  wire       issue = run_q && (occupancy < DEPTH || (occupancy == DEPTH && pop_i));
  assign sram_re_o = issue;
  assign sram_addr_o = addr_q[AW-1:0];
  wire unused_addr = ^addr_q[31:AW];

  // Column mask of the word arriving from the SRAM.
  reg [COLS*W_BITS-1:0] masked;
  integer c;
  always @* begin
    for (c = 0; c < COLS; c = c + 1) begin
      masked[c*W_BITS +: W_BITS] = (col_j_i[c*16 +: 16] < inflight_kleft_q &&
                                    col_j_i[c*16 +: 16] < grp_w_i) ?
                                   sram_rdata_i[c*W_BITS +: W_BITS] : {W_BITS{1'b0}};
    end
  end

  wire last_i   = (i_left_q == 32'd0);
  wire last_ctx = (ctx_left_q == 32'd0);
  wire last_kg  = (kg_left_q == 16'd0);
  // a count less one (0 counts as 1, as the walk always makes one step)
  function automatic [31:0] m1(input [31:0] n);
    m1 = (n == 32'd0) ? 32'd0 : n - 32'd1;
  endfunction

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0; i_left_q <= 32'd0; ctx_left_q <= 32'd0; kg_left_q <= 16'd0;
      base_q <= 32'd0; addr_q <= 32'd0;
      kleft_q <= 16'd0; inflight_q <= 1'b0; inflight_kleft_q <= 16'd0;
      wp_q <= 2'd0; rp_q <= 2'd0; count_q <= 3'd0;
    end else if (start_i) begin
      run_q <= 1'b1; i_left_q <= m1(len_i); ctx_left_q <= m1(n_ctx_i); kg_left_q <= (n_kg_i == 16'd0) ? 16'd0 : n_kg_i - 16'd1;
      base_q <= 32'd0; addr_q <= 32'd0;
      kleft_q <= k_act_i; inflight_q <= 1'b0;
      wp_q <= 2'd0; rp_q <= 2'd0; count_q <= 3'd0;
    end else begin
      inflight_q <= issue;
      if (issue) begin
        inflight_kleft_q <= kleft_q;
        if (!last_i) begin
          i_left_q <= i_left_q - 32'd1;
          addr_q   <= addr_q + 32'd1;
        end else begin
          i_left_q <= m1(len_i);
          if (!last_ctx) begin
            ctx_left_q <= ctx_left_q - 32'd1;
            addr_q     <= base_q;
          end else begin
            ctx_left_q <= m1(n_ctx_i);
            if (last_kg) begin
              run_q <= 1'b0;
            end else begin
              kg_left_q <= kg_left_q - 16'd1;
              base_q    <= base_q + len_i;
              addr_q    <= base_q + len_i;
              kleft_q   <= (kleft_q > grp_w_i) ? kleft_q - grp_w_i : 16'd0;
            end
          end
        end
      end
      if (inflight_q) begin
        fifo_q[wp_q] <= masked;
        wp_q <= wp_q + 2'd1;
      end
      if (pop_i) rp_q <= rp_q + 2'd1;
      count_q <= count_q + {2'd0, inflight_q} - {2'd0, pop_i};
    end
  end

  assign ready_o = (count_q != 3'd0);
  assign head_o  = fifo_q[rp_q];

endmodule

`resetall
