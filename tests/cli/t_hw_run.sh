#!/usr/bin/env bash
# tests/cli/t_hw_run.sh — `ptxlitmus hw` where the harness cannot run: without nvcc it says so
# and exits 77; with nvcc it builds the program and, on a machine without a GPU (no CUDA driver
# or no device), says it cannot run it and exits 77 (docs/hardware.md).  On a machine with a
# GPU the run happens and MP must show no forbidden state (exit 0).
set -u
bin=$1
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" hw --nvcc /nonexistent/nvcc --json "$tmp/j" suites/isa/MP.litmus >"$tmp/o" 2>&1; rc=$?
[ $rc -eq 77 ] || { cat "$tmp/o"; fail "no nvcc: exit 77 (got $rc)"; }
grep -q 'Test MP: skipped: cannot compile the harness: nvcc not found' "$tmp/o" || { cat "$tmp/o"; fail "no-nvcc message"; }
grep -q '"status":	"skipped"' "$tmp/j" || fail "JSON status skipped"

nvcc=$(find_nvcc)
[ -n "$nvcc" ] || { echo "nvcc not found: exit 77 without nvcc checked, the build-then-skip check is skipped"; exit 0; }
"$bin" hw --nvcc "$nvcc" --instances 4096 --json "$tmp/j" suites/isa/MP.litmus >"$tmp/o" 2>&1; rc=$?
case $rc in
  77) grep -Eq 'Test MP: skipped: the harness was built but cannot run here: no CUDA (driver|device)' "$tmp/o" \
        || { cat "$tmp/o"; fail "no-GPU message"; }
      grep -q '"status":	"skipped"' "$tmp/j" || fail "JSON status skipped"
      echo "no GPU here: the harness was built and the run skipped with exit 77 ($(grep -o 'no CUDA [a-z]*' "$tmp/o" | head -1))" ;;
  0)  grep -q '^observed-forbidden 0$' "$tmp/o" || { cat "$tmp/o"; fail "MP on the GPU"; }
      echo "a GPU is present: MP ran ($(grep '^Histogram' "$tmp/o"))" ;;
  *)  cat "$tmp/o"; fail "hw MP: exit $rc" ;;
esac
