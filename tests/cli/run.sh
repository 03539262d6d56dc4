#!/usr/bin/env bash
# CLI tests: runs every tests/cli/t_*.sh with the ptxlitmus binary as $1 (default ./ptxlitmus),
# from the project root.  A test passes when it exits 0, is skipped (counted as passed, reason
# printed) when it exits 77; CLI_JOBS (default 2) run at a time, reported in name order.  Prints
# a final line "cli: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-./ptxlitmus}
case "$bin" in /*) ;; *) bin="$root/${bin#./}" ;; esac
cd "$root" || exit 2
jobs=${CLI_JOBS:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/cli.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
# every test runs (CLI_JOBS at a time) with its output kept; the report below is in name order
for t in "$here"/t_*.sh; do [ -e "$t" ] && printf '%s\n' "$t"; done |
  xargs -P "$jobs" -I{} bash -c 'n=$(basename "$1" .sh); bash "$1" "$2" > "$0/$n.out" 2>&1;
                                 echo $? > "$0/$n.rc"' "$out" {} "$bin"
pass=0; fail=0
for t in "$here"/t_*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  rc=$(cat "$out/$name.rc" 2>/dev/null || echo 127)
  if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); echo "PASS $name"
  elif [ "$rc" -eq 77 ]; then pass=$((pass + 1)); echo "SKIP $name: $(tail -n1 "$out/$name.out")"
  else fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; tail -n 30 "$out/$name.out" | sed 's/^/    /'
  fi
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
