#!/usr/bin/env bash
# bench/check/check_bench.sh (docs/benchmarks.md, "check"), one run of each kernel of three
# pairs, BIG=1: a row for each kernel (and again with the bound 1 000 000 where it spins) with
# the expected exit status (1 buggy, 0 fixed), executions that agree with the kernel's own
# --json, and numbers in every column.
set -u
bin=$1
fail() { echo "t_check_bench: $*"; exit 1; }
out=$(BIG=1 bash bench/check/check_bench.sh "$bin" 1 120 "mp_volatile dekker lookback" 2>&1) ||
  fail "exit $?: $out"
n=10   # 6 kernels, then the 4 with a 10 000-iteration spin again with the bound 1 000 000
rows=$(printf '%s\n' "$out" | grep -Ec '^[a-z_]+-(buggy|fixed) +[0-9]+( +[0-9.]+){7}$')
[ "$rows" -eq "$n" ] || fail "$rows rows for $n kernels: $out"
printf '%s\n' "$out" | awk '$1 ~ /-buggy$/ && $2 != 1 || $1 ~ /-fixed$/ && $2 != 0 { bad = 1 }
  END { exit bad }' || fail "an exit status: $out"
# the 1 000 000-iteration rows have the executions, graphs and model checks of the first ones
printf '%s\n' "$out" | awk '$2 ~ /^[0-9]+$/ { k = $1; v = $6 " " $7 " " $8
  if (k in seen && seen[k] != v) bad = 1; seen[k] = v; n[k]++ }
  END { exit bad || n["lookback-fixed"] != 2 }' || fail "the bound 1 000 000 costs otherwise: $out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" check -q suites/check/lookback-fixed.yaml --json "$tmp/j.json" > /dev/null 2>&1
e=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["executions"])' "$tmp/j.json")
[ "$e" -gt 1 ] || fail "lookback-fixed: $e executions"
printf '%s\n' "$out" | grep -Eq "^lookback-fixed +0 +[0-9.]+ +[0-9.]+ +[0-9]+ +$e " ||
  fail "lookback-fixed: $e executions? $out"
exit 0
