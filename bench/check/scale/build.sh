#!/usr/bin/env bash
# bench/check/scale/build.sh — regenerates the PTX of the scale benchmarks (issue #36): each
# NAME.cu compiled by nvcc 13 once per variant its "// variants:" line names, as
# NAME-VARIANT.ptx (fixed: no flag; any other: -DBUGGY_<VARIANT>).  The specs are made by
# scale_bench.sh for each size.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for cu in *.cu; do
  b=${cu%.cu}
  for v in $(sed -n 's|^// variants: ||p' "$cu"); do
    flag=; [ "$v" = fixed ] || flag=-DBUGGY_$(echo "$v" | tr a-z A-Z)
    cmd="$NVCC -ptx -arch=sm_90 -lineinfo $flag $cu -o $b-$v.ptx"
    echo "$cmd"
    $cmd
  done
done
