#!/usr/bin/env bash
# tests/kernels/build.sh — regenerates the committed PTX of the kernel corpus.
# nvcc 13 for every *.cu except clang_kernels.cu, clang_device.cu and its_clang.cu, which LLVM's
# NVPTX back end (clang 14) compiles.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for cu in *.cu; do
  b=${cu%.cu}
  case $b in
    record_gpu) continue ;;   # a host program (record_gpu.sh), not a corpus kernel
    clang_kernels|clang_device|its_clang) cmd="clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -S $cu -o $b.ptx" ;;
    warp|faults|malloc) cmd="$NVCC -ptx -arch=sm_80 -lineinfo $cu -o $b.ptx" ;;
    handover)      cmd="$NVCC -ptx -arch=sm_80 -std=c++17 -lineinfo $cu -o $b.ptx" ;;   # libcu++
    remote)        cmd="$NVCC -ptx -arch=sm_90a $cu -o $b.ptx" ;;
    tma)           cmd="$NVCC -ptx -arch=sm_90a $cu -o $b.ptx" ;;
    half|cluster|bulk|mma|wmma) cmd="$NVCC -ptx -arch=sm_90 $cu -o $b.ptx" ;;
    wgmma)         cmd="$NVCC -ptx -arch=sm_90a $cu -o $b.ptx" ;;
    int64|fp)      cmd="$NVCC -ptx -arch=sm_75 $cu -o $b.ptx" ;;
    texsurf)       cmd="$NVCC -ptx -arch=sm_80 $cu -o $b.ptx" ;;   # cudaTextureObject_t, surfaces
    *)             cmd="$NVCC -ptx -arch=sm_80 $cu -o $b.ptx" ;;
  esac
  echo "$cmd"
  $cmd 2>&1 | grep -v "Wunknown-cuda-version\|CUDA version is newer" || true
done
