#!/usr/bin/env bash
# suites/check/build.sh — regenerates the PTX of the check pairs: each NAME.cu compiled by nvcc
# 13 twice, as NAME-buggy.ptx and (with -DFIXED) NAME-fixed.ptx; clang_*.cu by clang (LLVM's
# NVPTX back end, builtins only, no CUDA headers) the same way.  The specs (NAME-*.yaml) and
# the tests that pin each pair (tests/cli/t_check.sh) are written by hand.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for cu in *.cu; do
  b=${cu%.cu}
  for v in buggy fixed; do
    flag=; [ $v = fixed ] && flag=-DFIXED
    cmd="$NVCC -ptx -arch=sm_90 -lineinfo $flag $cu -o $b-$v.ptx"
    case $b in clang_*) cmd="${CLANG:-clang} -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -gline-tables-only -S $flag $cu -o $b-$v.ptx" ;; esac
    echo "$cmd"
    $cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
  done
done
