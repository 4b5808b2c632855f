#!/usr/bin/env bash
# report_compare: compare two directories written by scripts/report_snapshot.sh, byte for byte.
# For every run of either: identical, missing on one side, or different, naming the first field
# that differs (the JSON reports are one object each; a field is named by its path, e.g.
# sram_reads.ifmap) or, for runs.tsv and the .err files, the first differing line. Nothing is
# excluded: the reports hold no wall time.
#
# Usage: scripts/report_compare.sh A B   Prints one line per difference and a summary
#        `N runs compared: N identical, N differ`; exits 0 only if everything is identical.
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
  echo "usage: scripts/report_compare.sh DIR_A DIR_B" >&2
  exit 2
fi
a=$1
b=$2
# first_field FILE_A FILE_B: the path of the first JSON field whose value differs
first_field() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def load(p):
    try:
        with open(p) as f:
            return json.load(f), None
    except Exception as e:  # an empty or cut report: say so
        return None, "%s: not a JSON object (%s)" % (p, e)
(x, ex), (y, ey) = load(sys.argv[1]), load(sys.argv[2])
if ex or ey:
    print(ex or ey)
    sys.exit(0)
def walk(u, v, path):
    if isinstance(u, dict) and isinstance(v, dict):
        for k in list(u) + [k for k in v if k not in u]:
            if k not in u or k not in v:
                return "%s%s: only in %s" % (path, k, "A" if k in u else "B")
            d = walk(u[k], v[k], path + k + ".")
            if d:
                return d
        return None
    return None if u == v else "%s: %r vs %r" % (path.rstrip("."), u, v)
print(walk(x, y, "") or "same fields, different bytes (formatting or field order)")
PY
}
same=0
differ=0
names=$( (cd "$a" && ls) ; (cd "$b" && ls) )
for f in $(echo "$names" | LC_ALL=C sort -u); do
  if [ ! -e "$a/$f" ] || [ ! -e "$b/$f" ]; then
    echo "$f: only in $([ -e "$a/$f" ] && echo "$a" || echo "$b")"
    differ=$((differ + 1))
  elif cmp -s "$a/$f" "$b/$f"; then
    same=$((same + 1))
  else
    case $f in
      *.json) echo "$f: $(first_field "$a/$f" "$b/$f")" ;;
      *) echo "$f: first difference: $(diff "$a/$f" "$b/$f" | head -3 | paste -s -d ' ' -)" ;;
    esac
    differ=$((differ + 1))
  fi
done
runs=$(ls "$a"/*.json 2>/dev/null | wc -l)
echo "$runs runs in $a; $((same + differ)) files compared: $same identical, $differ differ"
[ "$differ" -eq 0 ]
