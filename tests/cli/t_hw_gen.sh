#!/usr/bin/env bash
# tests/cli/t_hw_gen.sh — `ptxlitmus hw` without nvcc or a GPU: usage errors, generation of every
# test of suites/isa and suites/own (or its refusal with file:line:col: found X, expected Y),
# the JSON result, `suite --hw` and its manifest field, and the census of what is expressible
# over the bundled suites (a sample of suites/gen) and the public Dat3M suite when present.
set -u
bin=$1
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MP=suites/isa/MP.litmus
SUR=suites/own/Proxy-MP-sur-sur-same-cta.litmus
GPU2=suites/own/MP+rel+acq.gpu-two-gpus.litmus

# usage errors: exit 2 with a message
"$bin" hw >/dev/null 2>&1; [ $? -eq 2 ] || fail "hw without a file: exit 2"
"$bin" hw --stress often $MP >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q "found 'often' for stress, expected none, lines or random" "$tmp/e" \
  || fail "bad --stress ($rc)"
"$bin" hw --stride 12 $MP >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "bad --stride"
"$bin" hw --from x $MP suites/isa/LB.litmus >/dev/null 2>&1; [ $? -eq 2 ] || fail "--from, 2 tests"
"$bin" hw --help | grep -q -- "--placement P" || fail "hw --help"

# every ISA example is expressible
"$bin" hw --allow-outside --no-compile --keep "$tmp/isa" --json "$tmp/isa.json" suites/isa/*.litmus >"$tmp/o" \
  2>"$tmp/e" || { cat "$tmp/e"; fail "suites/isa generation"; }
[ "$(grep -c ': generated' "$tmp/o")" -eq 17 ] || fail "17 ISA tests generated"
[ "$(ls "$tmp/isa"/*.cu | wc -l)" -eq 17 ] || fail "17 .cu files"
grep -q '"status":	"generated"' "$tmp/isa.json" && grep -q '"kind":	"hw"' "$tmp/isa.json" \
  && grep -q '"placement":	"as-test"' "$tmp/isa.json" || fail "JSON of hw"
grep -q 'asm volatile' "$tmp/isa/MP.cu" \
  && grep -q 'st.relaxed.sys.global.u32 \[%1\], 1;' "$tmp/isa/MP.cu" || fail "inline PTX of MP"

# refusals: exit 2, file:line:col: found X, expected Y on stderr
"$bin" hw --no-compile $SUR >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] || fail "a refused test exits 2 ($rc)"
grep -Eq "^$SUR:[0-9]+:[0-9]+: found a surface access .*, expected generic or texture accesses" \
  "$tmp/e" || { cat "$tmp/e"; fail "surface refusal message"; }
"$bin" hw --no-compile $GPU2 >/dev/null 2>"$tmp/e"
grep -Eq "^${GPU2//+/\\+}:[0-9]+:[0-9]+: found thread P1 on gpu 1 .*, expected every thread" \
  "$tmp/e" || { cat "$tmp/e"; fail "multi-GPU refusal message"; }

# suite --hw, with a manifest's hw: field; the command line overrides it
mkdir -p "$tmp/s"
cp $MP suites/isa/LB.litmus $SUR "$tmp/s/"
{
  printf 'suite: mini\nhw: { instances: 4096, stress: lines }\ntests:\n'
  for f in MP LB Proxy-MP-sur-sur-same-cta; do
    printf '  - file: %s.litmus\n    expect: { ptx: Ok }\n' $f
  done
} > "$tmp/s/manifest.yaml"
"$bin" suite --allow-outside --hw --no-compile --json "$tmp/s.json" "$tmp/s" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/o" "$tmp/e"; fail "suite --hw exit ($rc)"; }
grep -Eq '^mini +3 +0 +2 +0 +1 ' "$tmp/o" || { cat "$tmp/o"; fail "suite --hw table"; }
grep -q '"instances":	4096' "$tmp/s.json" && grep -q '"stress":	"lines"' "$tmp/s.json" \
  || fail "manifest hw: options"
"$bin" suite --allow-outside --hw --no-compile --stress none --json "$tmp/s.json" "$tmp/s" >/dev/null 2>&1
grep -q '"stress":	"none"' "$tmp/s.json" || fail "command line beats the manifest"

# census: what is expressible (generated, not refused)
"$bin" suite --hw --no-compile suites/isa suites/own >"$tmp/o" 2>&1 \
  || { cat "$tmp/o"; fail "census"; }
isa=$(awk '$1 == "isa-8.10" { print $4 "/" $2 }' "$tmp/o")
own=$(awk '$1 == "own" { print $4 "/" $2 }' "$tmp/o")
[ "$isa" = "17/17" ] || fail "ISA census $isa"
ls suites/gen/*.litmus | awk 'NR % 37 == 1' > "$tmp/gen.list"
"$bin" hw --no-compile $(cat "$tmp/gen.list") >"$tmp/o" 2>"$tmp/e"
gen="$(grep -c ': generated' "$tmp/o")/$(wc -l < "$tmp/gen.list")"
dat=skipped
d=/work/shared/conformance/dat3m-ptx
if [ -d "$d" ]; then
  find "$d" -name '*.litmus' | sort > "$tmp/dat.list"
  "$bin" hw --no-compile $(cat "$tmp/dat.list") >"$tmp/o" 2>"$tmp/e"
  dat="$(grep -c ': generated' "$tmp/o")/$(wc -l < "$tmp/dat.list")"
fi
echo "expressible: isa $isa, own $own, gen sample $gen, dat3m-ptx $dat"
