#!/usr/bin/env bash
# tests/cli/t_interrupt.sh — issue #28, item 3: `verify` interrupted (SIGINT) during the second
# of four tests gave an empty stdout (the first test's block was still buffered) and no JSON.
# Now each block is flushed when its test is decided, and a signal (SIGINT, SIGTERM) writes the
# JSON of the finished tests with "interrupted": true and exits 128 + the signal, as suite does.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# a test whose state enumeration (--states all) runs for minutes: 3 writers and 3 readers
python3 - "$tmp/slow.litmus" <<'PY'
import sys
n = 6
rows = []
for k in range(3):
    rows.append(" | ".join(f"st.relaxed.gpu [{'xy'[k % 2]}], {i * 10 + k + 1}" if i % 2 == 0 else
                           f"ld.relaxed.gpu r{k}, [{'xy'[(k + i) % 2]}]" for i in range(n)) + " ;")
cond = " /\\ ".join(f"P{i}:r{k} == 0" for i in range(1, n, 2) for k in range(3))
open(sys.argv[1], "w").write(
    "PTX Slow\n{ x=0; y=0; }\n " + " | ".join(f"P{i}@cta {i},gpu 0" for i in range(n)) + " ;\n" +
    "\n".join(" " + r for r in rows) + "\nexists (" + cond + ")\n")
PY
for run in "INT 1" "TERM 1" "INT 2"; do
  set -- $run; sig=$1; jobs=$2
  echo '{"old": true}' > "$tmp/r.json"
  # (a job started with & in a script inherits SIGINT ignored: env gives it the default action;
  # with -j 2 the files after the slow one are decided but wait for their turn: not reported)
  env --default-signal=INT "$bin" verify -j "$jobs" --states all --json "$tmp/r.json" \
    suites/isa/MP.litmus "$tmp/slow.litmus" suites/isa/LB.litmus suites/isa/CoRR.litmus \
    > "$tmp/o" 2> "$tmp/e" &
  pid=$!
  for _ in $(seq 100); do grep -q '^Time MP ' "$tmp/o" && break; sleep 0.1; done
  sleep 0.3
  kill -s "$sig" "$pid"
  wait "$pid"; st=$?
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  [ "$st" = "$want" ] || fail "SIG$sig: exit $st, expected $want"
  grep -q '^Observation MP Never 0 3$' "$tmp/o" || fail "SIG$sig: the first block was lost: $(cat "$tmp/o")"
  grep -q '^Test Slow' "$tmp/o" && fail "SIG$sig: the interrupted test printed a block"
  grep -qx "ptxlitmus verify: INTERRUPTED by SIG$sig after 1 of 4 files: the outputs are partial (\"interrupted\": true)" "$tmp/e" \
    || fail "SIG$sig: message $(cat "$tmp/e")"
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['interrupted'] is True, d.get('interrupted')
assert [r['name'] for r in d['results']] == ['MP'] and d['results'][0]['observation'] == 'Never', d['results']
" "$tmp/r.json" || fail "SIG$sig: JSON"
  ls -a "$tmp" | grep -q 'tmp' && fail "SIG$sig left a temporary file: $(ls -a "$tmp")"
done
# an uninterrupted run says "interrupted": false
"$bin" verify -q --json - suites/isa/MP.litmus | grep -q '"interrupted":	false' || fail "no interrupted: false"
[ "$fails" = 0 ] && echo "interrupt: ok"
[ "$fails" = 0 ]
