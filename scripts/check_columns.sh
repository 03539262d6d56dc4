#!/usr/bin/env bash
# scripts/check_columns.sh — part of `make check-layers`: no line of the C sources (every layer,
# tests, fuzz targets) is longer than 100 characters (issue #8).  To wrap offending lines
# without restyling the rest of a file: clang-format -i --lines=N:N FILE (.clang-format).
set -u
cd "$(dirname "$0")/.."
python3 - <<'PY'
import glob, sys
bad = []
for d in ("base", "ptx", "frontend", "model", "solver", "check", "report", "suite", "hw", "cli",
          "exec", "include", "tools", "scripts", "tests", "fuzz"):
    for f in sorted(glob.glob(d + "/*.[ch]") + glob.glob(d + "/*.def")):
        for i, line in enumerate(open(f, encoding="utf-8", errors="replace").read().split("\n")):
            if len(line) > 100:
                bad.append("%s:%d:101: found a line of %d characters, expected at most 100"
                           % (f, i + 1, len(line)))
print("\n".join(bad[:50]))
print("columns: %d lines over 100 characters" % len(bad))
sys.exit(1 if bad else 0)
PY
