#!/usr/bin/env bash
# scripts/check_times.sh [BUILD] — where the CPU time of `make check` goes, per test: runs every
# unit test binary of BUILD/tests (default build; build-asan for the sanitized ones) and, for
# BUILD=build, every CLI test script (tests/cli/t_*.sh), the error catalogue and the suites, one
# at a time, and prints "user+sys wall name" per part, the most expensive first, then the total.
# CPU time (user+sys of the part and its children, /usr/bin/time) is what to compare on a shared
# machine: wall time there depends on the other jobs.  Needs the binaries built (make check, or
# make ptxlitmus and the test binaries); it asserts nothing (docs/benchmarks.md, "make check").
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build}
out=$(mktemp -d "${TMPDIR:-/tmp}/check-times.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
bin=$(pwd)/ptxlitmus
[ "$BUILD" = build ] || bin=$(pwd)/$BUILD/ptxlitmus
export CK_FORK=no
[ "$BUILD" = build ] || export ASAN_OPTIONS=detect_leaks=1

# part NAME COMMAND...: one line "CPU WALL NAME" into the table
part() {
  local name=$1; shift
  /usr/bin/time -f '%U %S %e' -o "$out/t" "$@" > "$out/log" 2>&1
  local rc=$?
  tail -n 1 "$out/t" | awk -v n="$name" -v rc=$rc '{ printf "%7.2f %7.2f %s%s\n", $1 + $2, $3, n,
                                 rc && rc != 77 ? " (exit " rc ")" : "" }' >> "$out/table"
}

for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] && part "unit $(basename "$t")" "$t"
done
if [ "$BUILD" = build ]; then
  for t in tests/cli/t_*.sh; do part "cli $(basename "$t" .sh)" bash "$t" "$bin"; done
  part "check-errors" bash tests/cli/errors.sh "$bin"
  part "check-atomic" bash tests/cli/atomic.sh "$bin"
  part "check-suites" "$bin" suite --jobs 2 --json "$out/suites.json"
else
  part "errors-asan" env ERRORS_LITMUS_BATCH_ONLY=1 bash tests/cli/errors.sh "$bin"
fi
sort -rn "$out/table"
awk '{ c += $1; w += $2 } END { printf "%7.2f %7.2f total (%d parts, one at a time)\n", c, w, NR }' \
  "$out/table"
