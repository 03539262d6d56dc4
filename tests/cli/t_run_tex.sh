#!/usr/bin/env bash
# `run` with textures: and surfaces: (cli/run_tex.c, docs/executor.md "Textures and surfaces"):
# a linear-filtered tex2D of tests/kernels/texsurf.ptx, a surface bound to a module-scope
# .surfref by `bind:`, and the spec errors (SPEC:LINE:COL, exit 2).
set -u
bin=$1
fail() { echo "t_run_tex: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp tests/kernels/texsurf.ptx "$tmp/"
cat >"$tmp/tex.yaml" <<'EOF'
module: texsurf.ptx
kernel: tx_2d
grid: 1
block: 4
buffers:
  texels: { type: f32, count: 16, init: { iota: 0 } }
  xs: { type: f32, count: 4, init: { values: [0.5, 1.0, 1.5, 5.0] } }
  ys: { type: f32, count: 4, init: { values: [0.5, 0.5, 1.5, 0.5] } }
  out: { type: f32, count: 16 }
textures:
  img: { buffer: texels, format: f32x4, width: 2, height: 2, filter: linear, address: clamp }
params:
  - { texture: img }
  - { buffer: out }
  - { buffer: xs }
  - { buffer: ys }
  - { s32: 4 }
outputs:
  - { buffer: out, file: out.bin }
EOF
"$bin" run "$tmp/tex.yaml" 2>"$tmp/err" || { cat "$tmp/err"; fail "tex run: exit $?"; }
python3 - "$tmp/out.bin" <<'PY' || fail "tex2D values"
import struct, sys
got = struct.unpack("16f", open(sys.argv[1], "rb").read())
# 2x2 texels of 4 channels 0..15; (1.0, 0.5) is halfway between texels 0 and 1 (weights 1/2)
want = (0, 1, 2, 3, 2, 3, 4, 5, 12, 13, 14, 15, 4, 5, 6, 7)
assert got == want, got
PY
cat >"$tmp/surf.ptx" <<'EOF'
.version 8.4
.target sm_80
.address_size 64
.global .surfref sr;
.visible .entry k()
{
.reg .b32 %r<4>;
mov.u32 %r1, %tid.x;
shl.b32 %r2, %r1, 2;
mad.lo.u32 %r3, %r1, %r1, 7;
sust.b.1d.b32.trap [sr, {%r2}], {%r3};
ret;
}
EOF
cat >"$tmp/surf.yaml" <<'EOF'
module: surf.ptx
grid: 1
block: 8
buffers:
  data: { type: u32, count: 8 }
surfaces:
  s: { buffer: data, format: u32, width: 8, bind: sr }
outputs:
  - { buffer: data, file: data.bin }
EOF
"$bin" run "$tmp/surf.yaml" 2>"$tmp/err" || { cat "$tmp/err"; fail "surf run: exit $?"; }
python3 - "$tmp/data.bin" <<'PY' || fail "sust values"
import struct, sys
got = struct.unpack("8I", open(sys.argv[1], "rb").read())
assert got == tuple(i * i + 7 for i in range(8)), got
PY
# errors: each edit of a spec gives exit 2 and the message at the node
bad() {   # FILE SED-EXPR EXPECTED-MESSAGE
  sed "$2" "$tmp/$1" >"$tmp/bad.yaml"
  "$bin" run "$tmp/bad.yaml" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || { cat "$tmp/err"; fail "$2: exit $rc, expected 2"; }
  grep -q "$3" "$tmp/err" || { cat "$tmp/err"; fail "$2: message, expected '$3'"; }
}
bad tex.yaml 's/format: f32x4/format: f8x3/' "bad.yaml:11:.*found format 'f8x3', expected u8"
bad tex.yaml 's/texture: img/texture: nope/' "bad.yaml:13:.*found texture 'nope', expected one declared under textures"
bad tex.yaml 's/texture: img/surface: img/' "found surface 'img', expected one declared under surfaces"
bad tex.yaml 's/address: clamp/address: [wrap, spin]/' "found 'spin', expected wrap, clamp, mirror or border"
bad tex.yaml 's/width: 2,/width: 64,/' "bad.yaml:11:.*not inside one device allocation"
bad tex.yaml 's/filter: linear/sampler: 1/' "found key 'sampler', expected buffer"
bad tex.yaml 's/buffer: texels,/buffer: xyz,/' "found buffer 'xyz', expected a buffer declared"
bad surf.yaml 's/bind: sr/bind: nothere/' "found bind 'nothere', expected a module-scope .global .surfref"
bad surf.yaml 's/width: 8,/width: 8, filter: point,/' "found key 'filter'"
exit 0
