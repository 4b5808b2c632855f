// sagen_index_counters: the read sequence of the data feeder.
//
// Five counters with a configurable step and limit walk the ifmap tile held in the SRAM
// (layout [channel][row][column], column contiguous, row pitch P elements): three traverse the
// interest region of a context (bus words along a row, kernel rows, channels) and two move the
// region to the next context (along x by ROWS*stride_w, along y by stride_h rows). A sixth loop
// repeats the whole sweep once per group of COLS filters. The sum of the counters is a pointer;
// its high bits are the SRAM word address and its low bits the global word offset.
//
// Padding is never stored: alongside the pointer the counters track the virtual row and column
// of the region, and positions outside the tile come out as zeros (mask_o low). A word with no
// real element is not read from the SRAM at all (rd_o low).
`default_nettype none

module sagen_index_counters #(
  parameter integer BUS    = 16,  // elements per bus word (power of two)
  parameter integer LG_BUS = 4,   // log2(BUS)
  parameter integer AW     = 10   // SRAM word address bits
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              start_i,      // load the first word of a pass
  // pass descriptor (held stable during the pass)
  input  wire [15:0]       n_ch_i,       // channels in the tile
  input  wire [15:0]       n_kr_i,       // kernel rows R
  input  wire [15:0]       n_xc_i,       // contexts along x
  input  wire [15:0]       n_oy_i,       // output rows in the tile
  input  wire [15:0]       n_kg_i,       // filter groups
  input  wire [31:0]       plane_i,      // channel step: rows * pitch
  input  wire [31:0]       kr_step_i,    // kernel-row step: dilation_h * pitch
  input  wire [31:0]       oy_step_i,    // output-row step: stride_h * pitch
  input  wire [31:0]       xc_step_i,    // context step along x: ROWS * stride_w
  input  wire [31:0]       base_i,       // signed: -(pad_top * pitch + pad_left)
  input  wire [15:0]       dil_h_i,      // kernel-row step in rows
  input  wire [15:0]       str_h_i,      // output-row step in rows
  input  wire [15:0]       pad_t_i,      // virtual rows above the tile
  input  wire [15:0]       pad_l_i,      // virtual columns left of the tile
  input  wire [15:0]       tile_h_i,     // rows held in the tile
  input  wire [15:0]       tile_w_i,     // columns held in the tile
  input  wire [15:0]       span_i,       // elements of a region row: (ROWS-1)*stride_w+(S-1)*dil_w+1
  // word stream
  input  wire              adv_i,        // the current word is taken: move to the next
  output reg               vld_o,        // a word is presented (until the pass is done)
  output wire              rd_o,         // it holds real data: read it from the SRAM
  output wire [AW-1:0]     addr_o,       // SRAM word address
  output wire [BUS-1:0]    mask_o,       // positions that hold real (non-padding) data
  output wire [31:0]       rel_o,        // signed: word start - first interest element of lane 0
  output wire              pass_last_o   // the word is in the last row pass of a context
);

  // Iteration counts.
  reg [15:0] i_w, i_r, i_c, i_xc, i_oy, i_kg;
  // Pointer components (elements) and virtual coordinates.
  reg [31:0] p_r, p_c, p_xc, p_oy;   // kernel row, channel, x context, output row
  reg [31:0] y_r, y_oy;              // rows: kernel row * dil_h, output row * str_h
  reg [31:0] w_ptr;                  // current word pointer, aligned to BUS

  wire [31:0] p_seg   = base_i + p_c + p_r + p_oy + p_xc;  // lane 0's first interest element
  wire [31:0] ofs     = {{(32-LG_BUS){1'b0}}, p_seg[LG_BUS-1:0]};  // global word offset
  wire [31:0] n_words = (ofs + {16'd0, span_i} + BUS - 1) >> LG_BUS;
  wire [31:0] iy      = y_oy + y_r - {16'd0, pad_t_i};
  wire [31:0] ix0     = p_xc - {16'd0, pad_l_i};
  wire [31:0] rel     = w_ptr - p_seg;

  wire row_ok = !iy[31] && (iy < {16'd0, tile_h_i});
  reg  [BUS-1:0] mask;
  reg  [31:0]    col, pos;
  integer i;
  always @* begin
    for (i = 0; i < BUS; i = i + 1) begin
      pos = rel + i;              // position inside the region row
      col = ix0 + pos;            // virtual column in the tile
      mask[i] = row_ok && !pos[31] && (pos < {16'd0, span_i}) && !col[31] &&
                (col < {16'd0, tile_w_i});
    end
  end

  wire last_w  = ({16'd0, i_w} + 1 >= n_words);
  wire last_r  = (i_r  + 16'd1 >= n_kr_i);
  wire last_c  = (i_c  + 16'd1 >= n_ch_i);
  wire last_xc = (i_xc + 16'd1 >= n_xc_i);
  wire last_oy = (i_oy + 16'd1 >= n_oy_i);
  wire last_kg = (i_kg + 16'd1 >= n_kg_i);

  assign rd_o        = vld_o && (|mask);
  assign mask_o      = mask;
  assign rel_o       = rel;
  assign pass_last_o = last_r && last_c;
  wire [31:0] waddr  = {{LG_BUS{w_ptr[31]}}, w_ptr[31:LG_BUS]};
  assign addr_o      = waddr[AW-1:0];

  // Next segment start, to align the first word of the next row pass.
  reg [31:0] nx_r, nx_c, nx_xc, nx_oy, nx_yr, nx_yoy;
  reg        nx_done;
  always @* begin
    nx_r = p_r; nx_c = p_c; nx_xc = p_xc; nx_oy = p_oy; nx_yr = y_r; nx_yoy = y_oy;
    nx_done = 1'b0;
    if (!last_r) begin
      nx_r = p_r + kr_step_i; nx_yr = y_r + {16'd0, dil_h_i};
    end else begin
      nx_r = 32'd0; nx_yr = 32'd0;
      if (!last_c) begin
        nx_c = p_c + plane_i;
      end else begin
        nx_c = 32'd0;
        if (!last_xc) begin
          nx_xc = p_xc + xc_step_i;
        end else begin
          nx_xc = 32'd0;
          if (!last_oy) begin
            nx_oy = p_oy + oy_step_i; nx_yoy = y_oy + {16'd0, str_h_i};
          end else begin
            nx_oy = 32'd0; nx_yoy = 32'd0;
            nx_done = last_kg;
          end
        end
      end
    end
  end
  wire [31:0] nx_seg = base_i + nx_c + nx_r + nx_oy + nx_xc;
  wire [31:0] nx_aligned = {nx_seg[31:LG_BUS], {LG_BUS{1'b0}}};
  wire unused_waddr  = ^waddr[31:AW] ^ ^ofs[31:LG_BUS] ^ ^nx_seg[LG_BUS-1:0];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vld_o <= 1'b0;
      i_w <= 16'd0; i_r <= 16'd0; i_c <= 16'd0; i_xc <= 16'd0; i_oy <= 16'd0; i_kg <= 16'd0;
      p_r <= 32'd0; p_c <= 32'd0; p_xc <= 32'd0; p_oy <= 32'd0; y_r <= 32'd0; y_oy <= 32'd0;
      w_ptr <= 32'd0;
    end else if (start_i) begin
      vld_o <= 1'b1;
      i_w <= 16'd0; i_r <= 16'd0; i_c <= 16'd0; i_xc <= 16'd0; i_oy <= 16'd0; i_kg <= 16'd0;
      p_r <= 32'd0; p_c <= 32'd0; p_xc <= 32'd0; p_oy <= 32'd0; y_r <= 32'd0; y_oy <= 32'd0;
      w_ptr <= {base_i[31:LG_BUS], {LG_BUS{1'b0}}};
    end else if (vld_o && adv_i) begin
      if (!last_w) begin
        i_w   <= i_w + 16'd1;
        w_ptr <= w_ptr + BUS;
      end else begin
        i_w   <= 16'd0;
        w_ptr <= nx_aligned;
        p_r <= nx_r; p_c <= nx_c; p_xc <= nx_xc; p_oy <= nx_oy; y_r <= nx_yr; y_oy <= nx_yoy;
        if (last_r) i_r <= 16'd0; else i_r <= i_r + 16'd1;
        if (last_r) begin
          if (last_c) i_c <= 16'd0; else i_c <= i_c + 16'd1;
          if (last_c) begin
            if (last_xc) i_xc <= 16'd0; else i_xc <= i_xc + 16'd1;
            if (last_xc) begin
              if (last_oy) i_oy <= 16'd0; else i_oy <= i_oy + 16'd1;
              if (last_oy) begin
                i_kg <= i_kg + 16'd1;
                if (nx_done) vld_o <= 1'b0;
              end
            end
          end
        end
      end
    end
  end

endmodule

`resetall
