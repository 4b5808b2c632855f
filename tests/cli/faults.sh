#!/usr/bin/env bash
# cli/faults: the hardware's own checks, reached through the driver's fault hooks
# (SAGEN_FAULT=bad_desc|hang|sequence|groups|line|row15|tile15|walk|walk_wide, tb/host/): a
# descriptor the hardware refuses
# (STATUS.error), a hang that the watchdog names by the stuck block (DEBUG), and a wrong tap
# sequence caught by the sequencer/feeder cross-check (STATUS.sequence) in both backward modes.
#
# Usage: tests/cli/faults.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/common.sh"
make_tmp cli_faults

export SAGEN_WATCHDOG_CYCLES=20000
SAGEN_FAULT=bad_desc expect "bad descriptor refused by the hardware" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim yaml/small8x8.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
SAGEN_FAULT=hang expect "watchdog names the stuck block" 1 "no progress for 20000 cycles at pass 0 of 1: stuck block: the weight fetcher" \
  $S sim yaml/small8x8.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
SAGEN_FAULT=sequence expect "tap sequencer/feeder cross-check" 1 "disagree on where a context of pass 0 ends (STATUS.sequence)" \
  $S sim yaml/small8x8.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
# (each phase its own run: the fault reaches the first pass of every phase, and is caught where
# the tap too many falls inside the phase's dense walk; phase (0,0)'s falls past its end)
SAGEN_FAULT=sequence expect "tap sequencer/feeder cross-check, zero_fill" 1 "(STATUS.sequence)" \
  $S sim yaml/small8x8.yaml conv2d_input_grad --random 1,2,6,6:3,3,3 --stride 2 --bp-mode zero_fill \
  --phases separate --quiet
SAGEN_FAULT=groups expect "column groups the array lacks refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim yaml/default.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
SAGEN_FAULT=line expect "col2im rows too short for the line refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim yaml/small8x8.yaml conv2d_input_grad --random 1,2,9,9:3,3,3 --stride 2 --phases col2im --quiet
# a float design's col2im rows and tiles of 16 pixels or more (its adders' path is 15 cycles):
# 15 is refused, and the same layer runs as given
cat >"$tmp/fl.yaml" <<'Y'
name: fault_fl
array: { rows: 4, cols: 4 }
data: { format: bf16 }
memory: { bus_elems: 8, ifmap_kib: 8, weight_kib: 2, output_kib: 8, line_kib: 1 }
Y
FL="$tmp/fl.yaml conv2d_input_grad --random 1,1,34,32:2,3,3 --stride 2 --padding 1 --phases col2im"
if $S sim $FL --check --quiet >"$tmp/out" 2>"$tmp/err" && grep -q "form col2im" "$tmp/out"; then
  ok "float col2im of 17-pixel rows runs, bit-exact"
else
  not_ok "float col2im of 17-pixel rows runs, bit-exact" "$(head -c 300 "$tmp/err")"
fi
SAGEN_FAULT=row15 expect "float col2im rows of 15 pixels refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim $FL --quiet
SAGEN_FAULT=tile15 expect "float col2im tile of 15 pixels refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim $FL --quiet
# the tap sequencer's walk, contexts x filter groups, must stay under 2^16 (the controller
# multiplies the two by shift and add): 2^15 x 2 and 2^16 x 1 are refused
SAGEN_FAULT=walk expect "a walk of 2^16 contexts refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim yaml/small8x8.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
SAGEN_FAULT=walk_wide expect "2^16 contexts of one filter group refused" 1 "refused the descriptor of pass 0 (STATUS.error)" \
  $S sim yaml/small8x8.yaml conv2d --random 1,2,6,6:3,3,3 --quiet
unset SAGEN_WATCHDOG_CYCLES

finish
