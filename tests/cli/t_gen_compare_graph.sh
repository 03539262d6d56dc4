#!/usr/bin/env bash
# gen writes a family with a manifest that the suite runner then agrees with; monotonicity holds;
# compare lists the deviating test; verify --graph writes DOT (and SVG when dot is installed).
set -eu
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" gen --allow-outside --out "$tmp/g" --shapes MP,SB,RMW-atomicity --max-threads 2 --jobs 2 --models ptx,ptx-v7.5 > "$tmp/gen.txt" 2>/dev/null
cat "$tmp/gen.txt"
grep -Eq 'wrote 436 tests .* 0 errors\); monotonicity: [0-9]+ pairs checked, 0 violations' "$tmp/gen.txt"
grep -q 'st.release.gpu y, 1' "$tmp/g/MP+acqrel.gpu+nofence+other-gpu.litmus"
grep -A1 'file: MP+acqrel.gpu+nofence+other-cluster.litmus' "$tmp/g/manifest.yaml" | grep -q 'ptx: No, ptx-v7.5: No'
grep -A1 'file: MP+weak+nofence+same-cta.litmus' "$tmp/g/manifest.yaml" | grep -q 'ptx: Ok'
"$bin" suite --allow-outside "$tmp/g" -q --jobs 2 --csv "$tmp/g.csv" > "$tmp/s.txt"
grep -v '^#' "$tmp/g.csv" | head -1 | grep -q '^suite,test,model,expected,verdict,observation,states,time_ms,outcome$'
[ "$(wc -l < "$tmp/g.csv")" -gt 436 ]
"$bin" gen --allow-outside --out "$tmp/x" --shapes NOPE 2>/dev/null && exit 1
# compare
cat > "$tmp/LB+RMW.litmus" <<'T'
PTX LB+RMW-a
{ x=0; y=0; }
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0          ;
 ld.relaxed.gpu r0, x    | atom.relaxed.gpu.exch r1, y, 1 ;
 st.relaxed.gpu y, 1     | st.relaxed.gpu x, 1     ;
exists (P0:r0 == 1 /\ P1:r1 == 1)
T
set +e
"$bin" compare --model ptx --model ptx-v7.5 suites/isa "$tmp/LB+RMW.litmus" > "$tmp/cmp.txt"
rc=$?
set -e
cat "$tmp/cmp.txt"
grep -q 'compare ptx vs ptx-v7.5: 18 tests' "$tmp/cmp.txt"
if grep -q '^DIFFERS' "$tmp/cmp.txt"; then [ "$rc" -eq 1 ]; else [ "$rc" -eq 0 ]; fi
"$bin" compare --model ptx suites/isa > /dev/null 2>&1 && exit 1 || [ $? -eq 2 ]
# graphs
"$bin" verify --allow-outside -q --graph "$tmp/gr" suites/isa/MP.litmus suites/isa/SB-fence-sc.litmus
grep -q '^digraph' "$tmp/gr/MP.dot"
grep -q 'label="po"' "$tmp/gr/SB-fence-sc.dot"
grep -q 'label="rf"' "$tmp/gr/SB-fence-sc.dot"
if command -v dot > /dev/null; then grep -q '<svg' "$tmp/gr/MP.svg"; fi
