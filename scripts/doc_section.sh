#!/usr/bin/env bash
# doc_section: the benchmarks' way of writing docs/performance.md. Replaces the section NAME of
# the Markdown file FILE with its standard input: the lines between `<!-- NAME:begin -->` and
# `<!-- NAME:end -->` (the markers stay). A file that lacks the section gets it at its end (a
# missing file is made). `make bench` and `make bench-bp` write docs/performance.md with it, and
# `make readme-keys` the README's table of keys.
#
# Usage: scripts/doc_section.sh FILE NAME < SECTION.md
set -eu
file=$1
name=$2
new=$(mktemp)
trap 'rm -f "$new"' EXIT
cat >"$new"
mkdir -p "$(dirname "$file")"
touch "$file"
if ! grep -qx "<!-- $name:begin -->" "$file"; then
  if [ -s "$file" ]; then echo >>"$file"; fi
  printf '<!-- %s:begin -->\n<!-- %s:end -->\n' "$name" "$name" >>"$file"
fi
awk -v b="<!-- $name:begin -->" -v e="<!-- $name:end -->" -v new="$new" '
  $0 == b { print; while ((getline line < new) > 0) print line; skip = 1; next }
  $0 == e { skip = 0 }
  !skip' "$file" >"$file.tmp"
mv "$file.tmp" "$file"
