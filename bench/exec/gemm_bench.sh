#!/usr/bin/env bash
# bench/exec/gemm_bench.sh — GEMM benchmark of the executor: the tensor-core GEMMs gemm_sm80.ptx
# (mma.sync + cp.async + ldmatrix, sm_80) and gemm_sm90a.ptx (wgmma + TMA, sm_90a) run with
# `ptxlitmus run`, C = A * B (f16 in, f32 out) with the inputs of tests/gemm_ref.h (small
# integers: the result is exact in any accumulation order), compared bit for bit with the C
# reference (bench/exec/gemm_data.c).  Prints threads, thread-instructions, seconds (the whole
# run: parse, launch, output; and its CPU time, user + system), M thread-instructions/s,
# GFLOP/s equivalent (2 M N K / s) and whether C matches.  Usage: bench/exec/gemm_bench.sh [PTXLITMUS] [SM80_SIZE] [SM90A_SIZE]
# (sizes MxNxK, default 512x512x512 and 1024x1024x1024); one kernel: SIZE "-" skips the other.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(cd "$(dirname "${1:-./ptxlitmus}")" && pwd)/$(basename "${1:-./ptxlitmus}")
s80=${2:-512x512x512}; s90=${3:-1024x1024x1024}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c17 -D_GNU_SOURCE -I"$root" "$here/gemm_data.c" -o "$tmp/gemm_data"
cp "$here/gemm_sm80.ptx" "$here/gemm_sm90a.ptx" "$tmp/"
status=0

spec() {   # KERNEL M N K -> the launch spec on stdout
  local k=$1 M=$2 N=$3 K=$4
  echo "module: $k.ptx"
  echo "grid: [$(( (N + 127) / 128 )), $(( (M + 127) / 128 )), 1]"
  echo "block: 256"
  if [ "$k" = gemm_sm90a ]; then
    echo "shared_bytes: 99392"   # GEMM90_SMEM of gemm_sm90a.cu
    echo "tensormaps:"
    echo "  mA: { buffer: A, type: f16, dims: [$K, $M], box: [64, 128], swizzle: 128B }"
    echo "  mB: { buffer: Bt, type: f16, dims: [$K, $N], box: [64, 128], swizzle: 128B }"
  fi
  echo "buffers:"
  echo "  A: { type: u16, count: $(( M * K )), init: { file: A.bin } }"
  if [ "$k" = gemm_sm90a ]; then
    echo "  Bt: { type: u16, count: $(( N * K )), init: { file: Bt.bin } }"
  else
    echo "  B: { type: u16, count: $(( N * K )), init: { file: B.bin } }"
  fi
  echo "  C: { type: f32, count: $(( M * N )) }"
  echo "params:"
  if [ "$k" = gemm_sm90a ]; then
    echo "  - { tensormap: mA }"; echo "  - { tensormap: mB }"
  else
    echo "  - { buffer: A }"; echo "  - { buffer: B }"
  fi
  echo "  - { buffer: C }"
  echo "  - { s32: $M }"; echo "  - { s32: $N }"; echo "  - { s32: $K }"
  echo "outputs:"
  echo "  - { buffer: C, file: C.bin }"
}

one() {   # KERNEL MxNxK
  local k=$1 M N K
  IFS=x read -r M N K <<< "$2"
  "$tmp/gemm_data" "$M" "$N" "$K" "$tmp"
  spec "$k" "$M" "$N" "$K" > "$tmp/$k.yaml"
  rm -f "$tmp/C.bin"
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time" \
    "$bin" run --allow-outside --max-steps 2000000000 "$tmp/$k.yaml" --json "$tmp/run.json" \
    > /dev/null || { echo "$k $2: run failed"; status=1; return; }
  t1=$(date +%s.%N)
  python3 - "$tmp" "$t0" "$t1" "$k" "$M" "$N" "$K" <<'PY' || status=1
import json, sys, zlib
tmp, t0, t1, k = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
cpu = sum(map(float, open(tmp + "/time").read().split()[-2:]))
M, N, K = map(int, sys.argv[5:8])
j = json.load(open(tmp + "/run.json"))["stats"]
got, ref = open(tmp + "/C.bin", "rb").read(), open(tmp + "/C_ref.bin", "rb").read()
ti, wall = j["thread_instructions"], t1 - t0
threads = ((N + 127) // 128) * ((M + 127) // 128) * 256
print("%s %dx%dx%d: threads %d  thread-instructions %d  warp-instructions %d"
      % (k, M, N, K, threads, ti, j["warp_instructions"]))
print("  %.3f s (cpu %.3f s)  %.1f M thread-instructions/s  %.3f GFLOP/s equivalent  "
      "checksum %08x %s"
      % (wall, cpu, ti / wall / 1e6, 2.0 * M * N * K / wall / 1e9, zlib.crc32(got),
         "match" if got == ref else "MISMATCH vs the C reference"))
sys.exit(0 if got == ref else 1)
PY
}

[ "$s80" = - ] || one gemm_sm80 "$s80"
[ "$s90" = - ] || one gemm_sm90a "$s90"
exit $status
