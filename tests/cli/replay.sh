#!/usr/bin/env bash
# cli/replay: the same RTL in a 4-state simulator: on every shipped configuration a layer with
# stride, padding and dilation runs in Verilator and is replayed in Icarus (--simulator icarus);
# both outputs equal the golden model and each other, byte for byte. Three simulations of one
# configuration started at once on an empty model cache, replayed in Icarus: one builds the model,
# the others wait for it, and every replay gets its own output.
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

# concurrent runs of one configuration (scripts that run several layers at once)
cache=$tmp/concurrent
for i in 1 2 3; do
  $S sim yaml/tiny1x1.yaml conv2d --random 1,2,5,$((4 + i)):2,3,3 --simulator icarus --check \
    --build-dir "$cache" --out "$tmp/c$i.npy" --report none >"$tmp/c$i.log" 2>&1 &
done
status=0
for i in 1 2 3; do wait -n || status=1; done
builds=$(cat "$tmp"/c[123].log | grep -c "building the Verilator model")
if [ "$status" -eq 0 ] && [ "$builds" -eq 1 ]; then
  ok "three concurrent simulations of one configuration: one model build, every run checked"
else
  not_ok "concurrent simulations" "status $status, $builds builds: $(cat "$tmp"/c[123].log | grep -v '^ ')"
fi

finish
