#!/usr/bin/env bash
# suites/sanitizer/build.sh — regenerates faulty.ptx from faulty.cu with exactly this command
# (nvcc 13.0 V13.0.88): -lineinfo gives the CUDA lines of the reports.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cmd="$NVCC -ptx -arch=sm_80 -lineinfo faulty.cu -o faulty.ptx"
echo "$cmd"
$cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
