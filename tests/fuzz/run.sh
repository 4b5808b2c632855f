#!/usr/bin/env bash
# run: libFuzzer on the two parsers that take outside bytes, the YAML loader (fuzz_cfg.c ->
# cfg_load_mem) and the .npy reader (fuzz_npy.c -> npy_parse), under AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks included).
#
# Usage (from anywhere):
#   tests/fuzz/run.sh [SECONDS]   build both targets, seed a corpus, fuzz each target SECONDS
#                                 (default 60; the two run side by side when there are >= 2
#                                 cores) and print one line per target:
#                                   fuzz_cfg: N runs, T s, no crash
#                                 A crash, leak, timeout (> 10 s for one input) or out-of-memory
#                                 (> 2 GiB) is copied to tests/fuzz/regress/<cfg|npy>/ and the
#                                 script exits 1; commit the file: --regress replays it.
#   tests/fuzz/run.sh --regress   build both targets and run every file of tests/fuzz/regress/
#                                 and of the seed corpus through them once (seconds: meant for
#                                 CI); prints `ok`/`not ok` per file and `N passed, N failed`.
#
# Environment: FUZZ_CC (default clang), FUZZ_OUT (build and corpus dir, default
# <repo>/build/fuzz; the corpus grows there from run to run), FUZZ_JOBS (targets at a time,
# default 2 when nproc >= 2, else 1).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib/common.sh"
out=${FUZZ_OUT:-$root/build/fuzz}
cc=${FUZZ_CC:-clang}
targets=(cfg npy)
regress=0
secs=60

case "${1:-}" in
  --regress) regress=1 ;;
  -h|--help)
    sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0 ;;
  "") ;;
  *)
    if [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -gt 0 ]; then
      secs=$1
    else
      echo "usage: tests/fuzz/run.sh [SECONDS | --regress]" >&2
      exit 2
    fi ;;
esac

if ! command -v "$cc" >/dev/null 2>&1; then
  not_ok fuzz "$cc not found (apt-get install clang libclang-rt-dev)"
  finish
fi

mkdir -p "$out" "$here/regress/cfg" "$here/regress/npy"

# ---- build -----------------------------------------------------------------------------------
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -g -O1
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -I"$root/gen" -I"$root/tb")
build() {
  local t=$1 srcs libs=()
  case $t in
    cfg) srcs=("$here/fuzz_cfg.c" "$root"/gen/cfg*.c); libs=(-lyaml) ;;
    npy) srcs=("$here/fuzz_npy.c" "$root/tb/npy.c" "$root/tb/tensor.c") ;;
  esac
  if ! "$cc" "${flags[@]}" -o "$out/fuzz_$t" "${srcs[@]}" "${libs[@]}" >"$out/build_$t.log" 2>&1; then
    not_ok "fuzz_$t" "build failed: $(head -n 3 "$out/build_$t.log" | paste -s -d ' ' -)"
    return 1
  fi
}
for t in "${targets[@]}"; do
  build "$t" || finish
done

# ---- seed corpus: shipped configs, generated .npy files, the regression files -----------------
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds/cfg" "$seeds/npy"
cp "$root"/yaml/*.yaml "$seeds/cfg/"
if command -v python3 >/dev/null 2>&1; then
  python3 "$here/make_npy_seeds.py" "$seeds/npy"
else
  printf '\223NUMPY\001\000v\000{'"'"'descr'"'"': '"'"'|i1'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (2,), }%*s\n\001\377' 53 '' >"$seeds/npy/i1.npy"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# ---- --regress: every stored input once --------------------------------------------------------
if [ "$regress" -eq 1 ]; then
  for t in "${targets[@]}"; do
    for f in "$here/regress/$t"/* "$seeds/$t"/*; do
      [ -f "$f" ] || continue
      case $f in *.md) continue ;; esac
      name=${f#"$root"/}
      name=${name#"$out"/}
      if "$out/fuzz_$t" -runs=1 "$f" >"$out/regress.log" 2>&1; then
        ok "fuzz_$t $name"
      else
        why=$(grep -m1 -E 'SUMMARY|ERROR|runtime error|deadly signal' "$out/regress.log")
        not_ok "fuzz_$t $name" "${why:-$(tail -n 1 "$out/regress.log")}"
      fi
    done
  done
  finish
fi

# ---- fuzz --------------------------------------------------------------------------------------
jobs=${FUZZ_JOBS:-$( [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && echo 2 || echo 1)}
fuzz_one() {
  local t=$1 corpus=$out/corpus/$t art=$out/artifacts/$t
  mkdir -p "$corpus" "$art"
  rm -f "$art"/*
  local t0=$SECONDS rc=0
  # The first corpus dir collects new inputs; the seeds and regression files are read only.
  "$out/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict="$here/$t.dict" -print_final_stats=1 -artifact_prefix="$art/" \
    "$corpus" "$seeds/$t" "$here/regress/$t" >"$out/fuzz_$t.log" 2>&1 || rc=$?
  echo "$rc $((SECONDS - t0))" >"$out/fuzz_$t.status"
}
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait

failed=0
for t in "${targets[@]}"; do
  read -r rc took <"$out/fuzz_$t.status"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz_$t.log" | tail -n 1)
  [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$out/fuzz_$t.log" | tail -n 1 | tr -d '#')
  ncorp=$(find "$out/corpus/$t" -type f | wc -l)
  found=()
  for a in "$out/artifacts/$t"/*; do
    [ -f "$a" ] || continue
    dest=$here/regress/$t/$(basename "$a")
    cp "$a" "$dest"
    found+=("${dest#"$root"/}")
  done
  if [ "$rc" -eq 0 ] && [ "${#found[@]}" -eq 0 ]; then
    echo "fuzz_$t: ${runs:-?} runs, $took s, no crash (corpus $ncorp files, log ${out#"$root"/}/fuzz_$t.log)"
  else
    why=$(grep -m1 -E 'SUMMARY|runtime error|ERROR: libFuzzer' "$out/fuzz_$t.log")
    echo "fuzz_$t: CRASH after ${runs:-?} runs, $took s (exit $rc): ${why:-see $out/fuzz_$t.log}"
    for f in "${found[@]}"; do
      echo "  regression file: $f (tests/fuzz/run.sh --regress replays it)"
    done
    failed=1
  fi
done
exit "$failed"
