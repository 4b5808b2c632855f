#!/usr/bin/env bash
# test_errors: bad input and bad usage through ./sagen, as a user meets them. Every case checks
#   - the exit status: 1 bad input (a file, a value, a layer), 2 bad usage (the command line);
#   - stderr: exactly one line (unless the case says more: every error of a YAML file is
#     reported), holding the words a user needs: the file name, line:col for YAML, the key path
#     or the option, the bad value in quotes and what is allowed;
#   - that nothing was left behind: no file in the -o DIR of `sagen gen`, no --out file of
#     `sagen sim`, no temporary file (*.tmp.*) anywhere in the scratch directory.
# The YAML error classes are tested one by one at the C level in tests/test_cfg.c; here a few
# go through the command line. Tensors are .npy files made with Python's struct (no numpy).
# Layers that are accepted though they look odd (big-endian tensors, a 300-wide kernel on a
# 16-bit pattern) are checked to run and equal the golden model.
#
# Usage: tests/test_errors.sh (from anywhere, after `make sagen`; the sim cases use the tiny1x1
# model from build/models, built on first use). Prints `ok`/`not ok` per case, `# TODO` lines
# for messages that are correct but should say more (not failures), and
# `N passed, N failed, N skipped` (skipped = the TODO notes).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
Y=yaml/tiny1x1.yaml
make_tmp errors
todo=0
# note NAME TEXT: a message that works but should be better (see the report of the issue).
note() { echo "# TODO $1: $2"; todo=$((todo + 1)); }

if [ ! -x "$S" ]; then
  not_ok setup "$S not built (make sagen)"
  finish
fi

# expect NAME STATUS [lines=N] [left=PATH]... [WORD]... -- CMD... (this suite's own, in place of
# common.sh's)
# CMD must exit STATUS, print N lines on stderr (default 1; N=0 for a success), every WORD
# (fixed strings) in its stderr, and leave no PATH behind (a directory must be absent or empty).
expect() {
  local name=$1 want=$2
  shift 2
  local lines=1 words=() left=()
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
      lines=*) lines=${1#lines=} ;;
      left=*) left+=("${1#left=}") ;;
      *) words+=("$1") ;;
    esac
    shift
  done
  shift # --
  local got=0
  "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null || got=$?
  local n
  n=$(grep -c . "$tmp/stderr")
  local why=""
  [ "$got" -eq "$want" ] || why="exit $got, expected $want"
  [ -n "$why" ] || [ "$n" -eq "$lines" ] || why="$n lines on stderr, expected $lines"
  for w in "${words[@]}"; do
    [ -n "$why" ] && break
    grep -qF -- "$w" "$tmp/stderr" || why="stderr lacks '$w'"
  done
  for p in "${left[@]}"; do
    [ -n "$why" ] && break
    if [ -d "$p" ] && [ -n "$(ls -A "$p")" ]; then
      why="left files in $p: $(ls -A "$p" | head -n 3 | paste -s -d ' ' -)"
    elif [ -f "$p" ]; then
      why="left $p behind"
    fi
  done
  if [ -z "$why" ]; then
    local stray
    stray=$(find "$tmp" -name '*.tmp.*' 2>/dev/null | head -n 1)
    [ -z "$stray" ] || why="temporary file left: $stray"
  fi
  if [ -z "$why" ]; then
    ok "$name"
  else
    not_ok "$name" "$why; stderr: $(head -c 300 "$tmp/stderr" | tr '\n' '|')"
  fi
}

# ---- YAML through `sagen gen` (exit 1, one line per problem, nothing written) -----------------
y() { printf '%b' "$2" >"$tmp/$1.yaml"; }
gen_bad() {  # gen_bad NAME [lines=N] WORD... : `sagen gen $tmp/NAME.yaml -o $tmp/o/NAME`
  local name=$1
  shift
  expect "gen: $name" 1 left="$tmp/o/$name" "$name.yaml" "$@" -- "$S" gen "$tmp/$name.yaml" -o "$tmp/o/$name"
}
y range 'name: a\narray: {rows: 0, cols: 1}\n'
gen_bad range "range.yaml:2:15:" "array.rows" "'0'" "allowed 1..256"
y not_int 'name: a\narray:\n  rows: four\n  cols: 1\n'
gen_bad not_int "not_int.yaml:3:9:" "array.rows" "'four'" "expected an integer" "allowed 1..256"
y unknown_key 'name: a\narray: {rows: 1, cols: 1, colz: 2}\n'
gen_bad unknown_key "unknown_key.yaml:2:27:" "array.colz" "'colz'" "did you mean 'cols'"
y bad_name 'name: 9lives\narray: {rows: 1, cols: 1}\n'
gen_bad bad_name "bad_name.yaml:1:7:" "name:" "'9lives'" "verilog identifier" "allowed"
y keyword 'name: module\narray: {rows: 1, cols: 1}\n'
gen_bad keyword "keyword.yaml:1:7:" "'module'" "keyword"
y missing 'name: a\n'
gen_bad missing "missing.yaml:1:1:" "array" "missing required key" "allowed a mapping of rows, cols, dataflow"
y syntax 'name: a\narray: {rows: 1, cols: 1\n'
gen_bad syntax "syntax.yaml:3:1:" "yaml syntax error" "2:8"
y bus 'name: a\narray: {rows: 1, cols: 1}\nmemory: {bus_elems: 3}\n'
gen_bad bus "bus.yaml:3:21:" "memory.bus_elems" "'3'" "power of two 2..256"
y acc 'name: a\narray: {rows: 1, cols: 1}\ndata: {input_bits: 16, weight_bits: 16, acc_bits: 20}\n'
gen_bad acc "acc.yaml:3:51:" "data.acc_bits" "'20'" ">= data.input_bits + data.weight_bits"
y fifo 'name: a\narray: {rows: 1, cols: 1}\nfeeder: {regs_per_lane: 8, fifo_depth: 4}\n'
gen_bad fifo "fifo.yaml:3:40:" "feeder.fifo_depth" "'4'" ">= feeder.regs_per_lane"
y bool 'name: a\narray: {rows: 1, cols: 1}\nmemory: {double_buffer: maybe}\n'
gen_bad bool "bool.yaml:3:25:" "memory.double_buffer" "'maybe'" "true or false"
y dup 'name: a\nname: b\narray: {rows: 1, cols: 1}\n'
gen_bad dup "dup.yaml:2:1:" "duplicate key 'name'" "line 1, column 1"
y two 'name: a\narray: {rows: 0, cols: 300}\n'
gen_bad two lines=2 "two.yaml:2:15: array.rows: '0'" "two.yaml:2:24: array.cols: '300'"
y empty ''
gen_bad empty "empty.yaml:" "file is empty" "expected a mapping"
expect "gen: missing file" 1 left="$tmp/o/nofile" "$tmp/nope.yaml" "cannot open" "No such file" \
  -- "$S" gen "$tmp/nope.yaml" -o "$tmp/o/nofile"
mkdir -p "$tmp/dir.yaml"
expect "gen: config is a directory" 1 left="$tmp/o/dir" "dir.yaml" "cannot read" \
  -- "$S" gen "$tmp/dir.yaml" -o "$tmp/o/dir"
expect "gen: bad --set" 1 left="$tmp/o/set" "tiny1x1.yaml" "--set 'array.rows=0'" "array.rows" "'0'" \
  "allowed 1..256" -- "$S" gen "$Y" --set array.rows=0 -o "$tmp/o/set"
touch "$tmp/afile"
expect "gen: -o under a file" 1 "$tmp/afile/sub" "cannot create output directory" "Not a directory" \
  -- "$S" gen "$Y" -o "$tmp/afile/sub"
# A destination name taken by a directory: refused before any file is renamed into place.
mkdir -p "$tmp/o/blocked/sagen_tiny1x1_pe.v"
expect "gen: output name taken by a directory" 1 "sagen_tiny1x1_pe.v" "is a directory" \
  -- "$S" gen "$Y" -o "$tmp/o/blocked"
extra=$(ls -A "$tmp/o/blocked" | grep -vx 'sagen_tiny1x1_pe.v')
[ -z "$extra" ] && ok "gen: nothing written next to the blocked name" \
  || not_ok "gen: nothing written next to the blocked name" "found $extra"
expect "gen: no config (usage)" 2 "expected CONFIG.yaml" -- "$S" gen
expect "gen: -o without a directory (usage)" 2 "-o needs a directory" -- "$S" gen "$Y" -o
expect "gen: unknown option (usage)" 2 "unknown option '--frob'" -- "$S" gen "$Y" --frob

# ---- tensors: sagen sim tiny1x1 conv2d --input X --weight W -----------------------------------
PYTHONPATH=$root/tests/lib python3 - "$tmp" <<'PY'
import sys
from tensors import write_npy
d = sys.argv[1]
def npy(name, shape, vals, descr, fortran=False, major=1, cut=0):
    write_npy("%s/%s" % (d, name), shape, vals, descr, major, fortran, cut)
x = [((i * 7) % 200) - 100 for i in range(1 * 2 * 5 * 5)]
w = [((i * 5) % 20) - 10 for i in range(3 * 2 * 3 * 3)]
npy("x.npy", (1, 2, 5, 5), x, "|i1")
npy("w.npy", (3, 2, 3, 3), w, "|i1")
npy("x_be.npy", (1, 2, 5, 5), x, ">i2")
npy("w_be.npy", (3, 2, 3, 3), w, ">i4")
npy("x_v2.npy", (1, 2, 5, 5), x, "<i8", major=2)
npy("x_f4.npy", (1, 2, 5, 5), [float(v) for v in x], "<f4")
npy("x_f8.npy", (1, 2, 5, 5), [float(v) for v in x], "<f8")
npy("wf.npy", (3, 2, 3, 3), [v / 8 for v in w], "<f4")
npy("x_third.npy", (1, 2, 5, 5), [float(v) for v in x[:7]] + [1 / 3] + [float(v) for v in x[8:]],
    "<f4")
npy("x_fortran.npy", (1, 2, 5, 5), x, "|i1", fortran=True)
npy("x_trunc.npy", (1, 2, 5, 5), x, "|i1", cut=7)
npy("x_rank3.npy", (2, 5, 5), x, "|i1")
npy("w_rank3.npy", (3, 2, 9), w, "|i1")
npy("w_rank5.npy", (3, 2, 3, 3, 1), w, "|i1")
npy("w_c3.npy", (3, 3, 3, 3), [1] * 81, "|i1")
npy("x_range.npy", (1, 2, 5, 5), [300] + x[1:], "<i2")
npy("w_range.npy", (3, 2, 3, 3), w[:5] + [-129] + w[6:], "<i2")
npy("x_u1.npy", (1, 2, 5, 5), [v & 0xff for v in x], "|u1")
npy("x_i8max.npy", (1, 2, 5, 5), [2 ** 63 - 1] + x[1:], "<i8")
with open(d + "/not.npy", "wb") as f:
    f.write(b"PK\x03\x04 a zip file, not an npy file\n")
open(d + "/empty.npy", "wb").close()
PY
mkdir -p "$tmp/o/sim"
Yout=$tmp/o/sim/y.npy
sim_bad() {  # sim_bad NAME STATUS WORD... -- ARGS...: sagen sim tiny1x1 conv2d ARGS --out $Yout
  local name=$1 st=$2
  shift 2
  local pre=()
  while [ "$1" != -- ]; do pre+=("$1"); shift; done
  shift
  expect "sim: $name" "$st" left="$Yout" "${pre[@]}" -- "$S" sim "$Y" conv2d "$@" --out "$Yout" --quiet --report none
}
T=$tmp
sim_bad "not an npy file" 1 "not.npy" "not an npy file" "\\x93NUMPY" -- --input "$T/not.npy" --weight "$T/w.npy"
sim_bad "empty file" 1 "empty.npy" "empty" -- --input "$T/empty.npy" --weight "$T/w.npy"
sim_bad "truncated" 1 "x_trunc.npy" "truncated data" "expected 50 bytes" "got 43" -- --input "$T/x_trunc.npy" --weight "$T/w.npy"
sim_bad "float tensor, int format" 1 "x_f4.npy" "holds float32 values" "data.format int takes integer tensors" -- --input "$T/x_f4.npy" --weight "$T/w.npy"
sim_bad "float64 dtype" 1 "x_f8.npy" "'<f8'" "float16 and float32" -- --input "$T/x_f8.npy" --weight "$T/w.npy"
sim_bad "--round-inputs, int format (usage)" 2 "--round-inputs" "applies to a float data.format" -- --input "$T/x.npy" --weight "$T/w.npy" --round-inputs
# a float format: integers refused, a value the format lacks named (file, flat index, value)
printf 'name: ebf\narray: { rows: 2, cols: 2 }\ndata: { format: bf16 }\n' >"$T/bf.yaml"
expect "sim: integer tensor, bf16 format" 1 "x.npy" "holds integers" "data.format bf16 takes float16 or float32" \
  -- "$S" sim "$T/bf.yaml" conv2d --input "$T/x.npy" --weight "$T/wf.npy" --quiet --report none
expect "sim: a value bf16 lacks" 1 "x_third.npy" "value 0.333333343" "flat index 7" "not a bf16 value" "--round-inputs" \
  -- "$S" sim "$T/bf.yaml" conv2d --input "$T/x_third.npy" --weight "$T/wf.npy" --quiet --report none
sim_bad "fortran order" 1 "x_fortran.npy" "fortran_order True" "only C order" -- --input "$T/x_fortran.npy" --weight "$T/w.npy"
sim_bad "input rank 3" 1 "x_rank3.npy" "rank 3" "rank 4 (N,C,H,W)" -- --input "$T/x_rank3.npy" --weight "$T/w.npy"
sim_bad "weight rank 3" 1 "w_rank3.npy" "rank 3" "(K,C,R,S)" -- --input "$T/x.npy" --weight "$T/w_rank3.npy"
sim_bad "weight rank 5" 1 "w_rank5.npy" "rank 5" "ranks 1..4" -- --input "$T/x.npy" --weight "$T/w_rank5.npy"
sim_bad "channel mismatch" 1 "w_c3.npy" "3 input channels" "the input has 2" -- --input "$T/x.npy" --weight "$T/w_c3.npy"
sim_bad "input out of range" 1 "x_range.npy" "value 300" "data.input_bits=8" "allowed -128..127" -- --input "$T/x_range.npy" --weight "$T/w.npy"
sim_bad "weight out of range" 1 "w_range.npy" "value -129" "flat index 5" "data.weight_bits=8" "allowed -128..127" -- --input "$T/x.npy" --weight "$T/w_range.npy"
sim_bad "uint8 above 127" 1 "x_u1.npy" "value 156" "data.input_bits=8" -- --input "$T/x_u1.npy" --weight "$T/w.npy"
sim_bad "int64 max" 1 "x_i8max.npy" "9223372036854775807" "data.input_bits=8" -- --input "$T/x_i8max.npy" --weight "$T/w.npy"
sim_bad "missing input file" 1 "$T/nope.npy" "cannot open" -- --input "$T/nope.npy" --weight "$T/w.npy"
sim_bad "input is a directory" 1 "$T/o" "Is a directory" -- --input "$T/o" --weight "$T/w.npy"
# accepted: big-endian integers, format 2.0, any integer dtype whose values fit
expect "sim: big-endian tensors accepted" 0 lines=0 -- "$S" sim "$Y" conv2d --input "$T/x_be.npy" \
  --weight "$T/w_be.npy" --padding 1 --check --quiet --report none
expect "sim: format 2.0 int64 accepted" 0 lines=0 -- "$S" sim "$Y" conv2d --input "$T/x_v2.npy" \
  --weight "$T/w.npy" --check --quiet --report none

# ---- layers ------------------------------------------------------------------------------------
sim_bad "stride 0 (usage)" 2 "--stride: '0'" "1..65535" -- --input "$T/x.npy" --weight "$T/w.npy" --stride 0
sim_bad "dilation 0 (usage)" 2 "--dilation: '0,1'" "1..65535" -- --input "$T/x.npy" --weight "$T/w.npy" --dilation 0,1
sim_bad "negative padding (usage)" 2 "--padding: '-1'" "0..65535" -- --input "$T/x.npy" --weight "$T/w.npy" --padding -1
sim_bad "negative padding width (usage)" 2 "--padding: '1,-1'" -- --input "$T/x.npy" --weight "$T/w.npy" --padding 1,-1
sim_bad "stride too large (usage)" 2 "--stride: '70000'" "1..65535" -- --input "$T/x.npy" --weight "$T/w.npy" --stride 70000
sim_bad "output below 1" 1 "layer has no output" "dilation 3,3" "0x0" -- --input "$T/x.npy" --weight "$T/w.npy" --dilation 3
sim_bad "kernel larger than input" 1 "layer has no output" "input 5x5" "kernel 6x6" -- --random 1,1,5,5:1,6,6
sim_bad "padding not below the kernel" 1 "padding 3,3" "dilated kernel 3x3" "allowed" -- --input "$T/x.npy" --weight "$T/w.npy" --padding 3
sim_bad "random size 0 (usage)" 2 "--random: '0,1,2,2:1,1,1'" "1..1000000" -- --random 0,1,2,2:1,1,1
sim_bad "random and input (usage)" 2 "--random cannot be combined" -- --random 1,1,4,4:1,1,1 --input "$T/x.npy"
sim_bad "weight missing (usage)" 2 "needs --input and --weight" -- --input "$T/x.npy"
expect "sim: bad yaml config" 1 "range.yaml:2:15:" "array.rows" "'0'" -- "$S" sim "$T/range.yaml" conv2d --random 1,1,4,4:1,1,1 --quiet
# accepted: a kernel 300 wide on a 16-bit pattern and a 2-deep FIFO is cut into 150 passes
expect "sim: 300-wide kernel on tiny1x1 runs" 0 lines=0 -- "$S" sim "$Y" conv2d \
  --random 1,1,4,300:1,1,300 --check --quiet --report none

# ---- outputs -----------------------------------------------------------------------------------
expect "sim: --out in a missing directory" 1 left="$T/o/nodir" "$T/o/nodir/y.npy" "does not exist" \
  -- "$S" sim "$Y" conv2d --input "$T/x.npy" --weight "$T/w.npy" --out "$T/o/nodir/y.npy" --quiet --report none
[ -e "$T/o/nodir" ] && not_ok "sim: --out dir not created" "$T/o/nodir exists" || ok "sim: --out dir not created"
mkdir -p "$T/o/isdir"
expect "sim: --out is a directory" 1 left="$T/o/isdir" "$T/o/isdir" "is a directory: expected a file path" \
  -- "$S" sim "$Y" conv2d --input "$T/x.npy" --weight "$T/w.npy" --out "$T/o/isdir" --quiet --report none
expect "sim: --build-dir under a file" 1 "$T/afile/" "cannot create output directory" "Not a directory" \
  -- "$S" sim "$Y" conv2d --random 1,1,2,2:1,1,1 --build-dir "$T/afile/models" --quiet --report none

# --col-groups past array.col_groups, refused by every op before it plans (on tiny1x1's single
# column the tiling search divided by the zero columns of a group: a crash, SIGFPE); with
# Icarus the run has begun its replay record, and removes it
for op in conv2d conv2d_input_grad conv2d_weight_grad; do
  expect "sim: $op --col-groups 4 on array.col_groups 1" 1 "4 column groups asked for" \
    "'tiny1x1' has array.col_groups = 1" \
    -- "$S" sim "$Y" "$op" --random 1,2,5,5:2,3,3 --col-groups 4 --quiet --report none
done
expect "sim: --col-groups 4 with Icarus" 1 "4 column groups asked for" \
  -- "$S" sim "$Y" conv2d --random 1,2,5,5:2,3,3 --col-groups 4 --simulator icarus \
  --build-dir "$T/bd" --quiet --report none
rec=$(find "$T/bd" -name 'replay-*.rec' 2>/dev/null | head -n 1)
if [ -d "$T/bd" ] && [ -z "$rec" ]; then
  ok "sim: a run stopped before its Icarus replay leaves no replay record"
else
  not_ok "sim: a run stopped before its Icarus replay leaves no replay record" \
    "left ${rec:-(no model directory $T/bd)}"
fi

# ---- a layer too large for the configuration ---------------------------------------------------
# Every configuration holds at least one word of each memory (the validator checks it), so the
# hardware can always run a 1-pixel, 1-channel, 1-kernel-row tile. The tiling search of the
# driver, however, cuts a kernel into at most 64 row slices (and channels into 4096): a
# 10^6-row kernel needs slices of 15625 rows, 15625 weight words per pass, more than tiny1x1's
# 1024, and the run is refused. Once the search always tries slices of 1 the layer runs
# (2045 passes, about 1 s); both outcomes are accepted, the first with a TODO note.
big=(--random 1,1,1000000,1:1,1000000,1)
rc=0
"$S" sim "$Y" conv2d "${big[@]}" --check --quiet --report none >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
if [ "$rc" -eq 0 ]; then
  ok "sim: 10^6-row kernel on tiny1x1 runs and equals the golden model"
else
  expect "sim: 10^6-row kernel on tiny1x1 refused" 1 "layer does not fit the configuration" \
    "memory.weight_kib" -- "$S" sim "$Y" conv2d "${big[@]}" --quiet --report none
  if grep -qF "needs 1 ifmap elements" "$tmp/stderr"; then
    note "sim: 10^6-row kernel on tiny1x1 refused" "the message says the smallest tile needs 1 ifmap element and 1 weight word (both fit); it should name the memory that overflows (15625 weight words > 1024) and why (at most 64 kernel-row slices)"
  fi
fi
echo "$pass passed, $fail failed, $todo skipped"
[ "$fail" -eq 0 ]
