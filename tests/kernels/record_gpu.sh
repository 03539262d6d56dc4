#!/usr/bin/env bash
# tests/kernels/record_gpu.sh — records, on a real GPU, the outputs of the corpus kernels whose
# results the ISA leaves partly to the hardware (record_gpu.cu: the groups video, tex, wmma,
# gemm80, sp, and on a compute capability 9.0 GPU wgmma, tma, gemm90a) into OUT/NAME.bin
# (default tests/kernels/gpu/, where tests/exec_harness.h gpu_open finds them: the executor
# tests then also compare with every file that exists, none is needed).
#
# Each group is its own program, compiled in parallel and run one after the other with a time
# limit, so one group that does not compile, load or run cannot sink the others.  A group this
# GPU cannot run (no device, or a compute capability below what it needs) is skipped with the
# reason.  Each program writes a file only after its kernel's launch and run were checked.
# The group txq (not in the default list, name it with --groups) is a diagnosis: the tex module
# with tx_query, whose relocations kept the H100 of 2026-11-26 from running any tex kernel.
#
# usage: tests/kernels/record_gpu.sh [--out DIR] [--arch ARCH] [--groups "G..."]
#                                    [--compile-only] [--build DIR] [--timeout S]
#   --arch: sm_90a (every group), sm_80 (the groups that need at most sm_80), native (default:
#           sm_90a on a compute capability 9.0 GPU, else -arch=native for the groups the GPU
#           can run), or "check": each group for the lowest target it needs (sm_80, sm_90a);
#           the compile test of make check (tests/cli/t_record_gpu.sh) uses it
#   --compile-only: build the programs (into --build DIR, default a temporary folder), run none
# exit status: 0 every group recorded or skipped for this GPU's capability, 1 a group failed to
#              compile or run (see its line), 77 nothing ran (no nvcc, no driver or no GPU),
#              2 usage.  One line per group: "record GROUP: recorded|skipped: why|FAILED: why".
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$here/gpu
arch=native
groups="video tex wmma gemm80 sp wgmma tma gemm90a"
compile_only=0
build=
limit=${RECORD_TIMEOUT:-120}
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --groups) groups=$2; shift 2 ;;
    --compile-only) compile_only=1; shift ;;
    --build) build=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    sm_*|native) arch=$1; shift ;;   # the old positional ARCH
    *) echo "usage: $0 [--out DIR] [--arch sm_90a|sm_80|native|check] [--groups \"G...\"]" \
            "[--compile-only] [--build DIR] [--timeout S]" >&2; exit 2 ;;
  esac
done
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then echo "record: skipped: nvcc not found (set NVCC)"; exit 77; fi
# the lowest target each group needs: 80 (sm_80), 90 (sm_90), 90a (only compute capability 9.0)
need() { case $1 in video|tex|txq|wmma|gemm80) echo 80 ;; sp) echo 90 ;; *) echo 90a ;; esac; }
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')
case $cap in [0-9][0-9]|[0-9][0-9][0-9]) ;; *) cap= ;; esac
if [ "$arch" = native ] && [ "$cap" = 90 ]; then arch=sm_90a; fi
if [ -z "$build" ]; then
  build=$(mktemp -d "${TMPDIR:-/tmp}/record_gpu.XXXXXX") || exit 2
  trap 'rm -rf "$build"' EXIT
fi
mkdir -p "$build" || exit 2
# target GROUP: the nvcc target flags for GROUP, or "skip: why"
target() {
  local n; n=$(need "$1")
  case $arch in
    sm_90a) echo "-gencode arch=compute_90a,code=sm_90a" ;;
    check) if [ "$n" = 80 ]; then echo "-arch=sm_80"; else echo "-gencode arch=compute_90a,code=sm_90a"; fi ;;
    sm_*) local a=${arch#sm_}; a=${a%a}
          if [ "$n" = 90a ] || [ "$a" -lt "${n%a}" ]; then echo "skip: needs $( [ "$n" = 90a ] \
            && echo 'sm_90a (a compute capability 9.0 GPU)' || echo "sm_$n or later"), --arch is $arch"
          else echo "-arch=$arch"; fi ;;
    native) if [ -n "$cap" ] && { [ "$n" = 90a ] || [ "$cap" -lt "${n%a}" ]; }; then
              echo "skip: needs $( [ "$n" = 90a ] && echo 'sm_90a (compute capability 9.0)' \
                || echo "sm_$n or later"), this GPU is compute capability ${cap%?}.${cap: -1}"
            elif [ -n "$cap" ]; then echo "-arch=native"
            else echo "-gencode arch=compute_90a,code=sm_90a"; fi ;;   # no GPU: build, then say so
    *) echo "skip: unknown --arch $arch" ;;
  esac
}
# compile every group at once (each its own program), with a time limit each
for g in $groups; do
  t=$(target "$g")
  case $t in skip:*) echo "$t" > "$build/$g.skip"; continue ;; esac
  G=$(echo "$g" | tr a-z A-Z)
  echo "$NVCC -std=c++17 $t -DREC_GROUP_$G record_gpu.cu -o $g"
  # shellcheck disable=SC2086
  ( cd "$here" && timeout 600 "$NVCC" -std=c++17 $t -DREC_GROUP_$G record_gpu.cu \
      -o "$build/$g" > "$build/$g.nvcc" 2>&1; echo $? > "$build/$g.nvccrc" ) &
done
wait
failed=0; ran=0; skipped=0
for g in $groups; do
  if [ -e "$build/$g.skip" ]; then
    echo "record $g: skipped: $(cat "$build/$g.skip" | sed 's/^skip: //')"; skipped=$((skipped + 1))
    continue
  fi
  if [ "$(cat "$build/$g.nvccrc")" != 0 ]; then
    echo "record $g: FAILED: nvcc exit $(cat "$build/$g.nvccrc"):"; grep -v Advisory "$build/$g.nvcc" | tail -n 15
    failed=$((failed + 1)); continue
  fi
  [ $compile_only = 1 ] && { echo "record $g: compiled"; continue; }
  mkdir -p "$out" || exit 2
  timeout "$limit" "$build/$g" "$out" > "$build/$g.log" 2>&1; rc=$?
  cat "$build/$g.log"
  case $rc in
    0) ran=$((ran + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    124) echo "record $g: FAILED: ran past ${limit} s (killed)"; failed=$((failed + 1)) ;;
    *) grep -q "record $g: failed" "$build/$g.log" || echo "record $g: FAILED: exit $rc"
       failed=$((failed + 1)) ;;
  esac
done
[ -d "$out" ] && rm -f "$out"/*.part
if [ $compile_only = 0 ] && [ $ran -gt 0 ]; then
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > "$out/DEVICE.txt" \
    2>/dev/null || true
fi
if [ $compile_only = 1 ]; then echo "record: compiled only, $skipped skipped, $failed failed"
else echo "record: $ran recorded, $skipped skipped, $failed failed (files in $out)"; fi
[ $failed -gt 0 ] && exit 1
[ $compile_only = 0 ] && [ $ran -eq 0 ] && exit 77
exit 0
