#!/usr/bin/env bash
# tests/cli/t_check_calls.sh — scripts/check_calls.sh (part of make check-layers), on a small tree
# of its own (SRC, BUILD): it fails on a call from a folder to a higher one that no include shows
# (a prototype written by hand), naming the caller, the symbol and its file; on a call loop among
# the files of a folder (naming the files and the symbols of the loop's edges); on an include loop
# among them; on a function over 150 lines without a stated reason; and passes on the same tree
# without each of them.  Then the tree's own objects (when built) pass.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d "${TMPDIR:-/tmp}/calls.XXXXXX") || exit 2
trap 'rm -rf "$t"' EXIT
s="$t/src"
mkdir -p "$t/b/exec" "$t/b/cli" "$t/b/base" "$s/exec" "$s/cli" "$s/base"
compile() {   # every source of the small tree into its object
  for c in "$s"/*/*.c; do
    d=$(basename "$(dirname "$c")")
    cc -c -I"$s" "$c" -o "$t/b/$d/$(basename "$c" .c).o" || exit 2
  done
}
check() { SRC="$s" BUILD="$t/b" bash scripts/check_calls.sh 2>&1; }
fail() { echo "FAIL: $*"; exit 1; }

printf 'int cli_helper(int x) { return x + 1; }\n' > "$s/cli/run_x.c"
printf 'int base_helper(int x) { return x * 2; }\n' > "$s/base/util.c"
printf 'int cli_helper(int);\nint base_helper(int);\nint ex(int x) { return %s; }\n' \
       'cli_helper(x) + base_helper(x)' > "$s/exec/tex.c"
compile
out=$(check) && fail "a call exec -> cli passed: $out"
echo "$out" | grep -q 'exec/tex.c calls cli_helper (cli/run_x.c)' ||
  fail "the report does not name the call: $out"
echo "$out" | grep -q 'base_helper' && fail "a call down the layers reported: $out"
printf 'int base_helper(int);\nint ex(int x) { return base_helper(x); }\n' > "$s/exec/tex.c"
compile
out=$(check) || fail "calls down the layers only, yet: $out"
echo "$out" | grep -q 'check-calls: ok: 1 calls between folders' || fail "$out"

# a call loop inside exec/: tex.c -> load.c -> tex.c
printf 'int tex_b(int);\nint ld_a(int x) { return x ? tex_b(x - 1) : 0; }\n' > "$s/exec/load.c"
printf 'int base_helper(int);\nint ld_a(int);\nint ex(int x) { return base_helper(x); }\n%s\n' \
       'int tex_b(int x) { return ld_a(x); }' > "$s/exec/tex.c"
compile
out=$(check) && fail "a call loop passed: $out"
echo "$out" | grep -q 'a call loop among the files of exec/' || fail "no loop named: $out"
echo "$out" | grep -q 'load -> tex : tex_b' || fail "the loop's symbols are not named: $out"
echo "$out" | grep -q 'tex -> load : ld_a' || fail "the loop's symbols are not named: $out"
printf 'int ld_a(int x) { return x; }\n' > "$s/exec/load.c"
compile
out=$(check) || fail "no loop, yet: $out"

# an include loop inside exec/: a.h <-> b.h
printf '#include "exec/b.h"\n' > "$s/exec/a.h"
printf '#include "exec/a.h"\n' > "$s/exec/b.h"
out=$(check) && fail "an include loop passed: $out"
echo "$out" | grep -q 'an include loop among the files of exec/' || fail "no include loop: $out"
printf '\n' > "$s/exec/b.h"
out=$(check) || fail "no include loop, yet: $out"

# a function of 151 lines: refused, unless the comment above it gives the reason
long() {
  printf '%s\nint long_fn(int x)\n{\n' "$1"
  for i in $(seq 147); do printf '    x += %d;\n' "$i"; done
  printf '    return x;\n}\n'
}
long '/* a long function */' > "$s/exec/long.c"
compile
out=$(check) && fail "a function of 151 lines passed: $out"
echo "$out" | grep -q 'exec/long.c:2: a function of 151 lines, over 150' || fail "$out"
long '/* a long function (over 150 lines: one table) */' > "$s/exec/long.c"
out=$(check) || fail "a long function with its reason refused: $out"

# the tree's own objects (when built)
if [ -d build/exec ]; then
  bash scripts/check_calls.sh || fail "the tree's own objects"
fi
echo "ok"
