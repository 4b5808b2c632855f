#!/usr/bin/env bash
# test_sweep: scripts/sweep end to end on a tiny sweep (yaml/tiny1x1.yaml at 1x1 and 2x2 via
# --set, two small layers from a temporary CSV, --jobs 2): the CSV columns, every run passed
# --check, the area rows, the three plots are PNG files, a rerun skips the completed points, a
# point with a missing run resumes only that run, --list-jobs / --run-job / --collect, the
# errors of bad input; and `sagen layers` / `sagen gen --set` as the sweep uses them; a sweep
# of rows 4 by columns 3, 4 on the default base (every size from 1x1 to 4x4 with
# SAGEN_TEST_DEPTH=long; column groups clamped) and an invalid point reported;
# area.csv names every block as the design does (never a Yosys parameter string); --fpga with
# Debian's Yosys for synth_ecp5 and a stand-in for nextpnr that replays a recorded report
# (tests/fpga/fake-nextpnr.sh): fpga.csv, fpga_blocks.csv and time_us = cycles / Fmax.
#
# Usage: tests/test_sweep.sh (from anywhere, after `make sagen`). Environment: SAGEN (default
# <repo>/sagen). Prints "ok ..." / "not ok ..." and a last line "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/lib/common.sh"
export SAGEN=$S
make_tmp sweep

for tool in jq yosys gnuplot flock; do
  command -v "$tool" >/dev/null 2>&1 || not_ok "setup" "$tool not found"
done
[ -x "$S" ] || not_ok "setup" "$S not found (make sagen)"
if ! "$S" sim --help 2>&1 | grep -q -- "--set"; then
  not_ok "setup" "sagen sim has no --set KEY=VALUE yet (tb/cosim.c): the sweep needs it"
fi
[ "$fail" -eq 0 ] || finish

# ---- sagen layers and sagen gen --set, as the sweep uses them ----
cat >"$tmp/layers.csv" <<'EOF'
Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Padding,
c3x3, 6, 7, 3, 3, 3, 5, 1, 1,
pw_s2, 9, 8, 1, 1, 4, 3, 2, 0,
EOF
if out=$("$S" layers "$tmp/layers.csv" 2>&1) \
   && [ "$out" = "c3x3 1 3 6 7 5 3 3 1 1 1 1 1 1"$'\n'"pw_s2 1 4 9 8 3 1 1 2 2 0 0 1 1" ]; then
  ok "sagen layers prints the normalized layers"
else
  not_ok "sagen layers prints the normalized layers" "$out"
fi
printf 'Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,Strides\nx,8,8,3,3,0,4,1\n' >"$tmp/bad.csv"
expect "sagen layers: bad value" 1 "$tmp/bad.csv:2: Channels: '0' is out of range: allowed 1..1000000" \
  "$S" layers "$tmp/bad.csv"
expect "sagen layers: usage" 2 "expected FILE.csv" "$S" layers
expect "sagen gen --set: bad value" 1 "--set 'array.rows=0': array.rows: '0' is out of range: allowed 1..256" \
  "$S" gen yaml/tiny1x1.yaml --set array.rows=0 -o "$tmp/g"
expect "sagen gen --set: needs a value" 2 "--set needs KEY=VALUE" "$S" gen yaml/tiny1x1.yaml --set
if "$S" gen yaml/tiny1x1.yaml --set array.rows=3 --set array.cols=2 -o "$tmp/g" 2>"$tmp/err" \
   && grep -q "^#define SAGEN_TINY1X1_ROWS 3$" "$tmp/g/sagen_tiny1x1_params.h" \
   && grep -q "^#define SAGEN_TINY1X1_COLS 2$" "$tmp/g/sagen_tiny1x1_params.h"; then
  ok "sagen gen --set overrides the configuration"
else
  not_ok "sagen gen --set overrides the configuration" "$(head -c 300 "$tmp/err")"
fi

# ---- bad input to the sweep ----
sw=(scripts/sweep --base yaml/tiny1x1.yaml --layers "$tmp/layers.csv")
expect "sweep: unknown op" 2 "--ops: 'conv3d' is not allowed: a comma-separated list of conv2d, conv2d_input_grad, conv2d_weight_grad" \
  "${sw[@]}" --points 2x2 --ops conv3d -o "$tmp/x"
expect "sweep: bad rows" 2 "--rows: '4,a' is not allowed" "${sw[@]}" --rows 4,a --cols 4 -o "$tmp/x"
expect "sweep: rows/cols by --set" 2 "--set: 'array.rows=4' is not allowed here" \
  "${sw[@]}" --points 2x2 --set array.rows=4 -o "$tmp/x"
expect "sweep: no -o" 2 "-o OUT is required" "${sw[@]}" --points 2x2
expect "sweep: bad csv" 1 "$tmp/bad.csv:2: Channels" \
  scripts/sweep --base yaml/tiny1x1.yaml --layers "$tmp/bad.csv" --points 2x2 -o "$tmp/x"
expect "sweep: bad --set" 1 "--set 'memory.bus_elems=3': memory.bus_elems: '3' is not a power of two" \
  "${sw[@]}" --points 2x2 --set memory.bus_elems=3 -o "$tmp/x"
expect "sweep: bad point" 1 "array.rows: '300' is out of range: allowed 1..256" \
  "${sw[@]}" --points 300x2 -o "$tmp/x"

# ---- the sweep ----
out=$tmp/sweep
t0=$SECONDS
"${sw[@]}" --points 1x1,2x2 --jobs 2 -o "$out" >"$tmp/sweep.out" 2>"$tmp/sweep.err"
rc=$?
t1=$SECONDS
if [ "$rc" -eq 0 ]; then
  ok "sweep exits 0 ($((t1 - t0)) s)"
else
  not_ok "sweep exits 0" "exit $rc: $(tail -n 5 "$tmp/sweep.err" | tr '\n' '|')"
fi
n=$(grep -cE "^sweep: (1x1|2x2): 2 of 2 runs passed, 0 failed; .* wall [0-9.]+ s$" "$tmp/sweep.err")
if [ "$n" -eq 2 ]; then
  ok "one progress line per point with its wall time"
else
  not_ok "one progress line per point with its wall time" "$(tr '\n' '|' <"$tmp/sweep.err")"
fi

want="rows,cols,layer,op,cycles,ideal_cycles,utilization,stall_cycles,dram_wait_cycles,host_bytes,sram_reads_ifmap,sram_reads_weight,sram_reads_output,check,wall_seconds"
want_results=$want
if [ "$(head -n 1 "$out/results.csv" 2>/dev/null)" = "$want" ]; then
  ok "results.csv columns"
else
  not_ok "results.csv columns" "$(head -n 1 "$out/results.csv" 2>&1)"
fi
rows=$(tail -n +2 "$out/results.csv" 2>/dev/null | sort)
expected=$(printf '%s\n' 1,1,c3x3 1,1,pw_s2 2,2,c3x3 2,2,pw_s2)
if [ "$(cut -d, -f1-3 <<<"$rows")" = "$expected" ] && [ "$(cut -d, -f4 <<<"$rows" | sort -u)" = conv2d ]; then
  ok "results.csv: one row per point x layer x op"
else
  not_ok "results.csv: one row per point x layer x op" "$(tr '\n' '|' <<<"$rows")"
fi
bad=$(awk -F, 'NF != 15 || $14 != "pass" { print "field count " NF " or check " $14 ": " $0; next }
               { for (i = 5; i <= 13; i++) if ($i !~ /^[0-9.]+$/) { print "field " i ": " $0; next }
                 if (!($7 > 0 && $7 <= 1)) { print "utilization: " $0; next }
                 if ($5 < $6) { print "cycles below ideal: " $0; next }
                 if ($15 !~ /^[0-9]+\.[0-9][0-9]$/) print "wall_seconds: " $0 }' <<<"$rows")
if [ -z "$bad" ]; then
  ok "results.csv: every run passed --check, numbers in range"
else
  not_ok "results.csv: every run passed --check, numbers in range" "$bad"
fi
# the 2x2 point's 3x3 layer: ideal cycles = N*K*OH*OW*C*R*S / (rows*cols) = 5*6*7*3*9/4
ideal=$(awk -F, '$1 == 2 && $3 == "c3x3" { print $6 }' <<<"$rows")
if [ "$ideal" = 1418 ] || [ "$ideal" = 1417 ]; then
  ok "results.csv: ideal cycles of a known layer"
else
  not_ok "results.csv: ideal cycles of a known layer" "got '$ideal', want 5670/4"
fi

want="rows,cols,block,cells,flip_flops,share_of_logic"
if [ "$(head -n 1 "$out/area.csv" 2>/dev/null)" = "$want" ]; then
  ok "area.csv columns"
else
  not_ok "area.csv columns" "$(head -n 1 "$out/area.csv" 2>&1)"
fi
msg=""
for p in 1,1 2,2; do
  for b in feeder index_counters feed_lane array weight_fetcher psum_manager ctrl nz_addr_gen sram; do
    grep -qE "^$p,$b,[0-9]+,[0-9]+,[0-9.e-]+$" "$out/area.csv" || msg+="no $b row for $p; "
  done
  # tiny1x1 is double-buffered: 3 memories x 2 banks; the logic shares add up to 1
  grep -qE "^$p,sram,6,0,0$" "$out/area.csv" || msg+="sram of $p is not 6 memory cells; "
  sum=$(awk -F, -v p="$p" '$1 "," $2 == p { s += $6 } END { printf "%.3f", s }' "$out/area.csv")
  [ "$sum" = 1.000 ] || msg+="shares of $p add up to $sum; "
done
feeder1=$(awk -F, '$1 == 1 && $2 == 1 && $3 == "feed_lane" { print $4 }' "$out/area.csv")
feeder2=$(awk -F, '$1 == 2 && $2 == 2 && $3 == "feed_lane" { print $4 }' "$out/area.csv")
[ -n "$feeder1" ] && [ -n "$feeder2" ] && [ "$feeder2" -gt "$feeder1" ] \
  || msg+="2 feed lanes ($feeder2 cells) not larger than 1 ($feeder1); "
bad=$(cut -d, -f3 "$out/area.csv" | grep -vE '^[a-z_][a-z0-9_]*$' | grep -v '^block$' | sort -u | paste -s -d ' ' -)
[ -z "$bad" ] || msg+="blocks not named as the design names them: $bad; "
if [ -z "$msg" ]; then ok "area.csv: every block of both points"; else not_ok "area.csv: every block of both points" "$msg"; fi
if awk -F, 'NR == 1 { ok = $0 == "rows,cols,data_feeder_cells,data_feeder_share_of_logic"; next }
            { n++; if (!($4 > 0 && $4 < 1)) ok = 0 } END { exit !(ok && n == 2) }' "$out/feeder_share.csv" 2>/dev/null; then
  ok "feeder_share.csv: the data feeder's share per point"
else
  not_ok "feeder_share.csv: the data feeder's share per point" "$(tr '\n' '|' <"$out/feeder_share.csv" 2>&1)"
fi

for png in utilization cycles area; do
  magic=$(head -c 8 "$out/$png.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
  size=$(stat -c %s "$out/$png.png" 2>/dev/null || echo 0)
  if [ "$magic" = 89504e470d0a1a0a ] && [ "$size" -gt 2000 ]; then
    ok "$png.png is a PNG ($size bytes)"
  else
    not_ok "$png.png is a PNG" "magic '$magic', $size bytes"
  fi
done

# ---- rerun: every point complete, nothing runs again ----
stamp=$(stat -c %Y.%s "$out"/points/*/runs/*.json "$out"/points/*/synth_stat.json | md5sum)
t0=$SECONDS
"${sw[@]}" --points 1x1,2x2 --jobs 2 -o "$out" >/dev/null 2>"$tmp/rerun.err"
rc=$?
t1=$SECONDS
n=$(grep -cE "^sweep: (1x1|2x2): complete, skipped$" "$tmp/rerun.err")
if [ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$(stat -c %Y.%s "$out"/points/*/runs/*.json "$out"/points/*/synth_stat.json | md5sum)" = "$stamp" ]; then
  ok "rerun skips the completed points ($((t1 - t0)) s)"
else
  not_ok "rerun skips the completed points" "exit $rc, $n skipped: $(tr '\n' '|' <"$tmp/rerun.err")"
fi

# ---- resume: a point with one run missing runs only that run ----
rm -f "$out/points/1x1/runs/pw_s2.conv2d."* "$out/points/1x1/done"
keep=$(stat -c %Y "$out/points/1x1/runs/c3x3.conv2d.json")
sleep 1
"${sw[@]}" --points 1x1,2x2 --jobs 2 -o "$out" >/dev/null 2>"$tmp/resume.err"
rc=$?
if [ "$rc" -eq 0 ] && [ -s "$out/points/1x1/runs/pw_s2.conv2d.json" ] && [ -f "$out/points/1x1/done" ] \
   && [ "$(stat -c %Y "$out/points/1x1/runs/c3x3.conv2d.json")" = "$keep" ] \
   && grep -q "^sweep: 2x2: complete, skipped$" "$tmp/resume.err" \
   && [ "$(grep -c ',pass,' "$out/results.csv")" -eq 4 ]; then
  ok "an incomplete point resumes its missing run only"
else
  not_ok "an incomplete point resumes its missing run only" "exit $rc: $(tr '\n' '|' <"$tmp/resume.err")"
fi

# ---- --list-jobs, --run-job, --collect ----
"${sw[@]}" --points 1x1,2x2 -o "$out" --list-jobs >"$tmp/jobs" 2>"$tmp/err"
if [ "$(wc -l <"$tmp/jobs")" -eq 2 ] && grep -q -- "--run-job 2x2$" "$tmp/jobs" \
   && grep -q -- "--run-job 1x1$" "$tmp/jobs" && (cd / && bash -c "$(head -n 1 "$tmp/jobs")") 2>"$tmp/job.err" \
   && grep -q "complete, skipped" "$tmp/job.err"; then
  ok "--list-jobs prints one runnable command per point"
else
  not_ok "--list-jobs prints one runnable command per point" "$(tr '\n' '|' <"$tmp/jobs") $(cat "$tmp/err" "$tmp/job.err" 2>/dev/null)"
fi
rm -f "$out/results.csv" "$out/area.csv" "$out"/*.png
if scripts/sweep -o "$out" --collect 2>"$tmp/err" && [ "$(wc -l <"$out/results.csv")" -eq 5 ] \
   && [ "$(wc -l <"$out/area.csv")" -gt 10 ] && [ -s "$out/area.png" ]; then
  ok "--collect merges the points"
else
  not_ok "--collect merges the points" "$(head -c 300 "$tmp/err")"
fi
expect "--collect with no points" 1 "no points to collect" scripts/sweep -o "$tmp/empty" --collect

# ---- 1x1 to 4x4 on the default base (4x3 and 4x4 of it unless SAGEN_TEST_DEPTH=long): its
# 4 column groups clamped where a point has fewer columns; a point the validator refuses for
# another reason reported, the others run ----
cat >"$tmp/one.csv" <<'EOF'
Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Padding,
c3, 5, 6, 3, 3, 2, 3, 1, 1,
EOF
small=(--set memory.ifmap_kib=1 --set memory.weight_kib=1 --set memory.output_kib=1 --set memory.line_kib=0)
out=$tmp/grid
# (cols 3 and 4: groups clamped, the default's 4 kept; every size with depth long)
grid_rows=(4) grid_cols=(3 4)
[ "${SAGEN_TEST_DEPTH:-short}" = long ] && grid_rows=(1 2 3 4) grid_cols=(1 2 3 4)
scripts/sweep --layers "$tmp/one.csv" --rows "$(IFS=,; echo "${grid_rows[*]}")" \
  --cols "$(IFS=,; echo "${grid_cols[*]}")" \
  "${small[@]}" --no-area --jobs 2 -o "$out" >/dev/null 2>"$tmp/grid.err"
rc=$?
np=$(tail -n +2 "$out/points.csv" 2>/dev/null | wc -l)
npass=$(grep -c ',pass,' "$out/results.csv" 2>/dev/null)
want=$((${#grid_rows[@]} * ${#grid_cols[@]}))
if [ "$rc" -eq 0 ] && [ "$np" -eq "$want" ] && [ "$npass" -eq "$want" ]; then
  ok "sweep rows ${grid_rows[*]} x cols ${grid_cols[*]} on the default base: $want points, every run passed"
else
  not_ok "sweep rows x cols on the default base" "exit $rc, $np points, $npass passed: $(tail -n 3 "$tmp/grid.err" | tr '\n' '|')"
fi
# the groups a point got: min(4, cols); said in points.csv, on stderr and in the design
msg=""
for r in "${grid_rows[@]}"; do
  for c in "${grid_cols[@]}"; do
    want="" g=4
    if [ "$c" -lt 4 ]; then want="array.col_groups 4->$c" g=$c; fi
    got=$(awk -F, -v r="$r" -v c="$c" '$1 == r && $2 == c { print $11 }' "$out/points.csv" | tr -d '"')
    [ "$got" = "$want" ] || msg+="${r}x$c: adjusted '$got', want '$want'; "
    if [ -n "$want" ] && ! grep -qF "sweep: ${r}x$c: $want" "$tmp/grid.err"; then
      msg+="${r}x$c: not said on stderr; "
    fi
    grep -q "^#define SAGEN_DEFAULT_COL_GROUPS $g\$" "$out/points/${r}x$c/rtl/sagen_default_params.h" 2>/dev/null \
      || msg+="${r}x$c: the generated design lacks $g groups; "
  done
done
if [ -z "$msg" ]; then ok "column groups clamped to the columns, in points.csv"; else not_ok "column groups clamped to the columns, in points.csv" "$msg"; fi

out=$tmp/invalid
scripts/sweep --base yaml/tiny1x1.yaml --layers "$tmp/one.csv" --points 2x2,1x200 --set data.acc_bits=64 \
  --no-area --jobs 2 -o "$out" >/dev/null 2>"$tmp/inv.err"
rc=$?
why=$(awk -F, '$1 == 1 && $2 == 200' "$out/points.csv" 2>/dev/null)
if [ "$rc" -eq 1 ] && grep -q "^sweep: 1x200: invalid point, not run: .*memory.output_kib" "$tmp/inv.err" \
   && [[ $why == *'"'*memory.output_kib*'"' ]] && [ "$(grep -c '^2,2,c3,conv2d,.*,pass,' "$out/results.csv")" -eq 1 ] \
   && grep -q "1 invalid point" "$tmp/inv.err"; then
  ok "an invalid point is reported with its reason, the others run, exit 1"
else
  not_ok "an invalid point is reported with its reason, the others run, exit 1" "exit $rc, row '$why': $(tr '\n' '|' <"$tmp/inv.err")"
fi

# ---- --fpga: Debian's Yosys (synth_ecp5 on the PE alone) and a stand-in for nextpnr that
# replays a recorded report (the PE of small8x8 at 89.73 MHz) ----
out=$tmp/fpga
FPGA_YOSYS=yosys FPGA_NEXTPNR=$root/tests/fpga/fake-nextpnr.sh \
  scripts/sweep --base yaml/tiny1x1.yaml --layers "$tmp/one.csv" --points 2x2 --no-area --fpga \
  --fpga-opt --blocks --fpga-opt pe --jobs 1 -o "$out" >/dev/null 2>"$tmp/fpga.err"
rc=$?
msg=""
[ "$rc" -eq 0 ] || msg+="exit $rc: $(tail -n 3 "$tmp/fpga.err" | tr '\n' '|'); "
head=$(head -n 1 "$out/fpga.csv" 2>/dev/null)
[ "$head" = "rows,cols,lut4,carry,ff,dsp,bram,fits,fmax_mhz,fmax_source,unmeasured,fmax_pe" ] || msg+="fpga.csv header '$head'; "
row=$(sed -n 2p "$out/fpga.csv" 2>/dev/null)
[[ $row == 2,2,*,89.73,\"slowest\ block:\ pe\",*,89.73 ]] || msg+="fpga.csv row '$row'; "
brow=$(grep '^2,2,pe,' "$out/fpga_blocks.csv" 2>/dev/null)
[[ $brow =~ ^2,2,pe,1,1,4,ok,[0-9]+,[0-9]+,[0-9]+,1,0,ok,89.73,\"in\ a_i\[5\]\",\"pe.v:[0-9]+\ res_o\", ]] || msg+="fpga_blocks.csv row '$brow'; "
[ "$(head -n 1 "$out/results.csv" 2>/dev/null)" = "$want_results,time_us" ] || msg+="results.csv header: $(head -n 1 "$out/results.csv"); "
t=$(awk -F, 'NR == 2 { printf "%.3f", $5 / 89.73 }' "$out/results.csv" 2>/dev/null)
got=$(awk -F, 'NR == 2 { print $NF }' "$out/results.csv" 2>/dev/null)
[ -n "$t" ] && [ "$got" = "$t" ] || msg+="time_us '$got', want cycles / 89.73 = '$t'; "
if [ -z "$msg" ]; then ok "--fpga: fpga.csv, fpga_blocks.csv, time_us in results.csv"; else not_ok "--fpga: fpga.csv, fpga_blocks.csv, time_us in results.csv" "$msg"; fi

finish
