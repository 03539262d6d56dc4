#!/usr/bin/env bash
# tests/cli/t_graph_names.sh — verify --graph: pictures never overwrite each other (two tests
# with the same file name, one test under several models), and --show / herd7's -show, -through
# choose what is drawn (witness; all and forbidden are refused until the checker gives them).
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/a" "$tmp/b"
cp suites/isa/MP.litmus "$tmp/a/MP.litmus"
sed 's/^~exists.*/exists (P1:%r0 == 0)/' suites/isa/MP.litmus > "$tmp/b/MP.litmus"
"$bin" verify -q --graph "$tmp/g" "$tmp/a/MP.litmus" "$tmp/b/MP.litmus" || fail "verify --graph: exit $?"
[ -f "$tmp/g/MP.dot" ] && [ -f "$tmp/g/MP-2.dot" ] || fail "same-name tests: $(ls "$tmp/g")"
cmp -s "$tmp/g/MP.dot" "$tmp/g/MP-2.dot" && fail "the two pictures are the same file content"
grep -q 'a representative' "$tmp/g/MP.dot" || fail "MP.dot is not a's witness"
grep -q 'satisfies the condition' "$tmp/g/MP-2.dot" || fail "MP-2.dot is not b's witness"
"$bin" verify -q --model ptx --model ptx-v7.5 -o "$tmp/m" -show prop "$tmp/a/MP.litmus" || fail "-o -show prop: exit $?"
[ -f "$tmp/m/MP.ptx.dot" ] && [ -f "$tmp/m/MP.ptx-v7.5.dot" ] || fail "several models: $(ls "$tmp/m")"
"$bin" verify -q --show witness --graph "$tmp/w" "$tmp/a/MP.litmus" || fail "--show witness"
for w in all forbidden; do
  "$bin" verify -q --show $w --graph "$tmp/x" "$tmp/a/MP.litmus" 2> "$tmp/e"; [ $? = 2 ] || fail "--show $w accepted"
  grep -q "show $w is not available yet" "$tmp/e" || fail "--show $w message: $(cat "$tmp/e")"
done
"$bin" verify -q -through invalid --graph "$tmp/x" "$tmp/a/MP.litmus" 2> /dev/null; [ $? = 2 ] || fail "-through invalid accepted"
"$bin" verify -q --show some "$tmp/a/MP.litmus" 2> "$tmp/e"; [ $? = 2 ] || fail "--show some accepted"
grep -q "takes witness, all, forbidden" "$tmp/e" || fail "--show some message: $(cat "$tmp/e")"
[ "$fails" = 0 ] || exit 1
echo "graph names: all checks passed"
