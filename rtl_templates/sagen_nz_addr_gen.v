// sagen_nz_addr_gen: the NZ-detecting address generator (BP-im2col III-B) without a divider.
//
// It walks the elements of a virtual lowered matrix that holds zero-spaces (zero-paddings and
// zero-insertions), one element per cycle, and tells for each one whether it is a real element
// of the stored tensor (nz_o) and where it is stored (addr_o), or NULL (nz_o low, addr_o 0).
// Loop nest, outermost first:
//   pixels  pb in 0..n_pb-1, py in 0..n_py-1, px in 0..n_px-1   (a column of the matrix)
//   taps    c in 0..n_ch-1,  r in 0..n_r-1,   s in 0..n_s-1     (the reduction)
// Per axis the virtual coordinate is vh = py + r*dil_h - off_h (vw = px + s*dil_w - off_w);
// the element is non-zero iff vh >= 0, vh mod str_h == 0, vh div str_h < hs (and the same for
// w with str_w, ws); then
//   addr = base + pb*pb_stride + c*ch_stride + (vh div str_h)*pitch + (vw div str_w)  mod 2^AW.
//
// The two published modes are parameter settings of this walk:
//   transposed mode (Algorithm 1, loss of the input, Eq. 2-3): the virtual matrix B has rows
//     (n, hk, wk) and columns (b, h_out, w_out) over the Hi x Wi loss of the input. Pixel =
//     (pb=b, py=h_out, px=w_out), taps = (c=n over N dy channels, r=hk, s=wk); dil = D (1 in
//     the paper; a tap is D virtual positions apart), off = D*(K-1) - P (Eq. 2 is vh < 0,
//     Eq. 3 is vh mod S != 0), str = S, hs x ws = Ho x Wo (the stored dy), pitch = Wo,
//     ch_stride = Ho*Wo, pb_stride = N*Ho*Wo, base = 0. The walk also applies the bottom/right
//     bound vh div S < Ho that Algorithm 1 omits (it matters once the bottom/right padding of
//     the zero-spaced dy, D*(K-1) - P + output_padding, reaches S).
//   dilated mode (Algorithm 2, gradient of the kernel, Eq. 4): the virtual matrix A is dy with
//     zero insertions, rows n, columns (b, h, w) over B x Ho'' x Wo'', Ho'' = (Ho-1)*S + 1.
//     Pixel = (pb=n, n_py = n_px = 1), taps = (c=b, r=h over Ho'', s=w over Wo''), dil = 1,
//     off = 0, str = S, hs x ws = Ho x Wo, pitch = Wo, ch_stride = N*Ho*Wo, pb_stride = Ho*Wo.
//
// No division: per axis the coordinate is kept as a quotient/remainder pair (q, m) with
// v = q*str + m, 0 <= m < str, and the product q*pitch alongside. A tap step adds (dil div str,
// dil mod str) with a carry, a pixel step adds 1 with a carry; the pairs at the start of a pixel
// and of a row are kept in registers, so the loops restart without recomputation. The constants
// (floor-divmod of -off and of dil by str, with the quotients times pitch) come from a prologue
// that steps a remainder by +-str once per cycle, all four in parallel.
//
// Prologue: with start_i high in cycle 0, vld_o is first high in cycle
//   2 + max(|floor(-off_h/str_h)|, |floor(-off_w/str_w)|, floor(dil_h/str_h), floor(dil_w/str_w))
// (busy_o high, vld_o low meanwhile). Transposed mode: 2 + max(ceil(off/S), floor(D/S)) per
// axis, e.g. 3 for K = 3, P = 1 at S = 1 or 2 (BP-im2col pays 68 cycles); dilated mode: 3 at
// S = 1, 2 otherwise. Worst case 2 + 65535 (dil 65535 at str 1).
//
// Degenerate inputs on purpose: a count of 0 walks as 1, a stride of 0 as 1, hs/ws 0 make every
// element NULL. Internal arithmetic is 32 bits: q reaches at most 65534 + 65534*65535 + 32768
// < 2^32, and any q with bit 31 set (negative, or too large) is outside [0, hs).
`default_nettype none

module sagen_nz_addr_gen #(
  parameter integer AW = 32  // address bits, 1..32: addr_o is the address mod 2^AW
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          start_i,      // derive the constants, then walk from the first element
  // walk descriptor (held stable from start_i to the end of the walk)
  input  wire [15:0]   n_pb_i,       // outer pixel count (batch / n)
  input  wire [15:0]   n_py_i,       // pixel rows
  input  wire [15:0]   n_px_i,       // pixel columns
  input  wire [15:0]   n_ch_i,       // tap channels
  input  wire [15:0]   n_r_i,        // tap rows
  input  wire [15:0]   n_s_i,        // tap columns
  input  wire [15:0]   dil_h_i,      // virtual rows between tap rows
  input  wire [15:0]   dil_w_i,      // virtual columns between tap columns
  input  wire [15:0]   off_h_i,      // signed: virtual row of (py, r) = (0, 0) is -off_h
  input  wire [15:0]   off_w_i,      // signed: virtual column of (px, s) = (0, 0) is -off_w
  input  wire [15:0]   str_h_i,      // virtual rows per stored row (zero-insertion stride)
  input  wire [15:0]   str_w_i,      // virtual columns per stored column
  input  wire [15:0]   hs_i,         // stored rows
  input  wire [15:0]   ws_i,         // stored columns
  input  wire [31:0]   pitch_i,      // address step of a stored row
  input  wire [31:0]   pb_stride_i,  // address step of pb
  input  wire [31:0]   ch_stride_i,  // address step of c
  input  wire [31:0]   base_i,       // address of stored (pb, c, row, col) = (0, 0, 0, 0)
  // element stream
  input  wire          adv_i,        // the presented element is taken: present the next one
  output wire          busy_o,       // from start_i until the last element is taken
  output reg           vld_o,        // an element is presented
  output wire          nz_o,         // it is a stored element (low: a zero-space, or no vld_o)
  output wire [AW-1:0] addr_o,       // its address when nz_o, else 0 (NULL)
  output wire          tap_last_o,   // the last tap (c, r, s all last) of its pixel
  output wire          last_o        // the last element of the walk
);

  // The descriptor as the walk uses it, registered at start_i (the inputs are held from then
  // on, so this changes nothing the ports show; it keeps the inputs' paths out of the loop):
  // the strides (0 walks as 1), the strides - 1, and the counts - 1 (0 walks as 1).
  reg  [31:0] str_h, str_w;
  reg  [15:0] strh_m1, strw_m1;
  reg  [15:0] npb_m1, npy_m1, npx_m1, nch_m1, nr_m1, ns_m1;
  function automatic [15:0] m1(input [15:0] n);
    m1 = (n == 16'd0) ? 16'd0 : n - 16'd1;
  endfunction
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      str_h <= 32'd1; str_w <= 32'd1; strh_m1 <= 16'd0; strw_m1 <= 16'd0;
      npb_m1 <= 16'd0; npy_m1 <= 16'd0; npx_m1 <= 16'd0;
      nch_m1 <= 16'd0; nr_m1 <= 16'd0; ns_m1 <= 16'd0;
    end else if (start_i) begin
      str_h   <= {16'd0, (str_h_i == 16'd0) ? 16'd1 : str_h_i};
      str_w   <= {16'd0, (str_w_i == 16'd0) ? 16'd1 : str_w_i};
      strh_m1 <= m1(str_h_i);
      strw_m1 <= m1(str_w_i);
      npb_m1  <= m1(n_pb_i); npy_m1 <= m1(n_py_i); npx_m1 <= m1(n_px_i);
      nch_m1  <= m1(n_ch_i); nr_m1  <= m1(n_r_i);  ns_m1  <= m1(n_s_i);
    end
  end

  // ---- prologue: floor-divmod of -off and of dil by str, by one +-str step per cycle --------
  // After the prologue these hold the constants of the walk:
  //   oh_q, oh_m, oh_a = floor(-off_h / str_h), -off_h mod str_h, oh_q * pitch (likewise ow_*)
  //   dh_q, dh_m, dh_a = dil_h div str_h, dil_h mod str_h, dh_q * pitch       (likewise dw_*)
  reg         pro_q;
  reg  [31:0] oh_q, oh_m, oh_a, ow_q, ow_m, dh_q, dh_m, dh_a, dw_q, dw_m;
  // and, set with the first element, the tap steps' carry-select constants: dil mod str - str,
  // dil div str + 1, (dil div str + 1) * pitch
  reg  [31:0] dhs_m, dh_q1, dh_a1, dws_m, dw_q1;

  wire        oh_neg = oh_m[31];
  wire        oh_big = !oh_m[31] && (oh_m >= str_h);
  wire        ow_neg = ow_m[31];
  wire        ow_big = !ow_m[31] && (ow_m >= str_w);
  wire        dh_big = (dh_m >= str_h);
  wire        dw_big = (dw_m >= str_w);
  wire        pro_done = !oh_neg && !oh_big && !ow_neg && !ow_big && !dh_big && !dw_big;

  // ---- walk state ---------------------------------------------------------------------------
  reg  [15:0] i_pb, i_py, i_px, i_c, i_r, i_s;
  reg  [31:0] ph_q, ph_m, ph_a;     // h pair of the current pixel (py - off_h), q * pitch
  reg  [31:0] pw_q, pw_m;           // w pair of the current pixel (px - off_w)
  reg  [31:0] th_q, th_m, th_a;     // h pair of the current element (py + r*dil_h - off_h)
  reg  [31:0] tw_q, tw_m;           // w pair of the current element (px + s*dil_w - off_w)
  reg  [31:0] a_pb;                 // base + pb*pb_stride
  reg  [31:0] a_pc;                 // base + pb*pb_stride + c*ch_stride

  wire last_s  = (i_s >= ns_m1);
  wire last_r  = (i_r >= nr_m1);
  wire last_c  = (i_c >= nch_m1);
  wire last_px = (i_px >= npx_m1);
  wire last_py = (i_py >= npy_m1);
  wire last_pb = (i_pb >= npb_m1);
  wire tap_last = last_s && last_r && last_c;
  wire pix_last = last_px && last_py && last_pb;

  // Tap steps: add (dil div str, dil mod str) with a carry, both outcomes at once (carry
  // select): m + dil mod str - str >= 0 is the carry (m, dil mod str < str <= 65535: no overflow).
  wire [31:0] th_sum = th_m + dh_m;
  wire [31:0] th_alt = th_m + dhs_m;
  wire        th_cy  = !th_alt[31];
  wire [31:0] tw_sum = tw_m + dw_m;
  wire [31:0] tw_alt = tw_m + dws_m;
  wire        tw_cy  = !tw_alt[31];
  // Pixel steps: add 1 with a carry.
  wire [31:0] ph_inc = ph_m + 32'd1;
  wire        ph_cy  = (ph_m[15:0] == strh_m1);
  wire [31:0] pw_inc = pw_m + 32'd1;
  wire        pw_cy  = (pw_m[15:0] == strw_m1);
  wire [31:0] ph_q_n = ph_q + {31'd0, ph_cy};
  wire [31:0] ph_m_n = ph_cy ? 32'd0 : ph_inc;
  wire [31:0] ph_a_n = ph_cy ? ph_a + pitch_i : ph_a;
  wire [31:0] pw_q_n = pw_q + {31'd0, pw_cy};
  wire [31:0] pw_m_n = pw_cy ? 32'd0 : pw_inc;

  // ---- the presented element ----------------------------------------------------------------
  wire        h_ok = !th_q[31] && (th_m == 32'd0) && (th_q < {16'd0, hs_i});
  wire        w_ok = !tw_q[31] && (tw_m == 32'd0) && (tw_q < {16'd0, ws_i});
  wire        nz   = vld_o && h_ok && w_ok;
  wire [32:0] addr = {1'b0, a_pc + th_a + tw_q};

  assign busy_o     = pro_q || vld_o;
  assign nz_o       = nz;
  assign addr_o     = nz ? addr[AW-1:0] : {AW{1'b0}};
  assign tap_last_o = vld_o && tap_last;
  assign last_o     = vld_o && tap_last && pix_last;
  wire unused_addr  = ^addr[32:AW];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pro_q <= 1'b0;
      vld_o <= 1'b0;
      oh_q <= 32'd0; oh_m <= 32'd0; oh_a <= 32'd0; ow_q <= 32'd0; ow_m <= 32'd0;
      dh_q <= 32'd0; dh_m <= 32'd0; dh_a <= 32'd0; dw_q <= 32'd0; dw_m <= 32'd0;
      i_pb <= 16'd0; i_py <= 16'd0; i_px <= 16'd0; i_c <= 16'd0; i_r <= 16'd0; i_s <= 16'd0;
      ph_q <= 32'd0; ph_m <= 32'd0; ph_a <= 32'd0; pw_q <= 32'd0; pw_m <= 32'd0;
      th_q <= 32'd0; th_m <= 32'd0; th_a <= 32'd0; tw_q <= 32'd0; tw_m <= 32'd0;
      a_pb <= 32'd0; a_pc <= 32'd0;
      dhs_m <= 32'd0; dh_q1 <= 32'd0; dh_a1 <= 32'd0; dws_m <= 32'd0; dw_q1 <= 32'd0;
    end else if (start_i) begin
      pro_q <= 1'b1;
      vld_o <= 1'b0;
      oh_q <= 32'd0; oh_m <= 32'd0 - {{16{off_h_i[15]}}, off_h_i}; oh_a <= 32'd0;
      ow_q <= 32'd0; ow_m <= 32'd0 - {{16{off_w_i[15]}}, off_w_i};
      dh_q <= 32'd0; dh_m <= {16'd0, dil_h_i}; dh_a <= 32'd0;
      dw_q <= 32'd0; dw_m <= {16'd0, dil_w_i};
    end else if (pro_q) begin
      if (pro_done) begin                      // constants ready: present the first element
        pro_q <= 1'b0;
        vld_o <= 1'b1;
        i_pb <= 16'd0; i_py <= 16'd0; i_px <= 16'd0; i_c <= 16'd0; i_r <= 16'd0; i_s <= 16'd0;
        ph_q <= oh_q; ph_m <= oh_m; ph_a <= oh_a; pw_q <= ow_q; pw_m <= ow_m;
        th_q <= oh_q; th_m <= oh_m; th_a <= oh_a; tw_q <= ow_q; tw_m <= ow_m;
        a_pb <= base_i; a_pc <= base_i;
        dhs_m <= dh_m - str_h; dh_q1 <= dh_q + 32'd1; dh_a1 <= dh_a + pitch_i;
        dws_m <= dw_m - str_w; dw_q1 <= dw_q + 32'd1;
      end else begin
        if (oh_neg) begin
          oh_m <= oh_m + str_h; oh_q <= oh_q - 32'd1; oh_a <= oh_a - pitch_i;
        end else if (oh_big) begin
          oh_m <= oh_m - str_h; oh_q <= oh_q + 32'd1; oh_a <= oh_a + pitch_i;
        end
        if (ow_neg) begin
          ow_m <= ow_m + str_w; ow_q <= ow_q - 32'd1;
        end else if (ow_big) begin
          ow_m <= ow_m - str_w; ow_q <= ow_q + 32'd1;
        end
        if (dh_big) begin
          dh_m <= dh_m - str_h; dh_q <= dh_q + 32'd1; dh_a <= dh_a + pitch_i;
        end
        if (dw_big) begin
          dw_m <= dw_m - str_w; dw_q <= dw_q + 32'd1;
        end
      end
    end else if (vld_o && adv_i) begin
      if (!last_s) begin                       // next tap column
        i_s  <= i_s + 16'd1;
        tw_m <= tw_cy ? tw_alt : tw_sum;
        tw_q <= tw_cy ? tw_q + dw_q1 : tw_q + dw_q;
      end else begin
        i_s <= 16'd0;
        tw_q <= pw_q; tw_m <= pw_m;
        if (!last_r) begin                     // next tap row
          i_r  <= i_r + 16'd1;
          th_m <= th_cy ? th_alt : th_sum;
          th_q <= th_cy ? th_q + dh_q1 : th_q + dh_q;
          th_a <= th_cy ? th_a + dh_a1 : th_a + dh_a;
        end else begin
          i_r <= 16'd0;
          th_q <= ph_q; th_m <= ph_m; th_a <= ph_a;
          if (!last_c) begin                   // next tap channel
            i_c  <= i_c + 16'd1;
            a_pc <= a_pc + ch_stride_i;
          end else begin
            i_c  <= 16'd0;
            a_pc <= a_pb;
            if (!last_px) begin                // next pixel in the row
              i_px <= i_px + 16'd1;
              pw_q <= pw_q_n; pw_m <= pw_m_n;
              tw_q <= pw_q_n; tw_m <= pw_m_n;
            end else begin
              i_px <= 16'd0;
              pw_q <= ow_q; pw_m <= ow_m;
              tw_q <= ow_q; tw_m <= ow_m;
              if (!last_py) begin              // next pixel row
                i_py <= i_py + 16'd1;
                ph_q <= ph_q_n; ph_m <= ph_m_n; ph_a <= ph_a_n;
                th_q <= ph_q_n; th_m <= ph_m_n; th_a <= ph_a_n;
              end else begin
                i_py <= 16'd0;
                ph_q <= oh_q; ph_m <= oh_m; ph_a <= oh_a;
                th_q <= oh_q; th_m <= oh_m; th_a <= oh_a;
                if (!last_pb) begin            // next outer pixel
                  i_pb <= i_pb + 16'd1;
                  a_pb <= a_pb + pb_stride_i;
                  a_pc <= a_pb + pb_stride_i;
                end else begin                 // the last element is taken
                  vld_o <= 1'b0;
                end
              end
            end
          end
        end
      end
    end
  end

endmodule

`resetall
