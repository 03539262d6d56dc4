#!/usr/bin/env bash
# A test whose worker crashes and one that hangs past --timeout are reported as errors and the
# rest of the run goes on; exit status 1.  (PTXLITMUS_TEST_CRASH/HANG are test-only hooks.)
set -eu
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp suites/isa/*.litmus suites/isa/manifest.yaml "$tmp/"
set +e
PTXLITMUS_TEST_CRASH=MP.litmus PTXLITMUS_TEST_HANG=LB.litmus "$bin" suite --allow-outside "$tmp" --model ptx --timeout 2 --jobs 2 --junit "$tmp/j.xml" > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
set -e
cat "$tmp/out.txt"
[ "$rc" -eq 1 ]
grep -q '^ERROR isa-8.10/MP.litmus \[ptx\]: .*crashed with signal 6' "$tmp/out.txt"
grep -q '^UNKNOWN isa-8.10/LB.litmus \[ptx\]: .*found no verdict after 2 s' "$tmp/out.txt"
grep -Eq '^isa-8.10 +ptx +17 +15 +0 +1 +1' "$tmp/out.txt"
grep -q 'type="unknown"' "$tmp/j.xml"
# without the hooks the same suite is green
"$bin" suite "$tmp" --model ptx -q > /dev/null
