#!/usr/bin/env bash
# bench_bp: the five layers of BP-im2col's Table II (batch 2) on yaml/default.yaml (16x16), DRAM
# at the configuration's bandwidth: loss (conv2d_input_grad) and gradient (conv2d_weight_grad)
# calculation in zero_fill mode (BP-im2col's: zero-space taps reach the PEs as created zeros)
# and in zero_skip mode, against the cycles the paper reports for its BP-im2col, and the
# traffic against an explicit im2col with zero-space reorganization (the driver's figures from
# the shapes, see bwd_explicit_traffic in tb/host/bwd_traffic.c: the zero-spaced operand formed
# in memory and run as one matrix product on this configuration, its operands over the host port
# as often as the output tiles one output bank holds need them, its buffers read as this array
# reads a matrix product), over all operands and for dy alone; zero_skip again in bf16 on
# yaml/bf16.yaml (the same array, memories and host port in elements; bf16 operands, fp32
# sums), beside int8. Every run is checked (--check). Figures only: nothing here is asserted. The last
# lines count the rows on which the paper's traffic claims (buffer bandwidth down at least 70.6%,
# off-chip traffic down at least 22.7%) hold on this hardware: for dy's buffer and the transfers
# into it, as the paper measures them, and over all operands. A full run also writes its figures
# into docs/performance.md (section `bench-bp`, through scripts/doc_section.sh); --quick (the
# first layer) only prints them.
# Usage: scripts/bench_bp.sh [--quick]   (from the repository root, after `make sagen`)
set -eu
cd "$(dirname "$0")/.."
cfg=yaml/default.yaml
bcfg=yaml/bf16.yaml
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

printf "%-22s %-6s %12s %10s %10s %10s %10s %6s %12s %9s %7s | %10s %10s %6s %8s %10s %6s | %10s %11s %6s %10s %11s %6s\n" \
  layer op useful_MACs ideal zero_fill zero_skip bf16_skip bf16_x paper_cycles vs_paper ideal_x \
  host_bytes explicit down dy_host explicit down sram_bytes explicit down dy_sram explicit down
echo "$layers" | while read -r hi c n k s p loss grad; do
  name="$hi/$c/$n/$k/$s/$p"
  for op in conv2d_input_grad conv2d_weight_grad; do
    ./sagen sim $cfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s --padding $p --quiet \
      --report json --seed 1 --bp-mode zero_fill --check >"$tmp/f.json"
    ./sagen sim $cfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s --padding $p --quiet \
      --report json --seed 1 --bp-mode zero_skip --check >"$tmp/r.json"
    ./sagen sim $bcfg $op --random 2,$c,$hi,$hi:$n,$k,$k --stride $s --padding $p --quiet \
      --report json --seed 1 --bp-mode zero_skip --check >"$tmp/b.json"
    fcyc=$(json "$tmp/f.json" cycles)
    bcyc=$(json "$tmp/b.json" cycles)
    cyc=$(json "$tmp/r.json" cycles); ideal=$(json "$tmp/r.json" ideal_cycles)
    macs=$(json "$tmp/r.json" useful_macs)
    if [ $op = conv2d_input_grad ]; then paper=$loss; short=loss; else paper=$grad; short=grad; fi
    # ours and the explicit im2col's (the driver's, from the shapes), all operands and dy alone
    t=""
    for f in host_bytes explicit_host_bytes dy_host_bytes explicit_dy_host_bytes sram_bytes \
             explicit_sram_bytes dy_sram_bytes explicit_dy_sram_bytes; do
      t="$t $(json "$tmp/r.json" $f)"
    done
    echo "$name $short$t" >>"$tmp/traffic"
    set -- $t
    # the rows of docs/performance.md's two tables: cycles, and bytes against the explicit im2col
    printf "| %s | %s | %s | %s | %s | %s | %.4f | %s | %.1fx | %.2f |\n" "$name" $short "$ideal" \
      "$fcyc" "$cyc" "$bcyc" "$(echo "$bcyc / $cyc" | bc -l)" "$paper" "$(echo "$paper / $cyc" | bc -l)" \
      "$(echo "$cyc / $ideal" | bc -l)" >>"$tmp/cycles.md"
    printf "| %s | %s |" "$name" $short >>"$tmp/bytes.md"
    for i in 1 3 5 7; do
      a=${!i}; j=$((i + 1)); b=${!j}
      printf " %.2f | %.2f | %.1f%% |" "$(echo "$a / 1000000" | bc -l)" "$(echo "$b / 1000000" | bc -l)" \
        "$(echo "100 * (1 - $a / $b)" | bc -l)" >>"$tmp/bytes.md"
    done
    echo >>"$tmp/bytes.md"
    printf "%-22s %-6s %12s %10s %10s %10s %10s %6.4f %12s %8.2fx %6.2fx | %10s %10s %5.1f%% %8s %10s %5.1f%% | %10s %11s %5.1f%% %10s %11s %5.1f%%\n" \
      "$name" $short "$macs" "$ideal" "$fcyc" "$cyc" "$bcyc" "$(echo "$bcyc / $cyc" | bc -l)" \
      "$paper" "$(echo "$paper / $cyc" | bc -l)" \
      "$(echo "$cyc / $ideal" | bc -l)" \
      $1 $2 "$(echo "100 * (1 - $1 / $2)" | bc -l)" $3 $4 "$(echo "100 * (1 - $3 / $4)" | bc -l)" \
      $5 $6 "$(echo "100 * (1 - $5 / $6)" | bc -l)" $7 $8 "$(echo "100 * (1 - $7 / $8)" | bc -l)"
  done
done
echo "bf16_skip: zero_skip on $bcfg (bf16 operands, fp32 sums); bf16_x: bf16_skip / zero_skip"
echo "vs_paper: the paper's BP-im2col cycles / zero_skip's (higher is better); ideal_x: zero_skip / ideal"
echo "down: bytes below the explicit im2col's, over the host port and read from the SRAMs (buffers);"
echo "  all operands and results, and dy alone (the operand with the zero-spaces)"
# claim FIELD-OF-OURS FIELD-OF-EXPLICIT PERCENT WHAT: the rows whose reduction reaches PERCENT
claim() {
  awk -v a="$1" -v b="$2" -v pct="$3" -v what="$4" '
    { n++; down = 100 * (1 - $a / $b)
      if (down >= pct) held++; else missed = missed " " $1 " " $2 }
    END { printf "paper claim: %s down at least %s%%: holds on %d of %d rows%s\n", what, pct,
            held, n, (held < n ? "; not on" missed : "") }' "$tmp/traffic"
}
# As the paper measures them (its Figs. 7 and 8): the buffer that holds dy (buffer B in the loss,
# A in the gradient) and the transfers into it; then over every operand and the results.
{
  claim 9 10 70.6 "dy's buffer bandwidth"
  claim 5 6 22.7 "dy's off-chip traffic"
  claim 7 8 70.6 "buffer bandwidth, all operands,"
  claim 3 4 22.7 "off-chip traffic, all operands,"
} | tee "$tmp/claims"

[ "${1:-}" = --quick ] && exit 0
# ---- docs/performance.md, section bench-bp ----
{
  echo "## BP-im2col's Table II layers (\`make bench-bp\`)"
  echo
  echo "At commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . ':(exclude)docs/performance.md' 2>/dev/null || echo ' with local changes'), on \`yaml/default.yaml\` (16x16 PEs), batch 2, random"
  echo "int8 tensors, the host port at the configuration's 16 bytes a cycle; every run passed"
  echo "\`--check\`. Layers are Hi/C/N/K/S/P: input size, channels, filters, kernel, stride, padding."
  echo "The loss is \`conv2d_input_grad\`, the gradient \`conv2d_weight_grad\`; ideal = useful MACs /"
  echo "256; \"paper\" is the cycles BP-im2col reports for the layer. \"bf16\" is zero_skip on"
  echo "\`yaml/bf16.yaml\` (the same array, memories and host port in elements; random bf16 tensors,"
  echo "fp32 sums, every bit checked in the hardware's order)."
  echo
  echo "| layer | op | ideal | zero_fill | zero_skip | bf16 | bf16 / int8 | paper | paper / zero_skip | zero_skip / ideal |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  cat "$tmp/cycles.md"
  echo
  echo "Megabytes over the host port and read from the SRAMs, over all operands and for dy alone,"
  echo "against an explicit im2col with zero-space reorganization (the driver's figures from the"
  echo "shapes, [cost-model.md](cost-model.md#the-explicit-im2col-for-comparison)), and how far below"
  echo "it they are:"
  echo
  echo "| layer | op | host | explicit | down | dy host | explicit | down | SRAM | explicit | down | dy SRAM | explicit | down |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  cat "$tmp/bytes.md"
  echo
  echo "BP-im2col's traffic claims on this hardware (the paper measures them on the buffer that"
  echo "holds dy and the transfers into it):"
  echo
  sed 's/^paper claim: /- /' "$tmp/claims"
} | scripts/doc_section.sh docs/performance.md bench-bp
echo "bench-bp: docs/performance.md written (section bench-bp)"
