#!/usr/bin/env bash
# bench/check/scale/scale_bench.sh — `ptxlitmus check` at the scale of real synchronization
# (issue #36, docs/benchmarks.md "check at scale"): the GPUMC families (CAS, test-and-test-and-
# set and ticket locks, Xiao and Feng's inter-block barrier), ScoRD's scoped message passing and
# counter, and the "last block done" reduction, each fixed and buggy, at the sizes of the issue
# (CTAs x threads).  Per run: exit status (0 CLEAN, 1 FOUND, 4 BOUNDED), wall and user time and
# peak RSS (/usr/bin/time), executions, complete, wasted share ((inconsistent + moot + blocked) /
# complete, when --json has them), executions/s.  Each run is cut by --timeout LIMIT_S.
# Usage: bench/check/scale/scale_bench.sh [PTXLITMUS] [LIMIT_S] [FILTER]
#   FILTER: an extended regex over "kernel-variant NCTAxNT" (e.g. 'caslock.* 4x2')
set -eu
bin=$(realpath "${1:-./ptxlitmus}")
limit=${2:-120}
filter=${3:-.}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "scale bench: skipped, /usr/bin/time not found"; exit 0; }

# spec KERNEL VARIANT NCTA NT: the launch spec on stdout
spec() {
  local k=$1 v=$2 nb=$3 nt=$4 n=$(( $3 * $4 ))
  echo "module: $here/$k-$v.ptx"
  echo "grid: $nb"
  echo "block: $nt"
  echo "buffers:"
  case $k in
    caslock|ttaslock)
      printf '  lock: { type: s32, count: 1 }\n  counter: { type: s32, count: 1 }\n'
      printf 'params:\n  - { buffer: lock }\n  - { buffer: counter }\n'
      printf 'expect:\n  counter: [%d]\n  lock: [0]\n' "$n" ;;
    ticketlock)
      printf '  next: { type: u32, count: 1 }\n  serving: { type: u32, count: 1 }\n'
      printf '  counter: { type: s32, count: 1 }\n'
      printf 'params:\n  - { buffer: next }\n  - { buffer: serving }\n  - { buffer: counter }\n'
      printf 'expect:\n  counter: [%d]\n  serving: [%d]\n' "$n" "$n" ;;
    xfbarrier)
      printf '  in: { type: s32, count: %d }\n  out: { type: s32, count: %d }\n' "$nb" "$nb"
      printf '  data: { type: s32, count: %d }\n' "$n"
      printf 'params:\n  - { buffer: in }\n  - { buffer: out }\n  - { buffer: data }\n' ;;
    scord_mp)
      printf '  flag: { type: s32, count: %d }\n  data: { type: s32, count: %d }\n' "$n" "$n"
      printf 'params:\n  - { buffer: flag }\n  - { buffer: data }\n' ;;
    scord_counter)
      printf '  counter: { type: s32, count: 1 }\n'
      printf 'params:\n  - { buffer: counter }\n'
      printf 'expect:\n  counter: [%d]\n' "$n" ;;
    lastblock)
      printf '  in: { type: s32, count: %d, init: { fill: 1 } }\n' "$n"
      printf '  partial: { type: s32, count: %d }\n' "$nb"
      printf '  count: { type: u32, count: 1 }\n  out: { type: s32, count: 1 }\n'
      printf 'params:\n  - { buffer: in }\n  - { buffer: partial }\n  - { buffer: count }\n'
      printf '  - { buffer: out }\n'
      printf 'expect:\n  out: [%d]\n' "$n" ;;
  esac
}

# the runs: kernel, its variants, its sizes
runs() {
  for k in caslock ttaslock ticketlock; do
    for s in 4x2 6x4 8x4; do for v in fixed relaxed block; do echo "$k $v $s"; done; done
  done
  for s in 4x3 6x4; do for v in fixed relaxed block; do echo "xfbarrier $v $s"; done; done
  for s in 4x2 6x4 8x4; do
    for v in fixed relaxed block; do echo "scord_mp $v $s"; done
    for v in fixed block; do echo "scord_counter $v $s"; done
  done
  for s in 3x4 3x32 3x128; do for v in fixed writer_only block; do echo "lastblock $v $s"; done; done
}

echo "check at scale: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), --timeout $limit s"
printf '%-26s %5s %3s %7s %7s %6s %8s %8s %7s %8s\n' kernel size rc wall_s user_s rss_mb \
  execs complete wasted execs/s
runs | while read -r k v s; do
  echo "$k-$v $s" | grep -Eq -- "$filter" || continue
  spec "$k" "$v" "${s%x*}" "${s#*x}" > "$tmp/s.yaml"
  rc=0
  /usr/bin/time -o "$tmp/time" -f '%e %U %M' "$bin" check -q --timeout "$limit" "$tmp/s.yaml" \
    --json "$tmp/j.json" > "$tmp/out" 2>&1 || rc=$?
  read -r t u m < <(tail -1 "$tmp/time")
  python3 - "$tmp/j.json" "$k-$v" "$s" "$rc" "$t" "$u" "$m" <<'PY'
import json, sys
k, s, rc, t, u, m = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
try:
    j = json.load(open(sys.argv[1]))
except Exception:
    j = {}
e, c = j.get("executions", 0), j.get("complete", 0)
waste = j.get("inconsistent", 0) + j.get("moot", 0) + j.get("blocked", 0)
print("%-26s %5s %3s %7.2f %7.2f %6d %8d %8d %7s %8.0f" % (k, s, rc, t, u, m // 1024, e, c,
      "%.1f" % (waste / c) if c else "-", e / max(j.get("seconds", 1e-9), 1e-9) if e else 0))
PY
done
