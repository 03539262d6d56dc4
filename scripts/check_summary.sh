#!/usr/bin/env bash
# scripts/check_summary.sh MAKE — `make check`: runs `MAKE check-all` with TMPDIR inside build/
# (every test's mktemp lands there and the folder is removed at the end: nothing is left in
# /tmp), shows the output and keeps it in build/check.log, then prints one closing line with
# the result, the time taken and the counts of each test family.
set -u
make=${1:-make}
cd "$(dirname "$0")/.."
mkdir -p build
tmpd=$(pwd)/build/check-tmp
rm -rf "$tmpd"; mkdir -p "$tmpd"
start=$SECONDS
TMPDIR=$tmpd "$make" --no-print-directory check-all 2>&1 | tee build/check.log
rc=${PIPESTATUS[0]}
rm -rf "$tmpd"
took=$((SECONDS - start))
sum() {   # the last "NAME: N passed, M failed" line of a family
  grep -E "^$1: [0-9]+ passed, [0-9]+ failed" build/check.log | tail -n1 | sed -E "s/^$1: ([0-9]+) passed, ([0-9]+) failed.*/\\1\\/\\2/"
}
parts=""
for f in unit unit-asan cli errors errors-asan; do
  v=$(sum "$f"); [ -n "$v" ] && parts="$parts $f ${v%/*} passed ${v#*/} failed;"
done
status=PASSED; [ "$rc" -eq 0 ] || status="FAILED (exit $rc, see build/check.log)"
echo "make check: $status in $((took / 60)) min $((took % 60)) s;${parts% ;}"
exit "$rc"
