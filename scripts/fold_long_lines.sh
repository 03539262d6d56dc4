#!/usr/bin/env bash
# scripts/fold_long_lines.sh FILE... — folds the lines of C files that are longer than 100
# columns with clang-format (.clang-format), touching no other line.  Repeats until no line is
# longer (a fold can move text to another long line) or nothing changes.
set -eu
for f in "$@"; do
  for pass in 1 2 3 4; do
    lines=$(python3 -c 'import sys
for i, l in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n"), 1):
    if len(l.expandtabs(8)) > 100: print(" --lines=%d:%d" % (i, i), end="")' "$f")
    [ -z "$lines" ] && break
    before=$(md5sum < "$f")
    # shellcheck disable=SC2086
    clang-format -i $lines "$f"
    [ "$(md5sum < "$f")" = "$before" ] && break
  done
  left=$(python3 -c 'import sys
print(sum(len(l.rstrip("\n").expandtabs(8)) > 100 for l in open(sys.argv[1], encoding="utf-8")))' "$f")
  [ "$left" -gt 0 ] && echo "fold_long_lines: $f: $left line(s) still over 100 columns"
done
exit 0
