#!/usr/bin/env bash
# bench/litmus/values_bench.sh — symbolic values (issue #27, docs/benchmarks.md "Values"): tests
# whose cost was the values their reads may return.  Families of scale_gen.py: counters (T
# threads x K atom.add on one location, forall x == T*K), independent atomics (one thread, K
# atom.add on K locations), tickets (T threads, atom.add, no two tickets alike), ticket locks (T
# threads spinning on `serving`, a plain counter inside); and the one-thread test with eight
# kinds of atomic operation and the ten atom.min.s32 of suites/values.  Per test: wall time,
# user time and peak RSS (/usr/bin/time -f '%e %U %M') of the default `verify` (verdict and up
# to 1000 states), best of REPEATS runs, and the observation (Never/Always/Sometimes, timeout).
# With a second binary BEFORE, each test is run with it too (same limit), side by side.
# Usage: bench/litmus/values_bench.sh [PTXLITMUS] [REPEATS] [LIMIT_S] [BEFORE]
#   VALUES_QUICK=1 runs each test once, small sizes only (a smoke run).
set -eu
bin=$(realpath "${1:-./ptxlitmus}")
reps=${2:-3}
limit=${3:-60}
before=${4:-}
[ -n "$before" ] && before=$(realpath "$before")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gen="python3 $here/scale_gen.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -x /usr/bin/time ]; then echo "values bench: skipped, /usr/bin/time not found"; exit 0; fi

counters="2x4 2x5 2x6 2x8 3x3 3x4 4x2 4x4 4x5 4x6 8x2"; indeps="5 6 10 20 40"
tickets="3 4 6 8"; tlocks="2 3 4"
if [ "${VALUES_QUICK:-0}" = 1 ]; then
  reps=1; counters="2x4 4x4"; indeps="6 10"; tickets="3"; tlocks="2"
fi

# one run: prints "WALL USER RSS_MB STATUS"
run1() {
  local b=$1 f=$2 rc=0 st t u m
  /usr/bin/time -o "$tmp/time" -f '%e %U %M' "$b" verify --timeout "$limit" "$f" >"$tmp/out" 2>"$tmp/err" || rc=$?
  st=$(awk '$1 == "Observation" { print $3 }' "$tmp/out" | head -1)
  if [ -z "$st" ]; then
    if grep -q -e 'needs more than' "$tmp/err"; then st=timeout
    elif grep -q -e 'found more than' "$tmp/err"; then st=refused; else st="error(rc=$rc)"; fi
  fi
  read -r t u m < <(tail -1 "$tmp/time")
  echo "$t $u $((m / 1024)) $st"
}

best() {
  local b=$1 f=$2 bt="" bu="" bm="" bs="" t u m s
  for _ in $(seq "$reps"); do
    read -r t u m s < <(run1 "$b" "$f")
    if [ -z "$bt" ] || python3 -c "import sys; sys.exit(0 if $t < $bt else 1)"; then bt=$t; bu=$u; fi
    if [ -z "$bm" ] || [ "$m" -lt "$bm" ]; then bm=$m; fi
    bs=$s
    case "$s" in timeout|refused) break ;; esac
  done
  echo "$bt $bu $bm $bs"
}

row() {   # name file
  local r
  r=$(best "$bin" "$2")
  if [ -n "$before" ]; then
    printf '%-22s %s | before: %s\n' "$1" "$r" "$(best "$before" "$2")"
  else
    printf '%-22s %s\n' "$1" "$r"
  fi
}

echo "values: best of $reps runs, per-test --timeout $limit s; wall s, user s, peak RSS MB, observation"
for tk in $counters; do
  $gen counter "${tk%x*}" "${tk#*x}" > "$tmp/c.litmus"; row "counter $tk" "$tmp/c.litmus"
done
for k in $indeps; do $gen indep "$k" > "$tmp/i.litmus"; row "indep atom.add $k" "$tmp/i.litmus"; done
for k in $tickets; do $gen tickets "$k" > "$tmp/t.litmus"; row "tickets $k" "$tmp/t.litmus"; done
for k in $tlocks; do $gen tlock "$k" > "$tmp/l.litmus"; row "ticket lock $k" "$tmp/l.litmus"; done
for f in mixed-atomics indep-atom.min.s32-10 counter-2x4-distinct; do
  row "$f" "$root/suites/values/$f.litmus"
done
