#!/usr/bin/env bash
# tests/cli/t_options.sh — the one option parser of every command (base/opts.c, issue #15):
# --opt=VALUE, herd7 single-dash spellings, "did you mean" hints, seconds with fractions in
# every --timeout, -q/-v in every command, `help COMMAND`, @FILE lists, directory arguments,
# several --model in verify.
set -u
bin=$1
case "$bin" in /*) ;; *) bin=$PWD/${bin#./} ;; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mp=suites/isa/MP.litmus

# --opt=VALUE and herd7 spellings give the same verdict block as --opt VALUE
"$bin" verify --model ptx-v7.5 --unroll 1 "$mp" > "$tmp/a" || fail "verify --model"
"$bin" verify --model=ptx-v7.5 --unroll=1 "$mp" > "$tmp/b" || fail "verify --model="
"$bin" verify -model ptx-v7.5 -unroll 1 "$mp" > "$tmp/c" || fail "verify -model (herd7)"
for f in b c; do
  diff <(grep -v '^Time' "$tmp/a") <(grep -v '^Time' "$tmp/$f") > /dev/null || fail "spelling $f differs"
done
# herd7 -o DIR is --graph DIR
"$bin" verify --allow-outside -q -o "$tmp/g" "$mp" || fail "verify -o DIR"
[ -f "$tmp/g/MP.dot" ] || fail "-o DIR wrote no MP.dot"

# hints
"$bin" verify --modle ptx "$mp" 2> "$tmp/e" && fail "--modle accepted"
grep -q "unknown option '--modle'; did you mean '--model'?" "$tmp/e" || fail "no hint for --modle: $(cat "$tmp/e")"
"$bin" verify -speedcheck "$mp" 2> "$tmp/e" && fail "-speedcheck accepted"
grep -q "herd7's -speedcheck" "$tmp/e" || fail "no herd7 note for -speedcheck"
"$bin" verify -json x "$mp" 2> "$tmp/e" && fail "-json accepted"
grep -q "did you mean '--json'" "$tmp/e" || fail "no hint for -json: $(cat "$tmp/e")"
"$bin" suite --jbos 2 2> "$tmp/e" && fail "suite --jbos accepted"
grep -q "did you mean '--jobs'" "$tmp/e" || fail "no hint for suite --jbos"
"$bin" verfy "$mp" 2> "$tmp/e" && fail "verfy accepted"
grep -q "did you mean 'verify'" "$tmp/e" || fail "no hint for verfy"
"$bin" verify --quiet=yes "$mp" 2> "$tmp/e" && fail "--quiet=yes accepted"
grep -q "takes no value, found 'yes'" "$tmp/e" || fail "flag with value: $(cat "$tmp/e")"

# one time unit: seconds, fractions allowed, everywhere
"$bin" verify -q --timeout 0.5 "$mp" || fail "verify --timeout 0.5"
"$bin" verify -q --timeout=2s "$mp" || fail "verify --timeout=2s"
"$bin" suite -q --timeout 0.5 --jobs 1 suites/isa/manifest.yaml > /dev/null 2>&1 || fail "suite --timeout 0.5"
"$bin" compare --timeout 2.5 --model ptx --model ptx-v7.5 "$mp" > /dev/null 2>&1 || fail "compare --timeout 2.5"
"$bin" hw --allow-outside --timeout 0.5 --no-compile --keep "$tmp/hw" "$mp" > /dev/null 2>&1 || fail "hw --timeout 0.5"
"$bin" gen --allow-outside --timeout 0.5 --out "$tmp/gen" --shapes NOPE 2> "$tmp/e"
grep -q "timeout" "$tmp/e" && fail "gen --timeout 0.5 refused: $(cat "$tmp/e")"
"$bin" verify --timeout -1 "$mp" 2> "$tmp/e" && fail "--timeout -1 accepted"
grep -q "takes a number of seconds" "$tmp/e" || fail "--timeout -1 message"

# -q, -v and --help in every command; help COMMAND prints that command's usage
for c in verify suite gen compare merge run hw; do
  "$bin" $c -q -v --help > "$tmp/h" 2>&1 || fail "$c -q -v --help exit"
  grep -q "usage: ptxlitmus $c" "$tmp/h" || fail "$c --help: $(head -1 "$tmp/h")"
  "$bin" help $c > "$tmp/h2" 2>&1 || fail "help $c exit"
  grep -q "usage: ptxlitmus $c" "$tmp/h2" || fail "help $c prints $(head -1 "$tmp/h2")"
done
"$bin" help nosuch 2> /dev/null && fail "help nosuch accepted"

# @FILE: one argument per line, comments and blank lines skipped
printf '# options\n--model\nptx-v7.5\n\n-unroll\n1\n%s\n' "$mp" > "$tmp/args"
"$bin" verify @"$tmp/args" > "$tmp/d" || fail "verify @FILE"
diff <(grep -v '^Time' "$tmp/a") <(grep -v '^Time' "$tmp/d") > /dev/null || fail "@FILE differs"
"$bin" verify @"$tmp/none" 2> "$tmp/e" && fail "missing @FILE accepted"
grep -Eq "^$tmp/none:1:1: found .*, expected " "$tmp/e" || fail "missing @FILE message: $(cat "$tmp/e")"

# a directory is its .litmus files, sorted
mkdir -p "$tmp/dir/sub" "$tmp/empty"
cp suites/isa/LB.litmus "$tmp/dir/b.litmus"; cp "$mp" "$tmp/dir/sub/a.litmus"; echo junk > "$tmp/dir/notes.txt"
"$bin" verify "$tmp/dir" > "$tmp/o" || fail "verify DIR"
[ "$(grep -c '^Test ' "$tmp/o")" = 2 ] || fail "verify DIR decided $(grep -c '^Test ' "$tmp/o") tests"
[ "$(grep '^Test ' "$tmp/o" | head -1)" = "Test LB Required" ] || fail "verify DIR order: $(grep '^Test ' "$tmp/o")"
"$bin" verify "$tmp/empty" 2> "$tmp/e" && fail "empty DIR accepted"
grep -q "found a directory without .litmus files" "$tmp/e" || fail "empty DIR message"

# several --model: one block per model, each labelled, JSON results carry the model
"$bin" verify --allow-outside --model ptx --model ptx-v7.5 --model ptx-v6.0 --json "$tmp/m.json" "$mp" > "$tmp/o" || fail "verify 3 models"
[ "$(grep -c '^Test MP' "$tmp/o")" = 3 ] || fail "3 models gave $(grep -c '^Test MP' "$tmp/o") blocks"
grep -q '^Model ptx-v6.0$' "$tmp/o" || fail "no Model line"
[ "$(grep -c '"model":' "$tmp/m.json")" -ge 4 ] || fail "JSON results lack the model"

# herd7's -j N (issue #30): verify decides N files at a time; the output is the same, in order
"$bin" verify --model ptx --model ptx-v7.5 suites/isa suites/own > "$tmp/j1" 2> "$tmp/j1e"
"$bin" verify -j 3 --model ptx --model ptx-v7.5 suites/isa suites/own > "$tmp/j3" 2> "$tmp/j3e"
cmp -s <(grep -v '^Time' "$tmp/j1") <(grep -v '^Time' "$tmp/j3") || fail "verify -j 3: blocks differ from -j 1"
cmp -s "$tmp/j1e" "$tmp/j3e" || fail "verify -j 3: messages differ from -j 1"
"$bin" verify --jobs=2 -q "$mp" || fail "verify --jobs=2"
"$bin" verify -j 0 "$mp" 2> "$tmp/e" && fail "verify -j 0 accepted"
grep -qx "ptxlitmus verify: -j takes a whole number from 1 to 1024, found '0'" "$tmp/e" || fail "-j 0: $(cat "$tmp/e")"

# issue #28, item 7: an output given twice was "last one wins" (the first silently dropped),
# `table --out t.xyz` wrote CSV, a symbolic link loop made every test count once per level
for c in "verify --json a.json --json=b.json $mp" "suite --junit a.xml --junit b.xml suites/isa" \
         "merge --csv a.csv --csv b.csv x.json" "table -o a.csv --out b.csv $mp" \
         "gen --out a --out b" "run --json a.json --json b.json x.yaml"; do
  mkdir -p "$tmp/twice"
  (cd "$tmp/twice" && "$bin" $c > /dev/null 2> ../e); rc=$?
  [ "$rc" = 2 ] || fail "$c: exit $rc, expected 2"
  grep -Eq "^ptxlitmus [a-z]+: (--[a-z]+|-o) given twice \('a(\.[a-z]+)?', then 'b(\.[a-z]+)?'\), expected it once$" "$tmp/e" \
    || fail "$c: $(cat "$tmp/e")"
  [ -z "$(ls "$tmp/twice")" ] || fail "$c wrote $(ls "$tmp/twice")"
done
"$bin" verify -q --model ptx --model ptx-v7.5 "$mp" || fail "--model twice is not an output"
(cd "$tmp" && "$bin" table --out t.xyz "$OLDPWD/$mp" 2> e); rc=$?
[ "$rc" = 2 ] || fail "table --out t.xyz: exit $rc, expected 2"
grep -qx "ptxlitmus table: --out t.xyz: found the extension '.xyz', expected .csv, .md, .markdown or .tex (or --format csv|markdown|latex)" "$tmp/e" || fail "table .xyz: $(cat "$tmp/e")"
[ -e "$tmp/t.xyz" ] && fail "table .xyz wrote the file"
(cd "$tmp" && "$bin" table --format markdown --out t.xyz "$OLDPWD/$mp") > /dev/null && grep -q '^| MP |' "$tmp/t.xyz" \
  || fail "table --format markdown --out t.xyz"
mkdir -p "$tmp/loop/sub"; cp "$mp" suites/isa/LB.litmus "$tmp/loop/"; cp suites/isa/CoRR.litmus "$tmp/loop/sub/"
ln -s .. "$tmp/loop/sub/up"
"$bin" verify "$tmp/loop" > "$tmp/o" 2> "$tmp/e"; rc=$?
[ "$rc" = 2 ] || fail "verify of a folder with a loop: exit $rc, expected 2"
[ "$(grep -c '^Observation' "$tmp/o")" = 3 ] || fail "loop: $(grep -c '^Observation' "$tmp/o") tests decided, expected 3"
grep -qx "$tmp/loop/sub/up:1:1: found a symbolic link back to a folder being read (a loop), expected a folder of tests; skipped" "$tmp/e" \
  || fail "loop message: $(cat "$tmp/e")"
"$bin" table "$tmp/loop" > "$tmp/o" 2> /dev/null; rc=$?
[ "$rc" = 1 ] || fail "table of a folder with a loop: exit $rc, expected 1"
[ "$(grep -c ',Never$\|,Always$' "$tmp/o")" = 3 ] || fail "table loop: $(cat "$tmp/o")"

[ "$fails" = 0 ] || exit 1
echo "options: all checks passed"
