#!/usr/bin/env bash
# tests/cli/t_unknown.sh — an empty or partial run never passes (issue #15): a verdict cut
# short by a bound or a timeout is Unknown in text, JSON, CSV, JUnit and the suite summary and
# fails the run unless --allow-unknown; a suite that checks nothing fails ("nothing checked");
# suite takes --unroll and the other limits of verify.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
spin=suites/own/MP+spin-acquire.litmus   # forall; its spin loop needs a backward jump

# verify: the bound cuts the only path that reaches the final state
"$bin" verify --allow-outside --unroll 0 --json "$tmp/v.json" "$spin" > "$tmp/o" 2> "$tmp/e"; rc=$?
[ "$rc" = 1 ] || fail "verify --unroll 0: exit $rc, expected 1"
grep -qx 'Unknown' "$tmp/o" || fail "no Unknown verdict line: $(cat "$tmp/o")"
grep -q '^Observation MP+spin-acquire Unknown ' "$tmp/o" || fail "observation not Unknown"
grep -q 'the verdict is Unknown (raise --unroll)' "$tmp/o" || fail "no Bound reached line"
grep -q '"verdict":	"Unknown"' "$tmp/v.json" || fail "JSON verdict not Unknown"
grep -q '1 verdict Unknown' "$tmp/e" || fail "no Unknown note on stderr"
"$bin" verify -q --unroll 0 --allow-unknown "$spin" 2> /dev/null || fail "--allow-unknown: exit $?"
"$bin" verify -q "$spin" || fail "default unroll: exit $?"   # decided: Ok
# a state found within the bound is final: MP under --unroll 0 has no loop, stays decided
"$bin" verify -q --unroll 0 suites/isa/MP.litmus || fail "MP --unroll 0 not decided"
# verify: a timeout is Unknown (exit 1), not an error (exit 2)
"$bin" verify --allow-outside -q --timeout 0.000001 --json "$tmp/t.json" suites/isa/MP.litmus 2> /dev/null; rc=$?
[ "$rc" = 1 ] || fail "verify timeout: exit $rc, expected 1"
grep -q '"verdict":	"Unknown"' "$tmp/t.json" || fail "timeout JSON verdict not Unknown"

# suite: --unroll reaches the workers; Unknown in the summary, CSV, JUnit, JSON
mkdir -p "$tmp/s"
cp "$spin" suites/isa/MP.litmus "$tmp/s/"
cat > "$tmp/s/manifest.yaml" <<'Y'
suite: unk
tests:
  - file: MP+spin-acquire.litmus
    expect: { ptx: Ok }
  - file: MP.litmus
    expect: { ptx: Ok }
Y
"$bin" suite --allow-outside "$tmp/s" -q --unroll 0 --csv "$tmp/s.csv" --junit "$tmp/s.xml" --json "$tmp/s.json" > "$tmp/o" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "suite --unroll 0: exit $rc, expected 1"
grep -q '^UNKNOWN unk/MP+spin-acquire.litmus \[ptx\]' "$tmp/o" || fail "no UNKNOWN line: $(cat "$tmp/o")"
grep -Eq '^unk +ptx +2 +1 +0 +0 +1 ' "$tmp/o" || fail "summary row: $(grep '^unk' "$tmp/o")"
grep -q '^unk,MP+spin-acquire.litmus,ptx,Ok,Unknown,Unknown,.*,unknown$' "$tmp/s.csv" || fail "CSV row: $(cat "$tmp/s.csv")"
grep -q 'type="unknown"' "$tmp/s.xml" || fail "JUnit has no unknown error"
grep -q '"outcome":	"unknown"' "$tmp/s.json" || fail "JSON outcome not unknown"
"$bin" suite "$tmp/s" -q --unroll 0 --allow-unknown > "$tmp/o" 2>&1 || fail "suite --allow-unknown: exit $?"
grep -q 'accepted (--allow-unknown)' "$tmp/o" || fail "no accepted note"
"$bin" suite "$tmp/s" -q > /dev/null 2>&1 || fail "suite default unroll: exit $?"
# --update never writes an Unknown verdict
cp "$tmp/s/manifest.yaml" "$tmp/m.before"
"$bin" suite "$tmp/s" -q --unroll 0 --update --allow-unknown > /dev/null 2>&1
grep -q 'MP+spin-acquire' "$tmp/s/manifest.yaml" && ! grep -q 'ptx: No' "$tmp/s/manifest.yaml" || fail "--update wrote an Unknown verdict"
# the other limits are accepted and checked
"$bin" suite "$tmp/s" -q --max-events 200 --max-traces 100 --states 5 --max-depth 100 > /dev/null 2>&1 || fail "suite limits"
"$bin" suite "$tmp/s" --unroll -1 2> "$tmp/e"; [ $? = 2 ] || fail "suite --unroll -1 accepted"
grep -q "ptxlitmus suite: --unroll takes a whole number from 0 to 1000, found '-1'" "$tmp/e" || fail "suite --unroll -1 message"
"$bin" suite "$tmp/s" -q --max-events 2 > /dev/null 2>&1 && fail "suite --max-events 2 not applied"

# nothing checked: no tests, no expectations, or no job for the model asked for
mkdir -p "$tmp/empty" "$tmp/noexp"
printf 'suite: empty\ntests: []\n' > "$tmp/empty/manifest.yaml"
"$bin" suite "$tmp/empty" -q > "$tmp/o" 2>&1 && fail "empty suite passed"
grep -q 'nothing checked' "$tmp/o" || fail "empty suite: $(cat "$tmp/o")"
cp suites/isa/MP.litmus "$tmp/noexp/"
printf 'suite: noexp\ntests:\n  - file: MP.litmus\n' > "$tmp/noexp/manifest.yaml"
"$bin" suite "$tmp/noexp" -q > "$tmp/o" 2>&1 && fail "suite without expectations passed"
grep -q 'nothing checked' "$tmp/o" || fail "no expectations: $(cat "$tmp/o")"
"$bin" suite "$tmp/s" -q --model ptx-v6.0 > "$tmp/o" 2>&1 && fail "suite with no job for the model passed"
grep -q 'nothing checked' "$tmp/o" || fail "model without jobs: $(cat "$tmp/o")"

# a cut state list (issue #28, item 5): `--states 1` printed `Sometimes 0 1` and the JSON
# validated: true with positive: 0; the list now holds a witness of each side, says it is cut
for n in 1 none; do
  "$bin" verify --allow-outside --states "$n" --json "$tmp/c.json" suites/isa/MP-nofence.litmus > "$tmp/o" 2>&1 \
    || fail "--states $n: exit $?"
  grep -qx 'Observation MP-nofence Sometimes 1 1' "$tmp/o" || fail "--states $n: $(grep Observation "$tmp/o")"
  grep -qx 'States listed: 2, more exist (--states N or all); the counts are of the listed states, which witness the verdict' "$tmp/o" \
    || fail "--states $n: no cut line: $(cat "$tmp/o")"
  python3 -c "
import json,sys; r=json.load(open(sys.argv[1]))['results'][0]
assert r['validated'] and r['positive'] == 1 and r['negative'] == 1 and len(r['states']) == 2, r
assert r['states_truncated'] is True and r['states_total'] is None, r" "$tmp/c.json" || fail "--states $n: JSON"
done

[ "$fails" = 0 ] || exit 1
echo "unknown: all checks passed"
