#!/usr/bin/env bash
# bench/gpu/diag_mbar.sh — a short GPU diagnosis, run once on a lent H100 (2026-11-26, run 3):
# MP+mbar.parity and IRIW+mbar showed states the model forbids in runs 1 and 2 (whole warps
# reading the producer's global store as 0 after try_wait.parity returned True).  This runs the
# parity family with the producer-side and waiter-side fences, the qualifiers written out and
# .cluster scope, plain (A) and stressed (B), keeps the harnesses and dumps the SASS of their
# litmus threads (cuobjdump), and runs bench/gpu/diag_tex.cu (why texture launches are refused).
# Leaves OUTDIR/diag.tar.gz.   usage: bench/gpu/diag_mbar.sh OUTDIR   (binary from pack.sh)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
out=${1:?usage: $0 OUTDIR}
w=$(mktemp -d)/diag; mkdir -p "$w"
bin=.gpu/ptxlitmus; export LD_LIBRARY_PATH=$root/.gpu/lib
tests=(suites/async/MP+mbar.parity.litmus suites/async/MP+mbar.parity+fence.p0.litmus
       suites/async/MP+mbar.parity+fence.p1.litmus suites/async/MP+mbar.parity.explicit.litmus
       suites/async/MP+mbar.parity.cluster.litmus suites/async/MP+mbar.spin.litmus
       suites/async/IRIW+mbar.litmus suites/async/SB+mbar.litmus)
{ nvidia-smi; nvcc --version; date -u; git rev-parse HEAD; } > "$w/info.txt" 2>&1
start=$SECONDS
timeout 120 "$bin" hw --timeout 20 --keep "$w/keep" --json "$w/hw-A.json" "${tests[@]}" > "$w/hw-A.txt" 2>&1
echo "hw A: exit $? ($((SECONDS - start)) s)" >> "$w/info.txt"
timeout 120 "$bin" hw --timeout 20 --keep "$w/keep" --placement shuffle --stress lines --launches 8 \
  --json "$w/hw-B.json" "${tests[@]}" > "$w/hw-B.txt" 2>&1
echo "hw B: exit $? ($((SECONDS - start)) s)" >> "$w/info.txt"
for t in "${tests[@]}"; do
  n=$(basename "$t" .litmus)
  [ -x "$w/keep/$n" ] && timeout 20 cuobjdump -sass -fun hw_thread_0 -fun hw_thread_1 "$w/keep/$n" \
      > "$w/sass-$n.txt" 2>&1
done
nvcc -arch=sm_90 -o "$w/diag_tex" bench/gpu/diag_tex.cu > "$w/tex.txt" 2>&1 && timeout 30 "$w/diag_tex" >> "$w/tex.txt" 2>&1
nvcc -gencode arch=compute_90a,code=sm_90a -o "$w/diag_tex_a" bench/gpu/diag_tex.cu >> "$w/tex.txt" 2>&1 \
  && { echo "--- sm_90a"; timeout 30 "$w/diag_tex_a"; } >> "$w/tex.txt" 2>&1
rm -rf "$w/keep"/*.ptx 2>/dev/null
mkdir -p "$out" && tar czf "$out/diag.tar.gz" -C "$(dirname "$w")" diag && echo "diag: $out/diag.tar.gz ($((SECONDS - start)) s)"
grep -h -E '^Test|forbidden  *<==|^observed-forbidden' "$w"/hw-*.txt
cat "$w/tex.txt"
