#!/usr/bin/env bash
# tests/cli/t_options.sh — the one option parser of every command (base/opts.c, issue #15):
# --opt=VALUE, herd7 single-dash spellings, "did you mean" hints, seconds with fractions in
# every --timeout, -q/-v in every command, `help COMMAND`, @FILE lists, directory arguments,
# several --model in verify.
set -u
bin=$1
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

[ "$fails" = 0 ] || exit 1
echo "options: all checks passed"
