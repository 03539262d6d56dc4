#!/usr/bin/env bash
# `run` with a multicast: section (multimem.*, PTX ISA §9.7.8.13): remote.cu's mm_st_red over a
# 3-device multicast object whose copies are the buffers obj.0 .. obj.2 (outputs, JSON); bad
# multicast specs are refused with exit 2 and a file:line:col message.
set -u
bin=$1
fail() { echo "t_run_multicast: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp tests/kernels/remote.ptx "$tmp/"
spec() {   # $1: the multicast section's body, $2: the multimem param name
  cat >"$tmp/s.yml" <<YML
module: remote.ptx
kernel: mm_st_red
grid: 1
block: 4
multicast:
$1
buffers:
  v: { type: u32, count: 4, init: { values: [1, 2, 3, 4] } }
params:
  - { multimem: $2 }
  - { buffer: v }
outputs:
  - { buffer: obj.2, file: dev2.bin }
YML
}
spec "  obj:
    devices: 3
    type: u32
    count: 832
    init:
      - { fill: 5 }
      - { iota: 100 }
      - { fill: 0 }" obj
"$bin" run --allow-outside "$tmp/s.yml" --json "$tmp/j.json" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "run failed"; }
python3 - "$tmp/j.json" "$tmp/dev2.bin" <<'PY' || fail "results"
import json, struct, sys
j = json.load(open(sys.argv[1]))
assert j["status"] == "ok", j["status"]
b = j["buffers"]
init = [[5] * 832, list(range(100, 932)), [0] * 832]
for d in range(3):
    c = b["obj.%d" % d]
    assert c[0:4] == [1, 2, 3, 4], c[0:4]                         # multimem.st.u32
    for t in range(4):
        x = t + 1
        m = init[d][704 + t]
        assert c[704 + t] == (x if x < m else m), (d, t)           # multimem.red.min.s32
        assert c[768 + t] == init[d][768 + t] ^ x, (d, t)          # multimem.red.xor.b32
        assert c[64 + 2 * t] == (init[d][64 + 2 * t] + (x << 20)) & 0xffffffff
assert list(struct.unpack("<832I", open(sys.argv[2], "rb").read())) == b["obj.2"]
PY
# one init for every copy
spec "  obj: { devices: 3, type: u32, count: 832, init: { fill: 9 } }" obj
"$bin" run --allow-outside "$tmp/s.yml" --json "$tmp/j.json" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "shared init"; }
python3 -c "import json,sys; b=json.load(open(sys.argv[1]))['buffers']; assert b['obj.1'][5] == 9" "$tmp/j.json" \
  || fail "shared init values"
refused() {   # $1 body, $2 param, $3 message
  spec "$1" "$2"
  "$bin" run "$tmp/s.yml" >/dev/null 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || fail "'$3': exit $rc, expected 2"
  grep -q "s.yml:[0-9]*:[0-9]*: .*$3" "$tmp/err" || { cat "$tmp/err"; fail "message '$3'"; }
}
refused "  obj: { devices: 9, type: u32, count: 832 }" obj "expected a number of devices"
refused "  obj: { devices: 2, type: u32, count: 832, init: [ { fill: 1 } ] }" obj \
  "found 1 inits, expected one per device (2)"
refused "  obj: { devices: 3, type: u32, count: 832, colour: red }" obj "found key 'colour'"
refused "  obj: { devices: 2, type: u32, count: 832 }" nope "found multimem 'nope'"
exit 0
