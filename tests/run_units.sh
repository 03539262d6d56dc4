#!/usr/bin/env bash
# Runs each Check test binary given on the command line, then prints one closing line
# "N passed, N failed" summing Check's per-binary counts.
set -u
pass=0; fail=0; bad=0
for t in "$@"; do
  out=$("$t" 2>&1); rc=$?
  printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n1)
  if [ -n "$line" ]; then
    n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
    f=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
    e=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
    pass=$((pass + n - f - e)); fail=$((fail + f + e))
  else
    echo "$t: no Check summary (exit $rc)"; fail=$((fail + 1))
  fi
  [ "$rc" -eq 0 ] || bad=1
done
echo "unit: $pass passed, $fail failed"
[ "$bad" -eq 0 ] && [ "$fail" -eq 0 ]
