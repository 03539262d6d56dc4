#!/usr/bin/env bash
# tests/kernels/record_gpu.sh — records, on a real GPU, the outputs of the corpus kernels whose
# results the ISA leaves partly to the hardware (record_gpu.cu: video.cu's video_ops, wmma.cu's
# kernels on the cases of tests/wmma_ref.h; on a Hopper GPU (sm_90a) tma.cu's tma_load and
# tma_im2col), into tests/kernels/gpu/*.bin; tests/test_exec_kernels.c, tests/test_exec_wmma.c
# and tests/test_exec_tma.c then also compare the executor with them.
# Needs nvcc and a GPU; nothing else depends on it.  Usage: tests/kernels/record_gpu.sh [ARCH]
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${1:-native}
mkdir -p gpu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# tma.cu's kernels (tensormap.replace) need sm_90a; a Hopper GPU records them too
extra=""
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 || true)
if [ "$arch" = native ] && [ "$cap" = "9.0" ]; then arch=sm_90a; fi
target="-arch=$arch"
case $arch in
  sm_90a) target="-gencode arch=compute_90a,code=sm_90a"; extra="-DRECORD_TMA=1 -lcuda" ;;
esac
echo "$NVCC -std=c++17 $target $extra record_gpu.cu -o record_gpu"
$NVCC -std=c++17 $target $extra record_gpu.cu -o "$tmp/record_gpu"
"$tmp/record_gpu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > gpu/DEVICE.txt || true
