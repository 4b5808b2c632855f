#!/usr/bin/env bash
# check_structure: the shape of the C code and of its layers, as STYLE.md and DESIGN.md ask.
#
#   size:FILE    every C file of gen/, tb/ and sim/ (subdirectories too) is at most 900 lines,
#                and none of its functions is longer than 150 lines (from the first line of the
#                signature to the closing brace). A function is a definition whose body opens
#                with `{` at the start of a line, or at the end of a signature line that starts
#                at the left margin, and closes with `}` at the start of a line: the house style.
#   regmap       the register map is written in gen/regmap.c only: no CSR address compared as a
#                literal in the RTL templates (csr_addr_i against a number), no CSR read or
#                written by number in the host code, no descriptor register indexed by number,
#                and MAGIC's value nowhere else (docs/regmap.md, generated, aside).
#   rtl-drivers  no integer of an RTL template (a loop counter) is assigned in two always blocks
#                of which one is clocked: to Yosys it is then a register with two drivers
#                (tests/lib/rtl_int_drivers.awk)
#   layers:*     with the static libraries built (make: build/lib/libsagen_*.a), the golden
#                model's objects define and use no symbol that the host driver's or the
#                generator's define, and the driver uses none of the golden model's: the two
#                share no code (STYLE.md rule 8).
#
# Usage: tests/check_structure.sh (from anywhere). Prints `ok ...` / `not ok ...` per check and
# `N passed, N failed`; exits non-zero if one failed. Environment: MAX_FILE_LINES (900),
# MAX_FUNC_LINES (150), LIB_DIR (build/lib).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
max_file=${MAX_FILE_LINES:-900}
max_func=${MAX_FUNC_LINES:-150}
lib=${LIB_DIR:-build/lib}

# funcs FILE: "LINES START NAME" for every function definition of FILE
funcs() {
  awk '
    function name_of(s) { sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); return w[n] }
    !infn && /^[A-Za-z_]/ { sig = NR; sigtext = $0 }
    !infn && /^\{[ \t]*$/ { infn = 1; start = sig; fname = name_of(sigtext); next }
    !infn && /^[A-Za-z_].*\)[ \t]*\{[ \t]*$/ { infn = 1; start = NR; fname = name_of($0); next }
    infn && /^\}/ { print NR - start + 1, start, fname; infn = 0 }
  ' "$1"
}

while IFS= read -r f; do
  n=$(wc -l <"$f")
  worst=$(funcs "$f" | sort -n -r | head -1)
  set -- $worst
  flen=${1:-0}
  fstart=${2:-0}
  fname=${3:-}
  over=$(funcs "$f" | awk -v m="$max_func" '$1 > m { printf "%s%s (%d lines, line %d)", sep, $3, $1, $2; sep = ", " }')
  if [ "$n" -gt "$max_file" ]; then
    not_ok "size:$f" "$n lines, more than $max_file"
  elif [ -n "$over" ]; then
    not_ok "size:$f" "functions longer than $max_func lines: $over"
  else
    ok "size:$f ($n lines; longest function ${fname:-none}, $flen lines)"
  fi
done < <(find gen tb sim -name '*.c' | LC_ALL=C sort)

# ---- the register map in one source ------------------------------------------------------------
hits=$(cd "$root" && {
  grep -nE "csr_addr_i *(==|!=|>=|<=|<|>|-) *[0-9]+'d[0-9]|desc_q\[[0-9]+\]|desc\[[0-9]+ *\*" rtl_templates/*.v
  grep -nE "hw_csr_(read|write)\([^,]*, *[0-9]|csr_addr *= *[0-9]" tb/*.c tb/host/*.c sim/*.c
  grep -rniE "5A6E0[0-9]" gen tb sim rtl_templates scripts tests --include=*.c --include=*.h --include=*.v \
    --include=*.sh --include=*.py | grep -v "^gen/regmap.c:"
} | head -5)
if [ -n "$hits" ]; then
  not_ok "regmap" "the register map written outside gen/regmap.c: $(echo "$hits" | paste -s -d ' ' | cut -c1-300)"
else
  ok "regmap (CSR addresses, descriptor registers and MAGIC written in gen/regmap.c only)"
fi

# ---- loop variables of the RTL: one always block each ----------------------------------------
hits=$(cd "$root" && awk -f tests/lib/rtl_int_drivers.awk rtl_templates/*.v)
if [ -n "$hits" ]; then
  not_ok "rtl-drivers" "$(head -n 3 <<<"$hits" | paste -s -d ';' -)"
else
  ok "rtl-drivers (no integer of the templates assigned in two always blocks, one clocked)"
fi

# ---- layers ----------------------------------------------------------------------------------
# defined / undefined external symbols of an archive
defined() { nm -g --defined-only "$1" 2>/dev/null | awk 'NF >= 3 { print $3 }' | LC_ALL=C sort -u; }
undefined() { nm -g --undefined-only "$1" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u; }
golden=$lib/libsagen_golden.a
driver=$lib/libsagen_driver.a
gen=$lib/libsagen_gen.a
if [ ! -f "$golden" ] || [ ! -f "$driver" ] || [ ! -f "$gen" ]; then
  not_ok "layers" "$lib/libsagen_{golden,driver,gen}.a not built (make)"
else
  both=$(LC_ALL=C comm -12 <( (defined "$golden"; undefined "$golden") | LC_ALL=C sort -u) \
         <( (defined "$driver"; defined "$gen") | LC_ALL=C sort -u) | paste -s -d ' ' -)
  if [ -n "$both" ]; then
    not_ok "layers:golden-apart" "the golden model defines or uses symbols of the driver or the generator: $both"
  else
    ok "layers:golden-apart (the golden model's $(defined "$golden" | wc -l) symbols and $(undefined "$golden" | wc -l) references: none of the driver's or the generator's)"
  fi
  used=$(LC_ALL=C comm -12 <(undefined "$driver") <(defined "$golden") | paste -s -d ' ' -)
  if [ -n "$used" ]; then
    not_ok "layers:driver-apart" "the driver uses the golden model's symbols: $used"
  else
    ok "layers:driver-apart (the driver references none of the golden model's symbols)"
  fi
fi

finish
