#!/usr/bin/env bash
# bench: figures, not tests (nothing here asserts a time).
#  1. utilization of ResNet-50's 3x3 stride-1 and 1x1 layers on yaml/default.yaml, DRAM not
#     limiting, with where the cycles went;
#  2. co-simulation speed: simulated cycles per second in Verilator, and against Icarus on the
#     same layer;
#  3. time to generate, verilate and build the default configuration from scratch;
#  4. the layers of 1. in bf16 on yaml/bf16.yaml beside int8, the bf16 model's co-simulation
#     speed and build time;
#  5. Yosys cells of one PE, int8 against bf16 with fp32 sums.
# The time per layer is cycles / clock, the clock as `make fpga` measured it for the
# configuration (build/fpga/default/fpga.json, or BENCH_FPGA_JSON; scripts/lib/fpga_clock.jq:
# the design placed and routed, else its slowest block); without that run the column is empty.
# A full run also writes its figures into docs/performance.md (section `bench`, through
# scripts/doc_section.sh); --quick (two layers) only prints them.
# Usage: scripts/bench.sh [--quick]   (from the repository root, after `make sagen`)
set -eu
cd "$(dirname "$0")/.."
cfg=yaml/default.yaml
quick=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

json() { sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1"; }
# the clock: {fmax_mhz, fmax_source, commit, date}, fmax_mhz null when not measured
fpga_json=${BENCH_FPGA_JSON:-build/fpga/$(basename "$cfg" .yaml)/fpga.json}
clk='{"fmax_mhz": null, "fmax_source": ""}'
if [ -s "$fpga_json" ]; then
  clk=$(jq -c -L scripts/lib 'include "fpga_clock"; fpga_clock + {commit, date}' "$fpga_json")
fi
mhz=$(jq -r '.fmax_mhz // empty' <<<"$clk")
# us LAYER_CYCLES: the layer's time at the clock, microseconds (empty without a clock)
us() { [ -z "$mhz" ] || echo "$1 / $mhz" | bc -l | xargs printf "%.1f"; }
# the rows of docs/performance.md's table, built as the figures come
: >"$tmp/rows"

echo "== 1. ResNet-50 layers on $cfg (16x16, DRAM not limiting), batch 1"
printf "%-26s %12s %12s %12s %7s %9s %9s %8s %8s %8s %9s\n" layer useful_MACs ideal cycles util idle_PE bubbles stall drain dram time_us
# name C H W K R S stride pad
layers="conv2_x.1x1a 64 56 56 64 1 1 1 0
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
conv5_x.1x1b 512 7 7 2048 1 1 1 0"
[ "$quick" = --quick ] && layers=$(echo "$layers" | sed -n '2p;5p')
echo "$layers" | while read -r name c h w k r s st pad; do
  ./sagen sim $cfg conv2d --random 1,$c,$h,$w:$k,$r,$s --stride $st --padding $pad --quiet \
    --dram-bytes-per-cycle 1e9 --check --report json >"$tmp/r.json"
  u=$(json "$tmp/r.json" utilization)
  t_us=$(us "$(json "$tmp/r.json" cycles)")
  printf "%-26s %12s %12s %12s %6.1f%% %9s %9s %8s %8s %8s %9s\n" "$name" "$(json "$tmp/r.json" useful_macs)" \
    "$(json "$tmp/r.json" ideal_cycles)" "$(json "$tmp/r.json" cycles)" "$(echo "$u * 100" | bc -l)" \
    "$(json "$tmp/r.json" idle_pe_cycles)" "$(json "$tmp/r.json" bubble_cycles)" \
    "$(json "$tmp/r.json" stall_cycles)" "$(json "$tmp/r.json" drain_cycles)" \
    "$(json "$tmp/r.json" dram_wait_cycles)" "${t_us:--}"
  # the table row: the layer, its figures, and the two largest shares of what was not useful
  jq -r --arg l "${name%%.*} ${r}x$s $c->$k, ${h}x$w" --arg t "$t_us" '
    . as $r
    | [["idle lanes", .idle_pe_cycles], ["context bubbles", .bubble_cycles], ["fill", .fill_cycles],
       ["feeder stalls", .stall_cycles], ["drain", .drain_cycles], ["DRAM waits", .dram_wait_cycles]]
    | map(select(.[1] * 1000 >= $r.cycles)) | sort_by(-.[1]) | .[:2]
    | map("\(.[0]) \(.[1] * 1000 / $r.cycles | round / 10)%") | join(", ") as $rest
    | "| \($l) | \($r.useful_macs) | \($r.ideal_cycles) | \($r.cycles) | \($r.utilization * 1000 | round / 10)% | \($t) | \($rest) |"
    ' "$tmp/r.json" >>"$tmp/rows"
done
echo "(idle_PE: steps where an edge context leaves lanes or columns without work; every column"
echo " is a share of 'cycles': useful + idle_PE + bubbles + fill + stall + drain + dram = cycles)"
if [ -n "$mhz" ]; then
  echo "(time_us: cycles at $mhz MHz, $(jq -r .fmax_source <<<"$clk") of $fpga_json)"
else
  echo "(time_us: no clock: $fpga_json not found; make fpga FPGA_CONFIGS=$cfg measures it)"
fi

echo
echo "== 2. co-simulation speed (median of 3)"
layer="1,64,28,28:64,3,3"
# speed CFG: "cycles seconds" of conv2d $layer padding 1 on CFG, the median of 3 runs
speed() {
  for i in 1 2 3; do
    s=$(date +%s.%N)
    ./sagen sim "$1" conv2d --random $layer --padding 1 --quiet --report json >"$tmp/v.json"
    e=$(date +%s.%N)
    echo "$(json "$tmp/v.json" cycles) $(echo "$e - $s" | bc -l)"
  done | sort -k2 -n | sed -n 2p
}
read -r vcyc vsec < <(speed $cfg)
printf "verilator: %s cycles of %s in %.2f s (incl. golden check off, tensor setup): %.0f cycles/s\n" \
  "$vcyc" "$layer" "$vsec" "$(echo "$vcyc / $vsec" | bc -l)"
small="1,16,14,14:16,3,3"
./sagen sim $cfg conv2d --random $small --padding 1 --quiet --report json >"$tmp/s.json"
s=$(date +%s.%N); ./sagen sim $cfg conv2d --random $small --padding 1 --quiet --report none; e=$(date +%s.%N)
vt=$(echo "$e - $s" | bc -l)
s=$(date +%s.%N); ./sagen sim $cfg conv2d --random $small --padding 1 --quiet --report none --simulator icarus; e=$(date +%s.%N)
it=$(echo "$e - $s - $vt" | bc -l)
scyc=$(json "$tmp/s.json" cycles)
printf "icarus:    %s cycles of %s replayed in %.2f s: %.0f cycles/s\n" "$scyc" "$small" "$it" "$(echo "$scyc / $it" | bc -l)"
printf "ratio:     verilator is %.0fx faster than icarus (cycles/s)\n" "$(echo "($vcyc / $vsec) / ($scyc / $it)" | bc -l)"

echo
echo "== 3. generate + verilate + build $cfg from scratch"
s=$(date +%s.%N)
./sagen sim $cfg conv2d --random 1,1,4,4:1,1,1 --build-dir "$tmp/models" --quiet --report none
e=$(date +%s.%N)
bt=$(echo "$e - $s" | bc -l)
printf "%.1f s (%s cores)\n" "$bt" "$(nproc)"

# ---- 4. the same layers in bf16 (yaml/bf16.yaml: the same array, memories and host port in
# elements), beside int8; the bf16 model's speed and build time ----
bcfg=yaml/bf16.yaml
echo
echo "== 4. the layers of 1. on $bcfg (bf16 operands, fp32 sums) beside int8"
printf "%-26s %12s %12s %9s\n" layer int8_cycles bf16_cycles ratio
: >"$tmp/frows"
echo "$layers" | while read -r name c h w k r s st pad; do
  ./sagen sim $bcfg conv2d --random 1,$c,$h,$w:$k,$r,$s --stride $st --padding $pad --quiet \
    --dram-bytes-per-cycle 1e9 --check --report json >"$tmp/f.json"
  ./sagen sim $cfg conv2d --random 1,$c,$h,$w:$k,$r,$s --stride $st --padding $pad --quiet \
    --dram-bytes-per-cycle 1e9 --report json >"$tmp/i.json"
  ic=$(json "$tmp/i.json" cycles) fc=$(json "$tmp/f.json" cycles)
  ratio=$(echo "$fc / $ic" | bc -l | xargs printf "%.4f")
  printf "%-26s %12s %12s %9s\n" "$name" "$ic" "$fc" "$ratio"
  echo "| ${name%%.*} ${r}x$s $c->$k, ${h}x$w | $ic | $fc | $ratio |" >>"$tmp/frows"
done
s=$(date +%s.%N)
./sagen sim $bcfg conv2d --random 1,1,4,4:1,1,1 --build-dir "$tmp/fmodels" --quiet --report none
e=$(date +%s.%N)
fbt=$(echo "$e - $s" | bc -l)
read -r fvcyc fvsec < <(speed $bcfg)
printf "bf16 verilator: %s cycles of %s in %.2f s: %.0f cycles/s; model built in %.1f s\n" \
  "$fvcyc" "$layer" "$fvsec" "$(echo "$fvcyc / $fvsec" | bc -l)" "$fbt"

# ---- 5. Yosys cells of one PE: int8 with a 32-bit accumulator against bf16 with fp32 sums ----
echo
echo "== 5. Yosys cells of one PE (generic gates, scripts/synth.sh)"
for f in int bf16; do
  o=$tmp/pe_$f
  mkdir -p "$o"
  ./sagen gen yaml/tiny1x1.yaml --set data.format=$f -o "$o/rtl" >/dev/null
  scripts/synth.sh "$o" "pe_$f" >/dev/null
done
pe_int=$(jq '.by_module.sagen_tiny1x1_pe.num_cells' "$tmp/pe_int/synth_stat.json")
pe_fp=$(jq '.by_module.sagen_tiny1x1_pe_fp.num_cells' "$tmp/pe_bf16/synth_stat.json")
pe_ratio=$(echo "$pe_fp / $pe_int" | bc -l | xargs printf "%.1f")
echo "int8 PE: $pe_int cells; bf16/fp32 PE: $pe_fp cells (${pe_ratio}x)"

[ "$quick" = --quick ] && exit 0
# ---- docs/performance.md, section bench ----
{
  echo "## ResNet-50 on \`yaml/default.yaml\` (\`make bench\`)"
  echo
  echo "At commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . ':(exclude)docs/performance.md' 2>/dev/null || echo ' with local changes'), on $(nproc) cores. 16x16 PEs, batch 1,"
  echo "random int8 tensors, the host port not limiting (\`--dram-bytes-per-cycle 1e9\`); every run"
  echo "passed \`--check\`. Utilization is the ideal cycles (useful MACs / 256) over the cycles; the"
  echo "last column names the two largest shares of the cycles that were not useful MACs (the"
  echo "report's \"where the cycles went\")."
  echo
  if [ -n "$mhz" ]; then
    jq -r '"The time is the cycles at \(.fmax_mhz) MHz, " + (if .fmax_source == "design"
             then "the whole design placed and routed"
             else "the Fmax of its " + (.fmax_source | sub("^slowest block: "; "slowest block placed and routed alone, ")) + " (an upper bound on the clock: the design runs no faster" + (if .unmeasured == "" then ")" else "; the blocks not placed: \(.unmeasured))" end) end)
           + " on an ECP5-85 by `make fpga` at commit \(.commit) (\(.date)); [fpga.md](fpga.md)."' <<<"$clk"
  else
    echo "No time column: no FPGA clock has been measured for this configuration (\`make fpga"
    echo "FPGA_CONFIGS=$cfg\` measures it; [fpga.md](fpga.md))."
  fi
  echo
  echo "| layer | useful MACs | ideal cycles | cycles | utilization | time (µs) | where the rest went |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  cat "$tmp/rows"
  echo
  echo "Co-simulation speed and build time of the same configuration:"
  echo
  echo "| what | figure |"
  echo "|---|---|"
  printf "| Verilator, conv2d %s padding 1 (median of 3) | %s cycles in %.2f s: %.0f cycles/s |\n" \
    "$layer" "$vcyc" "$vsec" "$(echo "$vcyc / $vsec" | bc -l)"
  printf "| Icarus replay, conv2d %s padding 1 | %s cycles in %.2f s: %.0f cycles/s |\n" \
    "$small" "$scyc" "$it" "$(echo "$scyc / $it" | bc -l)"
  printf "| Verilator against Icarus | %.0fx the cycles per second |\n" \
    "$(echo "($vcyc / $vsec) / ($scyc / $it)" | bc -l)"
  printf "| generate, verilate and build the model from scratch | %.1f s |\n" "$bt"
  echo
  echo "## The same layers in bf16 (\`yaml/bf16.yaml\`)"
  echo
  echo "bf16 operands and fp32 sums on the same 16x16 array, its memories and host port the same"
  echo "in elements as \`yaml/default.yaml\`'s (twice the bytes); random standard normal tensors,"
  echo "every run bit-exact under \`--check\`. The float PE's adder takes six cycles: its eight"
  echo "partial sums keep a MAC a cycle, and a pass's drain grows by 43 cycles (docs/hardware.md)."
  echo
  echo "| layer | int8 cycles | bf16 cycles | bf16 / int8 |"
  echo "|---|---:|---:|---:|"
  cat "$tmp/frows"
  echo
  echo "| what | figure |"
  echo "|---|---|"
  printf "| Verilator, bf16 conv2d %s padding 1 (median of 3) | %s cycles in %.2f s: %.0f cycles/s |\n" \
    "$layer" "$fvcyc" "$fvsec" "$(echo "$fvcyc / $fvsec" | bc -l)"
  printf "| generate, verilate and build the bf16 model from scratch | %.1f s |\n" "$fbt"
  printf "| Yosys cells of one PE (generic gates): int8, 32-bit accumulator | %s |\n" "$pe_int"
  printf "| Yosys cells of one PE: bf16 operands, fp32 sums | %s (%sx) |\n" "$pe_fp" "$pe_ratio"
} | scripts/doc_section.sh docs/performance.md bench
echo "bench: docs/performance.md written (section bench)"
