#!/usr/bin/env bash
# cli/backward: the backward ops through ./sagen: zero_fill's created zeros counted by the
# hardware, the weight gradient's forms (tap blocks, side by side), dy's traffic counted apart
# beside the explicit im2col's, and the input gradient's forms: phases sharing runs, joined, in
# blocks, and col2im, forced and replayed in Icarus (both backward modes), with the forms'
# fallbacks where a form cannot run. Which form the cost model chooses, and that it is the
# fastest, is tests/cost_model_runs.sh's.
#
# Usage: tests/cli/backward.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/common.sh"
make_tmp cli_backward

# ---- zero_fill: the cycles a zero-space costs, counted by the hardware ----
# dx of a 1x1 stride-2 layer: 3 of 4 output phases see no tap. zero_skip never runs them;
# zero_fill feeds them to the PEs as created zeros (every dense tap of every phase).
L="--random 2,3,8,8:5,1,1 --stride 2,2 --seed 4 --check --quiet --report json"
if $S sim yaml/small8x8.yaml conv2d_input_grad $L --bp-mode zero_skip >"$tmp/zs.json" 2>"$tmp/err" &&
   $S sim yaml/small8x8.yaml conv2d_input_grad $L --bp-mode zero_fill >"$tmp/zf.json" 2>>"$tmp/err" &&
   jq -e '.runs == 1 and .zero_steps == 0 and .zero_pe_cycles == 0 and .zero_operands_skipped == 2*48*1*5' "$tmp/zs.json" >/dev/null &&
   jq -e '.runs == 4 and .zero_pe_cycles == 2*48*3*5 and .zero_operands_skipped == 2*48*1*5 and .zero_steps > 0' "$tmp/zf.json" >/dev/null &&
   [ "$(jq .cycles "$tmp/zf.json")" -gt "$(jq .cycles "$tmp/zs.json")" ]; then
  ok "zero_fill runs the phases no tap reaches on created zeros, zero_skip skips them"
else
  not_ok "zero_fill counters" "$(cat "$tmp/zs.json" "$tmp/zf.json" "$tmp/err" | head -c 600)"
fi

# ---- the weight gradient's form ----
# 20 channels fill the lanes of matrix products (here every tap sees other positions: 6 blocks of
# one tap); 3 channels fill them in the dilated-kernel form, the images side by side.
if $S sim yaml/small8x8.yaml conv2d_weight_grad --random 2,20,9,8:7,3,2 --stride 2,3 --padding 1,1 \
     --dilation 2,1 --check --quiet --report json >"$tmp/wt.json" 2>"$tmp/err" &&
   jq -e '.form == "tap_blocks" and .runs == 6 and .hw_macs == .useful_macs and .zero_operands_skipped > 0' "$tmp/wt.json" >/dev/null &&
   $S sim yaml/small8x8.yaml conv2d_weight_grad --random 2,3,9,8:7,3,2 --stride 2,3 --padding 1,1 \
     --check --quiet --report json >"$tmp/wd.json" 2>>"$tmp/err" &&
   jq -e '.form == "side_by_side" and .runs == 1' "$tmp/wd.json" >/dev/null; then
  ok "weight gradient: matrix products for 20 channels, the images side by side for 3"
else
  not_ok "weight gradient mappings" "$(cat "$tmp/wt.json" "$tmp/err" | head -c 400)"
fi
# Taps that read x inside the input at the same positions share one product (dy streamed once for
# them): on a 10 x 10 input with stride 2 and padding 1, row and column tap 0 lose the first
# output position to the padding and taps 1 and 2 lose none, so the 9 taps are 2 x 2 blocks.
report_is "weight gradient: 4 products for the 2 x 2 blocks of taps that see the same positions" \
  ".runs == 4 and .hw_macs == .useful_macs" \
  yaml/small8x8.yaml conv2d_weight_grad --random 2,20,10,10:7,3,3 --stride 2 --padding 1
# The traffic of dy, the operand with the zero-spaces, counted apart, and the explicit im2col's
# from the shapes (small8x8: 6-bit inputs in 6-byte ifmap words, 5-bit weights in 5-byte weight
# words, 20-bit sums, an output bank of 51 words). dy is all the ifmap memory reads of a loss and
# all the weight memory reads of a gradient; each of its elements crosses the host port at least
# once.
# Loss, dx 2x5x9x8, dy 2x6x5x4, 3x3: lowered dy 144 pixels x 54 operands, 5832 bytes, in once and
# read once (5 channels: one group of 8 columns); 270 weights, 169 bytes, in once per output
# tile (144 pixels: 3 tiles of 51) and read once per 8-pixel context (18); dx 720 sums, 1800
# bytes.
report_is "traffic: a loss's dy counted apart, the explicit im2col's from the shapes" \
  '.dy_sram_bytes == .sram_reads.ifmap * 6 and .dy_host_bytes >= 180 and
   .dy_host_bytes < .host_bytes_in and .explicit_dy_host_bytes == 5832 and
   .explicit_dy_sram_bytes == 5832 and .explicit_host_bytes == 5832 + 169 * 3 + 1800 and
   .explicit_sram_bytes == 5832 + 169 * 18' \
  yaml/small8x8.yaml conv2d_input_grad --random 2,5,9,8:6,3,3 --stride 2 --padding 1
# dy's views keep the count side by side: 4 images of dy 5x6x6 (4 x 180 elements, 540 bytes)
report_is "traffic: a loss's dy counted with its images side by side" \
  '.side_runs == 1 and .dy_sram_bytes == .sram_reads.ifmap * 6 and .dy_host_bytes >= 540 and
   .dy_host_bytes < .host_bytes_in' \
  yaml/small8x8.yaml conv2d_input_grad --random 4,3,6,6:5,3,3 --padding 1 --images side
# Gradient, x 2x20x10x10, dy 2x7x5x5 zero-inserted to 9x9 as the kernel: 1134 elements, 709
# bytes, in once per output tile (180 pixels: 4 tiles of 51) and read once per 8 pixels (23); x
# lowered at the 162 dense positions: 29160 elements, 21870 bytes, in and read once (7
# filters); dw 1260 sums, 3150 bytes.
report_is "traffic: a gradient's dy counted apart (matrix products), the explicit im2col's" \
  '.form == "tap_blocks" and .dy_sram_bytes == .sram_reads.weight * 5 and
   .dy_host_bytes >= 219 and .dy_host_bytes < .host_bytes_in and
   .explicit_dy_host_bytes == 709 * 4 and .explicit_dy_sram_bytes == 709 * 23 and
   .explicit_host_bytes == 21870 + 709 * 4 + 3150 and .explicit_sram_bytes == 21870 + 709 * 23' \
  yaml/small8x8.yaml conv2d_weight_grad --random 2,20,10,10:7,3,3 --stride 2 --padding 1
report_is "traffic: a gradient's dy counted apart (dilated kernel, images side by side)" \
  '.form == "side_by_side" and .dy_sram_bytes == .sram_reads.weight * 5 and
   .dy_host_bytes >= 132 and .dy_host_bytes < .host_bytes_in' \
  yaml/small8x8.yaml conv2d_weight_grad --random 2,3,9,8:7,3,2 --stride 2,3 --padding 1,1
# A first layer's gradient (3 channels, 5x5 kernel, stride 2, padding 2): apart, each image's
# output rows are 5 pixels on 8 lanes; side by side, the 3 images' columns interleaved, a row
# holds 15, and the model picks it (2548 cycles; 3396 apart).
report_is "icarus replay: weight gradient, a 5x5 stride-2 padded first layer's images side by side" \
  '.form == "side_by_side" and .runs == 1' yaml/small8x8.yaml conv2d_weight_grad \
  --random 1,3,23,23:8,5,5 --stride 2 --padding 2 --simulator icarus
report_is "icarus replay: weight gradient, images side by side, axes exchanged (dilation 1,2)" \
  '.form == "side_by_side"' yaml/small8x8.yaml conv2d_weight_grad --random 2,2,15,11:4,4,3 \
  --stride 3,2 --padding 2,1 --dilation 1,2 --simulator icarus

# ---- Icarus replay of the backward ops, both modes ----
for op in conv2d_input_grad conv2d_weight_grad; do
  for mode in zero_skip zero_fill; do
    if $S sim yaml/rect4x8.yaml $op --random 2,3,9,7:5,3,2 --stride 2,1 --padding 1,1 --seed 5 \
         --bp-mode $mode --simulator icarus --check --quiet --report none 2>"$tmp/err"; then
      ok "icarus replay $op $mode"
    else
      not_ok "icarus replay $op $mode" "$(head -c 400 "$tmp/err")"
    fi
  done
done
# zero_fill's gradient of a 1x1 layer, and of a 1x3 one: one output row per image, so the 16
# images sit side by side, columns interleaved, and fill every lane (one image alone per
# context left 7 of 8 lanes idle, and 5 of 8: 560 and 1680 idle PE-steps)
for layer in "2,16,9,7:8,1,1 --padding 0" "2,16,7,9:8,1,3 --padding 0,1"; do
  if $S sim yaml/small8x8.yaml conv2d_weight_grad --random $layer --stride 2 --seed 5 \
       --bp-mode zero_fill --simulator icarus --check --quiet --report json >"$tmp/sb.json" \
       2>"$tmp/err" && jq -e '.idle_pe_cycles == 0 and .zero_pe_cycles > 0' "$tmp/sb.json" >/dev/null; then
    ok "icarus replay: zero_fill gradient, images side by side ($layer)"
  else
    not_ok "zero_fill gradient, images side by side ($layer)" "$(head -c 400 "$tmp/err" "$tmp/sb.json")"
  fi
done

# ---- the input gradient's phases sharing runs: each tile of dy loaded once for all of them ----
if $S sim yaml/default.yaml conv2d_input_grad --random 1,16,30,30:16,3,3 --stride 2 --check --quiet \
     --report json >"$tmp/sh.json" 2>"$tmp/err" &&
   $S sim yaml/default.yaml conv2d_input_grad --random 1,16,30,30:16,3,3 --stride 2 --check --quiet \
     --phases separate --report json >"$tmp/sep.json" 2>>"$tmp/err" &&
   [ "$(jq .shared_runs "$tmp/sh.json")" = 4 ] && [ "$(jq .shared_runs "$tmp/sep.json")" = 0 ] &&
   [ "$(jq .host_bytes_in "$tmp/sh.json")" -lt "$(jq .host_bytes_in "$tmp/sep.json")" ]; then
  ok "phases sharing runs: 4 phases in one run, fewer host bytes than one run each, both checked"
else
  not_ok "phases sharing runs" "$(head -c 400 "$tmp/err" "$tmp/sh.json" "$tmp/sep.json")"
fi
# in Icarus: each phase reads its own window from where it starts in the shared tile (on these
# layers a tile starts a column, or a row, before some phase's window)
for layer in 1,2,10,30:8,3,3 1,3,14,24:6,3,3; do
  replay_runs "conv2d_input_grad $layer, phases sharing runs" shared_runs 4 \
    yaml/small8x8.yaml conv2d_input_grad --random $layer --stride 2 --seed 4 --phases shared
done
# phases of different sizes (dx 15 x 13): each member's tiles stop at its own edge
replay_runs "conv2d_input_grad, phases of different sizes sharing a run" shared_runs 4 \
  yaml/rect4x8.yaml conv2d_input_grad --random 2,3,15,13:6,3,3 --stride 2 --padding 1 --phases shared
# forced: the 4 phases in one run even where the cost model would not (it joins them in blocks)
if $S sim yaml/small8x8.yaml conv2d_input_grad --random 1,3,30,30:16,3,3 --stride 2 --check --quiet \
     --report json >"$tmp/sh.json" 2>"$tmp/err" &&
   $S sim yaml/small8x8.yaml conv2d_input_grad --random 1,3,30,30:16,3,3 --stride 2 --check --quiet \
     --phases shared --report json >"$tmp/sep.json" 2>>"$tmp/err" &&
   jq -e '.form != "phases" or .shared_runs == 0' "$tmp/sh.json" >/dev/null &&
   jq -e '.form == "phases" and .shared_runs == 4' "$tmp/sep.json" >/dev/null; then
  ok "phases forced to share a run where the driver would not"
else
  not_ok "phases forced to share a run" "$(head -c 400 "$tmp/err" "$tmp/sh.json" "$tmp/sep.json")"
fi

# ---- the input gradient's phases joined into one convolution, and in blocks ----
# forced blocks in Icarus: 6 phases of a 3 x 2 stride
replay_runs "conv2d_input_grad, phases in blocks (small8x8, stride 3,2)" form '"phase_blocks"' \
  yaml/small8x8.yaml conv2d_input_grad --random 1,2,13,11:3,5,3 --stride 3,2 --padding 2,1 --phases blocks
# phases of different sizes (dx 15 x 13): the elements past a phase's grid are not written; in
# Icarus, on an array with column groups; a 2 x 1 stride with a 5 x 3 dilated kernel
replay_runs "conv2d_input_grad, phases joined (rect4x8 2,3,15,13:6,3,3 --stride 2 --padding 1)" \
  form '"joined_phases"' yaml/rect4x8.yaml conv2d_input_grad --random 2,3,15,13:6,3,3 --stride 2 \
  --padding 1 --phases joined
replay_runs "conv2d_input_grad, phases joined (small8x8 1,2,13,11:3,5,3 --stride 3,2 --padding 2,1 --dilation 2,1)" \
  form '"joined_phases"' yaml/small8x8.yaml conv2d_input_grad --random 1,2,13,11:3,5,3 --stride 3,2 \
  --padding 2,1 --dilation 2,1 --phases joined
expect "phases not a choice" 2 "--phases: 'fused' is not allowed: auto, shared, separate, joined, blocks or col2im" \
  $S sim yaml/rect4x8.yaml conv2d_input_grad --random 1,2,6,6:3,3,3 --phases fused --quiet

# ---- the input gradient as col2im: dy times the (tap, channel) filters, overlap-added into dx ----
# In Icarus: 5 channels of dx in 3 runs (a word holds 2 channels' 4 phases on 8 columns), the
# line carried from tile to tile; 64 channels of dy that do not fit a row's tile, so one-row
# tiles take them in 2 reduction slices, the second adding its carry into the line; a 3 x 2
# stride with a dilated kernel on an array with column groups (col2im runs without them); a
# 4x4 kernel (an image generator's up-sampling) on a batch of 2.
replay_runs "conv2d_input_grad as col2im, 3 runs for 5 channels (small8x8)" runs 3 \
  yaml/small8x8.yaml conv2d_input_grad --random 1,5,9,12:4,3,3 --stride 2 --padding 1 --phases col2im
replay_runs "conv2d_input_grad as col2im, reduction slices on one-row tiles (small8x8)" passes 4 \
  yaml/small8x8.yaml conv2d_input_grad --random 1,2,4,48:64,3,3 --stride 2 --phases col2im
replay_runs "conv2d_input_grad as col2im, stride 3,2, dilation 2,1 (rect4x8)" form '"col2im"' \
  yaml/rect4x8.yaml conv2d_input_grad --random 1,2,11,13:3,2,3 --stride 3,2 --dilation 2,1 --phases col2im
replay_runs "conv2d_input_grad as col2im, 4x4 kernel, batch 2 (rect4x8)" form '"col2im"' \
  yaml/rect4x8.yaml conv2d_input_grad --random 2,3,10,9:5,4,4 --stride 2 --padding 1 --phases col2im
# Forced where it cannot run (no line in the configuration; a 5x5 stride-2 kernel reaches two
# super-pixels on): the cost model's choice instead, still checked.
report_is "col2im forced without the line: the phases' forms instead" '.form != "col2im"' \
  yaml/small8x8.yaml conv2d_input_grad --random 1,2,9,9:3,3,3 --stride 2 --phases col2im \
  --set memory.line_kib=0
report_is "col2im forced on a kernel that reaches too far: the phases' forms instead" \
  '.form != "col2im"' yaml/small8x8.yaml conv2d_input_grad --random 1,2,13,13:3,5,5 --stride 2 \
  --phases col2im

finish
