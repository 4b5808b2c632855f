# common.sh: what the shell suites share. Source it from a suite (bash) that has set $root to
# the repository; it cds there and defines:
#
#   pass, fail          the counts of ok and not ok lines
#   ok NAME [NOTE]      prints "ok NAME" (and " # NOTE"), counts a pass
#   not_ok NAME WHY     prints "not ok NAME: WHY" on one line (the first 4 non-empty lines of WHY,
#                       joined by " | "), counts a failure
#   finish              prints "N passed, N failed" and exits 0 if nothing failed, else 1
#   need TOOL...        a "not ok setup" line for each TOOL not on the PATH; returns 1 if any
#   make_tmp [NAME]     $tmp: a scratch directory, removed on exit; KEEP_TMP=DIR uses DIR instead
#                       and keeps it
#   S                   the sagen under test ($SAGEN, default $root/sagen)
#   expect NAME STATUS WORDS CMD...   CMD exits STATUS and its stderr holds WORDS (fixed
#                       string; empty: anything)
#   sim_json FILE ARGS...   `sagen sim ARGS --check --quiet --report json` into FILE, its stderr
#                       added to $tmp/err; the status of the run
#   report_is NAME JQ ARGS...   sim_json ARGS passes and the report meets the jq filter JQ
#   replay_runs DESC FIELD N ARGS...   ARGS replayed in Icarus and checked, the report's FIELD
#                       equal to N: one "icarus replay DESC" line
#   shipped_configs     the shipped configurations (yaml/*.yaml) the per-configuration suites
#                       run, one a line: all with SAGEN_TEST_DEPTH=long, else those without a
#                       line "# sagen-test: long" (the 16x16 float designs, whose Verilated
#                       models take minutes to build; tests/cli/float.sh covers the float
#                       datapath on a small design, make bench runs yaml/bf16.yaml)
#   no_faster A B...    A is a number and no B (each a number) is below it
#   within PCT GOT WANT GOT is a number within PCT percent of WANT (integers, either side)
#
# Every suite prints one line per check, "ok ..." or "not ok ...", and ends with `N passed, N
# failed`: tests/run_all.sh counts the lines.

: "${root:?common.sh: set root to the repository before sourcing}"
cd "$root" || exit 1
S=${SAGEN:-$root/sagen}
pass=0
fail=0

shipped_configs() {
  local y
  for y in yaml/*.yaml; do
    if [ "${SAGEN_TEST_DEPTH:-short}" = long ] || ! grep -qx '# sagen-test: long' "$y"; then
      echo "$y"
    fi
  done
}

ok() {
  echo "ok $1${2:+ # $2}"
  pass=$((pass + 1))
}

not_ok() {
  local why
  why=$(printf '%s\n' "$2" | awk 'NF && n < 4 { printf "%s%s", (n++ ? " | " : ""), $0 }')
  echo "not ok $1: $why"
  fail=$((fail + 1))
}

finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ] && exit 0
  exit 1
}

need() {
  local tool missing=0
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { not_ok setup "$tool not found"; missing=1; }
  done
  return $missing
}

make_tmp() {
  if [ -n "${KEEP_TMP:-}" ]; then
    tmp=$KEEP_TMP
    mkdir -p "$tmp"
  else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/sagen_${1:-test}.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
  fi
}

expect() {
  local name=$1 status=$2 words=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$status" ]; then
    not_ok "$name" "exit $got, expected $status; stderr: $(head -c 300 "$tmp/err")"
  elif [ -n "$words" ] && ! grep -qF -- "$words" "$tmp/err"; then
    not_ok "$name" "stderr lacks '$words': $(head -c 300 "$tmp/err")"
  else
    ok "$name"
  fi
}

sim_json() {
  local out=$1
  shift
  "$S" sim "$@" --check --quiet --report json >"$out" 2>>"$tmp/err"
}

report_is() {
  local name=$1 expr=$2
  shift 2
  : >"$tmp/err"
  if sim_json "$tmp/rep.json" "$@" && jq -e "$expr" "$tmp/rep.json" >/dev/null; then
    ok "$name"
  else
    not_ok "$name" "$(cat "$tmp/rep.json" "$tmp/err" | head -c 400)"
  fi
}

replay_runs() {
  local desc=$1 field=$2 n=$3
  shift 3
  : >"$tmp/err"
  if sim_json "$tmp/rr.json" "$@" --simulator icarus &&
     [ "$(jq ".$field" "$tmp/rr.json")" = "$n" ]; then
    ok "icarus replay $desc"
  else
    not_ok "icarus replay $desc" "$(head -c 400 "$tmp/err" "$tmp/rr.json")"
  fi
}

no_faster() {
  local a=$1 b
  [[ "$a" =~ ^[0-9]+$ ]] || return 1
  for b in "$@"; do [[ "$b" =~ ^[0-9]+$ ]] && [ "$a" -le "$b" ] || return 1; done
}

within() {
  local pct=$1 got=$2 want=$3
  [[ "$got" =~ ^[0-9]+$ ]] && [[ "$want" =~ ^[0-9]+$ ]] &&
    [ $((100 * got)) -ge $(((100 - pct) * want)) ] && [ $((100 * got)) -le $(((100 + pct) * want)) ]
}
