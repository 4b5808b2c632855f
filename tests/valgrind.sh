#!/usr/bin/env bash
# valgrind: ./sagen under Memcheck, as a user runs it: `sagen gen` on every shipped
# configuration, `sagen sim` with --check on random and .npy tensors (Verilator, and the Icarus
# replay path), and the error paths of bad input (a failing run must not leak either).
#
# Every case runs `valgrind --error-exitcode=9 --leak-check=full` and passes when the exit
# status is the expected one (0, or 1 for the bad-input cases; 9 means Memcheck found an error)
# and the ERROR SUMMARY says 0 errors. Every leak kind is an error, "still reachable" included,
# except the blocks that the suppressions below explain.
#
# About the Verilated model: `sagen sim` loads it with dlopen(RTLD_NOW | RTLD_LOCAL) and
# dlclose()s it at the end. The library holds C++ STB_GNU_UNIQUE symbols (libstdc++ templates),
# which make glibc keep it loaded after dlclose, so at exit Memcheck finds, all "still
# reachable" (suppressed, and counted in the ok line):
#   - glibc's link maps, version tables and unique-symbol table of the library and its
#     dependencies (_dl_new_object, _dl_check_map_versions, do_lookup_unique under dlopen);
#   - libstdc++'s emergency exception-handling pool (72,704 bytes, allocated by its static
#     initialiser when libstdc++ is first loaded, by design never freed);
#   - the thread-local block that VerilatedContext's constructor touches (Verilator's per-thread
#     state, __tls_get_addr -> allocate_dtv_entry), freed only at thread exit.
# Nothing comes from inside the model's evaluation. The suppressions written below cover exactly
# these allocation sites (also as "possibly lost", should another Verilator or glibc keep only an
# interior pointer); anything else is reported.
#
# Usage: tests/valgrind.sh (from anywhere; needs ./sagen built and valgrind installed; builds
# the Verilated models into build/models on first use). Prints `ok`/`not ok` per case and
# `N passed, N failed`. Logs: build/valgrind/<case>.log.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
out=$root/build/valgrind
S=./sagen

need valgrind || finish
if [ ! -x "$S" ]; then
  not_ok setup "./sagen not built (make sagen)"
  finish
fi
rm -rf "$out"
mkdir -p "$out"

cat >"$out/sagen.supp" <<'EOF'
# Allocations of the dynamic loader for the dlopen'd Verilated model (kept after dlclose).
{
   sagen_dlopen_loader
   Memcheck:Leak
   match-leak-kinds: reachable,possible
   ...
   fun:_dl_open
}
# libstdc++'s emergency exception pool, allocated by its initialiser when first loaded.
{
   sagen_libstdcxx_eh_pool
   Memcheck:Leak
   match-leak-kinds: reachable,possible
   fun:malloc
   obj:*/libstdc++.so*
   ...
   fun:_dl_init
}
# Verilator's thread-local state, touched by the VerilatedContext constructor.
{
   sagen_verilated_tls
   Memcheck:Leak
   match-leak-kinds: reachable,possible
   ...
   fun:__tls_get_addr
   ...
   obj:*/libsagen_model.so
}
EOF

# vg NAME STATUS CMD...: run CMD under Memcheck; it must exit STATUS with 0 errors.
vg() {
  local name=$1 want=$2
  shift 2
  local log=$out/$name.log rc=0
  valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=all \
    --show-leak-kinds=all --suppressions="$out/sagen.supp" \
    --num-callers=30 --log-file="$log" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  local errs supp
  errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -n 1)
  supp=$(sed -n 's/.*suppressed: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 bytes in \2 blocks/p' "$log" | tail -n 1)
  if [ "$rc" -eq "$want" ] && [ "${errs:-x}" = 0 ]; then
    ok "valgrind $name (exit $rc, 0 errors${supp:+, dlopen suppressions: $supp still reachable})"
  else
    local what
    what=$(grep -m1 -E 'Invalid|uninitialised|definitely lost: [1-9]|possibly lost: [1-9]|indirectly lost: [1-9]|still reachable: [1-9]|Mismatched|overlap' "$log")
    not_ok "valgrind $name" "exit $rc (want $want), ${errs:-?} errors: ${what:-$(head -c 200 "$out/$name.err")} (log ${log#"$root"/})"
  fi
}

# ---- generation: every shipped configuration, and a bad one -----------------------------------
for y in yaml/*.yaml; do
  n=$(basename "$y" .yaml)
  vg "gen-$n" 0 "$S" gen "$y" -o "$out/rtl-$n"
done
printf 'name: bad\narray: {rows: 0, cols: 1}\nmemory: {bus_elems: 3}\nfrob: 1\n' >"$out/bad.yaml"
vg gen-bad-yaml 1 "$S" gen "$out/bad.yaml" -o "$out/rtl-bad"

# ---- co-simulation ---------------------------------------------------------------------------
vg sim-tiny1x1-random 0 "$S" sim yaml/tiny1x1.yaml conv2d --random 1,2,5,5:3,3,3 --padding 1 --check --quiet
PYTHONPATH=$root/tests/lib python3 - "$out" <<'PY'
import sys
from tensors import write_npy
d = sys.argv[1]
write_npy(d + "/x.npy", (1, 3, 6, 7), [((i * 37) % 256) - 128 for i in range(126)], "|i1")
write_npy(d + "/w.npy", (5, 3, 2, 3), [((i * 11) % 16) - 8 for i in range(90)], ">i2")
with open(d + "/not.npy", "wb") as f:
    f.write(b"hello, not an npy file\n")
PY
vg sim-rect4x8-npy 0 "$S" sim yaml/rect4x8.yaml conv2d --input "$out/x.npy" --weight "$out/w.npy" \
  --stride 2,1 --padding 1,0 --dilation 1,2 --out "$out/y.npy" --check --quiet --report json
vg sim-tiny1x1-icarus 0 "$S" sim yaml/tiny1x1.yaml conv2d --random 1,1,3,4:2,2,2 --simulator icarus --check --quiet --report none
vg sim-bad-npy 1 "$S" sim yaml/tiny1x1.yaml conv2d --input "$out/not.npy" --weight "$out/w.npy" --quiet
vg sim-no-output 1 "$S" sim yaml/tiny1x1.yaml conv2d --random 1,1,2,2:1,3,3 --quiet
vg sim-out-unwritable 1 "$S" sim yaml/tiny1x1.yaml conv2d --random 1,1,3,3:1,1,1 --out "$out/no/such/dir/y.npy" --quiet --report none

finish
