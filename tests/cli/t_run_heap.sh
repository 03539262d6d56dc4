#!/usr/bin/env bash
# `run` on the device-side malloc/free kernels of tests/kernels/malloc.cu (issue #25): the spec
# key malloc_heap_bytes sets the heap (cudaLimitMallocHeapSize); a leaked block is a memcheck
# finding (exit 1, the report, kind "leak" in the JSON); a double free faults; bad values of the
# key are refused at their node (exit 2).
set -u
bin=$1
fail() { echo "t_run_heap: $*"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heap.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
cp tests/kernels/malloc.ptx "$tmp/"
spec() {   # spec NAME KERNEL PARAMS EXTRA: $tmp/NAME.yaml
  printf 'module: malloc.ptx\nkernel: %s\ngrid: 1\nblock: %s\n%s\nbuffers:\n  out: { type: s32, count: 256 }\nparams:\n%s\noutputs:\n  - { buffer: out, file: %s.out }\n' \
    "$2" "$3" "$5" "$4" "$1" > "$tmp/$1.yaml"
}
spec leak heap_bugs 32 "  - { s32: 4 }
  - { buffer: out }" ""
"$bin" run --allow-outside "$tmp/leak.yaml" --check memcheck --json "$tmp/j.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "leak: exit $rc, expected 1"; }
grep -qE "^========= Leaked 64 bytes at 0x7000000[0-9a-f]+ on the device heap$" "$tmp/err" ||
  { cat "$tmp/err"; fail "no leak report"; }
grep -qF "=========     allocated at $tmp/malloc.ptx:479 (call.uni ( retval0), malloc, ( param0))" "$tmp/err" ||
  { cat "$tmp/err"; fail "leak: no malloc site"; }
python3 -c "import json,sys; j=json.load(open('$tmp/j.json')); f=j['findings']; \
assert j['status']=='ok' and len(f)==1 and f[0]['kind']=='leak' and f[0]['check']=='memcheck' and f[0]['size']==64, f" ||
  fail "leak: JSON"
"$bin" run "$tmp/leak.yaml" --check none >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "leak without memcheck: exit"; }
spec dfree heap_bugs 32 "  - { s32: 2 }
  - { buffer: out }" ""
"$bin" run "$tmp/dfree.yaml" --check memcheck >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] || fail "double free: exit"
grep -qF "========= Malloc/Free error encountered : Double free" "$tmp/err" || { cat "$tmp/err"; fail "double free report"; }
grep -qF "fault: double free of the device heap block at 0x" "$tmp/err" || fail "double free fault"
# the heap size from the spec: 4096 bytes hold four 1000-byte blocks (1008 each)
spec fill heap_fill 256 "  - { u64: 1000 }
  - { buffer: out }" "malloc_heap_bytes: 4096"
"$bin" run "$tmp/fill.yaml" --check all >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "fill: exit"; }
python3 -c "import struct; d=open('$tmp/fill.out','rb').read(); s=sum(struct.unpack('<256i', d)); assert s==4, s" ||
  fail "malloc_heap_bytes: 4096 did not hold four blocks"
spec fill0 heap_fill 256 "  - { u64: 1 }
  - { buffer: out }" "malloc_heap_bytes: 0"
"$bin" run "$tmp/fill0.yaml" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "fill0: exit"; }
python3 -c "d=open('$tmp/fill0.out','rb').read(); assert d==bytes(1024)" || fail "heap 0: a block"
for v in -1 abc 68719476737; do
  spec bad heap_fill 32 "  - { u64: 1 }
  - { buffer: out }" "malloc_heap_bytes: $v"
  "$bin" run "$tmp/bad.yaml" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "malloc_heap_bytes: $v: exit $rc"
  grep -qE "bad.yaml:5:20: found '$v', expected malloc_heap_bytes" "$tmp/err" || { cat "$tmp/err"; fail "malloc_heap_bytes: $v: message"; }
done
exit 0
