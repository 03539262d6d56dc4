#!/usr/bin/env bash
# bench/exec/exec_bench.sh — executor benchmark: runs the ALU-bound kernel alu.ptx (from alu.cu,
# `nvcc -ptx -arch=sm_80 alu.cu -o alu.ptx`) over 65536 threads with `ptxlitmus run`, reports
# thread-instructions per second and the ratio to the same computation compiled natively
# (native.c: cc -O2 -march=native -std=c17 -D_GNU_SOURCE -lm, timed around its loop only).
# Usage: bench/exec/exec_bench.sh [PTXLITMUS] [THREADS] [ITERS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-./ptxlitmus}; n=${2:-65536}; iters=${3:-64}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -march=native -std=c17 -D_GNU_SOURCE "$here/native.c" -o "$tmp/native" -lm
cp "$here/alu.ptx" "$tmp/"
cat > "$tmp/spec.yaml" <<YAML
module: alu.ptx
grid: $((n / 256))
block: 256
buffers:
  out: { type: u32, count: $n }
params:
  - { buffer: out }
  - { s32: $iters }
outputs:
  - { buffer: out, file: out.bin }
YAML
t0=$(date +%s.%N)
"$bin" run --allow-outside "$tmp/spec.yaml" --json "$tmp/run.json"
t1=$(date +%s.%N)
read -r native_s native_sum < <("$tmp/native" "$n" "$iters")
python3 - "$tmp" "$t0" "$t1" "$native_s" "$native_sum" "$n" <<'PY'
import json, struct, sys
tmp, t0, t1, ns, nsum, n = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
j = json.load(open(tmp + "/run.json"))
out = struct.unpack("<%dI" % n, open(tmp + "/out.bin", "rb").read())
s = 0
for v in out: s = (s * 31 + v) & 0xffffffff
ti = j["stats"]["thread_instructions"]; wall = t1 - t0
print("threads %d  thread-instructions %d  warp-instructions %d" % (n, ti, j["stats"]["warp_instructions"]))
print("executor: %.3f s (whole run: parse, launch, output)  %.1f M thread-instructions/s" % (wall, ti / wall / 1e6))
print("native -O2: %.4f s  ratio executor/native %.1fx" % (ns, wall / ns))
print("checksum %s" % ("match" if s == nsum else "MISMATCH %d != %d" % (s, nsum)))
sys.exit(0 if s == nsum else 1)
PY
