#!/usr/bin/env bash
# run_all: every test suite of sagen; each prints `ok ...` / `not ok ...` lines. Ends with one
# line `N passed, N failed` over all of them. SAGEN_TEST_DEPTH=long runs the deeper randomized
# co-simulation (more layers per configuration, more random configurations, more of them
# replayed in Icarus).
#
# Usage: tests/run_all.sh (from the repository root, after `make all build/cosim_random`).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
source tests/lib/common.sh   # (shipped_configs)
log=build/test-logs
mkdir -p "$log"
depth=${SAGEN_TEST_DEPTH:-short}
count=50
[ "$depth" = long ] && count=2000

jobs=${SAGEN_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
rm -f "$log"/*.sum "$log"/*.times
names=()

# suite NAME CMD...: run in the background (at most $jobs suites at once, the longest first, as
# listed below), its output into $log/NAME.log; when it ends, its name, its failing lines and
# its counts are printed together. A suite that fails without a `not ok` line (a crash, a build
# error) counts as one failure. The counts go into $log/NAME.sum for the total.
suite() {
  local name=$1
  shift
  names+=("$name")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  (
    start=$SECONDS
    "$@" >"$log/$name.log" 2>&1 </dev/null
    status=$?
    # the CPU seconds of the suite's processes (user + system; `times` in this shell, not in a
    # command substitution's, whose children are not the suite's)
    times >"$log/$name.times"
    cpu=$(tail -n 1 "$log/$name.times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/)
                                               printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
    p=$(grep -cE "^ok " "$log/$name.log")
    f=$(grep -cE "^not ok " "$log/$name.log")
    out="## $name"$'\n'
    out+=$(grep -E "^not ok " "$log/$name.log" | sed 's/^/  /')
    [ "$f" -gt 0 ] && out+=$'\n'
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
      out+="  not ok $name: exited $status without a failing case; last lines:"$'\n'
      out+=$(tail -5 "$log/$name.log" | sed 's/^/    /')$'\n'
      f=1
    fi
    out+="  $p passed, $f failed ($((SECONDS - start)) s, $cpu s CPU, log $log/$name.log)"
    echo "$p $f" >"$log/$name.sum"
    printf '%s\n' "$out"
  ) &
}

run_units() {
  local rc=0
  for t in build/tests/test_*; do
    [ -x "$t" ] || continue
    "$t" || rc=1
  done
  return $rc
}

# the longest suites first, so that the last to end are short ones
# random layers on the shipped configurations and on random small ones, a sample of them (every
# feature of the driver and hardware a case exercises first on a configuration, and a share of
# the rest) replayed in Icarus
icarus=(--icarus 1 --icarus-max-cycles 1000 --random-configs 2)
[ "$depth" = long ] && icarus=(--icarus 5 --icarus-max-cycles 20000 --random-configs 8)
suite cosim-random build/cosim_random --count "$count" --ops all --seed "${SAGEN_TEST_SEED:-1}" \
  "${icarus[@]}" $(shipped_configs)
[ -x tests/rtl/run.sh ] && suite rtl-blocks tests/rtl/run.sh
# ./sagen as a user runs it, by feature (tests/cli/), then the cost model against the runs
for t in tests/cli/*.sh; do
  suite "cli-$(basename "$t" .sh)" "$t"
done
[ -x tests/lint_synth.sh ] && suite lint-synth tests/lint_synth.sh
[ -x tests/test_sweep.sh ] && suite sweep tests/test_sweep.sh
suite cost-model tests/cost_model_runs.sh
suite unit run_units
# function and file sizes of the C code, and the golden model's library apart from the driver's
suite structure tests/check_structure.sh
suite replay tests/test_replay.sh
suite errors tests/test_errors.sh
command -v clang >/dev/null 2>&1 && suite fuzz-regress tests/fuzz/run.sh --regress
# the C code under AddressSanitizer + UBSan: unit tests, random co-simulations, gen and sim
suite asan tests/asan.sh
# the FPGA flow without its PyPI tools: register wrappers, block discovery, parsing of recorded
# Yosys and nextpnr outputs, the table writer
[ -x tests/test_fpga.sh ] && suite fpga tests/test_fpga.sh
wait

total_pass=0
total_fail=0
for name in "${names[@]}"; do
  if [ -s "$log/$name.sum" ]; then
    read -r p f <"$log/$name.sum"
  else
    echo "  not ok $name: no result (log $log/$name.log)"
    p=0 f=1
  fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
