#!/usr/bin/env bash
# tests/cli/t_graph_names.sh — verify --graph: pictures never overwrite each other (two tests
# with the same file name, one test under several models), and --show / herd7's -show, -through
# choose what is drawn (the witness, every allowed state, every forbidden candidate).
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/a" "$tmp/b"
cp suites/isa/MP.litmus "$tmp/a/MP.litmus"
sed 's/^~exists.*/exists (P1:%r0 == 0)/' suites/isa/MP.litmus > "$tmp/b/MP.litmus"
"$bin" verify --allow-outside -q --graph "$tmp/g" "$tmp/a/MP.litmus" "$tmp/b/MP.litmus" || fail "verify --graph: exit $?"
[ -f "$tmp/g/MP.dot" ] && [ -f "$tmp/g/MP-2.dot" ] || fail "same-name tests: $(ls "$tmp/g")"
cmp -s "$tmp/g/MP.dot" "$tmp/g/MP-2.dot" && fail "the two pictures are the same file content"
grep -q 'a representative' "$tmp/g/MP.dot" || fail "MP.dot is not a's witness"
grep -q 'satisfies the condition' "$tmp/g/MP-2.dot" || fail "MP-2.dot is not b's witness"
"$bin" verify --allow-outside -q --model ptx --model ptx-v7.5 -o "$tmp/m" -show prop "$tmp/a/MP.litmus" || fail "-o -show prop: exit $?"
[ -f "$tmp/m/MP.ptx.dot" ] && [ -f "$tmp/m/MP.ptx-v7.5.dot" ] || fail "several models: $(ls "$tmp/m")"
"$bin" verify --allow-outside -q --show witness --graph "$tmp/w" "$tmp/a/MP.litmus" || fail "--show witness"
# --show all: one picture per allowed state of MP (3), names that do not clash
"$bin" verify --allow-outside -q --show all --graph "$tmp/all" "$tmp/a/MP.litmus" || fail "--show all: exit $?"
[ "$(ls "$tmp/all"/*.dot | wc -l)" = 3 ] || fail "--show all: $(ls "$tmp/all")"
[ "$(grep -h '^// execution: an allowed execution' "$tmp/all"/*.dot | sort -u | wc -l)" = 3 ] || fail "--show all: not three distinct states"
# --show forbidden / -through invalid: MP's outcome is ruled out, each picture names the check
for w in "--show forbidden" "-through invalid" "-show neg"; do
  rm -rf "$tmp/f"
  "$bin" verify --allow-outside -q $w --graph "$tmp/f" "$tmp/a/MP.litmus" || fail "$w: exit $?"
  ls "$tmp/f"/*.dot > /dev/null 2>&1 || fail "$w: no picture"
  grep -q '^// execution: ruled out by ' "$tmp/f"/MP.dot || fail "$w: $(head -1 "$tmp/f"/MP.dot)"
done
"$bin" verify -q --show some "$tmp/a/MP.litmus" 2> "$tmp/e"; [ $? = 2 ] || fail "--show some accepted"
grep -q "takes witness, all, forbidden" "$tmp/e" || fail "--show some message: $(cat "$tmp/e")"
[ "$fails" = 0 ] || exit 1
echo "graph names: all checks passed"
