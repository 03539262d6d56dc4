#!/usr/bin/env bash
# tests/cli/t_check_calls.sh — scripts/check_calls.sh (part of make check-layers) fails on a call
# from a folder to a higher one that no include shows (a prototype written by hand), names the
# caller, the symbol and its file, and passes on the same objects without that call.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d "${TMPDIR:-/tmp}/calls.XXXXXX") || exit 2
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/b/exec" "$t/b/cli" "$t/b/base"
printf 'int cli_helper(int x) { return x + 1; }\n' > "$t/cli.c"
printf 'int base_helper(int x) { return x * 2; }\n' > "$t/base.c"
printf 'int cli_helper(int);\nint base_helper(int);\nint ex(int x) { return %s; }\n' \
       'cli_helper(x) + base_helper(x)' > "$t/up.c"
printf 'int base_helper(int);\nint ex(int x) { return base_helper(x); }\n' > "$t/down.c"
cc -c "$t/cli.c" -o "$t/b/cli/run_x.o" && cc -c "$t/base.c" -o "$t/b/base/util.o" &&
  cc -c "$t/up.c" -o "$t/b/exec/tex.o" || exit 2
out=$(BUILD="$t/b" bash scripts/check_calls.sh 2>&1); rc=$?
[ $rc -ne 0 ] || { echo "FAIL: a call exec -> cli passed: $out"; exit 1; }
echo "$out" | grep -q 'exec/tex.c calls cli_helper (cli/run_x.c)' ||
  { echo "FAIL: the report does not name the call: $out"; exit 1; }
echo "$out" | grep -q 'base_helper' && { echo "FAIL: a call down the layers reported: $out"; exit 1; }
cc -c "$t/down.c" -o "$t/b/exec/tex.o" || exit 2
out=$(BUILD="$t/b" bash scripts/check_calls.sh 2>&1) ||
  { echo "FAIL: calls down the layers only, yet: $out"; exit 1; }
echo "$out" | grep -q 'check-calls: ok (1 references' || { echo "FAIL: $out"; exit 1; }
# the tree's own objects (when built)
if [ -d build/exec ]; then
  bash scripts/check_calls.sh || { echo "FAIL: the tree calls up the layers"; exit 1; }
fi
echo "ok"
