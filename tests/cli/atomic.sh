#!/usr/bin/env bash
# tests/cli/atomic.sh [PTXLITMUS] — output files are written to a temporary file and renamed:
# a run killed at any moment leaves either the previous file or the complete new one, never a
# truncated one (docs/reliability.md).  Kills `verify --json` and `run --json` + outputs at
# several delays and checks that every output is complete (valid JSON, full-size raw output).
set -u
bin=${1:-./ptxlitmus}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
for delay in 0.05 0.2 0.5 1 2; do
  echo '{"previous": true}' > "$tmp/v.json"
  "$bin" verify -q --json "$tmp/v.json" suites/*/*.litmus > /dev/null 2>&1 &
  pid=$!; sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  if json_ok "$tmp/v.json"; then pass=$((pass + 1)); else echo "atomic: FAIL verify --json killed after ${delay}s: truncated"; fail=$((fail + 1)); fi
done
cat > "$tmp/spec.yaml" <<YAML
module: $PWD/tests/errors/run/saxpy.ptx
grid: 64
block: 1024
buffers:
  x: { type: f32, count: 65536, init: { iota: 0 } }
  y: { type: f32, count: 65536, init: { fill: 1 } }
params:
  - { s32: 65536 }
  - { f32: 2 }
  - { buffer: x }
  - { buffer: y }
outputs:
  - { buffer: y, file: y.out }
YAML
for delay in 0.05 0.2 0.5 1; do
  echo '{"previous": true}' > "$tmp/r.json"
  head -c 262144 /dev/zero > "$tmp/y.out"
  "$bin" run "$tmp/spec.yaml" --json "$tmp/r.json" > /dev/null 2>&1 &
  pid=$!; sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  sz=$(stat -c %s "$tmp/y.out")
  if json_ok "$tmp/r.json" && [ "$sz" -eq 262144 ]; then pass=$((pass + 1))
  else echo "atomic: FAIL run killed after ${delay}s: r.json valid=$(json_ok "$tmp/r.json" && echo yes || echo no), y.out $sz bytes"; fail=$((fail + 1)); fi
done
echo "atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
