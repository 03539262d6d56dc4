#!/usr/bin/env bash
# `run` and the scheduler (issue #25): a cooperative launch from the spec (cooperative: true)
# runs its.cu's grid_sync_sum; the JSON's stats name the schedule, the resident CTAs and the SM
# count; --schedule lockstep keeps the earlier order (flag_spin livelocks: exit 1, step limit),
# --schedule its / the default finishes it; --sm-count bounds the resident CTAs; the command
# line wins over the spec's schedule:.
set -u
bin=$1
fail() { echo "t_run_sched: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp tests/kernels/its.ptx "$tmp/"
cat >"$tmp/coop.yml" <<YML
module: its.ptx
kernel: grid_sync_sum
grid: 4
block: 256
cooperative: true
buffers:
  in: { type: s32, count: 1024, init: { iota: 1 } }
  partial: { type: s32, count: 4 }
  out: { type: s32, count: 1024 }
  total: { type: s32, count: 1 }
params:
  - { buffer: in }
  - { buffer: partial }
  - { buffer: out }
  - { buffer: total }
YML
"$bin" run --allow-outside "$tmp/coop.yml" --check all --json "$tmp/j.json" >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/err"; fail "cooperative run failed"; }
python3 - "$tmp/j.json" <<'PY' || fail "cooperative results"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["status"] == "ok", j["status"]
s = sum(range(1, 1025))
out = j["buffers"]["out"]
assert out == [i + 1 + s for i in range(1024)], out[:4]
assert j["buffers"]["total"] == [sum(out)], j["buffers"]["total"]
st = j["stats"]
assert st["schedule"] == "its" and st["resident_ctas"] == 4 and st["sm_count"] == 108, st
PY
# the same spec without cooperative: no grid workspace, this_grid().sync() traps
sed 's/^cooperative: true/cooperative: false/' "$tmp/coop.yml" >"$tmp/nocoop.yml"
"$bin" run --allow-outside "$tmp/nocoop.yml" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "trap instruction executed" "$tmp/err" || { cat "$tmp/err"; fail "non-cooperative grid.sync: exit $rc"; }
# too large for 1 SM: refused at the cooperative key, exit 2
sed 's/^grid: 4/grid: 9/' "$tmp/coop.yml" >"$tmp/big.yml"
"$bin" run --allow-outside "$tmp/big.yml" --sm-count 1 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "too large: exit $rc"
grep -q "big.yml:5:14: found a cooperative launch of 9 CTAs, expected at most 8" "$tmp/err" ||
  { cat "$tmp/err"; fail "too large: message"; }

cat >"$tmp/spin.yml" <<YML
module: its.ptx
kernel: flag_spin
grid: 2
block: 64
schedule: lockstep
buffers:
  in: { type: s32, count: 128, init: { iota: 0 } }
  out: { type: s32, count: 128 }
  data: { type: s32, count: 4 }
  flags: { type: s32, count: 4 }
params:
  - { buffer: in }
  - { buffer: out }
  - { buffer: data }
  - { buffer: flags }
YML
"$bin" run --allow-outside "$tmp/spin.yml" --max-steps 100000 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "step limit of 100000" "$tmp/err" || { cat "$tmp/err"; fail "lockstep spin: exit $rc"; }
"$bin" run --allow-outside "$tmp/spin.yml" --schedule its --sm-count 1 --json "$tmp/s.json" >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/err"; fail "its spin failed"; }
python3 - "$tmp/s.json" <<'PY' || fail "its spin results"
import json, sys
j = json.load(open(sys.argv[1]))
out = j["buffers"]["out"]
want = [i + 3 * (i + 31) + 1 if i % 32 == 0 else 2 * i for i in range(128)]
assert out == want, out[:4]
st = j["stats"]
assert st["schedule"] == "its" and st["sm_count"] == 1 and st["resident_ctas"] == 2, st
PY
echo "t_run_sched: ok"
