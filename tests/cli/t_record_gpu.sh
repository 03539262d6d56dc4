#!/usr/bin/env bash
# tests/cli/t_record_gpu.sh — the GPU recorder (tests/kernels/record_gpu.sh, record_gpu.cu)
# without running it on a GPU: every group compiles as its own program for the lowest target it
# needs (sm_80: video tex txq wmma gemm80; sm_90a: sp wgmma tma gemm90a); a group that fails to
# compile is reported and does not stop the others; without a GPU a program says why it cannot
# run, exits 77 and writes no file.  Skipped (77) without nvcc.
set -u
. tests/hw/lib.sh
nvcc=$(find_nvcc)
[ -n "$nvcc" ] || { echo "nvcc not found: the recorder was not compiled"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rec=tests/kernels/record_gpu.sh

# 1. every group compiles (nvcc -o, sm_80 and sm_90a)
all="video tex txq wmma gemm80 sp wgmma tma gemm90a"
NVCC=$nvcc bash $rec --arch check --groups "$all" --compile-only --build "$tmp/b" > "$tmp/o" 2>&1 \
  || { cat "$tmp/o"; fail "record_gpu.sh --arch check --compile-only"; }
for g in $all; do
  grep -q "^record $g: compiled$" "$tmp/o" || { cat "$tmp/o"; fail "group $g compiled"; }
  [ -x "$tmp/b/$g" ] || fail "program $g built"
done
# the tex module without tx_query (its relocations against the reference descriptor sizes kept
# the H100 from loading it, tests/kernels/record_tex.cuh); the txq module with it
if command -v strings > /dev/null; then
  [ "$(strings "$tmp/b/tex" | grep -c tx_query)" = 0 ] || fail "tx_query left out of the tex module"
  [ "$(strings "$tmp/b/txq" | grep -c tx_query)" != 0 ] || fail "tx_query in the txq module"
fi
grep -q -- '-arch=sm_80 -DREC_GROUP_VIDEO' "$tmp/o" \
  && grep -q -- 'code=sm_90a -DREC_GROUP_WGMMA' "$tmp/o" || fail "targets sm_80 and sm_90a"

# 2. a program run where it cannot run: the reason, exit 77, no file (on a GPU: its files)
mkdir "$tmp/out"
"$tmp/b/wgmma" "$tmp/out" > "$tmp/o" 2>&1; rc=$?
if [ $rc -eq 77 ]; then
  grep -Eq '^record wgmma: skipped: (no CUDA device|needs compute capability 9.0)' "$tmp/o" \
    || { cat "$tmp/o"; fail "skip reason"; }
  [ -z "$(ls "$tmp/out")" ] || fail "a skipped group wrote $(ls "$tmp/out")"
elif [ $rc -eq 0 ]; then
  [ -s "$tmp/out/wgmma_0_wg_f16_rs.bin" ] || fail "wgmma ran but wrote no file"
else cat "$tmp/o"; fail "wgmma program: exit $rc"; fi

# 3. one group that does not compile does not sink the others; the run says why per group (the
#    video group is the program step 1 built with the same command: copied, not compiled again)
cat > "$tmp/nvcc" <<EOF
#!/bin/sh
case "\$*" in
  *REC_GROUP_TEX*) echo "tex: error on purpose" >&2; exit 1 ;;
  *"-arch=sm_80 -DREC_GROUP_VIDEO "*)
    while [ \$# -gt 1 ] && [ "\$1" != -o ]; do shift; done; exec cp "$tmp/b/video" "\$2" ;;
esac
exec "$nvcc" "\$@"
EOF
chmod +x "$tmp/nvcc"
NVCC=$tmp/nvcc bash $rec --arch sm_80 --groups "tex video sp" --out "$tmp/out2" > "$tmp/o" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/o"; fail "a failed group: exit 1 (got $rc)"; }
grep -q '^record tex: FAILED: nvcc exit 1' "$tmp/o" && grep -q 'tex: error on purpose' "$tmp/o" \
  || { cat "$tmp/o"; fail "the failed group's report"; }
grep -q '^record sp: skipped: needs sm_90 or later, --arch is sm_80' "$tmp/o" \
  || { cat "$tmp/o"; fail "the skipped group's reason"; }
grep -Eq '^record video: (skipped: no CUDA device|recorded)' "$tmp/o" \
  || { cat "$tmp/o"; fail "the other group still ran"; }
if grep -q '^record video: skipped' "$tmp/o"; then
  [ -z "$(ls "$tmp/out2" 2>/dev/null)" ] || fail "files written without a GPU"
fi
echo "recorder: 9 groups compiled (sm_80, sm_90a); skips and failures reported per group"
