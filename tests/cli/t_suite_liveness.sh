#!/usr/bin/env bash
# tests/cli/t_suite_liveness.sh — the manifest's `liveness:` expectation (issue #10): compared
# with verify --liveness, a wrong one is a disagreement, a bad value is refused with its
# position, --update rewrites it.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cp suites/liveness/spin-flag-set.litmus suites/liveness/spin-flag-never-set.litmus "$tmp/"
manifest() {
  printf 'suite: l\ntests:\n  - file: spin-flag-set.litmus\n    expect: { ptx: Ok }\n    liveness: %s\n  - file: spin-flag-never-set.litmus\n    expect: { ptx: No }\n    liveness: %s\n' "$1" "$2" > "$tmp/manifest.yaml"
}
manifest terminates may-hang
"$bin" suite -q --allow-outside --json "$tmp/r.json" "$tmp" > "$tmp/out" 2>&1 || fail "right expectations: exit $? $(cat "$tmp/out")"
grep -Eq '"expected_liveness":[[:space:]]*"may-hang"' "$tmp/r.json" || fail "no expected_liveness in JSON"
manifest may-hang may-hang
"$bin" suite -q "$tmp" > "$tmp/out" 2>&1 && fail "a wrong liveness expectation passed"
grep -q "disagree" "$tmp/out" || fail "no disagreement: $(cat "$tmp/out")"
grep -Eq '^l +ptx +2 +1 +1 ' "$tmp/out" || fail "summary: $(cat "$tmp/out")"
"$bin" suite -q --update "$tmp" > /dev/null 2>&1
grep -A2 'spin-flag-set' "$tmp/manifest.yaml" | grep -q 'liveness: terminates' || fail "--update did not rewrite: $(cat "$tmp/manifest.yaml")"
manifest sometimes may-hang
"$bin" suite -q "$tmp" > "$tmp/out" 2>&1; [ $? != 0 ] || fail "a bad liveness value: exit 0"
grep -q 'manifest.yaml:5:15: found .sometimes. after liveness:, expected terminates or may-hang' "$tmp/out" || fail "message: $(cat "$tmp/out")"
[ "$fails" = 0 ] || exit 1
echo "suite liveness: all checks passed"
