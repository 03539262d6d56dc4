#!/usr/bin/env bash
# bench/exec/build.sh — regenerates the committed PTX of the executor benchmarks (nvcc 13), in the
# style of tests/kernels/build.sh: alu.cu and gemm_sm80.cu for sm_80, gemm_sm90a.cu for sm_90a
# (wgmma and TMA need the architecture-specific target).
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for cu in *.cu; do
  b=${cu%.cu}
  case $b in
    gemm_sm90a) cmd="$NVCC -ptx -arch=sm_90a $cu -o $b.ptx" ;;
    *)          cmd="$NVCC -ptx -arch=sm_80 $cu -o $b.ptx" ;;
  esac
  echo "$cmd"
  $cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
done
