#!/usr/bin/env bash
# tests/cli/t_hw_nvcc.sh — generated harness programs through nvcc -arch=sm_90 (no GPU needed):
# one full build with `ptxlitmus hw --no-run` (MP), then the PTX of a texture test and of
# Dat3M-dialect atomics (their device code in one nvcc -ptx run, combine_device), each litmus
# thread's instructions checked in program order with their exact qualifiers, and ptxas run on
# them.  The PTX of SB, LB, IRIW, CoRR, 2+2W, the barrier, cluster, alias and spin tests is
# checked the same way by t_hw_shim.sh, which compiles those programs anyway.  Skipped (77) when there is no nvcc.
set -u
bin=$1
. tests/hw/lib.sh
nvcc=$(find_nvcc)
[ -n "$nvcc" ] || { echo "nvcc not found (set NVCC or PATH): compile checks skipped"; exit 77; }
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$ptxas" ] || ptxas=$(command -v ptxas) || { echo "ptxas not found beside nvcc: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
A='\[%rd[0-9]+\]'
L='%lr[0-9]+_'

# a full build: the program, and its PTX (kept with --keep)
"$bin" hw --allow-outside --no-run --keep "$tmp/k" --nvcc "$nvcc" suites/isa/MP.litmus >"$tmp/o" 2>&1 \
  || { cat "$tmp/o"; fail "hw --no-run MP"; }
grep -q "Test MP: compiled" "$tmp/o" && [ -x "$tmp/k/MP" ] && [ -s "$tmp/k/MP.ptx" ] \
  || fail "MP program and PTX"
P=$tmp/k/MP.ptx
in_order "$P" 0 "^st\.global\.u32 $A, 1;" '^fence\.acq_rel\.sys;' \
  "^st\.relaxed\.sys\.global\.u32 $A, 1;"
in_order "$P" 1 "^ld\.relaxed\.sys\.global\.u32 ${L}r0, $A;" '^fence\.acq_rel\.sys;' \
  "^ld\.global\.u32 ${L}r1, $A;" "^cvt\.u64\.u32 %rd[0-9]+, ${L}r0;" \
  "^cvt\.u64\.u32 %rd[0-9]+, ${L}r1;"
grep -q '^\.visible \.entry hw_kernel' "$P" || fail "the kernel is in the PTX"

# device code only for the others, both through one nvcc -ptx and one ptxas (device_ptx,
# tests/hw/lib.sh): PTX to inspect, cubin for ptxas
cat > "$tmp/TEX.litmus" <<'T'
PTX TEX
{ x=0; flag=0; t @ texture aliases x; }
 P0@cta 0,gpu 0         | P1@cta 0,gpu 0          ;
 st.weak x, 1           | ld.acquire.cta r0, flag ;
 st.release.cta flag, 1 | tld.weak r1, t          ;
exists (P1:r0 == 1 /\ P1:r1 != 1)
T
cat > "$tmp/ATOMS.litmus" <<'T'
PTX ATOMS
{ x=2; y=0; P0:r5=3; }
 P0@cta 0,gpu 0                     | P1@cta 1,gpu 0 ;
 atom.acq_rel.sys.sub r0, x, 1      |                ;
 atom.relaxed.gpu.sub r1, x, r5     |                ;
 atom.relaxed.cta.inc r2, y         |                ;
 atom.acquire.gpu.cas r3, y, 0, 1   |                ;
 red.release.gpu.add y, 2           |                ;
 atom.relaxed.cluster.exch r4, y, 9 |                ;
forall (x == 0)
T
device_ptx "$tmp/g" "$tmp/TEX.litmus" "$tmp/ATOMS.litmus"
P=$tmp/g/TEX.ptx
in_order "$P" 1 "^ld\.acquire\.cta\.global\.u32 ${L}r0, $A;" \
  "^tex\.1d\.v4\.u32\.s32 \{${L}r1, %t_w1, %t_w2, %t_w3\}, \[%rd[0-9]+, \{%r[0-9]+\}\];"
P=$tmp/g/ATOMS.ptx
# P1 has no instruction: its asm still has an operand (basic asm would not collapse %%)
grep -q '"r"(i) /\* unused' "$tmp/g/ATOMS.cu" || fail "operand-less asm"
in_order "$P" 0 "^atom\.acq_rel\.sys\.global\.add\.u32 ${L}r0, $A, -1;" "^neg\.s32 %t_w0, ${L}r5;" \
  "^atom\.relaxed\.gpu\.global\.add\.u32 ${L}r1, $A, %t_w0;" \
  "^atom\.relaxed\.cta\.global\.inc\.u32 ${L}r2, $A, -1;" \
  "^atom\.acquire\.gpu\.global\.cas\.b32 ${L}r3, $A, 0, 1;" \
  "^red\.release\.gpu\.global\.add\.u32 $A, 2;" \
  "^atom\.relaxed\.cluster\.global\.exch\.b32 ${L}r4, $A, 9;"
echo "nvcc: 3 programs generated and compiled (1 full build, 2 through ptxas), PTX checked"
