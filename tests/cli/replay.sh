#!/usr/bin/env bash
# cli/replay: the same RTL in a 4-state simulator: on every shipped configuration a layer with
# stride, padding and dilation runs in Verilator and is replayed in Icarus (--simulator icarus);
# both outputs equal the golden model and each other, byte for byte.
#
# Usage: tests/cli/replay.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/common.sh"
make_tmp cli_replay

for y in $(shipped_configs); do
  name=$(basename "$y" .yaml)
  if $S sim "$y" conv2d --random 2,5,9,11:9,3,2 --stride 2,1 --padding 1,1 --dilation 1,2 --seed 3 \
       --simulator icarus --check --quiet --out "$tmp/i_$name.npy" --report none 2>"$tmp/err" &&
     $S sim "$y" conv2d --random 2,5,9,11:9,3,2 --stride 2,1 --padding 1,1 --dilation 1,2 --seed 3 \
       --check --quiet --out "$tmp/v_$name.npy" --report none 2>>"$tmp/err" &&
     cmp -s "$tmp/i_$name.npy" "$tmp/v_$name.npy"; then
    ok "icarus replay $name equals verilator and golden"
  else
    not_ok "icarus replay $name" "$(head -c 400 "$tmp/err")"
  fi
done

finish
