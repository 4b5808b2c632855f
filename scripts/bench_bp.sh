#!/usr/bin/env bash
# bench_bp: the five layers of BP-im2col's Table II (batch 2) on yaml/default.yaml (16x16), DRAM
# at the configuration's bandwidth: loss (conv2d_input_grad) and gradient (conv2d_weight_grad)
# calculation in zero_fill mode (BP-im2col's: zero-space taps reach the PEs as created zeros)
# and in zero_skip mode, against the cycles the paper reports for its BP-im2col, and the
# traffic against an explicit im2col with zero-space reorganization (computed from the shapes:
# the lowered matrix with its zeros moved over the host port and read from the buffer once per
# group of 16 columns). Figures only: nothing here is asserted. The last lines count the rows on
# which the paper's traffic claims (buffer bandwidth down at least 70.6%, off-chip traffic down
# at least 22.7%, against the explicit im2col) hold on this hardware.
# Usage: scripts/bench_bp.sh [--quick]   (from the repository root, after `make sagen`)
set -eu
cd "$(dirname "$0")/.."
cfg=yaml/default.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json() { sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1"; }

# Hi C N(filters) K(kernel) S(stride) P(pad)  paper-loss-cycles paper-gradient-cycles
layers="224 3 64 3 2 0 8962102 2416476
112 64 64 3 2 1 10310400 9439744
56 256 512 1 2 0 9330688 11653120
28 244 244 3 2 1 8081314 8575509
14 1024 2048 1 2 0 11984896 15278080"
[ "${1:-}" = --quick ] && layers=$(echo "$layers" | sed -n 1p)

printf "%-22s %-6s %12s %10s %10s %10s %12s %9s %7s | %12s %12s %7s | %12s %12s %7s\n" \
  layer op useful_MACs ideal zero_fill zero_skip paper_cycles vs_paper ideal_x \
  host_bytes explicit off_down sram_bytes explicit buf_down
echo "$layers" | while read -r hi c n k s p loss grad; do
  name="$hi/$c/$n/$k/$s/$p"
  oh=$(( (hi + 2 * p - k) / s + 1 ))
  for op in conv2d_input_grad conv2d_weight_grad; do
    ./sagen sim $cfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s --padding $p --quiet \
      --report json --seed 1 --bp-mode zero_fill >"$tmp/f.json"
    ./sagen sim $cfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s --padding $p --quiet \
      --report json --seed 1 --bp-mode zero_skip >"$tmp/r.json"
    fcyc=$(json "$tmp/f.json" cycles)
    cyc=$(json "$tmp/r.json" cycles); ideal=$(json "$tmp/r.json" ideal_cycles)
    macs=$(json "$tmp/r.json" useful_macs); hb=$(json "$tmp/r.json" host_bytes)
    if [ $op = conv2d_input_grad ]; then
      paper=$loss; short=loss
      # lowered zero-inserted, zero-padded dy: (2*Hi*Hi) x (N*K*K) int8, weights, int32 dx
      lowered=$(( 2 * hi * hi * n * k * k ))
      explicit_off=$(( lowered + n * c * k * k + 4 * 2 * c * hi * hi ))
      explicit_buf=$(( lowered * ((c + 15) / 16) + n * c * k * k * ((2 * hi * hi + 15) / 16) ))
    else
      paper=$grad; short=grad
      # lowered x: (C*K*K) x (2*OH*OW) int8, zero-inserted dy as the kernel, int32 dw
      lowered=$(( c * k * k * 2 * oh * oh ))
      zdy=$(( 2 * n * ((oh - 1) * s + 1) * ((oh - 1) * s + 1) ))
      explicit_off=$(( lowered + zdy + 4 * n * c * k * k ))
      explicit_buf=$(( lowered * ((n + 15) / 16) + zdy * ((c * k * k + 15) / 16) ))
    fi
    sb=$(( $(json "$tmp/r.json" ifmap) * 16 + $(json "$tmp/r.json" weight) * 16 + $(json "$tmp/r.json" output) * 64 ))
    printf "%-22s %-6s %12s %10s %10s %10s %12s %8.2fx %6.2fx | %12s %12s %6.1f%% | %12s %12s %6.1f%%\n" \
      "$name" $short "$macs" "$ideal" "$fcyc" "$cyc" "$paper" "$(echo "$paper / $cyc" | bc -l)" \
      "$(echo "$cyc / $ideal" | bc -l)" "$hb" "$explicit_off" \
      "$(echo "100 * (1 - $hb / $explicit_off)" | bc -l)" "$sb" "$explicit_buf" \
      "$(echo "100 * (1 - $sb / $explicit_buf)" | bc -l)"
    echo "$name $short $hb $explicit_off $sb $explicit_buf" >>"$tmp/traffic"
  done
done
echo "vs_paper: the paper's BP-im2col cycles / zero_skip's (higher is better); ideal_x: zero_skip / ideal"
echo "off_down, buf_down: host-port bytes and buffer bytes below the explicit im2col's"
# claim FIELD-OF-OURS FIELD-OF-EXPLICIT PERCENT WHAT: the rows whose reduction reaches PERCENT
claim() {
  awk -v a="$1" -v b="$2" -v pct="$3" -v what="$4" '
    { n++; down = 100 * (1 - $a / $b)
      if (down >= pct) held++; else missed = missed " " $1 " " $2 }
    END { printf "paper claim: %s down at least %s%%: holds on %d of %d rows%s\n", what, pct,
            held, n, (held < n ? "; not on" missed : "") }' "$tmp/traffic"
}
claim 5 6 70.6 "buffer bandwidth"
claim 3 4 22.7 "off-chip traffic"
