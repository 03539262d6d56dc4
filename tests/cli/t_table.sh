#!/usr/bin/env bash
# tests/cli/t_table.sh — `ptxlitmus table` (several models or several JSON runs side by side,
# CSV / Markdown / LaTeX booktabs, Unknown marks) and the provenance of every JSON and CSV
# output (version, git hash, Z3 version, model hashes, command line, date).
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mp=suites/isa/MP.litmus; lb=suites/isa/LB.litmus; spin=suites/own/MP+spin-acquire.litmus

# several models, decided here
"$bin" table -q --model ptx --model ptx-v7.5 "$mp" "$lb" > "$tmp/t.csv" || fail "table: exit $?"
grep -v '^#' "$tmp/t.csv" > "$tmp/body"
[ "$(head -1 "$tmp/body")" = "test,quantifier,ptx,ptx-v7.5" ] || fail "CSV header: $(head -1 "$tmp/body")"
grep -qx 'MP,~exists,Never,Never' "$tmp/body" || fail "CSV MP row: $(cat "$tmp/body")"
grep -qx 'LB,forall,Always,Always' "$tmp/body" || fail "CSV LB row"
grep -q '^# ptxlitmus [0-9.]* (git [0-9a-z]*), Z3 [0-9.]*, 20[0-9-]*T[0-9:]*Z$' "$tmp/t.csv" || fail "CSV provenance: $(head -1 "$tmp/t.csv")"
grep -q '^# model ptx: <builtin>/ptx.cat sha256 '"$(sha256sum model/ptx.cat | cut -d' ' -f1)" "$tmp/t.csv" || fail "CSV model hash"

# several runs (verify --json), one column per run's model; runs of the same model get the run's name
"$bin" verify --allow-outside -q --json "$tmp/a.json" "$mp" "$lb" || fail "verify a"
"$bin" verify --allow-outside -q --model ptx-v7.5 --json "$tmp/b.json" "$mp" "$lb" || fail "verify b"
"$bin" verify --allow-outside -q --unroll 0 --allow-unknown --json "$tmp/c.json" "$mp" "$spin" 2> /dev/null || fail "verify c"
"$bin" table --format markdown "$tmp/a.json" "$tmp/b.json" > "$tmp/t.md" || fail "table runs: exit $?"
grep -qx '| test | quantifier | ptx | ptx-v7.5 |' "$tmp/t.md" || fail "Markdown header: $(grep '^| test' "$tmp/t.md")"
grep -qx '| MP | `~exists` | Never | Never |' "$tmp/t.md" || fail "Markdown MP row"
grep -q '^<!--$' "$tmp/t.md" || fail "Markdown provenance comment"
"$bin" table --allow-outside --out "$tmp/t.tex" "$tmp/a.json" "$tmp/c.json" 2> "$tmp/e"; rc=$?
[ "$rc" = 1 ] || fail "table with Unknown: exit $rc, expected 1"
grep -q '1 cell Unknown' "$tmp/e" || fail "no Unknown note: $(cat "$tmp/e")"
grep -q '^\\toprule$' "$tmp/t.tex" && grep -q '^\\midrule$' "$tmp/t.tex" && grep -q '^\\bottomrule$' "$tmp/t.tex" || fail "no booktabs rules"
grep -q '^Test & Quantifier & a:ptx & c:ptx \\\\$' "$tmp/t.tex" || fail "LaTeX header: $(grep '^Test' "$tmp/t.tex")"
grep -q '^MP+spin-acquire & $\\forall$ &  & Unknown$^{\\dagger}$ \\\\$' "$tmp/t.tex" || fail "LaTeX Unknown mark: $(grep spin "$tmp/t.tex")"
grep -q '^% ptxlitmus ' "$tmp/t.tex" || fail "LaTeX provenance"
"$bin" table --allow-unknown --format latex "$tmp/c.json" > /dev/null || fail "--allow-unknown: exit $?"
echo '{"x":1}' > "$tmp/bad.json"
"$bin" table "$tmp/bad.json" 2> "$tmp/e" > /dev/null && fail "bad run accepted"
grep -Eq "bad.json:1:1: found .*, expected the --json output of verify or suite" "$tmp/e" || fail "bad run message: $(cat "$tmp/e")"
"$bin" table --format html "$mp" 2> "$tmp/e" && fail "--format html accepted"
grep -q "takes csv, markdown or latex, found 'html'" "$tmp/e" || fail "--format message"

# provenance in verify JSON (a --cat model hashed from its text) and suite JSON/CSV
cp model/ptx.cat "$tmp/my.cat"; cp model/stdlib.cat "$tmp/" 2>/dev/null
"$bin" verify --allow-outside -q --cat "$tmp/my.cat" --model ptx-v7.5 --json "$tmp/p.json" "$mp" || fail "verify --cat"
python3 - "$tmp/p.json" "$(sha256sum "$tmp/my.cat" | cut -d' ' -f1)" "$(sha256sum model/ptx-v7.5.cat | cut -d' ' -f1)" <<'P' || fail "verify JSON provenance"
import json, re, sys
d = json.load(open(sys.argv[1])); p = d["provenance"]
assert re.fullmatch(r"[0-9.]+", p["ptxlitmus"]) and p["git"] and p["z3"], p
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", p["date"]), p["date"]
assert p["command"][0] == "verify" and "--cat" in p["command"], p["command"]
h = {m["file"].split("/")[-1]: m["sha256"] for m in p["models"]}
assert h["my.cat"] == sys.argv[2] and h["ptx-v7.5.cat"] == sys.argv[3], h
assert [r["model"] for r in d["results"]] == [m for m in d["models"]], d["models"]
P
mkdir -p "$tmp/s"; cp "$mp" "$tmp/s/"
printf 'suite: s\ntests:\n  - file: MP.litmus\n    expect: { ptx: Ok }\n' > "$tmp/s/manifest.yaml"
"$bin" suite -q --allow-outside "$tmp/s" --json "$tmp/s.json" --csv "$tmp/s.csv" > /dev/null || fail "suite"
grep -q '"sha256":' "$tmp/s.json" || fail "suite JSON provenance"
grep -q '^# command: ptxlitmus suite -q ' "$tmp/s.csv" || fail "suite CSV provenance"

# issue #28, item 2: two tests that share a name were one row (the quantifier of the first
# file, the observation of the last); the bundled suites have 7 such names.  One row per file,
# the name told apart by the end of its path.
mkdir -p "$tmp/d/a" "$tmp/d/b"
cp suites/isa/MP.litmus "$tmp/d/a/T.litmus"
sed 's/^PTX MP$/PTX MP/' suites/isa/MP-nofence.litmus | sed 's/^PTX MP-nofence/PTX MP/' > "$tmp/d/b/T.litmus"
"$bin" table "$tmp/d" > "$tmp/dup.csv" || fail "table of two tests named MP: exit $?"
grep -qx 'MP (a/T.litmus),~exists,Never' "$tmp/dup.csv" || fail "first MP row: $(cat "$tmp/dup.csv")"
grep -qx 'MP (b/T.litmus),exists,Sometimes' "$tmp/dup.csv" || fail "second MP row: $(cat "$tmp/dup.csv")"
"$bin" table -q suites/own suites/llvm > "$tmp/b.csv" 2> /dev/null
[ "$(grep -vc '^#' "$tmp/b.csv")" = "$(( $(find suites/own suites/llvm -name '*.litmus' | wc -l) + 1 ))" ] \
  || fail "table suites/own suites/llvm: $(grep -vc '^#' "$tmp/b.csv") lines, not one per test + header"
grep -q '^2+2W+rel (2+2W+rel.llvm.litmus),exists,' "$tmp/b.csv" || fail "no llvm 2+2W+rel row"
grep -q '^2+2W+rel (2+2W+rel.litmus),exists,' "$tmp/b.csv" || fail "no own 2+2W+rel row"
# issue #30: shards of one suite run hold different tests: one column per model, not per shard
for i in 1 2; do
  "$bin" suite -q --allow-outside --shard $i/2 --model ptx --json "$tmp/sh$i.json" suites/isa > /dev/null 2>&1
done
"$bin" table "$tmp/sh1.json" "$tmp/sh2.json" > "$tmp/sh.csv" || fail "table of two shards: exit $?"
grep -qx 'test,quantifier,ptx' "$tmp/sh.csv" || fail "shard columns: $(grep quantifier "$tmp/sh.csv")"
[ "$(grep -vc '^#' "$tmp/sh.csv")" = 18 ] || fail "shards: $(grep -vc '^#' "$tmp/sh.csv") lines, expected 17 tests + header"
# two runs of the same tests under the same model still get a column each
"$bin" verify -q --allow-outside --json "$tmp/r1.json" "$mp"
"$bin" verify -q --allow-outside --json "$tmp/r2.json" "$mp"
"$bin" table "$tmp/r1.json" "$tmp/r2.json" | grep -qx 'test,quantifier,r1:ptx,r2:ptx' || fail "two runs of one model"

[ "$fails" = 0 ] || exit 1
echo "table: all checks passed"
