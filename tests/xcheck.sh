#!/usr/bin/env bash
# xcheck: does any result depend on a value the RTL never initialised? Verilator, 2-state,
# normally gives such a value 0 (--x-initial fast); this suite also builds every shipped
# configuration with --x-assign unique --x-initial unique (model_build_x(MODEL_X_UNIQUE) in
# sim/model.c), where every register or memory word without a reset and every explicit X
# assignment takes a random value (the shim passes +verilator+rand+reset+2), and runs the same
# layers on both builds under several seeds of that randomisation.
#
# Per configuration and X seed (one process each; model_x_seed(seed) before the model is opened
# selects Verilator's random initial state, see sim/model.h):
#   uninit:<name>:x<seed>   after reset, the output SRAM words read back through the host port
#                           before anything wrote them are all zero in the default build, and
#                           random (about half the bits set, different from seed to seed) in the
#                           unique build: proves +verilator+rand+reset+2 takes effect;
#   layer:<name>:x<seed>:<layer seed>  a random layer (odd sizes, stride, dilation, padding,
#                           partial tiles, batch) runs on both builds: both outputs equal the
#                           golden model, and the cycle count and every performance counter are
#                           the same in both (a counter or a stall that depends on an
#                           uninitialised register would differ).
#   seeds:<name>            the fingerprints of the uninitialised words differ between seeds;
#   repro:<name>            and the first seed, run again, gives the same fingerprint.
# The Icarus replay (sim/sagen_replay_tb.v, 4-state) already fails on any X on busy/irq/
# csr_rdata; this is the 2-state complement: X that never reaches an output pin but changes a
# value.
#
# Usage: tests/xcheck.sh [CONFIG.yaml ...]   (default: shipped_configs of tests/lib/common.sh;
#        from anywhere; needs the
#        Makefile's build/gen/embedded_*.c, i.e. `make sagen` first)
# Environment: XCHECK_SEEDS (X seeds, default "1 2 3"), XCHECK_LAYERS (layers per seed,
# default 4), XCHECK_BUILD_DIR (model cache, default build/models: the default build is the one
# ./sagen sim uses, the unique one sits beside it as <name>-xunique-<hash>).
# Prints `ok`/`not ok` per check and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
out=$root/build/xcheck
seeds=${XCHECK_SEEDS:-1 2 3}
layers=${XCHECK_LAYERS:-4}
bdir=${XCHECK_BUILD_DIR:-build/models}
mkdir -p "$out"

if [ "$#" -gt 0 ]; then configs=("$@"); else mapfile -t configs < <(shipped_configs); fi
if ! grep -q '+verilator+rand+reset+2' sim/shim.cpp; then
  not_ok setup "sim/shim.cpp no longer passes +verilator+rand+reset+2: the X values would be zeros"
  finish
fi

# the program of one configuration and X seed (tests/xcheck_run.c), built by the Makefile
if ! make -s -C "$root" build/xcheck_run >"$out/build.log" 2>&1; then
  not_ok setup "cannot build xcheck_run: $(head -n 3 "$out/build.log" | paste -s -d ' ' -)"
  finish
fi

for cfg in "${configs[@]}"; do
  name=$(basename "$cfg" .yaml)
  fps=()
  for xs in $seeds; do
    log=$out/$name.x$xs.log
    # other layers under each X seed (layer seeds 100*xs+1...): each runs on both builds
    "$root/build/xcheck_run" "$cfg" "$bdir" "$xs" "$layers" $((100 * xs + 1)) >"$log" 2>&1
    grep -E '^(ok|not ok) ' "$log"
    p=$(grep -cE '^ok ' "$log")
    f=$(grep -cE '^not ok ' "$log")
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
      not_ok "run:$name:x$xs" "xcheck_run printed no result: $(tail -n 2 "$log" | paste -s -d ' ' -)"
    fi
    pass=$((pass + p))
    fail=$((fail + f))
    fp=$(sed -n "s/^# fingerprint [^ ]* [^ ]* //p" "$log")
    [ -n "$fp" ] && fps+=("$fp")
  done
  # the same X seed gives the same initial state (the seeding through srand48 is in control)
  first=${seeds%% *}
  "$root/build/xcheck_run" "$cfg" "$bdir" "$first" 0 1 >"$out/$name.repro.log" 2>&1
  fp2=$(sed -n "s/^# fingerprint [^ ]* [^ ]* //p" "$out/$name.repro.log")
  if [ -n "$fp2" ] && [ "$fp2" = "${fps[0]:-}" ]; then
    ok "repro:$name: X seed $first gives the same initial state again ($fp2)"
  else
    not_ok "repro:$name" "X seed $first gave ${fps[0]:-nothing}, then ${fp2:-nothing}"
  fi
  nseeds=$(echo $seeds | wc -w)
  ndistinct=$(printf '%s\n' "${fps[@]}" | sort -u | grep -c .)
  if [ "$nseeds" -gt 1 ] && [ "$ndistinct" -ne "$nseeds" ]; then
    not_ok "seeds:$name" "$ndistinct distinct initial states for $nseeds X seeds"
  elif [ "$nseeds" -gt 1 ]; then
    ok "seeds:$name: $nseeds X seeds gave $ndistinct different initial states"
  fi
done

finish
