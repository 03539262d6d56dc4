#!/usr/bin/env bash
# Issue #16 at the command line (docs/reliability.md, "Faults and their tests"): failed writes to
# stdout, outputs that would overwrite an input or leave the working folder, interrupted suites,
# unreadable inputs (devices, FIFOs), escaped names, vacuous verdicts.  Each check names the
# fault it pins; all of them fail on the code before the fix.
set -u
bin=$1
root=$PWD
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
MP=$root/suites/isa/MP.litmus
cat > "$tmp/spec.yaml" <<YAML
module: $root/tests/errors/run/saxpy.ptx
grid: 1
block: 32
buffers:
  x: { type: f32, count: 32, init: { iota: 0 } }
  y: { type: f32, count: 32, init: { fill: 1 } }
params:
  - { s32: 32 }
  - { f32: 2 }
  - { buffer: x }
  - { buffer: y }
YAML

# --- failed writes to stdout exit non-zero with a message (they exited 0) ------------------------
"$bin" suite --allow-outside suites/isa --model ptx -q --json "$tmp/s.json" > /dev/null 2>&1 < /dev/null
full() {   # full NAME ARGS...: stdout on /dev/full
  local name=$1; shift
  (cd "$tmp" && "$bin" "$@" > /dev/full 2> "$tmp/err"); st=$?
  if [ "$st" -ne 0 ] && grep -q 'cannot write' "$tmp/err"; then ok
  else bad "stdout full: $name exit $st: $(tail -n1 "$tmp/err")"; fi
}
full "verify (herd text)" verify "$MP"
[ "$st" = 3 ] && ok || bad "verify on a full stdout: exit $st, expected 3 (the results could not be written)"
full "verify --json -" verify -q --json - "$MP"
full "suite" suite "$root/suites/isa" --model ptx
full "suite --json -" suite "$root/suites/isa" --model ptx -q --json -
full "run --json -" run spec.yaml --json -
full "merge" merge s.json
full "merge --json -" merge s.json --json -
full "compare" compare --model ptx --model ptx-v7.5 "$MP"

# --- results that could not be written: exit 3, not 1 (a disagreement) nor 2 (issue #30) ------
if [ -w /dev/full ]; then
  for c in "verify -q --json /dev/full $MP" "suite -q $root/suites/isa --model ptx --csv /dev/full" \
           "suite -q $root/suites/isa --model ptx --junit /dev/full" "table --out /dev/full $MP" \
           "merge s.json --json /dev/full"; do
    (cd "$tmp" && "$bin" $c --allow-outside > /dev/null 2> "$tmp/err"); st=$?
    [ "$st" = 3 ] && grep -q 'cannot write /dev/full' "$tmp/err" && ok \
      || bad "$c: exit $st, expected 3: $(tail -n1 "$tmp/err")"
  done
fi

# --- verify out of memory (Z3 included): a message, exit 2, the blocks of decided tests kept ----
python3 - "$tmp/heavy.litmus" <<'PY'
import sys
rows = "\n".join(" st.global.u32 [x], %d | st.global.u32 [x], %d ;" % (i + 1, 100 + i) for i in range(64))
open(sys.argv[1], "w").write("PTX heavy\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n%s\nexists (x == 1)\n" % rows)
PY
(ulimit -v 200000; exec timeout 120 "$bin" verify "$MP" "$tmp/heavy.litmus") > "$tmp/o" 2> "$tmp/err"; st=$?
if [ "$st" -eq 2 ] && grep -q '^ptxlitmus: out of memory' "$tmp/err" && grep -q '^Test MP ' "$tmp/o"; then ok
elif [ "$st" -eq 0 ] && [ "$(grep -c '^Test ' "$tmp/o")" -eq 2 ]; then ok
else bad "verify under ulimit -v: exit $st, $(grep -c '^Test ' "$tmp/o") blocks, $(tail -n1 "$tmp/err")"; fi

# --- run: a buffer whose JSON could not be allocated was dropped with status ok -----------------
sed -e 's/count: 32, init: { iota: 0 }/count: 16777216, init: { iota: 0 }/' "$tmp/spec.yaml" > "$tmp/bigbuf.yaml"
for lim in 600000 900000; do
  rm -f "$tmp/bb.json"
  (ulimit -v $lim; cd "$tmp" && exec "$bin" run bigbuf.yaml --json bb.json) > /dev/null 2> "$tmp/err"; st=$?
  if [ "$st" -eq 2 ] && grep -q 'out of memory' "$tmp/err" && [ ! -e "$tmp/bb.json" ]; then ok
  elif [ "$st" -eq 0 ] && python3 -c '
import json, re, sys
# each array of numbers (only number characters) replaced by its length, the rest parsed as
# JSON: json.load of the 16 M numbers took 5.5 s, this 1.9 s
def arr(m):
    body = m.group(1)
    assert not body.translate(None, b"0123456789.eE+-, \t\r\n"), body[:80]
    return b"%d" % (body.count(b",") + 1 if body.strip() else 0)
d = json.loads(re.sub(rb"\[([^\[\]{}\"]*)\]", arr, open(sys.argv[1], "rb").read()))
assert d["status"] == "ok" and d["buffers"]["x"] == 16777216 and d["buffers"]["y"] == 32' "$tmp/bb.json"; then ok
  else bad "run --json of a 64 MiB buffer under ulimit -v $lim: exit $st, $(tail -n1 "$tmp/err")"; fi
done

# --- SIGINT/SIGTERM during a suite: partial reports marked interrupted, exit 130/143 (there was
#     no report at all) ---------------------------------------------------------------------------
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
for sig in INT TERM; do
  rm -f "$tmp/p.json" "$tmp/p.xml"
  (cd "$tmp" && exec "$bin" suite "$root/suites" --jobs 2 -q --json p.json --junit p.xml) \
    > "$tmp/o" 2>&1 < /dev/null &
  pid=$!
  sleep 1; kill -$sig $pid; wait $pid; st=$?
  want=$([ $sig = INT ] && echo 130 || echo 143)
  [ "$st" -eq "$want" ] && ok || bad "suite SIG$sig: exit $st, expected $want"
  if python3 - "$tmp/p.json" "$tmp/p.xml" <<'PY'
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True and 0 < len(d["results"]), d.get("interrupted")
x = xml.dom.minidom.parse(sys.argv[2])
assert x.documentElement.getAttribute("interrupted") == "true"
PY
  then ok; else bad "suite SIG$sig: no valid partial report marked interrupted"; fi
  grep -q "INTERRUPTED by SIG$sig" "$tmp/o" && ok || bad "suite SIG$sig: no INTERRUPTED line"
  left=$(ls -A "$tmp" | grep -c '\.tmp$')
  [ "$left" -eq 0 ] && ok || bad "suite SIG$sig left temporary files"
done
(cd "$tmp" && "$bin" merge p.json -q --json m.json > /dev/null 2> "$tmp/err"); st=$?
[ "$st" -ne 0 ] && grep -q 'interrupted' "$tmp/err" && python3 -c '
import json,sys; assert json.load(open(sys.argv[1]))["interrupted"] is True' "$tmp/m.json" && ok ||
  bad "merge of an interrupted report: exit $st, not marked"

# --- allocation failure: merge segfaulted (unchecked realloc), cJSON's NULL was "invalid JSON" ----
python3 - "$tmp/big.json" <<'PY'
import sys
r = ",".join('{"suite": "s", "test": "t%d.litmus", "model": "ptx", "job": %d, "outcome": "agree", '
             '"time_ms": 1, "states": [{"x": 1}]}' % (i, i) for i in range(200000))
open(sys.argv[1], "w").write('{"tool": "ptxlitmus", "kind": "suite", "shard": null, "results": [%s]}' % r)
PY
for lim in 150000 250000; do
  (ulimit -v $lim; cd "$tmp" && exec "$bin" merge big.json --json m2.json) > /dev/null 2> "$tmp/err"; st=$?
  if [ "$st" -eq 2 ] && grep -q '^ptxlitmus: out of memory' "$tmp/err"; then ok
  elif [ "$st" -eq 0 ]; then ok   # enough memory on this machine: nothing to check
  else bad "merge under ulimit -v $lim: exit $st: $(tail -n1 "$tmp/err")"; fi
done

echo "reliability: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
