#!/usr/bin/env bash
# `run --timeout SECONDS` and the default step limit (issue #14): a spinning kernel stops with
# exit 1 and a report saying where each warp was; bad --timeout values are refused (exit 2).
set -u
bin=$1
fail() { echo "t_run_limits: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
spec=tests/errors/run/loop-spec.yml
t0=$(date +%s.%N)
"$bin" run "$spec" --max-steps 100000000000 --timeout 0.3 >"$tmp/out" 2>"$tmp/err"; rc=$?
t1=$(date +%s.%N)
[ "$rc" -eq 1 ] || fail "--timeout 0.3: exit $rc, expected 1"
grep -q "fault: wall-clock limit of 0.3 s reached" "$tmp/err" || { cat "$tmp/err"; fail "no wall-clock report"; }
grep -q "where the warps were:" "$tmp/err" || fail "no warp locations"
grep -q "CTA (0,0,0) warp 0 lanes 0xffffffff: tests/errors/run/loop.ptx:7: bra \$L" "$tmp/err" \
  || { cat "$tmp/err"; fail "warp location line"; }
python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 5 else 1)" "$t0" "$t1" \
  || fail "--timeout 0.3 took more than 5 s"
# the default step limit alone stops it
timeout 60 "$bin" run "$spec" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || fail "default step limit: exit $rc, expected 1"
grep -q "step limit of 30000000 warp-instructions reached" "$tmp/err" || { cat "$tmp/err"; fail "no step-limit report"; }
"$bin" run --allow-outside "$spec" --json "$tmp/j.json" >/dev/null 2>&1
python3 - "$tmp/j.json" <<'PY' || fail "JSON status"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["status"] == "PTXE_ERROR_LAUNCH_TIMEOUT", j["status"]
assert "where the warps were" in j["fault"]
PY
for v in abc 0 -1 1e9 ""; do
  "$bin" run "$spec" --timeout "$v" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || fail "--timeout '$v': exit $rc, expected 2"
  grep -q "^ptxlitmus run: --timeout: found '$v', expected a positive number of seconds" "$tmp/err" \
    || { cat "$tmp/err"; fail "--timeout '$v' message"; }
done
exit 0
