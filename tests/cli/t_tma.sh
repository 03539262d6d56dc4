#!/usr/bin/env bash
# `ptxlitmus run` with a tensormaps: section (docs/executor.md): a 2D tile load through a map
# passed as a .param .align 64 .b8 [128] kernel parameter (128B swizzle, OOB NaN fill) and a map
# as a buffer's init (tensormap.replace + cp_fenceproxy republish it), compared with a Python
# reference; bad maps and misuses are refused with SPEC:LINE:COL messages (exit 2).
set -u
bin=$1
root=$(pwd)
fail() { echo "t_tma: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/load.yml" <<YML
module: $root/tests/kernels/tma.ptx
kernel: tma_load
grid: 1
block: 64
buffers:
  A: { type: f32, count: 960, init: { iota: 0 } }
  out: { type: u32, count: 256 }
tensormaps:
  mA: { buffer: A, type: f32, dims: [40, 24], strides: [160], box: [32, 8],
        swizzle: 128B, oob_fill: nan, l2_promotion: 128B }
params:
  - { tensormap: mA }
  - { buffer: out }
  - { u32: 2 }
  - { s32: 16 }
  - { s32: 20 }
  - { s32: 0 }
  - { s32: 0 }
  - { s32: 0 }
  - { u32: 1024 }
outputs:
  - { buffer: out, file: out.bin }
YML
"$bin" run "$tmp/load.yml" --check memcheck,racecheck,initcheck 2>"$tmp/err" \
  || { cat "$tmp/err"; fail "load spec: exit $?"; }
python3 - "$tmp/out.bin" <<'PY' || fail "load spec: output differs from the reference"
import struct, sys
got = struct.unpack("<256I", open(sys.argv[1], "rb").read())
want = [0] * 256
for j in range(8):
    for i in range(32):
        x, y = 16 + i, 20 + j
        v = struct.unpack("<I", struct.pack("<f", y * 40 + x))[0] if x < 40 and y < 24 else 0x7ff77ff7
        o = (j * 32 + i) * 4
        o = o // 128 * 128 + ((o // 16 % 8) ^ (o // 128 % 8)) * 16 + o % 16   # 128B swizzle
        want[o // 4] = v
assert list(got) == want, [(k, hex(a), hex(b)) for k, (a, b) in enumerate(zip(got, want)) if a != b][:4]
PY
# a map as a buffer init; the kernel replaces its address (B) and dimension 0 (20), republishes
cat >"$tmp/replace.yml" <<YML
module: $root/tests/kernels/tma.ptx
kernel: tmap_replace
grid: 1
block: 64
buffers:
  A: { type: f32, count: 960, init: { fill: 1 } }
  B: { type: f32, count: 960, init: { iota: 0 } }
  gm: { type: b8, count: 128, init: { tensormap: mA } }
  out: { type: u32, count: 256 }
tensormaps:
  mA: { buffer: A, type: f32, dims: [40, 24], box: [32, 8] }
params:
  - { tensormap: mA }
  - { buffer: gm }
  - { buffer: B }
  - { u32: 20 }
  - { buffer: out }
  - { s32: 4 }
  - { s32: 2 }
  - { u32: 1024 }
outputs:
  - { buffer: out, file: out.bin }
YML
"$bin" run "$tmp/replace.yml" 2>"$tmp/err" || { cat "$tmp/err"; fail "replace spec: exit $?"; }
python3 - "$tmp/out.bin" <<'PY' || fail "replace spec: output differs from the reference"
import struct, sys
got = struct.unpack("<256f", open(sys.argv[1], "rb").read())
want = [float((2 + k // 32) * 40 + 4 + k % 32) if 4 + k % 32 < 20 else 0.0 for k in range(256)]
assert list(got) == want, [(k, a, b) for k, (a, b) in enumerate(zip(got, want)) if a != b][:4]
PY
# refusals: SPEC:LINE:COL, exit 2
bad() {   # name, sed expression on load.yml, expected message
  sed "$2" "$tmp/load.yml" >"$tmp/$1.yml"
  "$bin" run "$tmp/$1.yml" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || { cat "$tmp/err"; fail "$1: exit $rc, expected 2"; }
  grep -q "$tmp/$1.yml:[0-9]*:[0-9]*: .*$3" "$tmp/err" || { cat "$tmp/err"; fail "$1: message"; }
}
bad box 's/box: \[32, 8\]/box: [300, 8]/' "found a bad tensor map 'mA' (.*box dim 0 is 300"
bad swz 's/swizzle: 128B/swizzle: 64B/' "at most the swizzle span 64"
bad sw_word 's/swizzle: 128B/swizzle: 256B/' "found swizzle '256B', expected one of none 32B 64B 128B"
bad stride 's/strides: \[160\]/strides: [100]/' "may not overlap"
bad rank 's/box: \[32, 8\]/box: [32]/' "found 1 box, expected 2 (the rank)"
bad key 's/oob_fill: nan/fill: nan/' "found key 'fill', expected a tensor-map field"
bad nomap 's/{ tensormap: mA }/{ tensormap: mB }/' "found tensormap 'mB', expected a map declared under tensormaps"
bad param 's/{ buffer: out }/{ tensormap: mA }/' "found a tensormap for param 1, which has 8 bytes"
bad nanint 's/type: f32, dims/type: s32, dims/' "OOB-NaN fill on an integer"
exit 0
