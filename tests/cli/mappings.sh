#!/usr/bin/env bash
# cli/mappings: how a convolution sits on the array, forced through ./sagen's options and replayed
# in Icarus: column groups (every count, the model cache apart per configuration, counts the
# hardware lacks refused), linear contexts (forced, chosen on a loss's stride-1 phases, and the
# fallback on stride 2), aligned rows (wrapping and in a row), wrapping contexts that read no row
# below their tile, and images side by side (columns and rows interleaved, a loss's phases, the
# fallback on stride 2,2); the options' bad values. Which mapping the cost model chooses, and
# that it is the fastest, is tests/cost_model_runs.sh's.
#
# Usage: tests/cli/mappings.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/common.sh"
make_tmp cli_mappings

# ---- column groups: every forced count replays in Icarus; counts the hardware lacks are refused ----
for g in 1 2 3; do
  if $S sim yaml/rect4x8.yaml conv2d --random 2,3,7,11:2,3,2 --padding 1,0 --seed 3 --col-groups $g \
       --simulator icarus --check --quiet --report json >"$tmp/g.json" 2>"$tmp/err" &&
     [ "$(jq -c .column_groups "$tmp/g.json")" = "{\"$g\":1}" ]; then
    ok "icarus replay conv2d, $g column groups (the report names them)"
  else
    not_ok "icarus replay conv2d, $g column groups" "$(head -c 400 "$tmp/err")"
  fi
done
# the model cache tells configurations apart by every key: default without groups is its own model
expect "col_groups override builds its own model" 0 "" \
  $S sim yaml/default.yaml conv2d --random 1,2,6,6:3,3,3 --set array.col_groups=1 --check --quiet --report none
expect "col-groups beyond the hardware" 1 "4 column groups asked for: the configuration 'rect4x8' has array.col_groups = 3" \
  $S sim yaml/rect4x8.yaml conv2d --random 1,2,6,6:3,3,3 --col-groups 4 --quiet
expect "col-groups not a count" 2 "--col-groups: '0' is not allowed: 1..array.col_groups" \
  $S sim yaml/rect4x8.yaml conv2d --random 1,2,6,6:3,3,3 --col-groups 0 --quiet

# ---- linear contexts: replayed in Icarus forced and chosen by the driver, in the report ----
replay_runs "conv2d, linear contexts" contexts.linear 1 yaml/rect4x8.yaml conv2d \
  --random 2,3,7,11:2,3,2 --padding 1,1 --seed 3 --contexts linear
# aligned rows (each stored row from a bus word, the left padding counted in), wrapping and in a
# row, replayed in Icarus: the tile's words hold gaps the lanes must never take
for cx in wrap row; do
  replay_runs "conv2d, aligned rows, contexts $cx" aligned_runs 1 yaml/small8x8.yaml conv2d \
    --random 2,3,9,13:5,3,3 --stride 2 --padding 1,2 --seed 4 --contexts $cx --rows aligned
done
# the loss of a stride-2 layer: its phase convolutions have stride 1, the driver picks linear ones
: >"$tmp/err"
if sim_json "$tmp/lin.json" yaml/small8x8.yaml conv2d_input_grad --random 1,4,14,14:16,3,3 --stride 2 \
     --padding 1 --seed 2 --simulator icarus &&
   [ "$(jq .contexts.linear "$tmp/lin.json")" -ge 1 ]; then
  ok "icarus replay conv2d_input_grad, linear contexts chosen"
else
  not_ok "icarus replay conv2d_input_grad, linear contexts chosen" "$(head -c 400 "$tmp/err" "$tmp/lin.json")"
fi
# a stride-2 layer cannot use them: the driver's choice instead, still correct
report_is "linear contexts asked for on a stride-2 layer: the driver's choice" '.contexts.linear == 0' \
  yaml/small8x8.yaml conv2d --random 1,3,13,13:4,3,3 --stride 2 --contexts linear
expect "contexts not a mapping" 2 "--contexts: 'diagonal' is not allowed: auto, wrap, row or linear" \
  $S sim yaml/rect4x8.yaml conv2d --random 1,2,6,6:3,3,3 --contexts diagonal --quiet

# ---- wrapping contexts and aligned rows ----
# a context past the tile's last output row: the 7x7 output's 49th pixel is the last context's
# only real one; its other 15 lanes would wrap into two rows below the tile. No segment below
# the tile is read (the lanes there copy lane 0), so the feeder never stalls.
: >"$tmp/err"
if sim_json "$tmp/ph.json" yaml/default.yaml conv2d --random 1,8,14,14:16,3,3 --stride 2 --padding 1 \
     --contexts wrap --rows aligned --dram-bytes-per-cycle 1e9 &&
   [ "$(jq .contexts.wrap "$tmp/ph.json")" = 1 ] && [ "$(jq .stall_cycles "$tmp/ph.json")" = 0 ]; then
  ok "wrapping contexts read no row below the tile ($(jq .cycles "$tmp/ph.json") cycles, no stall)"
else
  not_ok "wrapping contexts read no row below the tile" "$(head -c 400 "$tmp/err" "$tmp/ph.json")"
fi
expect "sim bad --rows" 2 "--rows: 'wide' is not allowed: auto, packed or aligned" \
  $S sim yaml/default.yaml conv2d --random 1,1,4,4:1,1,1 --rows wide

# ---- images side by side: the batch as one image N times as wide, its columns interleaved ----
# replayed in Icarus: columns interleaved (a dilated kernel, asymmetric padding), rows
# interleaved (stride 2 across, 1 down), and a loss's stride-1 phase convolutions (3 of its 4:
# the 1x1-tap phase without padding is a flattened matrix product)
for case in "1 conv2d 3,3,5,6:5,3,3 --padding 1,2 --dilation 1,2" \
            "1 conv2d 3,3,6,5:5,2,3 --stride 1,2 --padding 2,1 --dilation 2,1" \
            "3 conv2d_input_grad 2,3,7,8:4,3,3 --stride 2 --padding 1 --phases separate"; do
  read -r n op args <<<"$case"
  replay_runs "images side by side: $op $args" side_runs "$n" yaml/small8x8.yaml $op \
    --random $args --seed 5 --images side
done
# stride 2 both ways: no side by side, forced or not; the images run apart
report_is "images side by side forced on stride 2,2: the images run apart" '.side_runs == 0' \
  yaml/default.yaml conv2d --random 2,4,6,7:4,3,3 --stride 2 --padding 1 --seed 1 --images side
expect "sim bad --images" 2 "--images: 'stacked' is not allowed: auto, apart or side" \
  $S sim yaml/default.yaml conv2d --random 2,1,4,4:1,1,1 --images stacked

finish
