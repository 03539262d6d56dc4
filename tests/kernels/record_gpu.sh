#!/usr/bin/env bash
# tests/kernels/record_gpu.sh — records, on a real GPU, the outputs of the corpus kernels whose
# results the ISA leaves partly to the hardware (record_gpu.cu: video.cu's video_ops, wmma.cu's
# kernels on the cases of tests/wmma_ref.h), into
# tests/kernels/gpu/*.bin; tests/test_exec_kernels.c then also compares the executor with them.
# Needs nvcc and a GPU; nothing else depends on it.  Usage: tests/kernels/record_gpu.sh [ARCH]
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${1:-native}
mkdir -p gpu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "$NVCC -std=c++17 -arch=$arch record_gpu.cu -o record_gpu"
$NVCC -std=c++17 -arch="$arch" record_gpu.cu -o "$tmp/record_gpu"
"$tmp/record_gpu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > gpu/DEVICE.txt || true
