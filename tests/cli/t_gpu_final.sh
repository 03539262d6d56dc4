#!/usr/bin/env bash
# tests/cli/t_gpu_final.sh — bench/gpu/final.sh and bench/gpu/sass_funcs.py without a GPU:
# the litmus threads cut out of a listing in cuobjdump -sass's layout by the cubin's symbols
# (a real cubin from nvcc, with a __noinline__ function kept local to its kernel), the control
# bits decoded, the load after a phase check that does / does not wait for its scoreboard, the
# whole listing without symbols; final.sh with stand-ins for cuobjdump and nvidia-smi: one
# tarball with the SASS of each program, exit 77 (nothing ran on a GPU), usage errors exit 2.
set -u
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sf=bench/gpu/sass_funcs.py

# a listing in cuobjdump's layout: ADDR TEXT HI-WORD(control bits: wait mask, write scoreboard)
listing() {   # listing OUT BASE LDG_WAIT_MASK
  python3 - "$@" <<'EOF'
import sys
out, base, wait = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3])
def hi(wb=7, wait=0, stall=1):
    return (stall | 1 << 4 | wb << 5 | 7 << 8 | wait << 11) << 41 | 0x100
rows = [(0, 'LDC R1, c[0x0][0x28]', hi()),
        (base, 'BAR.SYNC.DEFER_BLOCKING 0x0, 0x80', hi()),
        (base + 0x10, 'SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R2+URZ], RZ', hi(wb=1)),
        (base + 0x20, 'LDG.E R4, desc[UR4][R6.64]', hi(wb=2, wait=wait)),
        (base + 0x30, 'SEL R5, RZ, 0x1, !P0', hi(wait=2)),
        (base + 0x40, 'RET.REL.NODEC R20 0x0', hi())]
with open(out, 'w') as f:
    f.write('\nFatbin elf code:\n================\narch = sm_90\n\n\tcode for sm_90\n'
            '\t\tFunction : hw_kernel\n\t.headerflags\t@"EF_CUDA_SM90"\n')
    for a, t, h in rows:
        f.write(f'        /*{a:04x}*/                   {t} ;    /* 0x0000000000000000 */\n'
                f'{" " * 80}/* 0x{h:016x} */\n')
    f.write('\t\t..........\n')
EOF
}

# 1. no symbols: the whole kernel, control bits, the phase check not waited on
listing "$tmp/l.sass" 15d0 0
python3 $sf "$tmp/l.sass" > "$tmp/o" || fail "sass_funcs without a cubin"
grep -q '^sass_funcs: no function symbols matched' "$tmp/o" || fail "whole listing announced"
grep -q '15e0 \[B------:R-:W1:y1:S01\] SYNCS.PHASECHK' "$tmp/o" || { cat "$tmp/o"; fail "control bits"; }
grep -q '15f0 \[B------:R-:W2:y1:S01\] LDG' "$tmp/o" || { cat "$tmp/o"; fail "LDG's bits"; }
grep -q '^phase check:.*scoreboard 1 NOT waited on before it' "$tmp/o" \
  || { cat "$tmp/o"; fail "the load not waiting for the phase check"; }
listing "$tmp/w.sass" 15d0 2
python3 $sf "$tmp/w.sass" | grep -q '^phase check:.*scoreboard 1 waited on at 15f0 LDG' \
  || fail "the load waiting for the phase check"
printf '\t\tFunction : k\n        /*0010*/  SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R2], RZ ;\n' \
  > "$tmp/n.sass"
python3 $sf "$tmp/n.sass" > "$tmp/o"
grep -q '0010 \[?\] SYNCS' "$tmp/o" && grep -q 'control bits unknown' "$tmp/o" \
  || { cat "$tmp/o"; fail "a listing without encodings"; }
python3 $sf "$tmp/missing.sass" > /dev/null 2>&1; [ $? = 2 ] || fail "unreadable listing: exit 2"
python3 $sf > /dev/null 2>&1; [ $? = 2 ] || fail "usage: exit 2"

# 2. with a real cubin: the local function hw_thread_1 of hw_kernel cut out by its symbol
nvcc=$(find_nvcc)
cubin=
if [ -n "$nvcc" ]; then
  cat > "$tmp/k.cu" <<'EOF'
extern "C" __device__ __noinline__ void hw_thread_1(unsigned *p) { p[threadIdx.x] = 1; }
extern "C" __global__ void hw_kernel(unsigned *p) { if (p) hw_thread_1(p); }
EOF
  "$nvcc" -cubin -arch=sm_90 -o "$tmp/k.cubin" "$tmp/k.cu" || fail "nvcc -cubin"
  cubin=$tmp/k.cubin
  base=$(python3 -c "
import sys; sys.path.insert(0, 'bench/gpu'); import sass_funcs as s
print('%x' % [v for n, sec, v, z in s.elf_funcs('$cubin') if n.endswith('hw_thread_1')][0])")
  [ -n "$base" ] || fail "hw_thread_1 in the cubin's symbols"
  listing "$tmp/k.sass" "$base" 0
  python3 $sf "$tmp/k.sass" "$cubin" --match hw_thread > "$tmp/o" || fail "sass_funcs with a cubin"
  grep -q "^== \$hw_kernel\$hw_thread_1 (in hw_kernel, 0x$base\.\..*, 5 instructions)" "$tmp/o" \
    || { cat "$tmp/o"; fail "hw_thread_1 cut out by its symbol"; }
  grep -q 'LDC R1' "$tmp/o" && fail "an instruction outside hw_thread_1 printed"
  grep -q '^phase check:.*NOT waited on' "$tmp/o" || fail "phase check of hw_thread_1"
else
  echo "nvcc not found: the cubin part skipped"
fi

# 3. final.sh: stand-in cuobjdump (the listing; the cubin for -xelf), no GPU
mkdir -p "$tmp/bin" "$tmp/keep" "$tmp/out"
lst=$tmp/l.sass; src=/dev/null
[ -n "$cubin" ] && lst=$tmp/k.sass src=$tmp/k.cu
cat > "$tmp/bin/cuobjdump" <<EOF
#!/bin/sh
case "\$1" in
  --version) echo "Cuda compilation tools, release 13.0, stand-in" ;;
  -sass) cat "$lst" ;;
  -xelf) [ -n "$cubin" ] && cp "$cubin" "./\$(basename "\$3").1.sm_90.cubin" ;;
esac
EOF
printf '#!/bin/sh\nexit 9\n' > "$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/cuobjdump" "$tmp/bin/nvidia-smi"
printf '#!/bin/sh\nexit 0\n' > "$tmp/keep/MP+x"; chmod +x "$tmp/keep/MP+x"
cp "$src" "$tmp/keep/MP+x.cu"
PATH=$tmp/bin:$PATH bash bench/gpu/final.sh "$tmp/keep" "$tmp/out" > "$tmp/o" 2>&1; rc=$?
[ $rc = 77 ] || { cat "$tmp/o"; fail "final.sh without a GPU: exit 77 (got $rc)"; }
ls "$tmp/out"/final-*.tar.gz > /dev/null 2>&1 || { cat "$tmp/o"; fail "the tarball"; }
[ "$(ls "$tmp/out" | wc -l)" = 1 ] || fail "one file in OUTDIR"
tar -C "$tmp/out" -xzf "$tmp/out"/final-*.tar.gz
d=$(echo "$tmp/out"/final-*/)
for f in info.txt timeline.txt steps.tsv sass/MP+x.sass sass/MP+x.threads; do
  [ -s "$d/$f" ] || fail "$f in the tarball"
done
grep -q '^phase check:' "$d/sass/MP+x.threads" || fail "the phase check report"
grep -q 'cuobjdump: release 13.0, stand-in' "$d/info.txt" || fail "info.txt: cuobjdump"
grep -q 'record and hw not run' "$d/timeline.txt" || fail "timeline: no GPU"
[ -n "$cubin" ] && { [ -s "$d/sass/MP+x.cubin" ] || fail "the cubin in the tarball"; }
bash bench/gpu/final.sh > /dev/null 2>&1; [ $? = 2 ] || fail "usage error: exit 2"
bash bench/gpu/final.sh "$tmp/nokeep" "$tmp/out" > /dev/null 2>&1; [ $? = 2 ] \
  || fail "missing KEEPDIR: exit 2"
echo "final.sh: SASS of the litmus threads cut and decoded, one tarball, exit 77 without a GPU"
