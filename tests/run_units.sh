#!/usr/bin/env bash
# Runs each Check test binary given on the command line, UNIT_JOBS (default 2) at a time, prints
# each binary's output whole and in the order given, then one closing line
# "unit: N passed, N failed" summing Check's per-binary counts.  The binaries run with
# CK_FORK=no unless the caller sets it (one process per binary: a fork per test cost a tenth of
# the unit tests' time, and LeakSanitizer sees each binary's allocations whole); Check's
# per-test timeouts need fork mode, so each binary gets UNIT_TIMEOUT seconds (default 1200)
# and a hung test still ends the run.
set -u
jobs=${UNIT_JOBS:-2}
export CK_FORK=${CK_FORK:-no}
export UNIT_TIMEOUT=${UNIT_TIMEOUT:-1200}
out=$(mktemp -d "${TMPDIR:-/tmp}/units.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
i=0
for t in "$@"; do printf '%d\t%s\n' "$i" "$t"; i=$((i + 1)); done |
  xargs -P "$jobs" -L 1 bash -c 'timeout -k 10 "$UNIT_TIMEOUT" "$2" > "$0/$1.out" 2>&1; rc=$?
    [ "$rc" -eq 124 ] && echo "$2: killed after $UNIT_TIMEOUT s (UNIT_TIMEOUT)" >> "$0/$1.out"
    echo "$rc" > "$0/$1.rc"' "$out"
pass=0; fail=0; bad=0; i=0
for t in "$@"; do
  cat "$out/$i.out"
  rc=$(cat "$out/$i.rc" 2>/dev/null || echo 127)
  line=$(grep -E '^[0-9]+%: Checks: ' "$out/$i.out" | tail -n1)
  if [ -n "$line" ]; then
    n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
    f=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
    e=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
    pass=$((pass + n - f - e)); fail=$((fail + f + e))
  else
    echo "$t: no Check summary (exit $rc)"; fail=$((fail + 1))
  fi
  [ "$rc" -eq 0 ] || bad=1
  i=$((i + 1))
done
echo "${UNIT_LABEL:-unit}: $pass passed, $fail failed"
[ "$bad" -eq 0 ] && [ "$fail" -eq 0 ]
