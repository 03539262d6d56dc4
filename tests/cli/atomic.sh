#!/usr/bin/env bash
# tests/cli/atomic.sh [PTXLITMUS] — output files are written to a temporary file and renamed:
# a run killed at any moment leaves either the previous file or the complete new one, never a
# truncated one (docs/reliability.md).  Kills `verify --json` and `run --json` + outputs at
# several delays and checks that every output is complete (valid JSON, full-size raw output)
# and that no temporary file is left behind; then the writer's rules for special targets
# (issue #16, base/fileio.h): a 0600 file stays 0600, a symbolic link at an output is refused
# and what it points to untouched, /dev/null stays a device, a FIFO is written in place.
set -u
bin=${1:-./ptxlitmus}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
for delay in 0.05 0.2 0.5 1 2; do
  echo '{"previous": true}' > "$tmp/v.json"
  "$bin" verify --allow-outside -q --json "$tmp/v.json" suites/*/*.litmus > /dev/null 2>&1 &
  pid=$!; sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  if json_ok "$tmp/v.json"; then pass=$((pass + 1))
  else echo "atomic: FAIL verify --json killed after ${delay}s: truncated"; fail=$((fail + 1)); fi
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
  "$bin" run --allow-outside "$tmp/spec.yaml" --json "$tmp/r.json" > /dev/null 2>&1 &
  pid=$!; sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  sz=$(stat -c %s "$tmp/y.out")
  if json_ok "$tmp/r.json" && [ "$sz" -eq 262144 ]; then pass=$((pass + 1))
  else
    valid=$(json_ok "$tmp/r.json" && echo yes || echo no)
    echo "atomic: FAIL run killed after ${delay}s: r.json valid=$valid, y.out $sz bytes"
    fail=$((fail + 1))
  fi
done
check() {   # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "atomic: FAIL $name"; fail=$((fail + 1)); fi
}
left=$(ls -A "$tmp" | grep -v -x -e v.json -e r.json -e y.out -e spec.yaml)
check "killed runs left temporary files: $left" test -z "$left"
small=$PWD/suites/isa/MP.litmus
echo old > "$tmp/secret.json"; chmod 600 "$tmp/secret.json"
"$bin" verify --allow-outside -q --json "$tmp/secret.json" "$small" > /dev/null 2>&1
check "verify --json changed a 0600 file's mode" test "$(stat -c %a "$tmp/secret.json")" = 600
check "verify --json did not write the 0600 file" json_ok "$tmp/secret.json"
echo precious > "$tmp/victim"; ln -s "$tmp/victim" "$tmp/link.json"
"$bin" verify --allow-outside -q --json "$tmp/link.json" "$small" > /dev/null 2> "$tmp/err"; st=$?
check "verify --json through a symlink: exit $st (want 2)" test "$st" -eq 2
check "the symlink's target was written" test "$(cat "$tmp/victim")" = precious
check "the symlink was replaced" test -L "$tmp/link.json"
check "no message for the refused symlink" grep -q 'symbolic link' "$tmp/err"
"$bin" verify -q --json /dev/null "$small" > /dev/null 2>&1
check "/dev/null is no longer a character device" test -c /dev/null
mkfifo "$tmp/fifo"
(cat "$tmp/fifo" > "$tmp/fifo.out") &
"$bin" verify --allow-outside -q --json "$tmp/fifo" "$small" > /dev/null 2>&1
wait
check "the FIFO was replaced" test -p "$tmp/fifo"
check "nothing came through the FIFO" json_ok "$tmp/fifo.out"
echo "atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
