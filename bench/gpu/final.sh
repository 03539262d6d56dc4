#!/usr/bin/env bash
# bench/gpu/final.sh — the last GPU call of 2026-11-26 (issue #29), about 2 minutes on an H100:
#  a. the SASS of the mbarrier diagnosis programs (bench/gpu/diag_mbar.sh, run 3) that KEEPDIR
#     holds: `cuobjdump -sass` of each whole program, its cubin (`cuobjdump -xelf all`) and
#     bench/gpu/sass_funcs.py, which cuts out the litmus threads ($hw_kernel$hw_thread_N, local
#     functions of hw_kernel) with their control bits and says whether the load after the
#     mbarrier phase check waits for it; nvdisasm of the cubin where there is one
#  b. the recorder's groups tex (now without tx_query), txq (the module with it: the diagnosis
#     of the refused texture launches) and wgmma (wg_sp_s8 to be recorded again)
#  c. if the time is left: `ptxlitmus hw` on the MP+mbar.parity family, A (plain) and B
#     (shuffle + lines, 8 launches) as in run 3, then C (B with 64 launches) for MP+mbar.parity
#     and the two fence variants (few p=1 outcomes with fence.p0 in run 3), reusing KEEPDIR's
#     programs (an unchanged .cu whose .ptx is there is not rebuilt)
# Leaves ONE file, OUTDIR/final-UTCTIME.tar.gz, even when a step fails or is cut; a step that
# would pass the budget (FINAL_BUDGET, 110 s) is not started.  FINAL_FORCE=1 runs the GPU steps
# without nvidia-smi (the CPU stand-in: each program then says why it cannot run, exit 77).
# usage: bench/gpu/final.sh KEEPDIR [OUTDIR]      (OUTDIR, else $OUT)
#   KEEPDIR: the keep/ folder of run 3's tarball (programs and .cu), e.g. .gpu/diag-keep
# exit: 0 done; 2 a step failed or was killed by its limit; 77 nothing could run (no GPU).
# `hw` exiting 1 (the forbidden state of MP+mbar.parity, docs/hardware.md) is the finding
# being measured, and record_gpu.sh exiting 1 (a group failed: txq is expected to where the
# driver refuses its module) is a result too: both are in steps.tsv, not counted as failures.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
keep=${1:-}
out=${2:-${OUT:-}}
if [ -z "$keep" ] || [ -z "$out" ]; then
  sed -n '/^# usage:/,/^# exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2
fi
[ -d "$keep" ] || { echo "final: no folder $keep" >&2; exit 2; }
keep=$(cd "$keep" && pwd)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
budget=${FINAL_BUDGET:-110}
bin=$root/.gpu/ptxlitmus
[ -x "$bin" ] || bin=$root/ptxlitmus
[ -d "$(dirname "$bin")/lib" ] && export LD_LIBRARY_PATH=$(dirname "$bin")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work=$(mktemp -d "${TMPDIR:-/tmp}/final.XXXXXX") || exit 2
F=$work/final-$stamp
mkdir -p "$F/sass" "$F/record" || exit 2
T0=$SECONDS
now() { echo $((SECONDS - T0)); }
exec 3>&1   # the console, also from steps whose output goes to a log
tl() { printf '[%4ds] %s\n' "$(now)" "$*" | tee -a "$F/timeline.txt" >&3; }
fails=0; ran=0
# step NAME LIMIT CMD...: CMD under `timeout` (its children too), start/end in timeline.txt,
# exit status in steps.tsv; 124/137 = killed by the limit
step() {
  local name=$1 lim=$2 rc; shift 2
  tl "start $name (limit ${lim}s)"
  timeout -k 3 "$lim" "$@"; rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(now)" >> "$F/steps.tsv"
  tl "end $name: exit $rc$( [ $rc = 124 ] || [ $rc = 137 ] && echo ' (killed by its limit)')"
  return $rc
}
fits() { [ $(( $(now) + $1 )) -le "$budget" ]; }
finish() {
  trap - EXIT INT TERM
  wait 2>/dev/null
  local st=0
  [ $fails -gt 0 ] && st=2
  [ $fails -eq 0 ] && [ $ran -eq 0 ] && st=77
  tl "end: status $st ($ran step(s) ran on the GPU, $fails failed)"
  tar -C "$work" -czf "$out/final-$stamp.tar.gz.part" "final-$stamp" \
    && mv "$out/final-$stamp.tar.gz.part" "$out/final-$stamp.tar.gz"
  rm -rf "$work"
  echo "final: status $st; $out/final-$stamp.tar.gz ($(now) s)"
  exit $st
}
trap finish EXIT
trap 'fails=$((fails + 1)); exit' INT TERM HUP

{ echo "command: bench/gpu/final.sh $*"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo 'no git')"
  echo "host: $(uname -srm), $(nproc) CPUs"
  echo "ptxlitmus: $("$bin" version 2>&1 | head -n1) ($bin)"
  echo "nvcc: $(nvcc --version 2>&1 | grep -o 'release .*' || echo 'not found')"
  echo "cuobjdump: $(cuobjdump --version 2>&1 | grep -o 'release .*' || echo 'not found')"
  echo "nvdisasm: $(nvdisasm --version 2>&1 | grep -o 'release .*' || echo 'not found')"
  echo "gpu: $(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader \
    2>/dev/null | head -n1 | grep . || echo 'none (nvidia-smi absent or failed)')"
  echo "keep: $keep"; ls -l "$keep"
} > "$F/info.txt" 2>&1
gpu=1; nvidia-smi -L > /dev/null 2>&1 || gpu=${FINAL_FORCE:-0}   # FINAL_FORCE=1: the CPU stand-in

# ---- a. SASS (CPU only, in the background while the GPU steps run)
sass_all() {
  local p n c
  command -v cuobjdump > /dev/null || { echo "cuobjdump not found: no SASS"; return 77; }
  for p in "$keep"/*; do
    n=$(basename "$p")
    [ -f "$p" ] && [ -x "$p" ] && [ -f "$p.cu" ] || continue
    cuobjdump -sass "$p" > "$F/sass/$n.sass" 2>&1 || echo "$n: cuobjdump -sass exit $?"
    mkdir -p "$work/x/$n"
    ( cd "$work/x/$n" && cuobjdump -xelf all "$p" > /dev/null 2>&1 )
    c=$(ls "$work/x/$n"/*sm_90*.cubin "$work/x/$n"/*.cubin 2>/dev/null | head -n1)
    if [ -n "$c" ]; then
      cp "$c" "$F/sass/$n.cubin"
      command -v nvdisasm > /dev/null && nvdisasm -c "$c" > "$F/sass/$n.nvdisasm" 2>&1
    else echo "$n: no cubin from cuobjdump -xelf all"; fi
    python3 bench/gpu/sass_funcs.py "$F/sass/$n.sass" ${c:+"$c"} > "$F/sass/$n.threads" 2>&1
    grep -H '^phase check:' "$F/sass/$n.threads"
  done
  return 0
}
export -f sass_all; export F keep work
step sass 60 bash -c sass_all > "$F/sass.log" 2>&1 &
sass_pid=$!

# KEEPDIR's programs for hw (step c), copied: hw reuses a program whose .cu is unchanged and
# whose .ptx is there, and diag_mbar.sh deleted the .ptx files: nvcc -ptx again, meanwhile
mkdir -p "$work/keep" && cp -p "$keep"/* "$work/keep/" 2>/dev/null
( cd "$work/keep" && for c in *.cu; do
    [ -f "${c%.cu}.ptx" ] || echo "$c"; done \
  | xargs -r -P "$(nproc)" -I{} sh -c 'f={}; nvcc -arch=sm_90 -O3 -std=c++17 -ptx -o "${f%.cu}.ptx" "$f"' \
  > "$F/ptx.log" 2>&1 ) &
ptx_pid=$!

# ---- b. the recorder: tex, txq, wgmma
if [ $gpu = 1 ]; then
  step record 50 bash tests/kernels/record_gpu.sh --out "$F/record/gpu" --timeout 20 \
    --groups "tex txq wgmma" > "$F/record.log" 2>&1
  rc=$?; case $rc in 0|1) ran=$((ran + 1)) ;; 77) ;; *) fails=$((fails + 1)) ;; esac
else tl "no GPU (nvidia-smi -L failed): record and hw not run"; fi

# ---- c. hw on the MP+mbar.parity family, with KEEPDIR's programs (copied: hw writes .out there)
fam="MP+mbar.parity MP+mbar.parity.explicit MP+mbar.parity+fence.p0 MP+mbar.parity+fence.p1
     MP+mbar.parity.cluster"
tests=(); for t in $fam; do tests+=("suites/async/$t.litmus"); done
few=(suites/async/MP+mbar.parity.litmus suites/async/MP+mbar.parity+fence.p0.litmus
     suites/async/MP+mbar.parity+fence.p1.litmus)
hwrun() {   # hwrun NAME LIMIT OPTIONS... -- TESTS...
  local name=$1 lim=$2 rc; shift 2
  fits "$lim" || { tl "$name: not started (would pass the ${budget}s budget)"; return; }
  step "hw-$name" "$lim" "$bin" hw --timeout $((lim - 5)) --keep "$work/keep" \
    --json "$F/hw-$name.json" "$@" > "$F/hw-$name.txt" 2>&1
  rc=$?; case $rc in 0|1) ran=$((ran + 1)) ;; 77) ;; *) fails=$((fails + 1)) ;; esac
}
if [ $gpu = 1 ]; then
  wait "$ptx_pid"
  hwrun A 25 "${tests[@]}"
  hwrun B 25 --placement shuffle --stress lines --launches 8 "${tests[@]}"
  hwrun C 25 --placement shuffle --stress lines --launches 64 "${few[@]}"
  grep -h -E '^Test|<==|^Histogram' "$F"/hw-*.txt 2>/dev/null | tee -a "$F/timeline.txt"
fi
wait "$sass_pid"; rc=$?
[ $rc != 0 ] && [ $rc != 77 ] && fails=$((fails + 1))
cat "$F/sass.log"
