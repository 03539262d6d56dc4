#!/usr/bin/env bash
# tests/cli/t_values.sh — symbolic values (issue #27) at the command line: the counter lemmas
# of solver/query_lemmas.c are used only when the model implies them (a model without the
# atomicity axioms lets a 2 x 2 counter lose increments); --max-memory makes a verdict Unknown
# (exit 1, JSON status "timeout", the message names the option) and refuses a bad size; --timeout
# stops a cat model's least fixpoint; the
# progress line of a long test (PTXLITMUS_PROGRESS=1 stands for a terminal) is written and
# erased on stderr, and not written elsewhere.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$tmp/c22.litmus" <<'L'
PTX c22
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 atom.global.add.u32 %r0, [x], 1 | atom.global.add.u32 %r0, [x], 1 ;
 atom.global.add.u32 %r1, [x], 1 | atom.global.add.u32 %r1, [x], 1 ;
forall (x == 4)
L
printf '"no atomicity"\nacyclic po as po-acyclic\n' > "$tmp/none.cat"
"$bin" verify "$tmp/c22.litmus" > "$tmp/o" || fail "c22 under ptx: exit $?"
grep -qx 'States 1' "$tmp/o" && grep -qx 'x=4;' "$tmp/o" && grep -qx 'Ok' "$tmp/o" ||
  fail "c22 under ptx: $(cat "$tmp/o")"
"$bin" verify --cat "$tmp/none.cat" "$tmp/c22.litmus" > "$tmp/o"
grep -qx 'States 4' "$tmp/o" && grep -qx 'x=1;' "$tmp/o" && grep -qx 'No' "$tmp/o" ||
  fail "c22 without atomicity kept its lemma: $(cat "$tmp/o")"

# --timeout reaches the least fixpoints of a cat model: ptx-v6.0's `let rec observation` over
# a counter's chain of atomics took minutes per convergence test and ignored the limit
timeout 60 "$bin" verify --model ptx-v6.0 --timeout 2 suites/values/counter-2x4.litmus > "$tmp/o" 2> "$tmp/e"
rc=$?
{ [ "$rc" = 1 ] && grep -q 'found a test that needs more than 2 s' "$tmp/e"; } ||
  { [ "$rc" = 0 ] && grep -qx 'Ok' "$tmp/o"; } ||
  fail "counter-2x4 under ptx-v6.0 --timeout 2: exit $rc (124: the limit was ignored) $(cat "$tmp/e")"

# --max-memory
"$bin" verify --allow-outside --max-memory 1K --json "$tmp/m.json" suites/isa/MP.litmus > /dev/null 2> "$tmp/e"
rc=$?
[ "$rc" = 1 ] || fail "--max-memory 1K: exit $rc, expected 1"
grep -q 'MP.litmus:1:1: found a test that needs more than 1K bytes of memory, expected a decision within the limit (--max-memory 1K)' "$tmp/e" ||
  fail "--max-memory message: $(cat "$tmp/e")"
grep -q '"status":	"timeout"' "$tmp/m.json" && grep -q '"verdict":	"Unknown"' "$tmp/m.json" ||
  fail "--max-memory JSON"
"$bin" verify -q --max-memory 0 suites/isa/MP.litmus || fail "--max-memory 0 (none): exit $?"
"$bin" verify -q --max-memory 64M suites/isa/MP.litmus || fail "--max-memory 64M: exit $?"
"$bin" verify --max-memory 12Q suites/isa/MP.litmus > /dev/null 2> "$tmp/e"; rc=$?
[ "$rc" = 2 ] && grep -q "max-memory takes a size in bytes (K, M, G suffixes) up to 1024G, found '12Q'" "$tmp/e" ||
  fail "bad --max-memory: exit $rc, $(cat "$tmp/e")"

# the progress line: shown (and erased) for a test past the threshold, on a terminal only
PTXLITMUS_PROGRESS=1 PTXLITMUS_PROGRESS_AFTER=0 "$bin" verify -q suites/isa/MP.litmus 2> "$tmp/p"
grep -q 'verify MP: 0 s, ' "$tmp/p" || fail "no progress line: $(cat -v "$tmp/p")"
[ "$(tail -c 4 "$tmp/p" | od -An -c | tr -d ' ')" = '\r033[K' ] || fail "progress line not erased"
"$bin" verify -q suites/isa/MP.litmus 2> "$tmp/p"
[ -s "$tmp/p" ] && fail "progress written to a non-terminal: $(cat -v "$tmp/p")"
exit $((fails > 0))
