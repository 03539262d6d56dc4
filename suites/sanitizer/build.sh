#!/usr/bin/env bash
# suites/sanitizer/build.sh — regenerates faulty.ptx from faulty.cu with exactly this command
# (nvcc 13.0 V13.0.88; -lineinfo gives the CUDA lines of the reports) and clang_faulty.ptx from
# clang_faulty.cu with clang 14.0.6 (no CUDA headers).
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cmd="$NVCC -ptx -arch=sm_80 -lineinfo faulty.cu -o faulty.ptx"
echo "$cmd"
$cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
cmd="clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -S clang_faulty.cu -o clang_faulty.ptx"
echo "$cmd"
$cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
