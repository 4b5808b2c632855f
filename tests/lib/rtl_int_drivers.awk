# rtl_int_drivers.awk: integer variables of a Verilog file (loop counters) assigned in more than
# one always block of which one is clocked. Yosys makes the variable of each clocked block a
# register, so the variable has two drivers (Yosys 0.70: "multiple conflicting drivers").
# Usage: awk -f tests/lib/rtl_int_drivers.awk FILE.v ...; prints one line per variable found.
# (POSIX awk: no ENDFILE; comments stripped per line.)
FNR == 1 {
  report(); file = FILENAME; blk = 0
  split("", ints); split("", seen); split("", clk); split("", blocks)
}
{ line = $0; sub(/\/\/.*/, "", line) }
line ~ /^[ \t]*integer[ \t]/ {
  s = line; sub(/^[ \t]*integer[ \t]+/, "", s); sub(/;.*/, "", s); gsub(/[ \t]/, "", s)
  n = split(s, v, ","); for (i = 1; i <= n; i++) ints[v[i]] = 1
}
line ~ /always[ \t]*@/ { blk++; clk[blk] = (line ~ /posedge|negedge/) }
blk > 0 {
  for (x in ints) {
    if (line ~ ("(^|[^A-Za-z0-9_.])" x "[ \t]*=[^=]")) {
      key = x SUBSEP blk
      if (!(key in seen)) { seen[key] = 1; blocks[x] = blocks[x] " " blk (clk[blk] ? "c" : "") }
    }
  }
}
END { report() }
function report(   x, n, b, c, i) {
  for (x in blocks) {
    n = split(blocks[x], b, " "); c = 0
    for (i = 1; i <= n; i++) if (b[i] ~ /c$/) c = 1
    if (n > 1 && c) printf "%s: integer %s assigned in %d always blocks, one clocked\n", file, x, n
  }
}
