#!/usr/bin/env bash
# cli/float: the floating-point formats through ./sagen: every format pair the PE has, conv2d bit
# for bit in the plan's order (channel slices, stride, dilation, padding, 1x1; column groups,
# images side by side, row and linear contexts, aligned rows; Icarus replays), the backward ops
# bit for bit from their runs as data (both modes, the input gradient's phase forms and col2im,
# the weight gradient's forms, images side by side; Icarus replays), special values with
# their IEEE results (NaN, infinities, signed zeros, subnormals, overflow, cancellation),
# infinities that meet only padding or absent taps kept out of the sum in every op, and a
# bf16 training step chained through .npy against an independent Python model (tests/lib/
# tensors.py, in double) within the accumulation's bound; lint and synthesis of the design.
#
# Usage: tests/cli/float.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and `N passed, N failed`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/lib/common.sh"
make_tmp cli_float
need python3 || finish

# A small float design: 2x2 (its contexts wait for the float PE's gap of 18, not the chains' 3),
# two column groups, small memories so that layers are tiled into channel slices and several
# output tiles, and a col2im line (its adders a tree of two in every pass).
cat >"$tmp/fl.yaml" <<'Y'
name: fl
array: { rows: 2, cols: 2, col_groups: 2 }
data: { format: bf16 }
memory: { bus_elems: 8, ifmap_kib: 2, weight_kib: 2, output_kib: 2, line_kib: 1 }
Y
F=$tmp/fl.yaml
# col2im's design: 12 columns, so that a 3x3 kernel's 9 filters of one channel are one filter
# group and a word lane takes its own, previous, down and previous-down sums in one group (their
# order shows); an ifmap bank small enough that a layer of many channels runs in one-row tiles
# of channel slices (the line accumulated over the slices).
cat >"$tmp/fc.yaml" <<'Y'
name: fc
array: { rows: 2, cols: 12 }
data: { format: bf16 }
memory: { bus_elems: 8, ifmap_kib: 1, weight_kib: 2, output_kib: 4, line_kib: 1 }
Y
FC=$tmp/fc.yaml

# run NAME ARGS...: sagen sim ARGS --check passes
run() {
  local name=$1
  shift
  if $S sim "$@" --check --quiet --report none >"$tmp/out" 2>"$tmp/err"; then
    ok "$name"
  else
    not_ok "$name" "$(head -c 600 "$tmp/err")"
  fi
}

# ---- every format pair, conv2d bit for bit (one design name: the model cache keys formats) ----
L="--random 2,12,9,9:6,3,3 --stride 2 --padding 1"
touch "$tmp/stamp"
for f in "bf16 fp32" "fp16 fp32" "fp16 fp16" "fp32 fp32"; do
  set -- $f
  run "conv2d $1 operands, $2 sums: bit-exact" "$F" conv2d $L --set data.format=$1 \
    --set data.acc_format=$2
done
# Each of those models verilated the float PE once, as a hierarchical block that every PE runs
# (sim/model.c), not once per PE: its directory obj/Vsagen_fl_pe_fp_* is there. (Verilator makes
# no block where an instance's parameters equal the module's defaults: the defaults must stay a
# format that no configuration has.)
built=0
flat=""
for d in build/models/fl-*; do
  [ "$d/libsagen_model.so" -nt "$tmp/stamp" ] || continue
  built=$((built + 1))
  compgen -G "$d/obj/Vsagen_fl_pe_fp_*/" >/dev/null || flat="$flat $d"
done
if [ -n "$flat" ]; then
  not_ok "the float PE is one hierarchical block of every model" "no PE block in$flat"
elif [ "$built" -ge 4 ]; then
  ok "the float PE is one hierarchical block of every model ($built built)"
else
  ok "the float PE is one hierarchical block of every model (# $built built: the others cached)"
fi
run "conv2d bf16: 40 channels in slices, dilation 2, bit-exact" "$F" conv2d \
  --random 1,40,10,10:5,3,3 --dilation 2 --padding 2 --seed 3
run "conv2d bf16: 1x1, three images, bit-exact" "$F" conv2d --random 3,16,6,6:9,1,1 --seed 4
# (Icarus replays of the float designs take a minute or two each: make test replays one op per
# format, fp16/fp16 here, bf16 col2im and fp32 below; SAGEN_TEST_DEPTH=long the others too)
long=0
[ "${SAGEN_TEST_DEPTH:-short}" = long ] && long=1
run "conv2d fp16/fp16: Icarus replay bit-exact" "$F" conv2d --random 1,6,7,7:5,3,3 --padding 1 \
  --set data.format=fp16 --set data.acc_format=fp16 --simulator icarus
[ $long = 1 ] && run "conv2d bf16: Icarus replay bit-exact" "$F" conv2d \
  --random 1,6,7,7:5,3,3 --padding 1 --simulator icarus

# ---- the mappings, bit for bit ----
run "conv2d bf16: two column groups" "$F" conv2d --random 1,5,8,8:2,3,3 --padding 1 --col-groups 2
run "conv2d bf16: images side by side" "$F" conv2d --random 4,3,5,5:4,3,3 --padding 1 --images side
run "conv2d bf16: contexts in a row" "$F" conv2d --random 1,4,9,11:4,3,3 --contexts row
run "conv2d bf16: linear contexts" "$F" conv2d --random 1,4,9,11:4,3,3 --contexts linear
run "conv2d bf16: aligned rows" "$F" conv2d --random 1,4,9,11:4,3,3 --padding 1 --rows aligned

# ---- the backward ops, bit for bit from their runs as data (and within the bound) ----
# (each case's form is checked from the report: the lowering it names is the one that ran)
# runf NAME FORM ARGS...: run, and the report's form is FORM
runf() {
  local name=$1 form=$2
  shift 2
  if $S sim "$@" --check --quiet --report json >"$tmp/out" 2>"$tmp/err" &&
     grep -q "\"form\": \"$form\"" "$tmp/out"; then
    ok "$name"
  else
    not_ok "$name" "$(head -c 600 "$tmp/err") $(grep -o '"form": "[a-z_]*"' "$tmp/out")"
  fi
}
B="--random 2,6,9,9:5,3,3 --stride 2 --padding 1"
for m in zero_skip zero_fill; do
  run "input gradient bf16, $m: bit-exact" "$F" conv2d_input_grad $B --bp-mode $m
  run "weight gradient bf16, $m: bit-exact" "$F" conv2d_weight_grad $B --bp-mode $m
done
runf "input gradient bf16, phases joined: bit-exact" joined_phases "$F" conv2d_input_grad $B \
  --phases joined
runf "input gradient bf16, phases separate: bit-exact" phases "$F" conv2d_input_grad $B \
  --phases separate
runf "input gradient bf16, 7x7 stride 3 in phase blocks: bit-exact" phase_blocks "$F" \
  conv2d_input_grad --random 1,5,11,11:4,7,7 --stride 3 --padding 3 --phases blocks
run "input gradient bf16, images side by side: bit-exact" "$F" conv2d_input_grad \
  --random 3,4,6,6:5,3,3 --padding 1 --images side
runf "weight gradient bf16, tap blocks: bit-exact" tap_blocks "$F" conv2d_weight_grad \
  --random 2,3,9,9:4,3,3 --stride 2
runf "weight gradient bf16, side by side: bit-exact" side_by_side "$F" conv2d_weight_grad \
  --random 3,4,8,8:5,3,3 --padding 1
runf "weight gradient bf16, dilated kernel (one channel), zero_fill: bit-exact" dilated "$F" \
  conv2d_weight_grad --random 2,1,9,9:3,3,3 --stride 2 --bp-mode zero_fill
runf "weight gradient bf16, 1x1 stride 2: bit-exact" tap_blocks "$F" conv2d_weight_grad \
  --random 2,4,9,9:3,1,1 --stride 2
# col2im: rows of 16 super-pixels or more (the float adders' path), tiles of rows (the line
# carried from tile to tile), one-row tiles in channel slices, images, every format pair
C2="--random 1,1,34,34:40,3,3 --stride 2 --padding 1 --phases col2im"
C2F="--random 1,1,18,34:3,2,3 --stride 1,2 --padding 0,1 --phases col2im"
runf "input gradient bf16 as col2im, 2 columns (stride 1,2): bit-exact" col2im "$F" \
  conv2d_input_grad $C2F
runf "input gradient bf16 as col2im, channel slices: bit-exact" col2im "$FC" conv2d_input_grad $C2
runf "input gradient bf16 as col2im, rows in tiles, two images: bit-exact" col2im "$FC" \
  conv2d_input_grad --random 2,1,36,32:6,3,3 --stride 2 --padding 1 --phases col2im --seed 2
# (the other format pairs on the 2-column design, as above: its models are built by the format
# pairs; SAGEN_TEST_DEPTH=long on the 12-column design too, two more models to build)
runf "input gradient fp16/fp16 as col2im: bit-exact" col2im "$F" conv2d_input_grad $C2F \
  --set data.format=fp16 --set data.acc_format=fp16 --seed 3
runf "input gradient fp32 as col2im: bit-exact" col2im "$F" conv2d_input_grad $C2F \
  --set data.format=fp32 --set data.acc_format=fp32 --seed 4
[ $long = 1 ] && runf "input gradient fp16/fp16 as col2im, 12 columns: bit-exact" col2im "$FC" \
  conv2d_input_grad $C2 --set data.format=fp16 --set data.acc_format=fp16 --seed 3
[ $long = 1 ] && runf "input gradient fp32 as col2im, two runs of channels: bit-exact" col2im \
  "$FC" conv2d_input_grad --random 1,4,32,34:5,3,3 --stride 2 --padding 1 --phases col2im \
  --set data.format=fp32 --set memory.line_kib=2 --seed 4
runf "input gradient bf16 as col2im, Icarus: bit-exact" col2im "$FC" conv2d_input_grad \
  --random 1,1,32,32:2,3,3 --stride 2 --padding 1 --phases col2im --simulator icarus
[ $long = 1 ] && run "input gradient fp16/fp16, Icarus: bit-exact" "$F" conv2d_input_grad $B \
  --set data.format=fp16 --set data.acc_format=fp16 --simulator icarus
run "weight gradient fp32, zero_fill, Icarus: bit-exact" "$F" conv2d_weight_grad \
  --random 1,3,7,7:4,3,3 --stride 2 --padding 1 --set data.format=fp32 --bp-mode zero_fill \
  --simulator icarus

# ---- special values: a 1x1 layer whose two channels meet as the IEEE rules say ----
# y[0] = x0 + x1 and y[1] = x0 - x1 per position (weights (1, 1) and (1, -1)); dx, y as float32.
PYTHONPATH=$root/tests/lib python3 - "$tmp" <<'PY'
import sys
from tensors import write_npy
d = sys.argv[1]
inf, nan = float("inf"), float("nan")
x0 = [nan, inf, inf, -0.0, 2.0 ** -130, 2.0 ** 127, 2.0 ** 30, 1.0]
x1 = [1.0, -inf, 1.0, -0.0, 2.0 ** -130, 2.0 ** 127, -2.0 ** 30, 2.0 ** -30]
write_npy(d + "/sx.npy", (1, 2, 1, 8), x0 + x1, "<f4")
write_npy(d + "/sw.npy", (2, 2, 1, 1), [1.0, 1.0, 1.0, -1.0], "<f4")
PY
if $S sim "$F" conv2d --input "$tmp/sx.npy" --weight "$tmp/sw.npy" --out "$tmp/sy.npy" --check \
     --quiet --report none 2>"$tmp/err" &&
   PYTHONPATH=$root/tests/lib python3 - "$tmp/sy.npy" <<'PY'
import math, sys
from tensors import read_npy
shape, y, descr = read_npy(sys.argv[1])
assert descr == "<f4" and shape == [1, 2, 1, 8], (shape, descr)
inf = float("inf")
def same(a, b):
    if math.isnan(b):
        return math.isnan(a)
    return a == b and math.copysign(1, a) == math.copysign(1, b)
want = [float("nan"), float("nan"), inf, -0.0, 2.0 ** -129, inf, 0.0, 1.0,     # x0 + x1
        float("nan"), inf, inf, 0.0, 0.0, 0.0, 2.0 ** 31, 1.0]                   # x0 - x1
bad = [(i, y[i], want[i]) for i in range(16) if not same(y[i], want[i])]
assert not bad, bad
PY
then
  ok "special values: NaN, inf - inf, signed zeros, a subnormal sum, overflow, cancellation"
else
  not_ok "special values" "$(head -c 600 "$tmp/err")"
fi
# An infinity that meets only padding, or only taps a phase lacks, stays out of the sum (no
# operand: a product of -0): conv2d with an infinite weight, dx with an infinite weight (the
# transposed convolution's padding) and with an infinite dy (joined phases' absent taps), dw with
# an infinite x and dy. --check holds each to the op's definition (a NaN or an infinity where
# the exact sum has one, the bound elsewhere); the outputs must hold both kinds.
PYTHONPATH=$root/tests/lib python3 - "$tmp" <<'PY'
import random, sys
from tensors import write_npy
d = sys.argv[1]
random.seed(3)
vals = [1.0, -0.5, 2.0, 0.25, -1.5]
def t(n, inf_at):
    v = [random.choice(vals) for _ in range(n)]
    v[inf_at] = float("inf")
    return v
write_npy(d + "/ix.npy", (1, 3, 8, 8), t(192, 9), "<f4")
write_npy(d + "/iw.npy", (2, 3, 3, 3), t(54, 0), "<f4")
write_npy(d + "/idy.npy", (1, 2, 4, 4), t(32, 5), "<f4")
write_npy(d + "/fx.npy", (1, 3, 8, 8), [random.choice(vals) for _ in range(192)], "<f4")
write_npy(d + "/fw.npy", (2, 3, 3, 3), [random.choice(vals) for _ in range(54)], "<f4")
write_npy(d + "/fdy.npy", (1, 2, 4, 4), [random.choice(vals) for _ in range(32)], "<f4")
PY
# special OUT NAME ARGS...: sagen sim ARGS --check --out OUT, and OUT holds finite and
# non-finite values
special() {
  local out=$1 name=$2
  shift 2
  if $S sim "$F" "$@" --check --quiet --report none --out "$tmp/$out" 2>"$tmp/err" &&
     PYTHONPATH=$root/tests/lib python3 -c "
import math, sys
from tensors import read_npy
_, v, _ = read_npy(sys.argv[1])
fin = sum(1 for e in v if math.isfinite(e))
assert 0 < fin < len(v), (fin, len(v))" "$tmp/$out" 2>>"$tmp/err"; then
    ok "$name"
  else
    not_ok "$name" "$(head -c 600 "$tmp/err")"
  fi
}
special sy.npy "an infinite weight meeting only padding adds nothing (conv2d)" conv2d \
  --input "$tmp/fx.npy" --weight "$tmp/iw.npy" --stride 2 --padding 1
for ph in separate joined; do
  special dx1.npy "an infinite weight stays out of dx where it meets padding (phases $ph)" \
    conv2d_input_grad --grad-output "$tmp/fdy.npy" --weight "$tmp/iw.npy" --input-shape 1,3,8,8 \
    --stride 2 --padding 1 --phases $ph
  special dx2.npy "an infinite dy stays out of dx where it meets no tap (phases $ph)" \
    conv2d_input_grad --grad-output "$tmp/idy.npy" --weight "$tmp/fw.npy" --input-shape 1,3,8,8 \
    --stride 2 --padding 1 --phases $ph
done
special dw.npy "infinite x and dy stay out of dw where they meet padding" conv2d_weight_grad \
  --input "$tmp/ix.npy" --grad-output "$tmp/idy.npy" --weight-shape 2,3,3,3 --stride 2 --padding 1
# inexact inputs: refused without --round-inputs, rounded with it
PYTHONPATH=$root/tests/lib python3 -c "
from tensors import write_npy
write_npy('$tmp/tx.npy', (1, 2, 3, 3), [i / 3 for i in range(18)], '<f4')
write_npy('$tmp/tw.npy', (2, 2, 1, 1), [0.5, 0.25, -1.0, 2.0], '<f2')"
run "inputs rounded to bf16 with --round-inputs (float16 weights taken exactly)" "$F" conv2d \
  --input "$tmp/tx.npy" --weight "$tmp/tw.npy" --round-inputs

# ---- a bf16 training step, chained through .npy, against Python in double ----
# y = conv(x, w); the loss 0.5 |y|^2 gives dy = y, rounded to bf16 (--round-inputs); then dx
# and dw. Python computes each from the same bf16 operands, exactly enough in double, and checks
# |got - ref| <= (n + 1) u sum|a b| (u = 2^-24, n the products of the element).
LAYER="--stride 2 --padding 1"
PYTHONPATH=$root/tests/lib python3 - "$tmp" <<'PY'
import random, struct, sys
from tensors import write_npy
d = sys.argv[1]
random.seed(7)
def bf16(v):
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000
    return struct.unpack("<f", struct.pack("<I", b))[0]
x = [bf16(random.gauss(0, 1)) for _ in range(2 * 5 * 9 * 9)]
w = [bf16(random.gauss(0, 1)) for _ in range(4 * 5 * 3 * 3)]
write_npy(d + "/x.npy", (2, 5, 9, 9), x, "<f4")
write_npy(d + "/w.npy", (4, 5, 3, 3), w, "<f4")
PY
if $S sim "$F" conv2d --input "$tmp/x.npy" --weight "$tmp/w.npy" $LAYER --out "$tmp/y.npy" \
     --check --quiet --report none 2>"$tmp/err" &&
   $S sim "$F" conv2d_input_grad --grad-output "$tmp/y.npy" --weight "$tmp/w.npy" \
     --input-shape 2,5,9,9 $LAYER --round-inputs --out "$tmp/dx.npy" --check --quiet \
     --report none 2>>"$tmp/err" &&
   $S sim "$F" conv2d_weight_grad --input "$tmp/x.npy" --grad-output "$tmp/y.npy" \
     --weight-shape 4,5,3,3 $LAYER --round-inputs --out "$tmp/dw.npy" --check --quiet \
     --report none 2>>"$tmp/err" &&
   PYTHONPATH=$root/tests/lib python3 - "$tmp" >>"$tmp/err" 2>&1 <<'PY'
import struct, sys
from tensors import read_npy, conv2d, conv2d_grads
d = sys.argv[1]
st, pd = (2, 2), (1, 1)
xs, x, _ = read_npy(d + "/x.npy")
ws, w, _ = read_npy(d + "/w.npy")
ys, y, dsc = read_npy(d + "/y.npy")
def bf16(v):
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000
    return struct.unpack("<f", struct.pack("<I", b))[0]
u = 2.0 ** -24
def check(name, got, ref, mag, n):
    bad = [i for i in range(len(ref)) if abs(got[i] - ref[i]) > (n + 1) * u * mag[i] + 1e-40]
    assert not bad, (name, bad[:3], [(got[i], ref[i], mag[i]) for i in bad[:3]])
ys2, yref = conv2d(x, xs, w, ws, st, pd)
_, ymag = conv2d([abs(v) for v in x], xs, [abs(v) for v in w], ws, st, pd)
assert ys2 == ys and dsc == "<f4"
check("y", y, yref, ymag, xs[1] * ws[2] * ws[3])
dy = [bf16(v) for v in y]
dxref, dwref = conv2d_grads(x, xs, w, ws, dy, st, pd)
dxmag, dwmag = conv2d_grads([abs(v) for v in x], xs, [abs(v) for v in w], ws,
                            [abs(v) for v in dy], st, pd)
_, dx, _ = read_npy(d + "/dx.npy")
_, dw, _ = read_npy(d + "/dw.npy")
check("dx", dx, dxref, dxmag, ws[0] * ws[2] * ws[3])
check("dw", dw, dwref, dwmag, xs[0] * ys[2] * ys[3])
PY
then
  ok "bf16 training step (y, dx, dw through .npy) within the bound of Python's double sums"
else
  not_ok "bf16 training step" "$(head -c 800 "$tmp/err")"
fi
# ---- lint and synthesis of a float design (tests/lint_synth.sh's checks) ----
if LINT_OUT=$tmp/lint "$root/tests/lint_synth.sh" "$F" >"$tmp/lint.log" 2>&1; then
  ok "lint and synthesis of the float design: $(grep -c '^ok' "$tmp/lint.log") checks (Verilator -Wall, iverilog -Wall, Yosys: no latch, every memory inferred)"
else
  not_ok "lint and synthesis of the float design" "$(grep '^not ok' "$tmp/lint.log" | head -3)"
fi
finish
