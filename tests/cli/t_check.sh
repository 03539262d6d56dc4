#!/usr/bin/env bash
# `ptxlitmus check` (issue #26, docs/check.md) on the pairs of suites/check: every buggy kernel
# gives exit 1 with a report naming its trap (or its liveness failure), every fixed one exit 0
# with "Result: CLEAN"; the extracted litmus test of each finding of a buggy kernel (the trap,
# races, expect: differences) is decided by `verify` as allowed (its condition reachable);
# --json, --graph, --litmus; the bounds give exit 4 and a BOUNDED line, never CLEAN; expect:
# differences are findings (check and run); errors exit 2.  The spin-assume reduction: each
# pair's 10 000-iteration bounded spins cost what 1 000 000 iterations cost (the same executions,
# graphs, model checks and verdict).
set -u
bin=$1
fail() { echo "t_check: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dir=suites/check
n=0
spins=0
for spec in "$dir"/*-buggy.yaml; do
  name=$(basename "$spec" -buggy.yaml)
  # buggy: a finding that is the trap (a liveness failure that ends in the bounded spin's trap
  # counts), its extracted test allowed
  timeout 120 "$bin" check "$spec" --litmus "$tmp/$name.litmus" --json "$tmp/$name.json" \
    > "$tmp/out" 2> "$tmp/err"; rc=$?
  [ "$rc" -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "$name buggy: exit $rc, expected 1"; }
  # the trap: __trap() (trap) or assert() (CUDA assert, __assertfail)
  grep -Eq "^Finding [0-9]*: (trap|CUDA assert \(__assertfail\)) " "$tmp/out" || { cat "$tmp/out"; fail "$name buggy: no trap finding"; }
  grep -q "^Result: FOUND" "$tmp/out" || fail "$name buggy: no FOUND line"
  grep -q "CUDA source .*$name.cu:[0-9]" "$tmp/out" || fail "$name buggy: no CUDA line"
  "$bin" verify --states 0 "$tmp/$name.litmus" > "$tmp/v" 2>&1 || { cat "$tmp/$name.litmus" "$tmp/v"; fail "$name: verify exit $?"; }
  grep -q "^Ok$" "$tmp/v" || { cat "$tmp/$name.litmus" "$tmp/v"; fail "$name: the extracted test is not allowed"; }
  grep -Eq "^Observation .* (Sometimes|Always) [1-9]" "$tmp/v" || { cat "$tmp/v"; fail "$name: no positive state"; }
  python3 - "$tmp/$name.json" "$bin" "$tmp" <<'PY' || fail "$name buggy: JSON"
import json, re, subprocess, sys
j = json.load(open(sys.argv[1]))
for i, f in enumerate(j["findings"]):   # every finding's extracted test is allowed by verify
    p = "%s/finding%d.litmus" % (sys.argv[3], i)
    open(p, "w").write(f["litmus"])
    v = subprocess.run([sys.argv[2], "verify", "--states", "0", p], capture_output=True, text=True)
    assert v.returncode == 0 and "Ok" in v.stdout.split("\n"), (f["kind"], f["litmus"], v.stdout)
    assert re.search(r"^Observation .* (Sometimes|Always) [1-9]", v.stdout, re.M), v.stdout
assert j["status"] == "found", j["status"]
assert j["executions"] >= 1 and j["consistent"] >= 0
kinds = [f["kind"] for f in j["findings"]]
assert "trap" in kinds or "assert" in kinds, kinds
f = [f for f in j["findings"] if f["kind"] in ("trap", "assert")][0]
assert f["litmus"].startswith("PTX check-finding-") and "exists (" in f["litmus"], f["litmus"]
assert "trap instruction executed" in f["message"] or "trap" in f["report"] or f["kind"] == "assert"
PY
  # fixed: exhaustive and clean
  timeout 120 "$bin" check "${spec%-buggy.yaml}-fixed.yaml" --json "$tmp/$name-f.json" \
    > "$tmp/out" 2> "$tmp/err"; rc=$?
  [ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name fixed: exit $rc, expected 0"; }
  grep -q "^Result: CLEAN" "$tmp/out" || fail "$name fixed: no CLEAN line"
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['status']=='clean' and j['findings']==[] and j['complete']>=1, j" "$tmp/$name-f.json" \
    || fail "$name fixed: JSON"
  n=$((n + 1))
  # the spin-assume reduction: a 10 000-iteration bounded spin costs what a 1 000 000-iteration
  # one does (the same executions, graphs and model checks, the same verdict); 4 iterations for
  # mp_volatile too.  Only multiples of 16 elsewhere: nvcc unrolls some loops 16 times and
  # specializes the trip count to the constant, so another bound there is another program.
  grep -q ', 10000;' "$dir/$name-buggy.ptx" || continue
  spins=$((spins + 1))
  cp "$tmp/$name.json" "$tmp/buggy.json"; cp "$tmp/$name-f.json" "$tmp/fixed.json"
  for v in buggy fixed; do
    bounds=1000000; [ "$name" = mp_volatile ] && bounds="4 1000000"
    for b in $bounds; do
      sed "s/, 10000;/, $b;/" "$dir/$name-$v.ptx" > "$tmp/$name-$v-$b.ptx"
      sed "s|^module: .*|module: $tmp/$name-$v-$b.ptx|" "$dir/$name-$v.yaml" > "$tmp/b.yaml"
      "$bin" check -q "$tmp/b.yaml" --json "$tmp/$name-$v-$b.json" > /dev/null 2>&1
      cp "$tmp/$v.json" "$tmp/$name-$v-10000.json"
      echo "$name-$v $b" >> "$tmp/bounds"
    done
  done
done
python3 - "$tmp" <<'PY' || fail "a bounded spin costs otherwise than with the bound 10000"
import json, sys
keys = ("status", "executions", "consistent", "complete", "blocked", "moot", "inconsistent", "checks")
for line in open(sys.argv[1] + "/bounds"):
    kernel, b = line.split()
    a, c = (json.load(open("%s/%s-%s.json" % (sys.argv[1], kernel, n))) for n in ("10000", b))
    assert [a[k] for k in keys] == [c[k] for k in keys], (kernel, b, [a[k] for k in keys], [c[k] for k in keys])
PY
[ "$n" -ge 25 ] || fail "only $n pairs in $dir"
# every order in which three CTAs take an exchange spin lock is an execution: lock_order's
# fixed kernel (no trap) and spinlock_ref's (nvcc's 16-fold unrolled exchange polls, each
# failed poll writing back the 1 it read) each end complete in exactly the 3! = 6 lock orders
# (failed polls reduced away; an atomic's read skipping another CTA's poll write-back had left
# 4 of them, missing the orders in which CTA 2 comes first)
for k in lock_order spinlock_ref; do
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['complete']==6, j['complete']" "$tmp/$k-f.json" \
    || fail "$k fixed: not the 6 lock orders"
done
[ "$spins" -ge 8 ] || fail "only $spins pairs with a 10 000-iteration bounded spin"

# the liveness failure itself: an unbounded wait is a hang, its waiting threads named
"$bin" check "$dir/handoff-buggy.yaml" > "$tmp/out" 2>&1
grep -q "liveness: every thread waits forever" "$tmp/out" || { cat "$tmp/out"; fail "handoff: no liveness message"; }
grep -q "thread (0,0,0) of CTA (0,0,0) waits at .*reading ready_0 = 0, the latest value" "$tmp/out" \
  || { cat "$tmp/out"; fail "handoff: the waiting thread"; }

# --graph: the finding's execution as DOT (and SVG with Graphviz)
"$bin" check "$dir/mp_volatile-buggy.yaml" -q --graph "$tmp/g.dot" > /dev/null 2>&1
grep -q "^digraph" "$tmp/g.dot" || fail "--graph: no DOT"
grep -q 'label="rf"' "$tmp/g.dot" || fail "--graph: no rf edge"
if command -v dot > /dev/null; then
  "$bin" check "$dir/mp_volatile-buggy.yaml" -q --graph "$tmp/g.svg" > /dev/null 2>&1
  grep -q "<svg" "$tmp/g.svg" || fail "--graph F.svg: no SVG"
fi

# bounds: never CLEAN, exit 4, a BOUNDED line naming the bound
"$bin" check "$dir/ring-fixed.yaml" --max-executions 3 --json "$tmp/b.json" > "$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 4 ] || { cat "$tmp/out"; fail "--max-executions 3: exit $rc, expected 4"; }
grep -q "^Result: BOUNDED (--max-executions 3 cut the exploration short" "$tmp/out" || { cat "$tmp/out"; fail "no BOUNDED line"; }
grep -q CLEAN "$tmp/out" && fail "--max-executions: CLEAN printed"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['status']=='bounded' and j['executions']==3 and '--max-executions' in j['bound'], j" "$tmp/b.json" \
  || fail "--max-executions JSON"
"$bin" check "$dir/ring-fixed.yaml" --unroll 2 > "$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 4 ] || { cat "$tmp/out"; fail "--unroll 2: exit $rc, expected 4"; }
grep -q "^Result: BOUNDED (--unroll 2" "$tmp/out" || { cat "$tmp/out"; fail "--unroll: no BOUNDED line"; }
# the bound does not hide a finding
"$bin" check "$dir/mp_volatile-buggy.yaml" --max-executions 2 -q > /dev/null 2>&1; rc=$?
[ "$rc" -eq 1 ] || fail "a finding within the bound: exit $rc, expected 1"

# expect: an output that differs is a finding of check, and an exit 1 of run
sed 's/out: \[42\]/out: [43]/' "$dir/mp_volatile-fixed.yaml" > "$dir/.t_check_expect.yaml"
trap 'rm -rf "$tmp" "$dir/.t_check_expect.yaml"' EXIT
"$bin" check "$dir/.t_check_expect.yaml" > "$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/out"; fail "expect 43: exit $rc, expected 1"; }
grep -q "^Finding 1: output differs from expect:" "$tmp/out" || { cat "$tmp/out"; fail "expect: no finding"; }
grep -q "out\[0\] is 42, expected 43" "$tmp/out" || { cat "$tmp/out"; fail "expect: message"; }
"$bin" run "$dir/.t_check_expect.yaml" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || fail "run with expect 43: exit $rc, expected 1"
grep -q "output out\[0\] is 42, expected 43 (expect:)" "$tmp/err" || { cat "$tmp/err"; fail "run expect message"; }
"$bin" run "$dir/mp_volatile-fixed.yaml" > /dev/null 2>&1 || fail "run with a met expect: exit $?"

# errors: exit 2 with one message
"$bin" check "$dir/nonexistent.yaml" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing spec: exit $rc"
grep -q "found no readable spec" "$tmp/err" || { cat "$tmp/err"; fail "missing spec: message"; }
"$bin" check "$dir/mp_volatile-fixed.yaml" --model rc11-scoped > /dev/null 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "--model rc11-scoped: exit $rc"
"$bin" check "$dir/mp_volatile-fixed.yaml" --cat "$tmp/none.cat" > /dev/null 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "--cat missing: exit $rc"
"$bin" check > /dev/null 2>&1; [ $? -eq 2 ] || fail "no spec: exit not 2"
# the other bundled models decide the pairs the same way
for m in ptx-v7.5 ptx-v6.0; do
  "$bin" check -q --model $m "$dir/mp_volatile-buggy.yaml" > /dev/null 2>&1; rc=$?
  [ "$rc" -eq 1 ] || fail "--model $m buggy: exit $rc"
  "$bin" check -q --model $m "$dir/mp_volatile-fixed.yaml" > /dev/null 2>&1; rc=$?
  [ "$rc" -eq 0 ] || fail "--model $m fixed: exit $rc"
done
echo "t_check: $n pairs"
