#!/usr/bin/env bash
# bench/check/check_bench.sh (docs/benchmarks.md, "check"), one run of each kernel: a row for
# every kernel of suites/check with the expected exit status (1 buggy, 0 fixed), executions
# that agree with the kernel's own --json, and numbers in every column.
set -u
bin=$1
fail() { echo "t_check_bench: $*"; exit 1; }
out=$(bash bench/check/check_bench.sh "$bin" 1 2>&1) || fail "exit $?: $out"
n=$(ls suites/check/*-buggy.yaml suites/check/*-fixed.yaml | wc -l)
rows=$(printf '%s\n' "$out" | grep -Ec '^[a-z_]+-(buggy|fixed) +[0-9]+( +[0-9.]+){7}$')
[ "$rows" -eq "$n" ] || fail "$rows rows for $n kernels: $out"
printf '%s\n' "$out" | awk '$1 ~ /-buggy$/ && $2 != 1 || $1 ~ /-fixed$/ && $2 != 0 { bad = 1 }
  END { exit bad }' || fail "an exit status: $out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" check -q suites/check/ring-fixed.yaml --json "$tmp/j.json" > /dev/null 2>&1
e=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["executions"])' "$tmp/j.json")
[ "$e" -gt 1 ] || fail "ring-fixed: $e executions"
printf '%s\n' "$out" | grep -Eq "^ring-fixed +0 +[0-9.]+ +[0-9.]+ +[0-9]+ +$e " || fail "ring-fixed: $e executions? $out"
exit 0
