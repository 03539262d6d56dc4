#!/usr/bin/env bash
# Installs the Debian packages ptxlitmus needs to build and test, when any is missing.
# Used by `make deps` (and so by `make`, `make check`, `make demo`); safe to run repeatedly.
set -eu
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in build-essential libz3-dev libcjson-dev libyaml-dev check pkg-config graphviz python3 clang libclang-rt-14-dev valgrind; do
  have "$p" || need+=("$p")
done
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "deps: installing ${need[*]}" >&2
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
