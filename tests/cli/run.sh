#!/usr/bin/env bash
# CLI tests: runs every tests/cli/t_*.sh with the ptxlitmus binary as $1 (default ./ptxlitmus),
# from the project root.  A test passes when it exits 0, is skipped (counted as passed, reason
# printed) when it exits 77.  Prints a final line "cli: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-./ptxlitmus}
case "$bin" in /*) ;; *) bin="$root/${bin#./}" ;; esac
cd "$root" || exit 2
pass=0; fail=0
for t in "$here"/t_*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  out=$(bash "$t" "$bin" 2>&1); rc=$?
  if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); echo "PASS $name"
  elif [ "$rc" -eq 77 ]; then pass=$((pass + 1)); echo "SKIP $name: $(printf '%s\n' "$out" | tail -n1)"
  else fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
  fi
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
