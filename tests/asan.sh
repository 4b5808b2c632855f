#!/usr/bin/env bash
# asan: the C unit tests (tests/test_*.c) rebuilt with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fsanitize=address,undefined, leaks included, any UB report fatal)
# and run. Everything is built from source into build/asan/ (the generator but gen/main.c, the
# testbench tb/*.c, the host driver tb/host/*.c, the simulator adapters sim/*.c, and the embedded
# templates made by gen/tools/embed.c exactly as the Makefile makes build/obj/embedded_*.o), so
# the normal build is not touched.
#
# Then, unless --units-only or Verilator is missing, the same objects drive the Verilated models
# (which stay uninstrumented, loaded with dlopen): build/asan/cosim_random on 10 random layers
# of tiny1x1 and rect4x8, and a sanitized ./sagen running `gen` and `sim --check --out` (seconds
# once the models are cached in build/models; a first run builds them).
#
# Usage: tests/asan.sh [--units-only] (from anywhere). Prints `ok <test>` / `not ok <test>: <first
# report>` per binary and `N passed, N failed`; exits non-zero if one failed. Full logs:
# build/asan/<test>.log. Environment: ASAN_CC (default cc), ASAN_OUT (default build/asan).
set -u
units_only=0
[ "${1:-}" = --units-only ] && units_only=1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
cc=${ASAN_CC:-${CC:-cc}}
out=${ASAN_OUT:-$root/build/asan}
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -g -O1
       -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
libs=(-lyaml -ldl -lm)
first_lines() { grep -v '^[[:space:]]*$' "$1" | head -n "${2:-3}" | cut -c1-300 | paste -s -d ' ' -; }

mkdir -p "$out/obj" "$out/gen" "$out/tests"

# ---- the host objects, sanitized ----------------------------------------------------------------
build_ok=1
compile() {   # compile SRC OBJ [extra flags]
  local src=$1 obj=$2
  shift 2
  if ! "$cc" "${flags[@]}" -Igen -Itb -Itb/host -Isim -I"$out/gen" "$@" -c "$src" -o "$obj" >"$obj.log" 2>&1; then
    not_ok "build $src" "$(first_lines "$obj.log")"
    build_ok=0
  fi
}
# the register map's C header, as the Makefile writes build/gen/sagen_regmap.h
if ! "$cc" -std=c11 -O2 -Wall -Wextra -Werror -Igen -o "$out/regmap" gen/tools/regmap.c gen/regmap.c \
     >"$out/regmap.log" 2>&1 || ! "$out/regmap" c "$out/gen/sagen_regmap.h" >>"$out/regmap.log" 2>&1; then
  not_ok "build gen/tools/regmap.c" "$(first_lines "$out/regmap.log")"
  finish
fi
if ! "$cc" -std=c11 -O2 -Wall -Wextra -Werror -o "$out/embed" gen/tools/embed.c >"$out/embed.log" 2>&1; then
  not_ok "build gen/tools/embed.c" "$(first_lines "$out/embed.log")"
  finish
fi
# The same file lists and order as the Makefile: $(sort $(wildcard rtl_templates/*.v)), and
# SIM_FILES.
mapfile -t rtl < <(printf '%s\n' rtl_templates/*.v | LC_ALL=C sort)
"$out/embed" "$out/gen/embedded_rtl.c" templates "${rtl[@]}" &&
  "$out/embed" "$out/gen/embedded_sim.c" sim_files sim/shim.cpp sim/sagen_sim.h sim/sagen_replay_tb.v \
  || { not_ok "embed" "cannot embed the templates"; finish; }

objs=()
for src in gen/*.c tb/*.c tb/host/*.c sim/*.c; do
  [ "$src" = gen/main.c ] && continue
  obj=$out/obj/$(echo "${src%.c}" | tr / _).o
  compile "$src" "$obj"
  objs+=("$obj")
done
for e in rtl sim; do
  compile "$out/gen/embedded_$e.c" "$out/obj/embedded_$e.o"
  objs+=("$out/obj/embedded_$e.o")
done
[ "$build_ok" -eq 1 ] || finish

# ---- each unit test: build, run --------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for src in tests/test_*.c; do
  name=$(basename "$src" .c)
  bin=$out/tests/$name
  if ! "$cc" "${flags[@]}" -Igen -Itb -Itb/host -Isim -I"$out/gen" -o "$bin" "$src" "${objs[@]}" "${libs[@]}" \
       >"$bin.build.log" 2>&1; then
    not_ok "$name" "build failed: $(first_lines "$bin.build.log")"
    continue
  fi
  rc=0
  "$bin" >"$out/$name.log" 2>&1 || rc=$?
  report=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: ' "$out/$name.log")
  nfail=$(grep -cE '^not ok ' "$out/$name.log")
  if [ "$rc" -ne 0 ] || [ -n "$report" ] || [ "$nfail" -ne 0 ]; then
    detail=${report:-$(grep -m1 -E '^not ok ' "$out/$name.log")}
    not_ok "$name" "exit $rc: ${detail:-$(tail -n 1 "$out/$name.log")} (log ${out#"$root"/}/$name.log)"
  else
    ok "$name ($(grep -cE '^ok ' "$out/$name.log") cases clean)"
  fi
done

# ---- the driver and the CLI on real models --------------------------------------------------------
# run_case NAME CMD...: the command must exit 0 with no sanitizer report.
run_case() {
  local name=$1 log=$out/$1.log rc=0
  shift
  "$@" >"$log" 2>&1 || rc=$?
  local report
  report=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: ' "$log")
  if [ "$rc" -ne 0 ] || [ -n "$report" ]; then
    not_ok "$name" "exit $rc: ${report:-$(grep -m1 -E '^not ok |error' "$log" || tail -n 1 "$log")} (log ${log#"$root"/})"
  else
    ok "$name"
  fi
}
if [ "$units_only" -eq 0 ] && command -v verilator >/dev/null 2>&1; then
  for main in tests/cosim_random.c gen/main.c; do
    bin=$out/$(basename "$main" .c)
    [ "$main" = gen/main.c ] && bin=$out/sagen
    extra=()   # the random layers cosim_random draws (tests/lib/random_layer.c)
    [ "$main" = tests/cosim_random.c ] && extra=(tests/lib/random_layer.c)
    if ! "$cc" "${flags[@]}" -Igen -Itb -Itb/host -Isim -I"$out/gen" -o "$bin" "$main" "${extra[@]}" "${objs[@]}" \
         "${libs[@]}" \
         >"$bin.build.log" 2>&1; then
      not_ok "build $main" "$(first_lines "$bin.build.log")"
    fi
  done
  if [ -x "$out/cosim_random" ]; then
    run_case cosim_random "$out/cosim_random" --count 10 --seed 1 yaml/tiny1x1.yaml yaml/rect4x8.yaml
  fi
  if [ -x "$out/sagen" ]; then
    rm -rf "$out/gen_out" "$out/y.npy"
    run_case sagen-gen "$out/sagen" gen yaml/rect4x8.yaml -o "$out/gen_out"
    run_case sagen-sim "$out/sagen" sim yaml/tiny1x1.yaml conv2d --random 1,2,5,5:3,3,3 --padding 1 \
      --stride 1,2 --check --quiet --report json --out "$out/y.npy"
  fi
fi

finish
