#!/usr/bin/env bash
# bench/exec/gemm_bench.sh on small sizes (docs/benchmarks.md, "GEMM"): both kernels run through
# `ptxlitmus run` specs with a tensormaps: section (sm_90a) and match the C reference bit for bit;
# a run that does not match must make the script fail (a reference of other inputs).
set -u
bin=$1
fail() { echo "t_gemm_bench: $*"; exit 1; }
out=$(bash bench/exec/gemm_bench.sh "$bin" 128x128x64 200x136x72 2>&1) || fail "exit $?: $out"
[ "$(printf '%s\n' "$out" | grep -c 'checksum [0-9a-f]* match$')" = 2 ] || fail "$out"
printf '%s\n' "$out" | grep -q '^gemm_sm80 128x128x64: threads 256 ' || fail "$out"
printf '%s\n' "$out" | grep -q '^gemm_sm90a 200x136x72: threads 1024 ' || fail "$out"
# the comparison can fail: the kernel's C against a reference of a different size
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r bench "$tmp/"; mkdir -p "$tmp/tests"; cp tests/gemm_ref.h "$tmp/tests/"
sed -i 's/gref_gemm(M, N, K, 1, C);/gref_gemm(M, N, K, 2, C);/' "$tmp/bench/exec/gemm_data.c"
out=$(bash "$tmp/bench/exec/gemm_bench.sh" "$bin" 128x128x64 - 2>&1) && fail "no mismatch: $out"
printf '%s\n' "$out" | grep -q 'MISMATCH' || fail "$out"
exit 0
