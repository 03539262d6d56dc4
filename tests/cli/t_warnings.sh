#!/usr/bin/env bash
# tests/cli/t_warnings.sh — warnings of verify (frontend/litmus_warn.c): a condition register
# its thread never writes and a location the initial state never declares get
# file:line:col on stderr and in JSON "warnings"; --Werror makes them errors; the bundled
# suites have none.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cat > "$tmp/w.litmus" <<'T'
PTX W
{ x=0; P0:r7=1; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0             ;
 st.relaxed.gpu [x], 1  | ld.relaxed.gpu r0, [x]     ;
 st.relaxed.gpu [z], 1  | ld.relaxed.gpu r1, [z]     ;
exists (P1:r5 == 0 /\ z == 1 /\ P1:r1 == 0 /\ P0:r7 == 1 /\ x == 1)
T
"$bin" verify --allow-outside -q --json "$tmp/w.json" "$tmp/w.litmus" 2> "$tmp/e" || fail "warnings alone failed: exit $?"
grep -qx "$tmp/w.litmus:6:9: warning: found P1:r5, which thread P1 never writes (it reads as 0), expected a register the thread writes or the initial state sets" "$tmp/e" || fail "no register warning: $(cat "$tmp/e")"
grep -qx "$tmp/w.litmus:6:23: warning: found the location 'z', which the initial state never declares (it starts as 0), expected a location of the initial state" "$tmp/e" || fail "no location warning"
[ "$(grep -c warning "$tmp/e")" = 2 ] || fail "expected 2 warnings (P1:r1 written, P0:r7 initialised, x declared): $(cat "$tmp/e")"
python3 -c "import json,sys; w=json.load(open(sys.argv[1]))['results'][0]['warnings']; assert len(w)==2 and ':6:9: warning:' in w[0], w" "$tmp/w.json" || fail "JSON warnings"
"$bin" verify --allow-outside -q --Werror --json "$tmp/e.json" "$tmp/w.litmus" 2> "$tmp/e"; rc=$?
[ "$rc" = 2 ] || fail "--Werror: exit $rc, expected 2"
grep -qx "$tmp/w.litmus:6:9: found P1:r5, which thread P1 never writes (it reads as 0), expected a register the thread writes or the initial state sets" "$tmp/e" || fail "--Werror line: $(cat "$tmp/e")"
grep -q '"status":	"error"' "$tmp/e.json" || fail "--Werror JSON status"
# a test without typos: no warning, and --Werror changes nothing
"$bin" verify -q --Werror suites/isa/MP.litmus 2> "$tmp/e" || fail "MP with --Werror: exit $?"
[ -s "$tmp/e" ] && fail "MP warned: $(cat "$tmp/e")"
# the bundled suites are clean, LLVM and Tile IR tests included (issue #28, item 6: their
# `{ i32 x = 0; }` did not count as declared); every bundled test: tests/test_suite.c
"$bin" verify -q --Werror suites/isa suites/own suites/llvm suites/tileir 2> "$tmp/e" > /dev/null \
  || fail "verify --Werror on the bundled suites: exit $?: $(head -3 "$tmp/e")"
grep -q warning "$tmp/e" && fail "bundled suites warn: $(grep warning "$tmp/e" | head -3)"
# a declared location with a value other than 0 gets no warning either
cat > "$tmp/l.litmus" <<'T'
LLVM L
{ i32 x = 5; }
P0@cta 0,gpu 0 {
  store atomic i32 1, ptr %x syncscope("device") monotonic, align 4
}
exists (x == 5)
T
"$bin" verify -q --Werror "$tmp/l.litmus" 2> "$tmp/e" || fail "LLVM x = 5 --Werror: exit $?: $(cat "$tmp/e")"
# issue #28, item 7: a file cut before its condition, and a location or register initialised
# twice, were accepted silently (exists (true) Ok; the last value won): warnings naming what
# was found, errors under --Werror
cat > "$tmp/cut.litmus" <<'T'
PTX Cut
{ x=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0             ;
 st.relaxed.gpu [x], 1  | ld.relaxed.gpu r0, [x]     ;
T
"$bin" verify -q "$tmp/cut.litmus" 2> "$tmp/e" || fail "no condition: exit $?"
grep -qx "$tmp/cut.litmus:5:1: warning: found the end of the test and no condition, expected 'exists', '~exists' or 'forall' (it is decided as exists (true): does any execution end?)" "$tmp/e" \
  || fail "no condition: $(cat "$tmp/e")"
"$bin" verify -q --Werror "$tmp/cut.litmus" 2> "$tmp/e"; rc=$?
[ "$rc" = 2 ] || fail "no condition --Werror: exit $rc, expected 2"
grep -qx "$tmp/cut.litmus:5:1: found the end of the test and no condition, .*" "$tmp/e" || fail "no condition --Werror: $(cat "$tmp/e")"
cat > "$tmp/twice.litmus" <<'T'
PTX Twice
{ x=0; int y = 1; P1:r1 = x; x = 1; y; P1:r1=2; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0             ;
 st.relaxed.gpu [x], 1  | ld.relaxed.gpu r0, [x]     ;
exists (P1:r0 == 1 /\ P1:r1 == 2)
T
"$bin" verify --allow-outside -q --json "$tmp/t.json" "$tmp/twice.litmus" 2> "$tmp/e" || fail "twice: exit $?"
grep -qx "$tmp/twice.litmus:2:30: warning: found 'x' initialised a second time (first at 2:3), expected each location initialised once (the last value is used)" "$tmp/e" || fail "x twice: $(cat "$tmp/e")"
grep -qx "$tmp/twice.litmus:2:37: warning: found 'y' initialised a second time (first at 2:12), .*" "$tmp/e" || fail "y twice"
grep -qx "$tmp/twice.litmus:2:40: warning: found P1:r1 initialised a second time (first at 2:19), expected each register initialised once (the last value is used)" "$tmp/e" || fail "P1:r1 twice"
[ "$(grep -c warning "$tmp/e")" = 3 ] || fail "twice: expected 3 warnings: $(cat "$tmp/e")"
python3 -c "import json,sys; w=json.load(open(sys.argv[1]))['results'][0]['warnings']; assert len(w)==3 and 'second time' in w[0], w" "$tmp/t.json" || fail "twice: JSON warnings"
"$bin" verify -q --Werror "$tmp/twice.litmus" 2> /dev/null; rc=$?
[ "$rc" = 2 ] || fail "twice --Werror: exit $rc, expected 2"
[ "$fails" = 0 ] || exit 1
echo "warnings: all checks passed"
