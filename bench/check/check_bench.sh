#!/usr/bin/env bash
# bench/check/check_bench.sh — `ptxlitmus check` (issue #26, docs/benchmarks.md "check"): every
# buggy/fixed pair of suites/check.  Per kernel: exit status (1 buggy, 0 fixed expected), wall
# and user time and peak RSS (/usr/bin/time -f '%e %U %M') of the default check, best of
# REPEATS runs; executions, consistent graphs and model checks from --json; executions per
# second of the exploration (JSON "seconds": without the process start and the reading).
# A kernel over LIMIT_S (issue #26: 120 s) is stopped by --timeout.
# With BIG=1 the pairs' 10 000-iteration bounded spins are also run with the bound 1 000 000
# (the spin-assume reduction: the same executions).
# Usage: bench/check/check_bench.sh [PTXLITMUS] [REPEATS] [LIMIT_S] [PAIRS]
#   PAIRS: the pairs to run, e.g. "mp_volatile dekker" (default every pair)
set -eu
bin=$(realpath "${1:-./ptxlitmus}")
reps=${2:-3}
limit=${3:-120}
pairs=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "$here/../../suites/check" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -x /usr/bin/time ]; then echo "check bench: skipped, /usr/bin/time not found"; exit 0; fi

# one kernel, best of $reps: prints "RC WALL USER RSS_MB EXECUTIONS CONSISTENT CHECKS EXEC/S"
best() {
  local spec=$1 rc bt="" bu="" bm="" t u m
  for _ in $(seq "$reps"); do
    rc=0
    /usr/bin/time -o "$tmp/time" -f '%e %U %M' "$bin" check -q --timeout "$limit" "$spec" \
      --json "$tmp/j.json" > /dev/null 2>&1 || rc=$?
    read -r t u m < <(tail -1 "$tmp/time")
    if [ -z "$bt" ] || python3 -c "import sys; sys.exit(0 if $t < $bt else 1)"; then bt=$t; bu=$u; fi
    if [ -z "$bm" ] || [ "$m" -lt "$bm" ]; then bm=$m; fi
  done
  python3 - "$tmp/j.json" "$rc" "$bt" "$bu" "$bm" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rc, t, u, m = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print("%s %.2f %.2f %d %d %d %d %.0f" % (rc, t, u, m // 1024, j["executions"], j["consistent"],
      j["checks"], j["executions"] / max(j["seconds"], 1e-6)))
PY
}

echo "check: suites/check, best of $reps runs, --timeout $limit s"
printf '%-22s %3s %7s %7s %6s %6s %6s %7s %8s\n' kernel rc wall_s user_s rss_mb execs consist checks execs/s
[ -n "$pairs" ] || pairs=$(cd "$dir" && ls -- *-buggy.yaml | sed 's/-buggy.yaml$//')
for p in $pairs; do
  for spec in "$dir/$p-buggy.yaml" "$dir/$p-fixed.yaml"; do
    printf '%-22s %3s %7s %7s %6s %6s %6s %7s %8s\n' "$(basename "$spec" .yaml)" $(best "$spec")
  done
done
if [ "${BIG:-0}" = 1 ]; then
  echo "check: the 10 000-iteration bounded spins with the bound 1 000 000"
  for ptx in $(for p in $pairs; do echo "$dir/$p-buggy.ptx" "$dir/$p-fixed.ptx"; done); do
    grep -q ', 10000;' "$ptx" || continue
    k=$(basename "$ptx" .ptx)
    sed 's/, 10000;/, 1000000;/' "$ptx" > "$tmp/$k.ptx"
    sed "s|^module: .*|module: $tmp/$k.ptx|" "$dir/$k.yaml" > "$tmp/$k.yaml"
    printf '%-22s %3s %7s %7s %6s %6s %6s %7s %8s\n' "$k" $(best "$tmp/$k.yaml")
  done
fi
