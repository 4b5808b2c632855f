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
// Timing: the decisions are flip-flops, not compares. Each loop keeps a "last" flag and a down
// counter whose sign bit gives the next flag; which loops the next advance steps (s and r last,
// ..., the walk's last element) are flags too. A tap pair keeps its remainder as m + dil mod
// str - str, whose sign is the next step's carry, and both outcomes of the carry are computed
// (carry select); the non-zero test is three flip-flops per axis (quotient >= 0, quotient -
// bound < 0, remainder 0), kept in step with the pair; the end of the prologue is a flag set one
// cycle ahead. The walk moves on when its element enters a two-entry output queue
// (sagen_queue2), whose room is a flip-flop: the walk's enables depend on flip-flops alone, and
// adv_i, which pops the queue, reaches none of them. The arithmetic is as narrow as the ranges
// allow: remainders 16 bits, addresses AW bits (every address term is taken mod 2^AW),
// quotients 18 bits two's complement. A quotient starts at floor(-off/str) >= -32768 and only
// grows within a pixel (dil div str >= 0); pixel steps keep it exact (at most 32768 + 65534 <
// 2^17), and a tap step holds it once it reaches the bound (hs or ws <= 65535), which every later
// tap of the pixel would be past too: the value past the bound does not matter.
//
// Prologue: with start_i high in cycle 0, vld_o is first high in cycle
//   3 + max(|floor(-off_h/str_h)|, |floor(-off_w/str_w)|, floor(dil_h/str_h), floor(dil_w/str_w))
// (busy_o high, vld_o low meanwhile; the walk's first element is there a cycle before, and
// enters the queue). Transposed mode: 3 + max(ceil(off/S), floor(D/S)) per axis, e.g. 4 for
// K = 3, P = 1 at S = 1 or 2 (BP-im2col pays 68 cycles); dilated mode: 4 at S = 1, 3 otherwise.
// Worst case 3 + 65535 (dil 65535 at str 1). Then the next element in the cycle after each one
// adv_i takes. The outputs are the queue's flip-flops (the address, an add of three terms, is
// made before the queue).
//
// Degenerate inputs on purpose: a count of 0 walks as 1, a stride of 0 as 1, hs/ws 0 make every
// element NULL.
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
  output wire          vld_o,        // an element is presented
  output wire          nz_o,         // it is a stored element (low: a zero-space, or no vld_o)
  output wire [AW-1:0] addr_o,       // its address when nz_o, else 0 (NULL)
  output wire          tap_last_o,   // the last tap (c, r, s all last) of its pixel
  output wire          last_o        // the last element of the walk
);

  localparam integer QW = 18;  // quotient bits (two's complement, see the header)

  // The descriptor as the walk uses it, registered at start_i (the inputs are held from then
  // on, so this changes nothing the ports show; it keeps the inputs' paths out of the loop):
  // per axis the stride (0 walks as 1), the stride - 1 and - 2 (mod 2^16), minus the stride,
  // twice the stride, whether it is 1; per loop (a count of 0 walks as 1) its counter's reload
  // value, the count - 3, and whether the count is 1.
  reg  [15:0] strh_q, strw_q, strh_m1_q, strw_m1_q, strh_m2_q, strw_m2_q;
  reg  [16:0] nstrh_q, nstrw_q, strh2_q, strw2_q;
  reg         strh_one_q, strw_one_q;
  reg  [16:0] npb_m3_q, npy_m3_q, npx_m3_q, nch_m3_q, nr_m3_q, ns_m3_q;
  reg         npb_1_q, npy_1_q, npx_1_q, nch_1_q, nr_1_q, ns_1_q;
  function automatic [16:0] m3(input [15:0] n);
    m3 = (n[15:1] == 15'd0) ? 17'h1fffe : {1'b0, n} - 17'd3;
  endfunction
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      strh_q <= 16'd1; strw_q <= 16'd1; strh_m1_q <= 16'd0; strw_m1_q <= 16'd0;
      strh_m2_q <= 16'hffff; strw_m2_q <= 16'hffff; nstrh_q <= 17'h1ffff; nstrw_q <= 17'h1ffff;
      strh2_q <= 17'd2; strw2_q <= 17'd2; strh_one_q <= 1'b1; strw_one_q <= 1'b1;
      npb_m3_q <= 17'd0; npy_m3_q <= 17'd0; npx_m3_q <= 17'd0;
      nch_m3_q <= 17'd0; nr_m3_q <= 17'd0; ns_m3_q <= 17'd0;
      npb_1_q <= 1'b1; npy_1_q <= 1'b1; npx_1_q <= 1'b1;
      nch_1_q <= 1'b1; nr_1_q <= 1'b1; ns_1_q <= 1'b1;
    end else if (start_i) begin
      strh_q     <= (str_h_i == 16'd0) ? 16'd1 : str_h_i;
      strw_q     <= (str_w_i == 16'd0) ? 16'd1 : str_w_i;
      strh_m1_q  <= (str_h_i == 16'd0) ? 16'd0 : str_h_i - 16'd1;
      strw_m1_q  <= (str_w_i == 16'd0) ? 16'd0 : str_w_i - 16'd1;
      strh_m2_q  <= str_h_i - 16'd2;
      strw_m2_q  <= str_w_i - 16'd2;
      nstrh_q    <= (str_h_i == 16'd0) ? 17'h1ffff : 17'd0 - {1'b0, str_h_i};
      nstrw_q    <= (str_w_i == 16'd0) ? 17'h1ffff : 17'd0 - {1'b0, str_w_i};
      strh2_q    <= (str_h_i == 16'd0) ? 17'd2 : {str_h_i, 1'b0};
      strw2_q    <= (str_w_i == 16'd0) ? 17'd2 : {str_w_i, 1'b0};
      strh_one_q <= (str_h_i[15:1] == 15'd0);
      strw_one_q <= (str_w_i[15:1] == 15'd0);
      npb_m3_q   <= m3(n_pb_i); npy_m3_q <= m3(n_py_i); npx_m3_q <= m3(n_px_i);
      nch_m3_q   <= m3(n_ch_i); nr_m3_q  <= m3(n_r_i);  ns_m3_q  <= m3(n_s_i);
      npb_1_q    <= (n_pb_i[15:1] == 15'd0); npy_1_q <= (n_py_i[15:1] == 15'd0);
      npx_1_q    <= (n_px_i[15:1] == 15'd0); nch_1_q <= (n_ch_i[15:1] == 15'd0);
      nr_1_q     <= (n_r_i[15:1] == 15'd0);  ns_1_q  <= (n_s_i[15:1] == 15'd0);
    end
  end

  // ---- prologue: floor-divmod of -off and of dil by str, by one +-str step per cycle --------
  // After the prologue these hold the constants of the walk:
  //   oh_quo, oh_rem, oh_adr = floor(-off_h / str_h), -off_h mod str_h, oh_quo * pitch (ow_*)
  //   dh_quo, dh_rem, dh_adr = dil_h div str_h, dil_h mod str_h, dh_quo * pitch       (dw_*)
  // oh_rem starts at -off_h (17 bits signed), dh_rem at dil_h. Each remainder has a flag, set
  // when it is in [0, str) (its division is done), computed from the inputs at start_i, then
  // one step ahead, and so is their AND (pro_end_q: the prologue ends in this cycle). A
  // remainder below 0 steps up by str (done if the sum is >= 0), one of str or more down (done
  // if it was below 2*str).
  reg           pro_q, pro_end_q;
  reg  [QW-1:0] oh_quo_q, ow_quo_q;
  reg  [16:0]   oh_rem_q, ow_rem_q;
  reg  [15:0]   dh_quo_q, dh_rem_q, dw_quo_q, dw_rem_q;
  reg  [16:0]   dhs_q, dws_q;        // dh_rem - str_h, dw_rem - str_w
  reg  [AW-1:0] oh_adr_q, dh_adr_q;
  reg           oh_fin_q, ow_fin_q, dh_fin_q, dw_fin_q;

  // 0 <= -off < str at start_i: off <= 0 and off + str > 0; the sum's sign from a carry chain,
  // its zero test without one (a + b = 0 iff bit i of a ^ b is bit i-1 of a | b, every i)
  wire [17:0] oh_a     = {{2{off_h_i[15]}}, off_h_i};
  wire [17:0] ow_a     = {{2{off_w_i[15]}}, off_w_i};
  wire [17:0] oh_t     = oh_a + {2'd0, str_h_i};
  wire [17:0] ow_t     = ow_a + {2'd0, str_w_i};
  wire        oh_t0    = &((oh_a ^ {2'd0, str_h_i}) ~^ {oh_a[16:0] | {1'b0, str_h_i}, 1'b0});
  wire        ow_t0    = &((ow_a ^ {2'd0, str_w_i}) ~^ {ow_a[16:0] | {1'b0, str_w_i}, 1'b0});
  wire        oh_fin0  = (str_h_i == 16'd0) ? (off_h_i == 16'd0) :
                         (off_h_i[15] || off_h_i == 16'd0) && !oh_t0 && !oh_t[17];
  wire        ow_fin0  = (str_w_i == 16'd0) ? (off_w_i == 16'd0) :
                         (off_w_i[15] || off_w_i == 16'd0) && !ow_t0 && !ow_t[17];
  // dil - str at start_i (str 0 as 1): two subtractions and a select, not a select then one
  wire [16:0] dhs0_a   = {1'b0, dil_h_i} - {1'b0, str_h_i};
  wire [16:0] dhs0_b   = {1'b0, dil_h_i} - 17'd1;
  wire [16:0] dws0_a   = {1'b0, dil_w_i} - {1'b0, str_w_i};
  wire [16:0] dws0_b   = {1'b0, dil_w_i} - 17'd1;
  wire [16:0] dhs0     = (str_h_i == 16'd0) ? dhs0_b : dhs0_a;
  wire [16:0] dws0     = (str_w_i == 16'd0) ? dws0_b : dws0_a;
  wire        dh_fin0  = (str_h_i == 16'd0) ? (dil_h_i == 16'd0) : (dil_h_i < str_h_i);
  wire        dw_fin0  = (str_w_i == 16'd0) ? (dil_w_i == 16'd0) : (dil_w_i < str_w_i);
  wire [16:0] oh_add   = oh_rem_q + {1'b0, strh_q};                // when oh_rem < 0
  wire [16:0] oh_sub   = oh_rem_q - {1'b0, strh_q};                // when oh_rem >= 0
  wire        oh_lt2   = {1'b0, oh_rem_q[15:0]} < strh2_q;          // when oh_rem >= 0
  wire [16:0] ow_add   = ow_rem_q + {1'b0, strw_q};
  wire [16:0] ow_sub   = ow_rem_q - {1'b0, strw_q};
  wire        ow_lt2   = {1'b0, ow_rem_q[15:0]} < strw2_q;
  wire [17:0] dh_sub2  = {2'd0, dh_rem_q} - {1'b0, strh2_q};       // dh_rem - 2*str
  wire        dh_lt2   = dh_sub2[17];
  wire [17:0] dw_sub2  = {2'd0, dw_rem_q} - {1'b0, strw2_q};
  wire        dw_lt2   = dw_sub2[17];
  wire        oh_fin_n = oh_fin_q || (oh_rem_q[16] ? !oh_add[16] : oh_lt2);
  wire        ow_fin_n = ow_fin_q || (ow_rem_q[16] ? !ow_add[16] : ow_lt2);
  wire        dh_fin_n = dh_fin_q || dh_lt2;
  wire        dw_fin_n = dw_fin_q || dw_lt2;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pro_q <= 1'b0; pro_end_q <= 1'b0;
      oh_quo_q <= {QW{1'b0}}; oh_rem_q <= 17'd0; oh_adr_q <= {AW{1'b0}};
      ow_quo_q <= {QW{1'b0}}; ow_rem_q <= 17'd0;
      dh_quo_q <= 16'd0; dh_rem_q <= 16'd0; dh_adr_q <= {AW{1'b0}};
      dw_quo_q <= 16'd0; dw_rem_q <= 16'd0; dhs_q <= 17'h1ffff; dws_q <= 17'h1ffff;
      oh_fin_q <= 1'b0; ow_fin_q <= 1'b0; dh_fin_q <= 1'b0; dw_fin_q <= 1'b0;
    end else if (start_i) begin
      pro_q     <= 1'b1;
      pro_end_q <= oh_fin0 && ow_fin0 && dh_fin0 && dw_fin0;
      oh_quo_q  <= {QW{1'b0}}; oh_rem_q <= 17'd0 - {off_h_i[15], off_h_i};
      oh_adr_q  <= {AW{1'b0}};
      ow_quo_q  <= {QW{1'b0}}; ow_rem_q <= 17'd0 - {off_w_i[15], off_w_i};
      dh_quo_q  <= 16'd0; dh_rem_q <= dil_h_i; dh_adr_q <= {AW{1'b0}};
      dw_quo_q  <= 16'd0; dw_rem_q <= dil_w_i;
      dhs_q     <= dhs0;
      dws_q     <= dws0;
      oh_fin_q  <= oh_fin0; ow_fin_q <= ow_fin0; dh_fin_q <= dh_fin0; dw_fin_q <= dw_fin0;
    end else if (pro_end_q) begin              // constants ready: the walk starts
      pro_q     <= 1'b0;
      pro_end_q <= 1'b0;
    end else if (pro_q) begin
      pro_end_q <= oh_fin_n && ow_fin_n && dh_fin_n && dw_fin_n;
      oh_fin_q  <= oh_fin_n; ow_fin_q <= ow_fin_n; dh_fin_q <= dh_fin_n; dw_fin_q <= dw_fin_n;
      if (!oh_fin_q && oh_rem_q[16]) begin
        oh_rem_q <= oh_add; oh_quo_q <= oh_quo_q - {{QW-1{1'b0}}, 1'b1};
        oh_adr_q <= oh_adr_q - pitch_i[AW-1:0];
      end else if (!oh_fin_q) begin
        oh_rem_q <= oh_sub; oh_quo_q <= oh_quo_q + {{QW-1{1'b0}}, 1'b1};
        oh_adr_q <= oh_adr_q + pitch_i[AW-1:0];
      end
      if (!ow_fin_q && ow_rem_q[16]) begin
        ow_rem_q <= ow_add; ow_quo_q <= ow_quo_q - {{QW-1{1'b0}}, 1'b1};
      end else if (!ow_fin_q) begin
        ow_rem_q <= ow_sub; ow_quo_q <= ow_quo_q + {{QW-1{1'b0}}, 1'b1};
      end
      if (!dh_fin_q) begin
        dh_rem_q <= dhs_q[15:0]; dhs_q <= dh_sub2[16:0]; dh_quo_q <= dh_quo_q + 16'd1;
        dh_adr_q <= dh_adr_q + pitch_i[AW-1:0];
      end
      if (!dw_fin_q) begin
        dw_rem_q <= dws_q[15:0]; dws_q <= dw_sub2[16:0]; dw_quo_q <= dw_quo_q + 16'd1;
      end
    end
  end

  // ---- walk state ---------------------------------------------------------------------------
  // Every walk register loads at the end of the prologue (go) or when the presented element is
  // taken (take, and a condition of flip-flops), always from its _d value, which depends on
  // flip-flops only: adv_i reaches nothing but the enables. (At start_i they may load too: no
  // matter, w_vld_q falls and go loads them all again.)
  wire go   = pro_end_q;
  reg  w_vld_q;   // the walk holds an element (it enters the output queue when there is room)
  wire q_room;
  wire take = w_vld_q && q_room;

  // Per loop, outermost first: the current element is its last (l_*), and a down counter, the
  // elements after the current one minus 2 (k_*), whose sign bit says the next one is the last
  // (or this one is). Then which loops the next advance steps, as flags: st_c (s and r are
  // last), st_px (c too: the last tap of the pixel), st_py, st_pb, and st_end (every loop is
  // last: the last element of the walk); s always steps, r when l_s.
  reg  [16:0]   k_pb_q, k_py_q, k_px_q, k_c_q, k_r_q, k_s_q;
  reg           l_pb_q, l_py_q, l_px_q, l_c_q, l_r_q, l_s_q;
  reg           st_c_q, st_px_q, st_py_q, st_pb_q, st_end_q;

  // Per axis, (quotient, remainder) pairs: of the current element (th, tw: py + r*dil_h - off_h,
  // px + s*dil_w - off_w), of its pixel's first tap (ph, pw) and of the first pixel (oh, ow,
  // from the prologue). Each pair keeps, as flip-flops:
  //   *_quo  the quotient (its sign: below row/column 0)
  //   *_v    the quotient - hs (h) or - ws (w): negative below the bottom/right bound
  //   *_z    the remainder is 0
  //   *_x    the remainder + dil mod str - str: its sign bit is the next tap step's carry
  //          (x >= 0: the remainder wraps), so the step selects by a flip-flop
  // the pixel pairs also the remainder (*_rem) and whether it is str - 1 (*_cy: a pixel step
  // carries); the h pairs the quotient times pitch (*_adr). Set with the first element, the tap
  // steps' carry-select constants dil div str + 1 and (dil div str + 1) * pitch (the third,
  // dil mod str - str, is the prologue's dhs, dws).
  reg  [QW-1:0] th_quo_q, tw_quo_q, ph_quo_q, pw_quo_q;
  reg  [QW-1:0] th_v_q, tw_v_q, ph_v_q, pw_v_q, oh_v_q, ow_v_q;
  reg           th_z_q, tw_z_q, ph_z_q, pw_z_q, oh_z_q, ow_z_q;
  reg  [16:0]   th_x_q, tw_x_q, ph_x_q, pw_x_q, oh_x_q, ow_x_q;
  reg  [15:0]   ph_rem_q, pw_rem_q;
  reg           ph_cy_q, pw_cy_q, oh_cy_q, ow_cy_q;
  reg  [AW-1:0] th_adr_q, ph_adr_q;
  reg  [16:0]   dh_quo1_q, dw_quo1_q;
  reg  [AW-1:0] dh_adr1_q;
  reg  [AW-1:0] a_pb_q;              // base + pb*pb_stride
  reg  [AW-1:0] a_pc_q;              // base + pb*pb_stride + c*ch_stride

  // -- the loops: a loop that steps is last next if its count is 1 (it wraps) or its counter is
  // negative
  wire l_s_n  = l_s_q ? ns_1_q : k_s_q[16];
  wire l_r_n  = !l_s_q ? l_r_q : l_r_q ? nr_1_q : k_r_q[16];
  wire l_c_n  = !st_c_q ? l_c_q : l_c_q ? nch_1_q : k_c_q[16];
  wire l_px_n = !st_px_q ? l_px_q : l_px_q ? npx_1_q : k_px_q[16];
  wire l_py_n = !st_py_q ? l_py_q : l_py_q ? npy_1_q : k_py_q[16];
  wire l_pb_n = !st_pb_q ? l_pb_q : l_pb_q ? npb_1_q : k_pb_q[16];
  wire l_s_d  = go ? ns_1_q  : l_s_n;
  wire l_r_d  = go ? nr_1_q  : l_r_n;
  wire l_c_d  = go ? nch_1_q : l_c_n;
  wire l_px_d = go ? npx_1_q : l_px_n;
  wire l_py_d = go ? npy_1_q : l_py_n;
  wire l_pb_d = go ? npb_1_q : l_pb_n;
  wire [16:0] k_s_d  = (go || l_s_q)  ? ns_m3_q  : k_s_q  - 17'd1;
  wire [16:0] k_r_d  = (go || l_r_q)  ? nr_m3_q  : k_r_q  - 17'd1;
  wire [16:0] k_c_d  = (go || l_c_q)  ? nch_m3_q : k_c_q  - 17'd1;
  wire [16:0] k_px_d = (go || l_px_q) ? npx_m3_q : k_px_q - 17'd1;
  wire [16:0] k_py_d = (go || l_py_q) ? npy_m3_q : k_py_q - 17'd1;
  wire [16:0] k_pb_d = (go || l_pb_q) ? npb_m3_q : k_pb_q - 17'd1;

  // -- the first pixel's pairs, at the end of the prologue
  wire [16:0]   oh_x = {1'b0, oh_rem_q[15:0]} + dhs_q;
  wire [16:0]   ow_x = {1'b0, ow_rem_q[15:0]} + dws_q;
  wire [QW-1:0] oh_v = oh_quo_q - {{QW-16{1'b0}}, hs_i};
  wire [QW-1:0] ow_v = ow_quo_q - {{QW-16{1'b0}}, ws_i};
  wire          oh_z = (oh_rem_q[15:0] == 16'd0);
  wire          ow_z = (ow_rem_q[15:0] == 16'd0);
  wire          oh_cy = (oh_rem_q[15:0] == strh_m1_q);
  wire          ow_cy = (ow_rem_q[15:0] == strw_m1_q);

  // -- tap steps: add (dil div str, dil mod str) with the carry x >= 0, both outcomes at once
  // (carry select); the remainder is 0 after the step if x = 0 (carry) or x = -str (none). A
  // quotient at or past the bound (v >= 0) holds: every later tap of the pixel is past it too.
  wire          th_cy    = !th_x_q[16];
  wire          th_hold  = !th_v_q[QW-1];
  wire [16:0]   th_x_n   = th_cy ? th_x_q + dhs_q : th_x_q + {1'b0, dh_rem_q};
  wire [QW-1:0] th_quo_n = th_hold ? th_quo_q :
                           th_cy ? th_quo_q + {{QW-17{1'b0}}, dh_quo1_q} :
                                   th_quo_q + {{QW-16{1'b0}}, dh_quo_q};
  wire [QW-1:0] th_v_n   = th_hold ? th_v_q :
                           th_cy ? th_v_q + {{QW-17{1'b0}}, dh_quo1_q} :
                                   th_v_q + {{QW-16{1'b0}}, dh_quo_q};
  wire          th_z_n   = (th_x_q == 17'd0) || (th_x_q == nstrh_q);
  wire [AW-1:0] th_adr_n = th_cy ? th_adr_q + dh_adr1_q : th_adr_q + dh_adr_q;
  wire          tw_cy    = !tw_x_q[16];
  wire          tw_hold  = !tw_v_q[QW-1];
  wire [16:0]   tw_x_n   = tw_cy ? tw_x_q + dws_q : tw_x_q + {1'b0, dw_rem_q};
  wire [QW-1:0] tw_quo_n = tw_hold ? tw_quo_q :
                           tw_cy ? tw_quo_q + {{QW-17{1'b0}}, dw_quo1_q} :
                                   tw_quo_q + {{QW-16{1'b0}}, dw_quo_q};
  wire [QW-1:0] tw_v_n   = tw_hold ? tw_v_q :
                           tw_cy ? tw_v_q + {{QW-17{1'b0}}, dw_quo1_q} :
                                   tw_v_q + {{QW-16{1'b0}}, dw_quo_q};
  wire          tw_z_n   = (tw_x_q == 17'd0) || (tw_x_q == nstrw_q);

  // -- pixel steps: add 1 with the carry *_cy; after the step the remainder is 0 if it carried,
  // and str - 1 if it wrapped at str = 1 or was str - 2
  wire [QW-1:0] ph_quo_n = ph_quo_q + {{QW-1{1'b0}}, ph_cy_q};
  wire [QW-1:0] ph_v_n   = ph_v_q + {{QW-1{1'b0}}, ph_cy_q};
  wire [16:0]   ph_x_n   = ph_cy_q ? dhs_q : ph_x_q + 17'd1;
  wire [15:0]   ph_rem_n = ph_cy_q ? 16'd0 : ph_rem_q + 16'd1;
  wire          ph_cy_n  = ph_cy_q ? strh_one_q : (ph_rem_q == strh_m2_q);
  wire [AW-1:0] ph_adr_n = ph_cy_q ? ph_adr_q + pitch_i[AW-1:0] : ph_adr_q;
  wire [QW-1:0] pw_quo_n = pw_quo_q + {{QW-1{1'b0}}, pw_cy_q};
  wire [QW-1:0] pw_v_n   = pw_v_q + {{QW-1{1'b0}}, pw_cy_q};
  wire [16:0]   pw_x_n   = pw_cy_q ? dws_q : pw_x_q + 17'd1;
  wire [15:0]   pw_rem_n = pw_cy_q ? 16'd0 : pw_rem_q + 16'd1;
  wire          pw_cy_n  = pw_cy_q ? strw_one_q : (pw_rem_q == strw_m2_q);

  // -- the next values: at go the first pixel's pairs (last, next to the flip-flops: oh_v and
  // oh_x come from carry chains), else by the loop flags. w pixel pair: the next pixel in the
  // row, or the row's first pixel.
  wire [QW-1:0] pw_quo_w = l_px_q ? ow_quo_q : pw_quo_n;
  wire [QW-1:0] pw_v_w   = l_px_q ? ow_v_q   : pw_v_n;
  wire          pw_z_w   = l_px_q ? ow_z_q   : pw_cy_q;
  wire [16:0]   pw_x_w   = l_px_q ? ow_x_q   : pw_x_n;
  wire [15:0]   pw_rem_w = l_px_q ? ow_rem_q[15:0] : pw_rem_n;
  wire          pw_cy_w  = l_px_q ? ow_cy_q  : pw_cy_n;
  // w tap pair: the next tap column, or the pixel's first (the same pixel, or the new pw)
  wire [QW-1:0] tw_quo_w = !l_s_q ? tw_quo_n : !st_px_q ? pw_quo_q : pw_quo_w;
  wire [QW-1:0] tw_v_w   = !l_s_q ? tw_v_n   : !st_px_q ? pw_v_q   : pw_v_w;
  wire          tw_z_w   = !l_s_q ? tw_z_n   : !st_px_q ? pw_z_q   : pw_z_w;
  wire [16:0]   tw_x_w   = !l_s_q ? tw_x_n   : !st_px_q ? pw_x_q   : pw_x_w;
  // h pixel pair: the next pixel row, or the first row
  wire [QW-1:0] ph_quo_w = l_py_q ? oh_quo_q : ph_quo_n;
  wire [QW-1:0] ph_v_w   = l_py_q ? oh_v_q   : ph_v_n;
  wire          ph_z_w   = l_py_q ? oh_z_q   : ph_cy_q;
  wire [16:0]   ph_x_w   = l_py_q ? oh_x_q   : ph_x_n;
  wire [15:0]   ph_rem_w = l_py_q ? oh_rem_q[15:0] : ph_rem_n;
  wire          ph_cy_w  = l_py_q ? oh_cy_q  : ph_cy_n;
  wire [AW-1:0] ph_adr_w = l_py_q ? oh_adr_q : ph_adr_n;
  // h tap pair: the next tap row, or the pixel row's first tap (the same row, or the new ph)
  wire [QW-1:0] th_quo_w = !l_r_q ? th_quo_n : !st_py_q ? ph_quo_q : ph_quo_w;
  wire [QW-1:0] th_v_w   = !l_r_q ? th_v_n   : !st_py_q ? ph_v_q   : ph_v_w;
  wire          th_z_w   = !l_r_q ? th_z_n   : !st_py_q ? ph_z_q   : ph_z_w;
  wire [16:0]   th_x_w   = !l_r_q ? th_x_n   : !st_py_q ? ph_x_q   : ph_x_w;
  wire [AW-1:0] th_adr_w = !l_r_q ? th_adr_n : !st_py_q ? ph_adr_q : ph_adr_w;
  // addresses: the next channel, or the first channel of the same or the next outer pixel
  wire [AW-1:0] a_pb_d   = go ? base_i[AW-1:0] : a_pb_q + pb_stride_i[AW-1:0];
  wire [AW-1:0] a_pc_d   = go ? base_i[AW-1:0] : !l_c_q ? a_pc_q + ch_stride_i[AW-1:0] :
                           (st_pb_q && !l_pb_q) ? a_pb_d : a_pb_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k_pb_q <= 17'd0; k_py_q <= 17'd0; k_px_q <= 17'd0; k_c_q <= 17'd0; k_r_q <= 17'd0;
      k_s_q <= 17'd0;
      l_pb_q <= 1'b0; l_py_q <= 1'b0; l_px_q <= 1'b0; l_c_q <= 1'b0; l_r_q <= 1'b0;
      l_s_q <= 1'b0;
      st_c_q <= 1'b0; st_px_q <= 1'b0; st_py_q <= 1'b0; st_pb_q <= 1'b0; st_end_q <= 1'b0;
      th_quo_q <= {QW{1'b0}}; tw_quo_q <= {QW{1'b0}}; ph_quo_q <= {QW{1'b0}};
      pw_quo_q <= {QW{1'b0}};
      th_v_q <= {QW{1'b0}}; tw_v_q <= {QW{1'b0}}; ph_v_q <= {QW{1'b0}}; pw_v_q <= {QW{1'b0}};
      oh_v_q <= {QW{1'b0}}; ow_v_q <= {QW{1'b0}};
      th_z_q <= 1'b0; tw_z_q <= 1'b0; ph_z_q <= 1'b0; pw_z_q <= 1'b0; oh_z_q <= 1'b0;
      ow_z_q <= 1'b0;
      th_x_q <= 17'd0; tw_x_q <= 17'd0; ph_x_q <= 17'd0; pw_x_q <= 17'd0; oh_x_q <= 17'd0;
      ow_x_q <= 17'd0;
      ph_rem_q <= 16'd0; pw_rem_q <= 16'd0;
      ph_cy_q <= 1'b0; pw_cy_q <= 1'b0; oh_cy_q <= 1'b0; ow_cy_q <= 1'b0;
      th_adr_q <= {AW{1'b0}}; ph_adr_q <= {AW{1'b0}};
      dh_quo1_q <= 17'd0; dw_quo1_q <= 17'd0;
      dh_adr1_q <= {AW{1'b0}};
      a_pb_q <= {AW{1'b0}}; a_pc_q <= {AW{1'b0}};
    end else begin
      // constants of the walk
      if (go) begin
        oh_v_q <= oh_v; ow_v_q <= ow_v; oh_z_q <= oh_z; ow_z_q <= ow_z;
        oh_x_q <= oh_x; ow_x_q <= ow_x; oh_cy_q <= oh_cy; ow_cy_q <= ow_cy;
        dh_quo1_q <= {1'b0, dh_quo_q} + 17'd1;
        dh_adr1_q <= dh_adr_q + pitch_i[AW-1:0];
        dw_quo1_q <= {1'b0, dw_quo_q} + 17'd1;
      end
      // the loops
      if (go || take) begin
        l_s_q <= l_s_d; l_r_q <= l_r_d; l_c_q <= l_c_d;
        l_px_q <= l_px_d; l_py_q <= l_py_d; l_pb_q <= l_pb_d;
        st_c_q   <= l_s_d && l_r_d;
        st_px_q  <= l_s_d && l_r_d && l_c_d;
        st_py_q  <= l_s_d && l_r_d && l_c_d && l_px_d;
        st_pb_q  <= l_s_d && l_r_d && l_c_d && l_px_d && l_py_d;
        st_end_q <= l_s_d && l_r_d && l_c_d && l_px_d && l_py_d && l_pb_d;
        k_s_q <= k_s_d;
      end
      if (go || take && l_s_q)   k_r_q  <= k_r_d;
      if (go || take && st_c_q)  k_c_q  <= k_c_d;
      if (go || take && st_px_q) k_px_q <= k_px_d;
      if (go || take && st_py_q) k_py_q <= k_py_d;
      if (go || take && st_pb_q) k_pb_q <= k_pb_d;
      // the pairs
      if (go) begin
        tw_quo_q <= ow_quo_q; tw_v_q <= ow_v; tw_z_q <= ow_z; tw_x_q <= ow_x;
        pw_quo_q <= ow_quo_q; pw_v_q <= ow_v; pw_z_q <= ow_z; pw_x_q <= ow_x;
        pw_rem_q <= ow_rem_q[15:0]; pw_cy_q <= ow_cy;
        th_quo_q <= oh_quo_q; th_v_q <= oh_v; th_z_q <= oh_z; th_x_q <= oh_x;
        th_adr_q <= oh_adr_q;
        ph_quo_q <= oh_quo_q; ph_v_q <= oh_v; ph_z_q <= oh_z; ph_x_q <= oh_x;
        ph_rem_q <= oh_rem_q[15:0]; ph_cy_q <= oh_cy; ph_adr_q <= oh_adr_q;
      end else if (take) begin
        tw_quo_q <= tw_quo_w; tw_v_q <= tw_v_w; tw_z_q <= tw_z_w; tw_x_q <= tw_x_w;
        if (st_px_q) begin
          pw_quo_q <= pw_quo_w; pw_v_q <= pw_v_w; pw_z_q <= pw_z_w; pw_x_q <= pw_x_w;
          pw_rem_q <= pw_rem_w; pw_cy_q <= pw_cy_w;
        end
        if (l_s_q) begin
          th_quo_q <= th_quo_w; th_v_q <= th_v_w; th_z_q <= th_z_w; th_x_q <= th_x_w;
          th_adr_q <= th_adr_w;
        end
        if (st_py_q) begin
          ph_quo_q <= ph_quo_w; ph_v_q <= ph_v_w; ph_z_q <= ph_z_w; ph_x_q <= ph_x_w;
          ph_rem_q <= ph_rem_w; ph_cy_q <= ph_cy_w; ph_adr_q <= ph_adr_w;
        end
      end
      if (go || take && st_c_q) a_pc_q <= a_pc_d;
      if (go || take && st_pb_q && !l_pb_q) a_pb_q <= a_pb_d;
    end
  end

  // the walk's element: w_vld_q rises with the first element, falls when the last enters the
  // queue or at start_i
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_vld_q <= 1'b0;
    end else if (start_i) begin
      w_vld_q <= 1'b0;
    end else if (go) begin
      w_vld_q <= 1'b1;
    end else if (take && st_end_q) begin
      w_vld_q <= 1'b0;
    end
  end

  // ---- the presented element ----------------------------------------------------------------
  wire           h_ok = !th_quo_q[QW-1] && th_v_q[QW-1] && th_z_q;   // 0 <= q < hs, m = 0
  wire           w_ok = !tw_quo_q[QW-1] && tw_v_q[QW-1] && tw_z_q;
  wire           nz   = h_ok && w_ok;
  wire [AW+15:0] col  = {{AW{1'b0}}, tw_quo_q[15:0]};   // the column, when nz: 0 <= q < 2^16
  wire [AW-1:0]  addr = a_pc_q + th_adr_q + col[AW-1:0];

  // ---- the output queue -----------------------------------------------------------------------
  // The walk's element enters a queue of two (sagen_queue2) whose room is a flip-flop, so adv_i
  // pops the queue and reaches none of the walk's enables: the consumer's decision and the
  // walk's advance are in different cycles. The presented element comes from the queue's
  // flip-flops: one cycle of latency, an element a cycle at full rate.
  wire [AW+2:0] q_ent = {nz, nz ? addr : {AW{1'b0}}, st_px_q, st_end_q};
  wire [AW+2:0] q_head;
  wire          q_vld;
  sagen_queue2 #(
    .W(AW + 3)
  ) u_queue (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .flush_i(start_i),
    .push_i (w_vld_q),
    .d_i    (q_ent),
    .room_o (q_room),
    .pop_i  (adv_i),
    .vld_o  (q_vld),
    .q_o    (q_head)
  );

  assign busy_o     = pro_q || w_vld_q || q_vld;
  assign vld_o      = q_vld;
  assign nz_o       = q_vld && q_head[AW+2];
  assign addr_o     = nz_o ? q_head[AW+1:2] : {AW{1'b0}};
  assign tap_last_o = q_vld && q_head[1];
  assign last_o     = q_vld && q_head[0];
  wire unused_in    = ^{col[AW+15:AW], pitch_i, pb_stride_i, ch_stride_i, base_i, oh_t[16:0],
                       ow_t[16:0]};

endmodule

`resetall
