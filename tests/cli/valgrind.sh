#!/usr/bin/env bash
# tests/cli/valgrind.sh [VALGRIND] [PTXLITMUS] — the CLI runs of the bundled suites under valgrind
# memcheck (make check-valgrind, docs/reliability.md): `verify` on every test of suites/*/ (one
# batch per suite, JSON written), the error catalogue in one batch, and `run` on a small kernel
# with an output file.  Fails on any invalid access / uninitialised use, or on memory that is
# definitely lost.  ("possibly lost" blocks inside libz3 are Z3's own caches and are not counted.)
# VG_SUITES="suites/isa" limits the suites (the full set takes a few minutes).
set -u
vg=${1:-valgrind}; bin=${2:-./ptxlitmus}
cd "$(dirname "$0")/../.."
command -v "$vg" >/dev/null || { echo "valgrind: $vg not found" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
vgrun() {   # vgrun NAME EXPECTED-STATUS ARGS...
  local name=$1 want=$2; shift 2
  "$vg" -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
        --errors-for-leak-kinds=definite --track-origins=no "$bin" "$@" > "$tmp/out" 2> "$tmp/err"
  local st=$?
  if [ "$st" -eq 99 ] || grep -q '^==[0-9]*== ' "$tmp/err"; then
    echo "valgrind: FAIL $name"; grep '^==[0-9]*==' "$tmp/err" | head -30; fail=$((fail + 1))
  elif [ "$st" -ne "$want" ]; then
    echo "valgrind: FAIL $name: exit status $st, expected $want"; tail -3 "$tmp/err"; fail=$((fail + 1))
  else
    echo "valgrind: ok   $name"; pass=$((pass + 1))
  fi
}
for s in ${VG_SUITES:-suites/*}; do
  [ -d "$s" ] || continue
  vgrun "verify $s" 0 verify --allow-outside -q --json "$tmp/$(basename "$s").json" "$s"/*.litmus
done
vgrun "verify tests/errors/litmus (batch)" 2 verify tests/errors/litmus/*.litmus suites/isa/MP.litmus
cat > "$tmp/spec.yaml" <<YAML
module: $PWD/tests/errors/run/saxpy.ptx
grid: 2
block: 48
buffers:
  x: { type: f32, count: 96, init: { iota: 0 } }
  y: { type: f32, count: 96, init: { fill: 1 } }
params:
  - { s32: 96 }
  - { f32: 2 }
  - { buffer: x }
  - { buffer: y }
outputs:
  - { buffer: y, file: y.out }
YAML
vgrun "run saxpy" 0 run --allow-outside "$tmp/spec.yaml" --json "$tmp/run.json"
[ -s "$tmp/y.out" ] || { echo "valgrind: FAIL run saxpy: no y.out"; fail=$((fail + 1)); }
vgrun "run tests/errors/run/021 (load error)" 2 run tests/errors/run/021-ptx-syntax-error.yaml
vgrun "run --max-steps (step limit)" 1 run --max-steps 1000 tests/errors/run/loop-spec.yml
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
