#!/usr/bin/env bash
# tests/kernels/record_gpu.sh — records, on a real GPU, the outputs of the corpus kernels whose
# results the ISA leaves partly to the hardware (record_gpu.cu: video.cu's video_ops, wmma.cu's
# kernels on the cases of tests/wmma_ref.h, remote.cu's mma.sp kernels, bench/exec/gemm_sm80.cu
# on the sizes of tests/gemm_ref.h; on a Hopper GPU (sm_90a) also wgmma.cu, tma.cu's tma_load
# and tma_im2col and bench/exec/gemm_sm90a.cu), into tests/kernels/gpu/*.bin;
# tests/test_exec_kernels.c, tests/test_exec_wmma.c, tests/test_exec_wgmma.c,
# tests/test_exec_remote.c, tests/test_exec_tma.c and tests/test_exec_gemm.c then also compare
# the executor with them.  Needs nvcc and a GPU of sm_90 or later; nothing else depends on it.
# Usage: tests/kernels/record_gpu.sh [ARCH]
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${1:-native}
mkdir -p gpu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# wgmma.cu and tma.cu (tensormap.replace) need sm_90a: on a compute capability 9.0 GPU build
# for it and record wgmma and tma too (tma's maps come from the driver: -lcuda)
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 || true)
if [ "$arch" = native ] && [ "$cap" = "9.0" ]; then arch=sm_90a; fi
flags="-arch=$arch"
if [ "$arch" = sm_90a ]; then
  flags="-gencode arch=compute_90a,code=sm_90a -DRECORD_WGMMA -DRECORD_TMA=1 -lcuda"
fi
echo "$NVCC -std=c++17 $flags record_gpu.cu -o record_gpu"
$NVCC -std=c++17 $flags record_gpu.cu -o "$tmp/record_gpu"
"$tmp/record_gpu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > gpu/DEVICE.txt || true
