#!/usr/bin/env bash
# bench/run.sh — `make bench`: every benchmark of the project, one line of figures each.
# Figures are recorded by hand in docs/benchmarks.md together with the machine they came from.
set -eu
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
bash bench/litmus/verify_bench.sh ./ptxlitmus
bash bench/exec/exec_bench.sh ./ptxlitmus
bash bench/exec/gemm_bench.sh ./ptxlitmus
bash bench/litmus/scale_bench.sh ./ptxlitmus
bash bench/litmus/values_bench.sh ./ptxlitmus
bash bench/check/check_bench.sh ./ptxlitmus
