// sagen_index_counters: the read sequence of the data feeder.
//
// A context is ROWS consecutive pixels of the output tile, taken in row-major order, so it may
// span several output rows. Its interest region is read once per input channel and kernel row,
// one segment per output row it touches: counters with a configurable step and limit walk the
// bus words of a segment, the segments, the kernel rows and the channels (the interest region),
// then move the region by ROWS pixels to the next context (x by a step with wrap-around, y by
// whole rows) and finally repeat the sweep once per group of COLS filters. The ifmap tile lives
// in the SRAM as [channel][row][column], column contiguous, row pitch P elements. The sum of
// the counters is a pointer; its high bits are the SRAM word address and its low bits the
// global word offset.
//
// Contexts that run past the tile's last output row (the last context of a tile whose pixels
// are not a multiple of ROWS) read no segment below that row: the lanes of pixels past the tile
// take lane 0's elements instead (their results are dropped), so a phantom row costs no cycle.
//
// Padding is never stored: alongside the pointer the counters track the virtual row and column
// of the region, and positions outside the tile come out as zeros (mask_o low). A word with no
// real element is not read from the SRAM at all (rd_o low).
//
// Linear contexts (lin_i, stride 1, the row pitch equal to the output tile width): pixel q of
// the tile and its input element for a kernel tap are a constant apart in the channel plane, so
// a context's interest region for a kernel row is one run of the plane whatever rows its lanes
// are on: one segment per context, LAST_XS + kspan elements (last_xs_i = lanes - 1). Positions
// outside the plane [0, plane_i) come out as zeros; the feed lanes zero the taps that fall left
// or right of their own row.
`default_nettype none

module sagen_index_counters #(
  parameter integer BUS    = 16,  // elements per bus word (power of two, >= 2)
  parameter integer LG_BUS = 4,   // log2(BUS)
  parameter integer AW     = 10   // SRAM word address bits
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              start_i,      // load the first word of a pass
  // pass descriptor (held stable during the pass); "xs" values are columns times stride_w
  input  wire [31:0]       n_ch_i,       // channels in the tile
  input  wire [15:0]       n_kr_i,       // kernel rows R
  input  wire [31:0]       n_ctx_i,      // contexts per filter group
  input  wire [15:0]       n_kg_i,       // filter groups
  input  wire [31:0]       plane_i,      // channel step: rows * pitch
  input  wire [31:0]       kr_step_i,    // kernel-row step: dilation_h * pitch
  input  wire [31:0]       oy_step_i,    // output-row step: stride_h * pitch
  input  wire [31:0]       ctx_xs_i,     // x advance per context: (ROWS mod out_w) * stride_w
  input  wire [31:0]       ctx_py_i,     // row advance per context: (ROWS div out_w) * oy_step
  input  wire [15:0]       ctx_y_i,      // the same in rows: (ROWS div out_w) * stride_h
  input  wire [31:0]       ow_xs_i,      // output tile width * stride_w
  input  wire [31:0]       last_xs_i,    // x of lane ROWS-1 in the first context
  input  wire [15:0]       last_dseg_i,  // output row of lane ROWS-1 in the first context
  input  wire [15:0]       oh_last_i,    // the tile's last output row (output rows - 1)
  input  wire [15:0]       ctx_rows_i,   // output rows per context: ROWS div out_w
  input  wire [31:0]       base_i,       // signed: -(pad_top * pitch + pad_left)
  input  wire [15:0]       dil_h_i,      // kernel-row step in rows
  input  wire [15:0]       str_h_i,      // output-row step in rows
  input  wire [15:0]       str_w_i,      // output-column step in columns
  input  wire [15:0]       pad_t_i,      // virtual rows above the tile
  input  wire [15:0]       pad_l_i,      // virtual columns left of the tile
  input  wire [15:0]       tile_h_i,     // rows held in the tile
  input  wire [15:0]       tile_w_i,     // columns held in the tile
  input  wire [15:0]       kspan_i,      // elements of one kernel row: (S-1)*dil_w+1
  input  wire              lin_i,        // linear contexts (see above)
  // word stream
  input  wire              adv_i,        // the current word is taken: move to the next
  output reg               vld_o,        // a word is presented (until the pass is done)
  output wire              rd_o,         // it holds real data: read it from the SRAM
  output wire [AW-1:0]     addr_o,       // SRAM word address
  output wire [BUS-1:0]    mask_o,       // positions that hold real (non-padding) data
  output wire [31:0]       rel_o,        // signed: word start - first element of its segment
  output wire [15:0]       seg_o,        // segment: output row of the word, from lane 0's row
  output wire              pass_last_o,  // the word is in the last row pass of a context
  output wire              ctx_last_o,   // the last word of its context
  output wire              grp_last_o    // the last word of a filter group's sweep
);

  // Iteration counts.
  reg [31:0] i_w, i_c, i_ctx;
  reg [15:0] i_r, i_seg, i_kg;
  // Pointer components (elements) and virtual rows.
  reg [31:0] p_c, p_r, p_g;          // channel, kernel row, segment (output row) offsets
  reg [31:0] y_r, y_g;               // the kernel row and segment offsets in rows
  // Context: lane 0's output row (pointer and rows) and x, lane ROWS-1's x and row offset.
  reg [31:0] py0, xs0, xsl;
  reg [31:0] y0;
  reg [15:0] dseg;
  reg [15:0] orow0;                  // lane 0's output row in the tile
  reg [31:0] w_ptr_q;                // next word pointer inside a segment

  // A context's last segment is lane ROWS-1's row, or the tile's last output row when lanes
  // past the tile's end would wrap beyond it (the feed lanes of those pixels copy lane 0).
  wire        first_seg = (i_seg == 16'd0);
  wire        lane_seg  = (i_seg == dseg);
  wire        tile_end  = (i_seg >= oh_last_i - orow0);
  wire        last_seg  = lin_i || lane_seg || tile_end;
  wire [31:0] xs_first  = first_seg ? xs0 : 32'd0;
  wire [31:0] xs_last   = lane_seg ? xsl : ow_xs_i - {16'd0, str_w_i};
  wire [31:0] span      = (lin_i ? last_xs_i : xs_last - xs_first) + {16'd0, kspan_i};
  wire [31:0] p_flat    = base_i + p_r + py0 + p_g + xs_first;   // segment start in the plane
  wire [31:0] p_seg     = p_flat + p_c;
  wire [31:0] ofs       = {{(32-LG_BUS){1'b0}}, p_seg[LG_BUS-1:0]};  // global word offset
  wire [31:0] aligned   = {p_seg[31:LG_BUS], {LG_BUS{1'b0}}};
  wire [31:0] n_words   = (ofs + span + BUS - 1) >> LG_BUS;
  wire [31:0] w_ptr     = (i_w == 32'd0) ? aligned : w_ptr_q;
  wire [31:0] iy        = y0 + y_g + y_r - {16'd0, pad_t_i};
  wire [31:0] ix0       = xs_first - {16'd0, pad_l_i};
  wire [31:0] rel       = w_ptr - p_seg;

  wire row_ok = !iy[31] && (iy < {16'd0, tile_h_i});
  reg  [BUS-1:0] mask;
  reg  [31:0]    col, pos, fp;
  integer i;
  always @* begin
    for (i = 0; i < BUS; i = i + 1) begin
      pos = rel + i;              // position inside the segment
      col = ix0 + pos;            // virtual column in the tile
      fp  = p_flat + pos;         // position in the channel plane (linear contexts)
      if (lin_i) mask[i] = !pos[31] && (pos < span) && !fp[31] && (fp < plane_i);
      else       mask[i] = !pos[31] && (pos < span) && row_ok && !col[31] &&
                           (col < {16'd0, tile_w_i});
    end
  end

  wire last_w   = (i_w + 32'd1 >= n_words);
  wire last_r   = (i_r + 16'd1 >= n_kr_i);
  wire last_c   = (i_c + 32'd1 >= n_ch_i);
  wire last_ctx = (i_ctx + 32'd1 >= n_ctx_i);
  wire last_kg  = (i_kg + 16'd1 >= n_kg_i);

  assign rd_o        = vld_o && (|mask);
  assign mask_o      = mask;
  assign rel_o       = rel;
  assign seg_o       = i_seg;
  assign pass_last_o = last_r && last_c;
  assign ctx_last_o  = last_r && last_c && last_seg && last_w;
  assign grp_last_o  = ctx_last_o && last_ctx;
  wire [31:0] waddr  = {{LG_BUS{w_ptr[31]}}, w_ptr[31:LG_BUS]};
  assign addr_o      = waddr[AW-1:0];
  wire unused_bits   = ^waddr[31:AW] ^ ^ofs[31:LG_BUS];

  // Next context: x moves by ctx_xs with wrap-around into the next output row.
  wire [31:0] xs0_n  = xs0 + ctx_xs_i;
  wire        wrap0  = (xs0_n >= ow_xs_i);
  wire [31:0] xsl_n  = xsl + ctx_xs_i;
  wire        wrapl  = (xsl_n >= ow_xs_i);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vld_o <= 1'b0;
      i_w <= 32'd0; i_c <= 32'd0; i_ctx <= 32'd0; i_r <= 16'd0; i_seg <= 16'd0; i_kg <= 16'd0;
      p_c <= 32'd0; p_r <= 32'd0; p_g <= 32'd0; y_r <= 32'd0; y_g <= 32'd0;
      py0 <= 32'd0; xs0 <= 32'd0; xsl <= 32'd0; y0 <= 32'd0; dseg <= 16'd0; w_ptr_q <= 32'd0;
      orow0 <= 16'd0;
    end else if (start_i) begin
      vld_o <= 1'b1;
      i_w <= 32'd0; i_c <= 32'd0; i_ctx <= 32'd0; i_r <= 16'd0; i_seg <= 16'd0; i_kg <= 16'd0;
      p_c <= 32'd0; p_r <= 32'd0; p_g <= 32'd0; y_r <= 32'd0; y_g <= 32'd0;
      py0 <= 32'd0; xs0 <= 32'd0; xsl <= last_xs_i; y0 <= 32'd0; dseg <= last_dseg_i;
      orow0 <= 16'd0;
    end else if (vld_o && adv_i) begin
      if (!last_w) begin
        i_w     <= i_w + 32'd1;
        w_ptr_q <= w_ptr + BUS;
      end else begin
        i_w <= 32'd0;
        if (!last_seg) begin                       // next output row of the region
          i_seg <= i_seg + 16'd1;
          p_g   <= p_g + oy_step_i;
          y_g   <= y_g + {16'd0, str_h_i};
        end else begin
          i_seg <= 16'd0; p_g <= 32'd0; y_g <= 32'd0;
          if (!last_r) begin                       // next kernel row
            i_r <= i_r + 16'd1;
            p_r <= p_r + kr_step_i;
            y_r <= y_r + {16'd0, dil_h_i};
          end else begin
            i_r <= 16'd0; p_r <= 32'd0; y_r <= 32'd0;
            if (!last_c) begin                     // next channel
              i_c <= i_c + 32'd1;
              p_c <= p_c + plane_i;
            end else begin
              i_c <= 32'd0; p_c <= 32'd0;
              if (!last_ctx) begin                 // next context: ROWS pixels on
                i_ctx <= i_ctx + 32'd1;
                xs0   <= wrap0 ? xs0_n - ow_xs_i : xs0_n;
                xsl   <= wrapl ? xsl_n - ow_xs_i : xsl_n;
                py0   <= py0 + ctx_py_i + (wrap0 ? oy_step_i : 32'd0);
                y0    <= y0 + {16'd0, ctx_y_i} + (wrap0 ? {16'd0, str_h_i} : 32'd0);
                dseg  <= dseg + {15'd0, wrapl} - {15'd0, wrap0};
                orow0 <= orow0 + ctx_rows_i + {15'd0, wrap0};
              end else begin                       // next filter group: the sweep again
                i_ctx <= 32'd0;
                xs0 <= 32'd0; xsl <= last_xs_i; py0 <= 32'd0; y0 <= 32'd0; dseg <= last_dseg_i;
                orow0 <= 16'd0;
                i_kg <= i_kg + 16'd1;
                if (last_kg) vld_o <= 1'b0;
              end
            end
          end
        end
      end
    end
  end

endmodule

`resetall
