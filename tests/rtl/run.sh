#!/usr/bin/env bash
# run.sh: per-block RTL unit tests. Each block has a small C model (model_<block>.c) that writes
# random stimulus and the expected outputs for a seed into a vector file, and a Verilog-2005
# testbench (tb_<block>.v) that replays it on the template from rtl_templates/ under Icarus (some
# also under Verilator, built with -Wall, when verilator is installed) and prints
# "<block>: <n> checks, <m> mismatches".
#
# Usage: tests/rtl/run.sh [--inject]      (from anywhere)
#   --inject      every model writes one wrong expectation on purpose: every case must then
#                 report "not ok" (shows that each test can fail).
#   SEEDS="1 2"   seeds per configuration (default "1"; "1 2 3" with SAGEN_TEST_DEPTH=long).
#   RTL_DIR=dir   take the templates from dir instead of rtl_templates/ (e.g. a mutated copy).
#   BLOCKS="a b"  run only these blocks' cases (model names: pe, array, skew, nz_addr_gen, ...).
#   SAGEN_TEST_DEPTH=long  more vectors where a block's cases are sized by it (fp, pe_fp).
# Prints "ok <case>" or "not ok <case>: <detail>" per case (and the testbench's "# ..." lines,
# figures that assert nothing), then "<n> passed, <m> failed"; the exit status is non-zero if
# any case failed (or could not be built).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rtl=${RTL_DIR:-$root/rtl_templates}
seeds=${SEEDS:-1}
[ -z "${SEEDS:-}" ] && [ "${SAGEN_TEST_DEPTH:-short}" = long ] && seeds="1 2 3"
inject=""
for arg in "$@"; do
  case "$arg" in
    --inject) inject=inject ;;
    *) echo "usage: $0 [--inject]" >&2; exit 2 ;;
  esac
done

source "$root/tests/lib/common.sh"
tmp=""
keep=0
# finish: as common.sh's, after removing the scratch directory (kept when a case asked for it)
finish() {
  if [ -n "$tmp" ]; then
    if [ "$keep" -eq 0 ]; then rm -rf "$tmp"; else echo "# vectors and logs kept in $tmp"; fi
  fi
  trap - EXIT
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ] && exit 0
  exit 1
}

need cc iverilog vvp || finish

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sagen_rtl_unit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- models ---------------------------------------------------------------------------------
CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L"
declare -A have_model
for m in pe array skew queue2 index_counters feeder nz_addr_gen psum_manager step_ctrl \
    mac_count col_groups route_table hp_bytes fp lzc pe_fp; do
  if cc $CFLAGS -o "$tmp/model_$m" "$here/model_$m.c" -lm >"$tmp/cc_$m.log" 2>&1; then
    have_model[$m]=1
  else
    have_model[$m]=0
    not_ok "build/model_$m" "$(head -3 "$tmp/cc_$m.log" | tr '\n' ' ')"
    keep=1
  fi
done

# ---- one configuration: compile the testbench, run it for every seed ------------------------
# $1 block (model/testbench name), $2 module name printed in the summary, $3 case label,
# $4 template files (space separated, in $rtl; or absolute paths), $5 testbench parameters (space separated
# NAME=VALUE), $6 model arguments before the seed, $7 the simulator: iverilog (default) or
# verilator (a binary built with -Wall, lint warnings fatal; tb_lint.vlt holds the waivers).
config() {
  local blk=$1 mod=$2 label=$3 files=$4 params=$5 margs=$6 sim=${7:-iverilog}
  local name="$blk/$label" bin="$tmp/tb_${blk}_${label}.vvp" srcs=() popts=() run=() f p
  [ -n "${BLOCKS:-}" ] && [[ " $BLOCKS " != *" $blk "* ]] && return 0
  if [ "$sim" = verilator ]; then
    name="$blk/verilator/$label"
    bin="$tmp/vl_${blk}_$label/tb"
  fi
  if [ "${have_model[$blk]}" != 1 ]; then
    not_ok "$name" "model did not build"
    return
  fi
  for f in $files; do
    case $f in
      /*) srcs+=("$f") ;;     # a file of the tests (an FPGA primitive's model)
      *) srcs+=("$rtl/$f") ;;
    esac
  done
  if [ "$sim" = verilator ]; then
    for p in $params; do popts+=("-G$p"); done
    # C++ at -O0: the build, not the run, is what takes time here
    local vlog="$tmp/verilator_${blk}_$label.log"
    if ! verilator --binary --timing -Wall -j 1 --top-module "tb_$blk" -I"$here" "${popts[@]}" \
        --Mdir "$tmp/vl_${blk}_$label" -o tb \
        -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0" \
        "$here/tb_lint.vlt" "${srcs[@]}" "$here/tb_$blk.v" >"$vlog" 2>&1; then
      not_ok "$name" "verilator failed: $(grep -m3 -E '%(Error|Warning)' "$vlog" | tr '\n' ' ')"
      keep=1
      return
    fi
    run=("$bin")
  else
    for p in $params; do popts+=("-Ptb_$blk.$p"); done
    if ! iverilog -g2005 -I"$here" "${popts[@]}" -o "$bin" "${srcs[@]}" "$here/tb_$blk.v" \
        >"$tmp/iverilog_${blk}_$label.log" 2>&1; then
      not_ok "$name" "iverilog failed: $(grep -m3 -i error "$tmp/iverilog_${blk}_$label.log" | tr '\n' ' ')"
      keep=1
      return
    fi
    run=(vvp -n "$bin")
  fi
  local seed vec log line n m
  for seed in $seeds; do
    vec="$tmp/${blk}_${label}_s$seed.vec"
    log="$tmp/${blk}_${label}_s$seed.log"
    # shellcheck disable=SC2086
    if ! "$tmp/model_$blk" $margs "$seed" "$vec" $inject >"$log" 2>&1; then
      not_ok "$name/seed$seed" "model failed: $(head -1 "$log") (seed $seed)"
      keep=1
      continue
    fi
    "${run[@]}" +vec="$vec" >"$log" 2>&1
    line=$(grep -E "^$mod: [0-9]+ checks, [0-9]+ mismatches$" "$log" | tail -1)
    if [ -z "$line" ]; then
      not_ok "$name/seed$seed" "no summary line: $(grep -v '^VCD' "$log" | head -2 | tr '\n' ' ')(seed $seed, vectors $vec)"
      keep=1
      continue
    fi
    n=$(echo "$line" | sed -E 's/.*: ([0-9]+) checks, ([0-9]+) mismatches/\1/')
    m=$(echo "$line" | sed -E 's/.*: ([0-9]+) checks, ([0-9]+) mismatches/\2/')
    if [ "$m" -ne 0 ]; then
      not_ok "$name/seed$seed" "$m of $n checks mismatch, first: $(grep -m1 '^MISMATCH' "$log" | sed 's/^MISMATCH //') (seed $seed, vectors $vec)"
      keep=1
    elif [ "$n" -eq 0 ]; then
      not_ok "$name/seed$seed" "no checks made (seed $seed)"
      keep=1
    else
      ok "$name/seed$seed ($n checks)"
      grep '^# ' "$log" | sed "s|^# |# $name/seed$seed: |"
    fi
  done
}

# ---- the cases --------------------------------------------------------------------------------
# the float PE and the blocks it is made of
fpfiles="sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_mul.v sagen_fp_mul.v sagen_pe_fp.v"

# sagen_pe: IN_BITS W_BITS ACC_BITS (12 and 8 bits: accumulator narrower than / equal to the
# product; 40: wider than 32).
for cfg in "8 8 32" "8 8 12" "4 4 8" "6 3 24" "16 16 40"; do
  set -- $cfg
  config pe sagen_pe "in$1_w$2_acc$3" "sagen_mul.v sagen_pe.v" \
    "IN_BITS=$1 W_BITS=$2 ACC_BITS=$3" "$1 $2 $3"
done
# ... on the ECP5's form of its multiplier (sagen_mul_ecp5.v, in place of sagen_mul.v), over a
# model of the MULT18X18D's registered configuration: the same vectors must pass.
ecp5files="$here/ecp5_mult18x18d.v sagen_mul_ecp5.v"
for cfg in "8 8 32" "6 3 24" "16 16 40" "2 2 8"; do
  set -- $cfg
  config pe sagen_pe "ecp5_in$1_w$2_acc$3" "$ecp5files sagen_pe.v" \
    "IN_BITS=$1 W_BITS=$2 ACC_BITS=$3" "$1 $2 $3"
done

# sagen_array as a GEMM: ROWS COLS IN_BITS W_BITS ACC_BITS.
for cfg in "1 1 8 8 32" "2 3 8 8 12" "4 4 8 8 32" "3 5 6 7 20" "4 2 8 8 16"; do
  set -- $cfg
  config array sagen_array "${1}x${2}_in$3_w$4_acc$5" "sagen_mul.v sagen_pe.v sagen_array.v" \
    "ROWS=$1 COLS=$2 IN_BITS=$3 W_BITS=$4 ACC_BITS=$5" "$1 $2 $3 $4 $5"
done
config array sagen_array "3x5_ecp5_in6_w7_acc20" "$ecp5files sagen_pe.v sagen_array.v" \
  "ROWS=3 COLS=5 IN_BITS=6 W_BITS=7 ACC_BITS=20" "3 5 6 7 20"
# ... of float PEs: ROWS COLS IEW IFW AEW AFW (bfloat16 into binary32 on arrays of fewer and
# more than 9 rows, where the float PE's gap of 18 or the chain's 2 * ROWS - 1 spaces contexts;
# binary16 into binary16).
for cfg in "2 3 8 7 8 23" "4 4 5 10 5 10" "8 2 8 7 8 23" "1 1 8 23 8 23"; do
  set -- $cfg
  config array sagen_array "${1}x${2}_fp_e$3_f$4_e$5_f$6" "$fpfiles sagen_pe.v sagen_array.v" \
    "ROWS=$1 COLS=$2 IN_BITS=$(($3 + $4 + 1)) W_BITS=$(($3 + $4 + 1)) ACC_BITS=$(($5 + $6 + 1)) FP=1 IEW=$3 IFW=$4 AEW=$5 AFW=$6" \
    "$1 $2 fp $3 $4 $5 $6"
done

# sagen_skew: WIDTH DEPTH.
for cfg in "12 0" "12 1" "12 5" "1 5"; do
  set -- $cfg
  config skew sagen_skew "w$1_depth$2" "sagen_skew.v" "WIDTH=$1 DEPTH=$2" "$1 $2"
done
# sagen_skew_tap: WIDTH DEPTH TAP (the run-time tap held; its delay is min(TAP, DEPTH)).
for cfg in "12 0 0" "12 5 0" "12 5 3" "9 5 5" "9 4 7"; do
  set -- $cfg
  d=$(( $3 < $2 ? $3 : $2 ))
  config skew sagen_skew "tap_w$1_depth$2_tap$3" "sagen_skew_tap.v" "WIDTH=$1 DEPTH=$2 TAP=$3" "$1 $d"
done
# ... and with the tap changing at run time (TAP=-2: the vectors drive it; taken a cycle late).
for cfg in "12 1" "9 5" "21 15"; do
  set -- $cfg
  config skew sagen_skew "tapvar_w$1_depth$2" "sagen_skew_tap.v" "WIDTH=$1 DEPTH=$2 TAP=-2" "$1 $2 tap"
done

# sagen_queue2: W (1 bit; a byte; wider than 32 bits; with its entries reset, as the feeder
# has it), and once under Verilator.
for w in 1 8 37; do
  config queue2 sagen_queue2 "w$w" "sagen_queue2.v" "W=$w" "$w"
done
config queue2 sagen_queue2 "w37_rst" "sagen_queue2.v" "W=37 RESET_DATA=1" "37"
command -v verilator >/dev/null 2>&1 && config queue2 sagen_queue2 "w8" "sagen_queue2.v" "W=8" "8" verilator

# sagen_index_counters: BUS LG_BUS (AW = 10, positions XW = 16 bits, segments SW = 9). The pass
# descriptors (random, with contexts of ROWS = 1..16 pixels spanning 1, 2 and 3+ output rows)
# are drawn by the model.
for cfg in "2 1" "4 2" "8 3" "16 4"; do
  set -- $cfg
  config index_counters sagen_index_counters "bus$1" "sagen_index_counters.v" \
    "BUS=$1 LG_BUS=$2 AW=10 XW=16 SW=9" "$1 10"
done

# sagen_feeder (index counters, word pipeline, feed lanes): LANES BUS LG_BUS IN_BITS M DEPTH AW
# (XW and SW as sagen_core sets them). The model draws real convolution tiles (S = 1..DEPTH,
# dilation and strides 1..3, padding 0..2, multi-row, linear and phantom contexts, filter
# groups, fewer lanes in use) and pop rates; every lane's elements, every SRAM read and the idle
# flag are checked. Passes popped at every ready cycle print their cycles ("# full speed").
feeder_files="sagen_lane_init.v sagen_index_counters.v sagen_feed_lane.v sagen_queue2.v sagen_feeder.v"
for cfg in "1 4 2 8 1 3 10" "6 2 1 8 2 2 11" "12 16 4 8 3 5 10" "16 8 3 16 1 4 10"; do
  set -- $cfg
  config feeder sagen_feeder "l$1_bus$2_in$4_m$5_depth$6" "$feeder_files" \
    "LANES=$1 BUS=$2 LG_BUS=$3 IN_BITS=$4 M=$5 DEPTH=$6 AW=$7" "$1 $2 $4 $5 $6 $7"
done
# one configuration in Verilator too (its build takes ~20 s of CPU)
if command -v verilator >/dev/null 2>&1; then
  for cfg in "3 4 2 8 4 6 10"; do
    set -- $cfg
    config feeder sagen_feeder "l$1_bus$2_in$4_m$5_depth$6" "$feeder_files" \
      "LANES=$1 BUS=$2 LG_BUS=$3 IN_BITS=$4 M=$5 DEPTH=$6 AW=$7" "$1 $2 $4 $5 $6 $7" verilator
  done
else
  echo "# verilator not found: sagen_feeder runs in Icarus only"
fi

# sagen_nz_addr_gen: MODE AW. transposed/dilated: every element of BP-im2col's virtual matrices
# B (Algorithm 1) and A (Algorithm 2) over a grid of small shapes plus random larger ones, the
# reference checked against the published algorithms and an explicit zero-spaced index map;
# any: arbitrary descriptors against the block's definition (AW 13: addresses wrap; AW 1: as
# the core instantiates it).
for cfg in "transposed 32" "dilated 32" "any 32" "any 13" "any 1"; do
  set -- $cfg
  config nz_addr_gen sagen_nz_addr_gen "${1}_aw$2" "sagen_queue2.v sagen_nz_addr_gen.v" "AW=$2" "$1 $2"
done

# sagen_psum_manager (no column groups): ROWS COLS ACC_BITS LINE_WORDS. Plain passes (writes,
# accumulation, filter groups) and col2im runs (random route tables, the line carried from tile
# to tile and accumulated over reduction slices, stalled steps, rows of 3 and more).
for cfg in "2 4 16 40" "3 3 12 30" "1 2 8 7" "4 8 8 64"; do
  set -- $cfg
  config psum_manager sagen_psum_manager "${1}x${2}_acc$3_line$4" \
    "sagen_skew.v sagen_sram.v sagen_psum_manager.v" \
    "ROWS=$1 COLS=$2 ACC_BITS=$3 LINE_WORDS=$4" "$1 $2 $3 $4"
done
# ... with float results: ROWS COLS AEW AFW LINE_WORDS (binary32, binary16; plain passes, and
# col2im runs with the line: rows and tiles of 16 pixels or more).
for cfg in "2 2 8 23 0" "3 4 5 10 0" "1 1 8 23 0" "2 2 8 23 64" "3 4 5 10 48" "4 4 5 10 64"; do
  set -- $cfg
  config psum_manager sagen_psum_manager "${1}x${2}_fp_e$3_f$4_line$5" \
    "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_skew.v sagen_sram.v sagen_psum_manager.v" \
    "ROWS=$1 COLS=$2 ACC_BITS=$(($3 + $4 + 1)) LINE_WORDS=$5 FP=1 AEW=$3 AFW=$4" \
    "$1 $2 fp $3 $4 $5"
done

# The array edge of sagen_core, block by block. Blocks with a Verilator case also run there.
have_verilator=0
command -v verilator >/dev/null 2>&1 && have_verilator=1
[ "$have_verilator" = 1 ] || echo "# verilator not found: the array-edge blocks run in Icarus only"

# sagen_step_ctrl: ROWS MIN_GAP (context ends max(2*ROWS-1, MIN_GAP) cycles apart; ROWS 1 and
# MIN_GAP 1: never too soon; 18: the float PE's gap, more than the chains' on 2 and 4 rows).
for cfg in "1 1" "2 1" "4 1" "16 1" "2 18" "4 18" "16 18"; do
  set -- $cfg
  config step_ctrl sagen_step_ctrl "rows$1_gap$2" "sagen_step_ctrl.v" "ROWS=$1 MIN_GAP=$2" "$1 $2"
done
[ "$have_verilator" = 1 ] && config step_ctrl sagen_step_ctrl "rows3_gap18" "sagen_step_ctrl.v" \
  "ROWS=3 MIN_GAP=18" "3 18" verilator

# sagen_mac_count: LANES COLS (the widths of the active lanes and columns; 256 x 256: the
# product past 16 bits).
for cfg in "1 1" "4 4" "16 8" "12 5" "256 256"; do
  set -- $cfg
  config mac_count sagen_mac_count "l$1_c$2" "sagen_mac_count.v" "LANES=$1 COLS=$2" "$1 $2"
done
[ "$have_verilator" = 1 ] && config mac_count sagen_mac_count "l6_c3" "sagen_mac_count.v" \
  "LANES=6 COLS=3" "6 3" verilator

# sagen_col_groups: ROWS COLS GROUPS (1 group: the plain array).
for cfg in "4 4 1" "1 1 1" "2 8 4" "3 7 3" "16 16 16" "4 64 64"; do
  set -- $cfg
  config col_groups sagen_col_groups "${1}x${2}_g$3" "sagen_col_groups.v" \
    "ROWS=$1 COLS=$2 GROUPS=$3" "$1 $2 $3"
done
[ "$have_verilator" = 1 ] && config col_groups sagen_col_groups "2x8_g4" "sagen_col_groups.v" \
  "ROWS=2 COLS=8 GROUPS=4" "2 8 4" verilator


# sagen_route_table: N W (as sagen_core sets them for COLS 1, 4, 8: 16 * COLS entries of
# 1 + $clog2(COLS) bits; and 5 entries of 16 bits, the widest).
for cfg in "16 2" "64 3" "128 4" "5 16"; do
  set -- $cfg
  config route_table sagen_route_table "n$1_w$2" "sagen_route_table.v" "N=$1 W=$2" "$1 $2"
done

# sagen_hp_bytes: COLS ACC_BITS IF_W WT_W.
for cfg in "4 32 128 32" "1 64 32 8" "16 24 128 128" "7 3 20 21" "256 64 1024 2048"; do
  set -- $cfg
  config hp_bytes sagen_hp_bytes "c$1_acc$2" "sagen_hp_bytes.v" \
    "COLS=$1 ACC_BITS=$2 IF_W=$3 WT_W=$4" "$1 $2 $3 $4"
done

# sagen_lzc: W (1, powers of two and not; 12 and below exhaustively; 28 and 48: the adder's and
# the binary32 multiplier's).
for w in 1 2 3 8 11 12 28 48; do
  config lzc sagen_lzc "w$w" "sagen_lzc.v" "W=$w" "$w"
done
[ "$have_verilator" = 1 ] && config lzc sagen_lzc "w28" "sagen_lzc.v" "W=28" "28" verilator

# sagen_fp_add: EW FW (binary32, binary16, bfloat16, and two formats nobody tuned for), 20 000
# pairs a seed (50 000 with SAGEN_TEST_DEPTH=long); model_fp fails a run whose stimulus misses a
# tie, a subnormal, an overflow, ...
fpn=20000
[ "${SAGEN_TEST_DEPTH:-short}" = long ] && fpn=50000
for cfg in "8 23" "5 10" "8 7" "4 3" "6 9"; do
  set -- $cfg
  config fp sagen_fp_add "add_e$1_f$2" "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_mul.v sagen_fp_mul.v" "MUL=0 EW=$1 FW=$2" \
    "add $1 $2 $fpn"
done
[ "$have_verilator" = 1 ] && config fp sagen_fp_add "add_e8_f7" "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_mul.v sagen_fp_mul.v" \
  "MUL=0 EW=8 FW=7" "add 8 7 $fpn" verilator

# sagen_fp_mul: IEW IFW OEW OFW (operands into the accumulation format: bfloat16 and binary16
# into binary32, binary16 into binary16, binary32, bfloat16; into a wider and a narrower odd
# format).
for cfg in "8 7 8 23" "5 10 8 23" "5 10 5 10" "8 23 8 23" "8 7 8 7" "4 3 6 9" "6 9 4 3"; do
  set -- $cfg
  config fp sagen_fp_mul "mul_e$1_f$2_e$3_f$4" "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_mul.v sagen_fp_mul.v" \
    "MUL=1 EW=$1 FW=$2 OEW=$3 OFW=$4" "mul $1 $2 $3 $4 $fpn"
done
# ... with the ECP5's form of the significands' multiplier (bfloat16, binary16 operands)
for cfg in "8 7 8 23" "5 10 5 10"; do
  set -- $cfg
  config fp sagen_fp_mul "ecp5_mul_e$1_f$2_e$3_f$4" \
    "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v $ecp5files sagen_fp_mul.v" \
    "MUL=1 EW=$1 FW=$2 OEW=$3 OFW=$4" "mul $1 $2 $3 $4 $fpn"
done
[ "$have_verilator" = 1 ] && config fp sagen_fp_mul "mul_e8_f7_e8_f23" \
  "sagen_lzc.v sagen_fp_round.v sagen_fp_add.v sagen_mul.v sagen_fp_mul.v" "MUL=1 EW=8 FW=7 OEW=8 OFW=23" "mul 8 7 8 23 $fpn" verilator

# sagen_pe_fp: IEW IFW AEW AFW (bfloat16 and binary16 into binary32, binary16 into binary16 as
# Fornt et al., binary32, and bfloat16 into binary16), 8 000 cycles a seed (30 000 long):
# model_pe_fp fails a run that reaches no NaN, infinite, signed-zero or subnormal result, or none
# whose reduction order changed the rounding.
pfn=8000
[ "${SAGEN_TEST_DEPTH:-short}" = long ] && pfn=30000
for cfg in "8 7 8 23" "5 10 8 23" "5 10 5 10" "8 23 8 23" "8 7 5 10"; do
  set -- $cfg
  config pe_fp sagen_pe_fp "e$1_f$2_e$3_f$4" "$fpfiles" "IEW=$1 IFW=$2 AEW=$3 AFW=$4" \
    "$1 $2 $3 $4 $pfn"
done
[ "$have_verilator" = 1 ] && config pe_fp sagen_pe_fp "e8_f7_e8_f23" "$fpfiles" \
  "IEW=8 IFW=7 AEW=8 AFW=23" "8 7 8 23 $pfn" verilator

finish
