#!/usr/bin/env bash
# `run --check ...` on the faulty kernels of suites/sanitizer (issue #14): each expected report
# (compute-sanitizer's first line, the PTX and CUDA lines, the thread, the details) is pinned
# here; a finding exits 1 and is listed in the JSON; the correct kernel gives no finding under
# all four checks; device printf goes to stdout per warp (--no-printf: none).
set -u
bin=$1
S=suites/sanitizer
fail() { echo "t_sanitizer: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# run SPEC CHECKS EXIT: stderr in $tmp/err, JSON in $tmp/j.json
run() {
  "$bin" run --allow-outside "$S/$1.yaml" --no-outputs --check "$2" --json "$tmp/j.json" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq "$3" ] || { cat "$tmp/err"; fail "$1 --check $2: exit $rc, expected $3"; }
}
has() { grep -qF -- "$1" "$tmp/err" || { cat "$tmp/err"; fail "$2: no line '$1'"; }; }
# the same with the device address left out (module strings move the buffers): @A stands for it
hasa() {
  local re
  re=$(printf '%s' "$1" | sed -e 's/[][().|*+?{}^$\\]/\\&/g')
  re=${re//@A/0x7000000[0-9a-f]+}
  grep -qE -- "$re" "$tmp/err" || { cat "$tmp/err"; fail "$2: no line '$1'"; }
}
json() { python3 -c "import json,sys; j=json.load(open('$tmp/j.json')); f=j['findings']; $1" \
           || { cat "$tmp/j.json"; fail "$2: JSON: $1"; }; }

# memcheck (the default): the buffer by name and the offset past its end
run oob_write memcheck 1
has "========= Invalid __global__ write of size 4 bytes" oob_write
has "=========     at $S/faulty.ptx:64 (st.global.f32 [%rd7], %f2) in " oob_write
has "faulty.cu:10:_Z9oob_writePKfPfi" oob_write
has "=========     by thread (0,0,0) in block (1,0,0)" oob_write
hasa "=========     Address @A is out of bounds" oob_write
hasa "=========     and is 0 bytes after the nearest allocation 'y' at @A of size 1024 bytes" oob_write
hasa "fault: out-of-bounds global store of 4 bytes at address @A" oob_write
json "assert len(f)==1 and f[0]['check']=='memcheck' and f[0]['kind']=='invalid-address' and f[0]['buffer']=='y' and f[0]['offset']==0 and f[0]['at']['cuda_line']==10" oob_write
"$bin" run "$S/oob_write.yaml" --no-outputs 2>"$tmp/err2"; [ $? -eq 1 ] || fail "default check: exit"
grep -qF "Invalid __global__ write of size 4 bytes" "$tmp/err2" || fail "memcheck is not the default"
run misaligned memcheck 1
has "========= Misaligned __global__ write of size 4 bytes" misaligned
hasa "=========     Address @A is misaligned" misaligned
has "=========     by thread (5,0,0) in block (0,0,0)" misaligned
has "=========     and is 22 bytes into the allocation 'p' of size 256 bytes" misaligned
json "assert f[0]['kind']=='misaligned' and f[0]['buffer']=='p' and f[0]['offset']==22" misaligned

# synccheck: __syncthreads() in a branch taken by lanes 0..3 of warp 3
run divergent_sync synccheck 1
has "========= Barrier error detected. Divergent thread(s) in warp" divergent_sync
has "=========     at $S/faulty.ptx:133 (bar.sync 0) in " divergent_sync
has "faulty.cu:27:_Z14divergent_syncPKiPi" divergent_sync
has "=========     by thread (96,0,0) in block (0,0,0)" divergent_sync
has "lanes 0x0000000f of warp 3 reach this aligned barrier; lanes 0xfffffff0 of the warp did not and exited" divergent_sync
json "assert len(f)==1 and f[0]['check']=='synccheck' and f[0]['kind']=='divergent-barrier'" divergent_sync
run divergent_sync memcheck 0      # without synccheck it runs to completion, as before
run shfl_mask synccheck 1
has "========= Barrier error detected. Invalid arguments" shfl_mask
has "=========     by thread (16,0,0) in block (0,0,0)" shfl_mask
has "executing lane is not in membermask 0x0000ffff" shfl_mask
json "assert f[0]['kind']=='membermask'" shfl_mask

# racecheck: pairs with both threads' lines
run race_shared racecheck 1
has "========= Error: Race reported between Write access at $S/faulty.ptx:203 (st.shared.u32 [%r5], %r2) in " race_shared
has "=========     and Read access at $S/faulty.ptx:213 (ld.shared.u32 %r14, [%r13]) in " race_shared
has "faulty.cu:45:_Z11race_sharedPKiPi" race_shared
has "=========     by thread (1,0,0) in block (0,0,0) and by thread (0,0,0) in block (0,0,0)" race_shared
json "assert all(x['check']=='racecheck' and x['kind']=='race' for x in f) and f[0]['other']['access']=='W' and f[0]['at']['access']=='R' and f[0]['other']['cuda_line']==44" race_shared
run race_global racecheck 1
has "=========     and Read access at $S/faulty.ptx:238 (ld.global.u32 %r2, [%rd2]) in " race_global
has "=========     by thread (0,0,0) in block (0,0,0) and by thread (0,0,0) in block (1,0,0)" race_global
hasa "=========     __global__ address @A (4 bytes, offset 0 of 'counter')" race_global
run block_divergent_sync synccheck 1
has "========= Barrier error detected. Divergent thread(s) in block" block_divergent_sync
has "=========     at $S/faulty.ptx:482 (bar.sync 0) in " block_divergent_sync
has "=========     barrier 0 is also reached at $S/faulty.ptx:472 (bar.sync 0) in " block_divergent_sync
has "faulty.cu:100:_Z20block_divergent_syncPi" block_divergent_sync
json "assert f[0]['kind']=='divergent-block' and f[0]['other']['cuda_line']==100 and f[0]['at']['cuda_line']==104" block_divergent_sync
run bar_count_mismatch synccheck 1
has "========= Barrier error detected. Invalid arguments" bar_count_mismatch
has "=========     barrier 1 used with thread counts 64 and 32" bar_count_mismatch
json "assert f[0]['kind']=='barrier-mismatch'" bar_count_mismatch
run fixed_shared all 0
json "assert f==[]" fixed_shared

# initcheck
run uninit_shared initcheck 1
has "========= Uninitialized __shared__ memory read of size 4 bytes" uninit_shared
has "=========     at $S/faulty.ptx:280 (ld.shared.u32 %r10, [%r9]) in " uninit_shared
has "=========     by thread (0,0,0) in block (0,0,0)" uninit_shared
has "=========     (32 times)" uninit_shared
run uninit_global initcheck 1
has "========= Uninitialized __global__ memory read of size 4 bytes" uninit_global
hasa "=========     Address @A (offset 0 of 'in', never written)" uninit_global
json "assert f[0]['check']=='initcheck' and f[0]['buffer']=='in' and f[0]['count']==32" uninit_global

# the same bugs compiled by clang (clang_faulty.cu, no CUDA headers, no line info)
run clang_oob memcheck 1
has "=========     at $S/clang_faulty.ptx:38 (st.global.u32 [%rd1], %r7) in clang_oob" clang_oob
has "=========     and is 0 bytes after the nearest allocation 'y' at 0x700000000200 of size 192 bytes" clang_oob
run clang_divergent_sync synccheck 1
has "=========     at $S/clang_faulty.ptx:57 (bar.sync 0) in clang_divergent_sync" clang_divergent_sync
has "lanes 0x000000ff of warp 1 reach this aligned barrier; lanes 0xffffff00 of the warp did not and exited" clang_divergent_sync
run clang_race racecheck 1
has "========= Error: Race reported between Read access at $S/clang_faulty.ptx:88 (ld.shared.u32 %r3, [%rd9+252]) in clang_race" clang_race
has "=========     and Write access at $S/clang_faulty.ptx:86 (st.shared.u32 [%rd8], %r2) in clang_race" clang_race
has "=========     by thread (31,0,0) in block (0,0,0) and by thread (32,0,0) in block (0,0,0)" clang_race

# the time limits
"$bin" run "$S/spin.yaml" --no-outputs --max-steps 100000000000 --timeout 0.5 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "spin: exit $rc"
has "fault: wall-clock limit of 0.5 s reached" spin
has "CTA (0,0,0) warp 1 lanes 0xffffffff" spin

# device printf, per warp in lane order; --no-printf
"$bin" run "$S/hello.yaml" --no-outputs >"$tmp/out" 2>"$tmp/err" || fail "hello: exit"
printf 'thread %d of block %d: x = %s\n' 0 0 0.50 1 0 1.25 2 0 2.00 3 0 3.75 0 1 0.50 1 1 1.25 2 1 2.00 3 1 3.75 >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { diff "$tmp/want" "$tmp/out"; fail "printf output"; }
"$bin" run "$S/hello.yaml" --no-outputs --no-printf >"$tmp/out" 2>"$tmp/err" || fail "hello --no-printf: exit"
[ ! -s "$tmp/out" ] || fail "--no-printf printed"

# under all checks too (the runtime's reads of the format and arguments are not checked),
# and most conversions as the host's printf formats them
"$bin" run "$S/hello.yaml" --no-outputs --check all >"$tmp/out" 2>"$tmp/err" || fail "hello --check all: exit"
cmp -s "$tmp/out" "$tmp/want" || fail "printf output under --check all"
"$bin" run "$S/printf_formats.yaml" --no-outputs --check all >"$tmp/out" 2>"$tmp/err" || fail "printf_formats: exit"
printf "%d %u %x %5.1f|%-4d|%e %s %c %lld %08.3f %%\n" -7 4000000000 255 3.14159 12 1e-5 hello Z -1234567890123 2.5 >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { diff "$tmp/want" "$tmp/out"; fail "printf_formats output"; }

# bad --check values
"$bin" run "$S/hello.yaml" --check memcheck,bogus >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] || fail "--check bogus: exit"
has "ptxlitmus run: --check: found 'bogus', expected a comma-separated list of memcheck, racecheck, synccheck, initcheck (or all, none)" check-option
exit 0
