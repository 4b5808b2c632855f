#!/usr/bin/env bash
# deps: check the system packages sagen needs; install the missing ones with apt-get when run as
# root, otherwise print the exact command and stop.
set -eu
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have cc || need+=(gcc)
have g++ || need+=(g++)
have make || need+=(make)
have verilator || need+=(verilator)
have iverilog || need+=(iverilog)
have yosys || need+=(yosys)
have gnuplot || need+=(gnuplot-nox)
have python3 || need+=(python3)
have jq || need+=(jq)
have bc || need+=(bc)
have valgrind || need+=(valgrind)
have clang || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-dev)
[ -f /usr/include/yaml.h ] || need+=(libyaml-dev)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "sagen: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
else
  echo "sagen: missing packages; run: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
