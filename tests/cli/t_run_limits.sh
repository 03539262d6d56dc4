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
# issue #30: a run that went well says so in one line (stderr; stdout is the kernel's printf),
# -q silences it; a large grid that reaches the step limit gets a hint naming --max-steps
"$bin" run tests/errors/run/saxpy-spec.yml --no-outputs > "$tmp/out" 2> "$tmp/err" || fail "saxpy: exit $?"
grep -qx 'ptxlitmus run: kernel saxpy, grid (1,1,1) x block (64,1,1): 2 warps, [0-9]* warp-instructions ([0-9]* thread-instructions) in [0-9.]* s' "$tmp/err" \
  || { cat "$tmp/err"; fail "no success line"; }
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "more than one line on success: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "the success line went to stdout"
"$bin" run tests/errors/run/saxpy-spec.yml --no-outputs -q > "$tmp/out" 2> "$tmp/err" || fail "saxpy -q: exit $?"
[ -s "$tmp/err" ] && fail "-q still printed: $(cat "$tmp/err")"
sed -e 's/^grid: 1$/grid: 100000/' -e 's/count: 64/count: 6400000/g' -e 's/{ s32: 64 }/{ s32: 6400000 }/' \
  -e 's|module: saxpy.ptx|module: '"$PWD"'/tests/errors/run/saxpy.ptx|' tests/errors/run/saxpy-spec.yml > "$tmp/big.yml"
"$bin" run "$tmp/big.yml" --no-outputs --max-steps 200000 > "$tmp/out" 2> "$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || fail "100000 CTAs, --max-steps 200000: exit $rc, expected 1"
grep -qx "$tmp/big.yml: hint: the limit of 200000 warp-instructions (--max-steps) is for the whole grid of 100000 CTAs (200000 warps); raise it with --max-steps N if the kernel is not stuck" "$tmp/err" \
  || { cat "$tmp/err"; fail "no --max-steps hint"; }
exit 0
