#!/usr/bin/env bash
# report_snapshot: the performance reports of a fixed set of runs, one JSON file per run, so that
# two builds can be compared byte for byte (scripts/report_compare.sh). A change that must not
# alter behaviour (a restructuring of the driver, say) leaves every file identical.
#
# The runs, every one with --report json --check --quiet:
#   bench-*     every layer `make bench` runs (scripts/bench.sh: the twelve ResNet-50 layers with
#               DRAM not limiting, the co-simulation speed layers, the Icarus replay of the small
#               one, and the layer of the build-time measurement);
#   bp-*        every run of `make bench-bp` (scripts/bench_bp.sh: five layers of BP-im2col's
#               Table II, both backward ops, zero_fill and zero_skip, seed 1);
#   rand-NN     50 random layers drawn from a fixed seed: the three ops in turn, the shipped
#               configurations in turn (yaml/*.yaml, sorted), zero_skip and zero_fill in turn
#               for the backward ops, and forced options drawn per layer (--contexts, --rows,
#               --images, --col-groups up to the configuration's array.col_groups, and --phases
#               for conv2d_input_grad; each left to the driver half of the time).
# OUTDIR gets NAME.json (stdout) per run, NAME.err (stderr: empty unless a run fails) and
# runs.tsv (name, exit status, the arguments of `sagen sim`). The reports hold no wall time:
# every field is a count or a figure of the plan, so nothing is excluded from the comparison.
#
# Usage: scripts/report_snapshot.sh OUTDIR   (from the repository root, after `make sagen`;
#        builds the Verilated models into build/models on first use)
# Environment: SNAPSHOT_ONLY=REGEX runs only the runs whose name matches (e.g. '^rand-');
#        SNAPSHOT_LIST=1 prints the runs (name and arguments) without running them;
#        SAGEN=PATH runs another build's binary (default ./sagen) from this tree, e.g. a
#        checkout of an earlier commit, with the models cached here.
set -u
if [ $# -ne 1 ]; then
  echo "usage: scripts/report_snapshot.sh OUTDIR" >&2
  exit 2
fi
out=$1
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/.." || exit 1
only=${SNAPSHOT_ONLY:-}
list=${SNAPSHOT_LIST:-0}
sagen=${SAGEN:-./sagen}
if [ "$list" != 1 ]; then
  [ -x "$sagen" ] || { echo "report_snapshot: $sagen is not built (make sagen)" >&2; exit 2; }
  mkdir -p "$out"
  : >"$out/runs.tsv"
fi

nrun=0
nfail=0
# run NAME ARGS...: $sagen sim ARGS --report json --check --quiet
run() {
  local name=$1
  shift
  [ -n "$only" ] && ! [[ $name =~ $only ]] && return 0
  if [ "$list" = 1 ]; then
    printf '%s\t%s\n' "$name" "$*"
    return 0
  fi
  local rc=0
  "$sagen" sim "$@" --report json --check --quiet >"$out/$name.json" 2>"$out/$name.err" || rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$*" >>"$out/runs.tsv"
  nrun=$((nrun + 1))
  if [ "$rc" -ne 0 ]; then
    nfail=$((nfail + 1))
    echo "$name: exit $rc: $(head -c 300 "$out/$name.err")" >&2
  fi
}

# ---- (a) scripts/bench.sh ---------------------------------------------------------------------
cfg=yaml/default.yaml
while read -r name c h w k r s st pad; do
  run "bench-$name" $cfg conv2d --random 1,$c,$h,$w:$k,$r,$s --stride $st --padding $pad \
    --dram-bytes-per-cycle 1e9
done <<'EOF'
conv2_x.1x1a 64 56 56 64 1 1 1 0
conv2_x.3x3 64 56 56 64 3 3 1 1
conv2_x.1x1b 64 56 56 256 1 1 1 0
conv3_x.1x1a 512 28 28 128 1 1 1 0
conv3_x.3x3 128 28 28 128 3 3 1 1
conv3_x.1x1b 128 28 28 512 1 1 1 0
conv4_x.1x1a 1024 14 14 256 1 1 1 0
conv4_x.3x3 256 14 14 256 3 3 1 1
conv4_x.1x1b 256 14 14 1024 1 1 1 0
conv5_x.1x1a 2048 7 7 512 1 1 1 0
conv5_x.3x3 512 7 7 512 3 3 1 1
conv5_x.1x1b 512 7 7 2048 1 1 1 0
EOF
run bench-speed $cfg conv2d --random 1,64,28,28:64,3,3 --padding 1
run bench-small $cfg conv2d --random 1,16,14,14:16,3,3 --padding 1
run bench-small-icarus $cfg conv2d --random 1,16,14,14:16,3,3 --padding 1 --simulator icarus
run bench-build $cfg conv2d --random 1,1,4,4:1,1,1

# ---- (b) scripts/bench_bp.sh ------------------------------------------------------------------
while read -r hi c n k s p; do
  for op in conv2d_input_grad conv2d_weight_grad; do
    for mode in zero_fill zero_skip; do
      run "bp-$hi-$c-$n-$k-$s-$p-$op-$mode" $cfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s \
        --padding $p --seed 1 --bp-mode $mode
    done
  done
done <<'EOF'
224 3 64 3 2 0
112 64 64 3 2 1
56 256 512 1 2 0
28 244 244 3 2 1
14 1024 2048 1 2 0
EOF

# ---- (c) random layers ------------------------------------------------------------------------
# A 64-bit LCG (Knuth's MMIX constants) in bash's wrapping arithmetic: the same draws on every
# machine and bash version. pick LO HI: a draw in LO..HI into $v.
state=20240601
pick() {
  state=$(( state * 6364136223846793005 + 1442695040888963407 ))
  v=$(( (state >> 33 & 0x7fffffff) % ($2 - $1 + 1) + $1 ))
}
# key FILE NAME: the integer value of key NAME (array.rows, say) outside comments, block or flow
key() { sed -n "s/^[^#]*[ {,]$2: *\([0-9][0-9]*\).*/\1/p" "$1" | head -1; }
configs=()
while IFS= read -r y; do configs+=("$y"); done < <(printf '%s\n' yaml/*.yaml | LC_ALL=C sort)
ops=(conv2d conv2d_input_grad conv2d_weight_grad)
modes=(zero_skip zero_fill)
for i in $(seq 0 49); do
  y=${configs[$((i % ${#configs[@]}))]}
  op=${ops[$((i % 3))]}
  rows=$(key "$y" rows)
  cols=$(key "$y" cols)
  groups=$(key "$y" col_groups)
  groups=${groups:-1}
  pes=$((rows * cols))
  # a layer with an output, padding below the dilated kernel, and at most 150000 cycles of MACs
  # on this array (tiny1x1's one PE runs a MAC a cycle)
  while :; do
    pick 1 3; n=$v
    pick 1 3; big=$v
    if [ "$big" -eq 3 ]; then pick 1 40; c=$v; else pick 1 9; c=$v; fi
    pick 1 16; h=$v
    pick 1 3; big=$v
    if [ "$big" -eq 3 ]; then pick 1 $((3 * rows + 5)); w=$v; else pick 1 16; w=$v; fi
    pick 1 3; big=$v
    if [ "$big" -eq 3 ]; then pick 1 $((3 * cols + 3)); k=$v; else pick 1 $((cols + 1)); k=$v; fi
    pick 1 5; r=$v
    pick 1 5; s=$v
    pick 1 3; sh=$v
    pick 1 3; sw=$v
    pick 1 4; dh=$v; [ "$dh" -gt 2 ] && dh=1
    pick 1 4; dw=$v; [ "$dw" -gt 2 ] && dw=1
    pick 0 2; ph=$v
    pick 0 2; pw=$v
    [ "$ph" -lt $(( (r - 1) * dh + 1 )) ] && [ "$pw" -lt $(( (s - 1) * dw + 1 )) ] || continue
    oh=$(( (h + 2 * ph - dh * (r - 1) - 1) ))
    ow=$(( (w + 2 * pw - dw * (s - 1) - 1) ))
    [ "$oh" -ge 0 ] && [ "$ow" -ge 0 ] || continue
    oh=$((oh / sh + 1))
    ow=$((ow / sw + 1))
    [ $(( n * k * oh * ow * c * r * s / pes )) -le 150000 ] && break
  done
  args=("$y" "$op" --random "$n,$c,$h,$w:$k,$r,$s" --stride "$sh,$sw" --padding "$ph,$pw"
        --dilation "$dh,$dw" --seed $((i + 1)))
  [ "$op" != conv2d ] && args+=(--bp-mode "${modes[$(( i / 12 % 2 ))]}")
  pick 0 7; [ "$v" -le 3 ] || { c_=(auto wrap row linear); args+=(--contexts "${c_[$((v - 4))]}"); }
  pick 0 5; [ "$v" -le 2 ] || { r_=(auto packed aligned); args+=(--rows "${r_[$((v - 3))]}"); }
  pick 0 5; [ "$v" -le 2 ] || { m_=(auto apart side); args+=(--images "${m_[$((v - 3))]}"); }
  pick 0 1; if [ "$v" -eq 1 ]; then pick 1 "$groups"; args+=(--col-groups "$v"); fi
  if [ "$op" = conv2d_input_grad ]; then
    pick 0 11
    p_=(auto shared separate joined blocks col2im)
    [ "$v" -le 5 ] || args+=(--phases "${p_[$((v - 6))]}")
  fi
  run "$(printf 'rand-%02d' "$i")" "${args[@]}"
done

[ "$list" = 1 ] && exit 0
echo "report_snapshot: $nrun runs into $out, $nfail of them failed" >&2
[ "$nfail" -eq 0 ]
