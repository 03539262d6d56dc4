#!/usr/bin/env bash
# tests/cli/t_hw_shim.sh — whole harness programs end to end without a GPU: the device code
# through nvcc -ptx, the host side built with a C++ compiler against the CPU stand-in of
# tests/hw/cpu_shim.h, which runs the kernel's PTX on the project's executor; then
# `ptxlitmus hw --from` classifies the histogram.  Checks placement (as-test, shuffle), stress
# warps, instance rounding, launches, barriers, clusters and the read-back of registers and
# memory: every instance reports one final state and none is forbidden (the executor
# interleaves warps, it does not reorder memory).  The PTX nvcc makes of each program is also
# checked: each litmus thread's instructions in program order with their exact qualifiers
# (in_order, tests/hw/lib.sh), and ptxas takes it (what nvcc -cubin would run).  Skipped (77)
# without nvcc or c++.
set -u
bin=$1
. tests/hw/lib.sh
nvcc=$(find_nvcc)
cxx=${CXX:-c++}
[ -n "$nvcc" ] || { echo "nvcc not found: the CPU stand-in runs are skipped"; exit 77; }
command -v "$cxx" >/dev/null || { echo "$cxx not found: the stand-in runs are skipped"; exit 77; }
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$ptxas" ] || ptxas=$(command -v ptxas) || { echo "ptxas not found beside nvcc: skipped"; exit 77; }
lib=build/libptxlitmus.a
[ -f "$lib" ] || { echo "build/libptxlitmus.a not found (make first): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build T.cu's host side against the stand-in (with the kernel's PTX beside it)
build() {
  "$nvcc" -arch=sm_90 -ptx -o "$tmp/$1.ptx" "$tmp/$1.cu" 2>"$tmp/e" \
    || { cat "$tmp/e"; fail "nvcc -ptx $1"; }
  "$ptxas" -arch=sm_90 -o "$tmp/$1.cubin" "$tmp/$1.ptx" 2>"$tmp/e" \
    || { cat "$tmp/e"; fail "ptxas $1"; }
  "$cxx" -std=c++17 -O0 -x c++ -DHW_HOST_SHIM -I. -include tests/hw/cpu_shim.h "$tmp/$1.cu" \
    -x none "$lib" build/libptxexec.a -o "$tmp/$1.cpu" -lz3 -lcjson -lyaml -lm 2>"$tmp/e" \
    || { cat "$tmp/e"; fail "c++ $1"; }
}

# shim TEST ARGS...: generate, build, run the stand-in program with ARGS, classify
shim() {
  local t=$1 b; shift
  b=$(basename "$t" .litmus)
  "$bin" hw --allow-outside --no-compile --keep "$tmp" "$t" >/dev/null 2>"$tmp/e" \
    || { cat "$tmp/e"; fail "gen $t"; }
  [ -f "$tmp/$b.cpu" ] || build "$b"
  HW_SHIM_MAX_STEPS=50000000 HW_SHIM_PTX="$tmp/$b.ptx" "$tmp/$b.cpu" "$@" >"$tmp/$b.out" 2>&1 \
    || { cat "$tmp/$b.out"; fail "stand-in run of $t $*"; }
  "$bin" hw --from "$tmp/$b.out" "$t" >"$tmp/report" 2>&1 \
    || { cat "$tmp/report"; fail "classify $t"; }
  grep -q '^observed-forbidden 0$' "$tmp/report" \
    || { cat "$tmp/report"; fail "forbidden state from the executor: $t"; }
  P=$tmp/$b.ptx
}
A='\[%rd[0-9]+\]'   # an address operand, and the prefix of a litmus register
L='%lr[0-9]+_'

# expect REGEX: the last report has a line matching it
expect() { grep -Eq "$1" "$tmp/report" || { cat "$tmp/report"; fail "expected /$1/"; }; }

shim suites/isa/MP.litmus -n 256;                     expect '256 outcomes: 256 instances x 1 '
shim suites/isa/MP.litmus -n 300 -p 1 -s 5 -k 2;      expect '768 outcomes: 384 instances x 2 '
shim suites/isa/SB-fence-sc.litmus -n 256 -S 1;       expect '256 outcomes'
in_order "$P" 0 "^st\.global\.u32 $A, 1;" '^fence\.sc\.sys;' "^ld\.global\.u32 ${L}r0, $A;"
in_order "$P" 1 "^st\.global\.u32 $A, 1;" '^fence\.sc\.sys;' "^ld\.global\.u32 ${L}r1, $A;"
shim suites/isa/LB.litmus -n 256 -S 2 -p 1;           expect '^256 .*x=0; y=0;'
in_order "$P" 0 "^ld\.global\.u32 ${L}r0, $A;" "^st\.global\.u32 $A, ${L}r0;"
in_order "$P" 1 "^ld\.global\.u32 ${L}r1, $A;" "^st\.global\.u32 $A, ${L}r1;"
shim suites/own/IRIW+fence.sc.litmus -n 128 -p 1;     expect '128 outcomes'
R='ld\.relaxed\.gpu\.global\.u32'
in_order "$P" 0 "^st\.relaxed\.gpu\.global\.u32 $A, 1;"
in_order "$P" 2 "^$R ${L}r0, $A;" '^fence\.sc\.gpu;' "^$R ${L}r1, $A;"
in_order "$P" 3 "^$R ${L}r2, $A;" '^fence\.sc\.gpu;' "^$R ${L}r3, $A;"
shim suites/isa/CoRR.litmus -n 128;                   expect '128 outcomes'
R='ld\.relaxed\.sys\.global\.u32'
in_order "$P" 1 "^$R ${L}r0, $A;" "^$R ${L}r1, $A;"
shim suites/own/2+2W+rel.litmus -n 128 -b 64;         expect '128 outcomes'
in_order "$P" 0 "^st\.relaxed\.gpu\.global\.u32 $A, 1;" "^st\.release\.gpu\.global\.u32 $A, 2;"
in_order "$P" 1 "^st\.relaxed\.gpu\.global\.u32 $A, 1;" "^st\.release\.gpu\.global\.u32 $A, 2;"
shim suites/own/MP+bar.sync.litmus -n 128 -p 1 -S 1; expect '^128 .*\*> P1:r0=1; .*allowed'
in_order "$P" 0 "^st\.global\.u32 $A, 1;" '^barrier\.sync 0, 128;'   # two threads of CTA 0,
in_order "$P" 1 '^barrier\.sync 0, 128;' "^ld\.global\.u32 ${L}r0, $A;"   # 2 warps each
shim suites/own/PC+bar.arrive+bar.sync.litmus -n 128
expect '^128 .*\*> P1:r0=1; .*allowed'
# Dat3M: bar.cta.arrive INSTANCE, ID: barrier id 2 (LitmusPTX.g4 README)
in_order "$P" 0 "^st\.global\.u32 $A, 1;" '^barrier\.arrive 2, 128;'
in_order "$P" 1 '^barrier\.sync 2, 128;' "^ld\.global\.u32 ${L}r0, $A;"
shim suites/own/MP+rel+acq.cluster-same-cluster.litmus -n 128 -p 1
expect '128 outcomes'
in_order "$P" 0 "^st\.global\.u32 $A, 1;" "^st\.release\.cluster\.global\.u32 $A, 1;"
in_order "$P" 1 "^ld\.acquire\.cluster\.global\.u32 ${L}r0, $A;" "^ld\.global\.u32 ${L}r1, $A;"
grep -q '#define T_CLUSTER_LAUNCH 1' "$tmp/MP+rel+acq.cluster-same-cluster.cu" || fail "clusters"
shim suites/own/ALU-chain.litmus -n 128;              expect '128 outcomes'
shim suites/own/Address-register.litmus -n 128;       expect '^128 .*x=1; y=0;'
shim suites/own/CAS-race.litmus -n 128 -p 1;          expect '128 outcomes'
shim suites/isa/LitmusTest1-atom-sys-inc.litmus -n 128
expect '^128 .*x=2;'
# a spin loop: only resident blocks may wait for each other, so with room for 2 blocks the
# 256 instances run as 2 launches of 128 (one producer block, then its consumer block)
export HW_SHIM_RESIDENT=2
shim suites/own/MP+spin-pred-bra.litmus -n 256
unset HW_SHIM_RESIDENT
expect '256 outcomes: 128 instances x 2 launches'
expect '^256 .*\*> P1:r1=42;'
in_order "$P" 1 "^ld\.acquire\.gpu\.global\.u32 ${L}r0, $A;" "^setp\.ne\.s32 ${L}p1, ${L}r0, 1;" \
  "^@${L}p1 bra hwL[0-9]+_0;" "^ld\.global\.u32 ${L}r1, $A;"
# issue #29: shared memory per instance, an mbarrier, barrier.cluster and st.async into the
# other CTA of a cluster (mapa), then a bulk copy completing on an mbarrier (16 bytes, tx x4)
shim suites/async/MP+st.async.litmus -n 128 -p 1;     expect '128 outcomes'
in_order "$P" 0 '^mapa\.shared::cluster\.u32 %t_c0, %r[0-9]+, 1;' '^barrier\.cluster\.arrive;' \
  '^st\.async\.shared::cluster\.mbarrier::complete_tx::bytes\.u32 \[%t_c0\], 1, \[%t_c1\];'
shim suites/async/MP+cp.async.bulk+mbarrier.litmus -n 128
expect '^128 .* P1:r0=1;'   # the copied value (x=1) arrived
in_order "$P" 0 '^mbarrier\.expect_tx\.relaxed\.cta\.shared\.b64 \[%r[0-9]+\], 16;' \
  '^cp\.async\.bulk\.shared::cluster\.global\.mbarrier::complete_tx::bytes \[%t_c[0-9]\], \[%rd[0-9]+\], 16,'
# aliases need the driver's virtual memory: the stand-in says so, and so does --from
"$bin" hw --allow-outside --no-compile --keep "$tmp" suites/isa/CoWR-alias.litmus >/dev/null
build CoWR-alias
in_order "$tmp/CoWR-alias.ptx" 0 "^st\.global\.u32 $A, 1;" '^fence\.proxy\.alias;' \
  "^ld\.global\.u32 ${L}r1, $A;"
grep -q '#define T_NMAPS 2' "$tmp/CoWR-alias.cu" || fail "two virtual mappings"
"$tmp/CoWR-alias.cpu" -n 64 >"$tmp/alias.out"; [ $? -eq 77 ] || fail "alias: exit 77"
grep -q '^HWSKIP ' "$tmp/alias.out" || fail "alias: HWSKIP"
"$bin" hw --from "$tmp/alias.out" suites/isa/CoWR-alias.litmus >/dev/null 2>&1
[ $? -eq 77 ] || fail "--from a skipped run: 77"
echo "CPU stand-in: 17 programs run end to end, no forbidden state; the PTX of 12 checked"
