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
MP=suites/isa/MP.litmus

"$bin" hw --allow-outside --nvcc /nonexistent/nvcc --json "$tmp/j" $MP >"$tmp/o" 2>&1; rc=$?
[ $rc -eq 77 ] || { cat "$tmp/o"; fail "no nvcc: exit 77 (got $rc)"; }
grep -q 'Test MP: skipped: cannot compile the harness: nvcc not found' "$tmp/o" \
  || { cat "$tmp/o"; fail "no-nvcc message"; }
grep -q '"status":	"skipped"' "$tmp/j" || fail "JSON status skipped"

nvcc=$(find_nvcc)
[ -n "$nvcc" ] || { echo "nvcc not found: only the no-nvcc exit 77 was checked"; exit 0; }
"$bin" hw --allow-outside --nvcc "$nvcc" --instances 4096 --json "$tmp/j" $MP >"$tmp/o" 2>&1; rc=$?
case $rc in
  77) grep -Eq 'skipped: the harness was built but cannot run here: no CUDA (driver|device)' \
        "$tmp/o" || { cat "$tmp/o"; fail "no-GPU message"; }
      grep -q '"status":	"skipped"' "$tmp/j" || fail "JSON status skipped"
      why=$(grep -o 'no CUDA [a-z]*' "$tmp/o" | head -1)
      echo "no GPU here: built, then skipped with exit 77 ($why)" ;;
  0)  grep -q '^observed-forbidden 0$' "$tmp/o" || { cat "$tmp/o"; fail "MP on the GPU"; }
      echo "a GPU is present: MP ran ($(grep '^Histogram' "$tmp/o"))" ;;
  *)  cat "$tmp/o"; fail "hw MP: exit $rc" ;;
esac
