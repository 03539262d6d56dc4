#!/usr/bin/env bash
# tests/cli/t_depth_stack.sh — issue #28, item 4: `verify --max-depth 10000` (the documented
# cap) on a condition that deep crashed with SIGSEGV under `ulimit -s 1024` or 2048.  The
# parser checks the depth against the room left on the real stack: on a small stack the test
# is an error naming the stack and ulimit -s (exit 2, no crash), the other files of the run
# are still decided; on a stack the budget allows (64 MiB) the cap is decided.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
head='PTX deep
{ x = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;
exists ('
python3 - "$tmp" "$head" <<'PY'
import sys
d, head = sys.argv[1], sys.argv[2]
n = 9990
shapes = {"parens": "(" * n + "P1:r0 == 1" + ")" * n, "not": "~" * n + "P1:r0 == 1",
          "and": "P1:r0 == 1 /\\ " * n + "P1:r0 == 1", "or": "P1:r0 == 1 \\/ " * n + "P1:r0 == 1"}
for k, c in shapes.items():
    open(f"{d}/{k}.litmus", "w").write(head + c + ")\n")
PY
for s in 1024 2048; do
  for f in parens not and or; do
    (ulimit -s "$s"; "$bin" verify -q --max-depth 10000 "$tmp/$f.litmus" suites/isa/MP.litmus \
       > "$tmp/o" 2> "$tmp/e"); rc=$?
    [ "$rc" = 2 ] || fail "$f, ulimit -s $s: exit $rc, expected 2 ($(head -c 200 "$tmp/e"))"
    grep -q "^$tmp/$f.litmus:5:[0-9]*: found a condition nested more than [0-9]* levels deep, .*KiB left on this thread's stack hold [0-9]* of the --max-depth 10000; raise ulimit -s)$" "$tmp/e" \
      || fail "$f, ulimit -s $s: message $(head -c 300 "$tmp/e")"
  done
done
(ulimit -s 1024; "$bin" verify --max-depth 10000 "$tmp/parens.litmus" suites/isa/MP.litmus \
   2> /dev/null | grep -q '^Observation MP Never') || fail "the other file was not decided"
for f in parens not and or; do
  (ulimit -s 65536 2> /dev/null; "$bin" verify -q --max-depth 10000 "$tmp/$f.litmus") \
    || fail "$f, ulimit -s 65536: exit $?"
done
[ "$fails" = 0 ] && echo "depth against the stack: ok"
[ "$fails" = 0 ]
