#!/usr/bin/env bash
# bench/litmus/scale_bench.sh — scaling benchmark (issue #11, docs/benchmarks.md "Scale").
#
#  1. the families of scale_gen.py: IRIW with k readers (k = 2,4,6,8,12,16), SB rings and MP
#     chains of k threads (k = 2..16), the CAS spin lock with k threads taking it twice
#     (k = 2..6, then further while a test stays under the per-test limit).  Per test: wall
#     time and peak RSS (/usr/bin/time -f '%e %M') of `verify --states 0` (the verdict only)
#     and of the default `verify` (verdict + up to 1000 states), best of REPEATS runs each, and
#     the verdict (Never/Always/Sometimes, or timeout).  Every run has `--timeout LIMIT`, so the
#     script always finishes; a family stops growing at its first timeout.
#  2. a generated family: `ptxlitmus gen` (all shapes, model ptx) into a temporary folder,
#     then `ptxlitmus suite --jobs 2` on it: wall time (best of REPEATS).
#  3. --timeout: a batch whose middle test cannot finish in time; the text (stderr) and JSON
#     report status timeout / verdict Unknown for it and the tests after it are decided.
#
# Usage: bench/litmus/scale_bench.sh [PTXLITMUS] [REPEATS] [LIMIT_S]
#   SCALE_QUICK=1 runs each test once with small k only (a smoke run);
#   SCALE_PARTS="iriw sb mp lock gen timeout" (the default) selects the parts.
set -eu
bin=$(realpath "${1:-./ptxlitmus}")
reps=${2:-3}
limit=${3:-60}
here=$(cd "$(dirname "$0")" && pwd)
gen="python3 $here/scale_gen.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -x /usr/bin/time ]; then echo "scale bench: skipped, /usr/bin/time not found"; exit 0; fi

iriw_k="2 4 6 8 12 16"; ring_k=$(seq 2 16); lock_k="2 3 4 5 6"; lock_more="7 8 9 10 11 12"
if [ "${SCALE_QUICK:-0}" = 1 ]; then reps=1; iriw_k="2 8"; ring_k="2 8"; lock_k="2 3"; lock_more=""; fi

# one run: prints "TIME RSS_MB STATUS" (STATUS = Never|Always|Sometimes|timeout|error)
run1() {
  local f=$1; shift
  local rc=0
  /usr/bin/time -o "$tmp/time" -f '%e %M' "$bin" verify --timeout "$limit" "$@" "$f" >"$tmp/out" 2>"$tmp/err" || rc=$?
  local st
  st=$(awk '$1 == "Observation" { print $3 }' "$tmp/out" | head -1)
  if [ -z "$st" ]; then
    if grep -q -e 'needs more than' "$tmp/err"; then st=timeout; else st="error(rc=$rc)"; fi
  fi
  read -r t m < <(tail -1 "$tmp/time")   # after "Command exited with non-zero status N"
  echo "$t $((m / 1024)) $st"
}

# best of $reps runs (a timeout is not repeated)
best() {
  local f=$1; shift
  local bt="" bm="" bs="" t m s
  for _ in $(seq "$reps"); do
    read -r t m s < <(run1 "$f" "$@")
    if [ -z "$bt" ] || python3 -c "import sys; sys.exit(0 if $t < $bt else 1)"; then bt=$t; fi
    if [ -z "$bm" ] || [ "$m" -lt "$bm" ]; then bm=$m; fi
    bs=$s
    [ "$s" = timeout ] && break
  done
  echo "$bt $bm $bs"
}

echo "scale: best of $reps runs, per-test --timeout $limit s; times in s, peak RSS in MB (/usr/bin/time)"
printf '%-6s %3s %7s | %-9s %7s %6s | %-9s %7s %6s\n' family k threads verdict t_verd rss verdict t_states rss
# returns 1 when the verdict-only run timed out
one() {
  local fam=$1 k=$2 f="$tmp/$1-$2.litmus"
  $gen "$fam" "$k" > "$f"
  local n; n=$(sed -n 3p "$f" | awk -F'|' '{print NF}')
  read -r t1 m1 s1 < <(best "$f" --states 0)
  if [ "$s1" = timeout ]; then
    printf '%-6s %3s %7s | %-9s %7s %6s | %-9s %7s %6s\n' "$fam" "$k" "$n" "$s1" ">$limit" "$m1" - - -
    return 1
  fi
  read -r t2 m2 s2 < <(best "$f")
  [ "$s2" = timeout ] && t2=">$limit"
  printf '%-6s %3s %7s | %-9s %7s %6s | %-9s %7s %6s\n' "$fam" "$k" "$n" "$s1" "$t1" "$m1" "$s2" "$t2" "$m2"
}
parts=" ${SCALE_PARTS:-iriw sb mp lock gen timeout} "
part() { case "$parts" in *" $1 "*) return 0;; *) return 1;; esac; }
if part iriw; then for k in $iriw_k; do one iriw "$k" || break; done; fi
if part sb; then for k in $ring_k; do one sb "$k" || break; done; fi
if part mp; then for k in $ring_k; do one mp "$k" || break; done; fi
if part lock; then
  stop=0
  for k in $lock_k; do one lock "$k" || { stop=1; break; }; done
  if [ "$stop" = 0 ]; then for k in $lock_more; do one lock "$k" || break; done; fi
fi

# --- the generated family -------------------------------------------------------------------
if part gen; then
if [ "${SCALE_QUICK:-0}" = 1 ]; then shapes="--shapes MP,SB"; else shapes=""; fi
t0=$(date +%s.%N)
"$bin" gen --allow-outside --out "$tmp/gen" --jobs 2 -q $shapes >/dev/null 2>"$tmp/gen.err" || { echo "gen failed:"; cat "$tmp/gen.err"; }
t1=$(date +%s.%N)
ntests=$(ls "$tmp/gen"/*.litmus | wc -l)
echo "gen: $ntests tests generated and decided (gen --jobs 2, monotonicity check included) in $(python3 -c "print(f'{$t1-$t0:.2f}')") s"
bw=""
for _ in $(seq "$reps"); do
  t0=$(date +%s.%N)
  "$bin" suite --jobs 2 "$tmp/gen" >"$tmp/suite.out" 2>&1 || { echo "suite failed:"; tail -5 "$tmp/suite.out"; }
  t1=$(date +%s.%N)
  w=$(python3 -c "print(f'{$t1-$t0:.2f}')")
  if [ -z "$bw" ] || python3 -c "import sys; sys.exit(0 if $w < $bw else 1)"; then bw=$w; fi
done
echo "suite: $ntests generated tests, suite --jobs 2: $bw s (best of $reps); $(tail -1 "$tmp/suite.out")"
ls "$tmp/gen"/*.litmus > "$tmp/gen.list"
read -r tv mv < <(/usr/bin/time -f '%e %M' "$bin" verify -q --states 0 @"$tmp/gen.list" 2>&1 >/dev/null | tail -1)
echo "verify: $ntests generated tests in one call (--states 0, 1 job): $tv s, peak RSS $((mv / 1024)) MB"
fi

# --- --timeout: one test of a batch runs out of time, the rest goes on -------------------------
part timeout || exit 0
$gen iriw 4 > "$tmp/a-iriw-4.litmus"; $gen lock 8 > "$tmp/b-lock-8.litmus"; $gen mp 8 > "$tmp/c-mp-8.litmus"
rc=0
(cd "$tmp" && "$bin" verify --states 0 --timeout 1 --allow-outside --json "$tmp/t.json" \
   a-iriw-4.litmus b-lock-8.litmus c-mp-8.litmus >"$tmp/t.out" 2>"$tmp/t.err") || rc=$?
echo "timeout: verify --timeout 1 a-iriw-4 b-lock-8 c-mp-8: exit status $rc"
sed 's/^/  stdout: /' < <(grep '^Observation' "$tmp/t.out")
sed 's/^/  stderr: /' "$tmp/t.err"
python3 - "$tmp/t.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  json: {r['file']:16s} status={r['status']:8s} verdict={r['verdict']:8s} time={r['time_ms']/1000:.2f} s")
PY
