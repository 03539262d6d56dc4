#!/usr/bin/env bash
# bench/litmus/verify_bench.sh — litmus benchmark: the public Dat3M PTX suite (226 tests listed in
# expected-ptx-v7.5.csv) decided in ONE `ptxlitmus verify` call; reports the wall time of the
# call and the per-test times (median, 90th percentile, max) from the JSON export, for the
# models ptx-v7.5 and ptx.  Targets (issue #2): <= 5 s wall, median <= 20 ms, on 2 cores.
# Usage: bench/litmus/verify_bench.sh [PTXLITMUS] [SUITE_DIR] [REPEATS]
set -eu
bin=$(realpath "${1:-./ptxlitmus}")
dir=${2:-../shared/conformance/dat3m-ptx}
reps=${3:-3}
if [ ! -f "$dir/expected-ptx-v7.5.csv" ]; then
  echo "verify bench: skipped, $dir/expected-ptx-v7.5.csv not found (the public suite lives in ../shared)"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files=$(cut -d, -f1 "$dir/expected-ptx-v7.5.csv")
for model in ptx-v7.5 ptx; do
  best=""
  for r in $(seq "$reps"); do
    t0=$(date +%s.%N)
    (cd "$dir" && "$bin" verify --allow-outside -q --model "$model" --json "$tmp/$model.json" $files) >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    w=$(python3 -c "print(f'{$t1-$t0:.3f}')")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $w < $best else 1)"; then best=$w; fi
  done
  python3 - "$tmp/$model.json" "$model" "$best" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
t = sorted(r["time_ms"] for r in res)
ok = sum(1 for r in res if r["status"] == "ok")
q = lambda p: t[min(len(t) - 1, int(p * len(t)))]
print(f"verify  model={sys.argv[2]:9s} tests={len(res)} ok={ok} wall={sys.argv[3]} s  "
      f"median={q(0.5):.1f} ms  p90={q(0.9):.1f} ms  max={t[-1]:.1f} ms  sum={sum(t)/1000:.2f} s")
PY
done
