#!/usr/bin/env bash
# tests/cli/t_gpu_run_all.sh — bench/gpu/run_all.sh end to end on the CPU stand-in (a few tests
# with --quick): with no GPU every step says it cannot run here, ONE tarball is left in the
# output folder with the timeline, steps, hw JSON/text, recorder and sanitizer logs and the
# summary, exit 77 (0 or 1 on a GPU).  A step that hangs is killed by its own limit and the
# tarball is still written (exit 2); so is an interrupted run.  bench/gpu/pack.sh packs the
# binary with its non-system libraries; compare_device.py reads every spec without PyYAML.
set -u
bin=$1
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

# 1. pack: the binary and libz3/libcjson/libyaml, resolved from the pack alone
bash bench/gpu/pack.sh "$tmp/pack" > "$tmp/o" 2>&1 || { cat "$tmp/o"; fail "pack.sh"; }
for l in libz3 libcjson libyaml; do ls "$tmp/pack/lib/$l"* >/dev/null 2>&1 || fail "$l packed"; done
ls "$tmp/pack/lib" | grep -Eq '^(libc|libm|libstdc\+\+)\.so' && fail "system libraries packed"
LD_LIBRARY_PATH=$tmp/pack/lib "$tmp/pack/ptxlitmus" version | grep -q ptxlitmus || fail "packed binary"

# 2. compare_device.py without PyYAML reads every launch spec as PyYAML does
python3 - <<'EOF' || fail "compare_device.py without PyYAML"
import glob, sys
try:
    import yaml
except ImportError:
    yaml = None
sys.modules["yaml"] = None
sys.path.insert(0, "bench")
import compare_device as c
assert c.yaml is None
for f in sorted(glob.glob("suites/sanitizer/*.yaml") + glob.glob("bench/gpu/kernels/*.yaml")):
    got = c.load_spec(f)
    if yaml is not None:
        assert got == yaml.safe_load(open(f)), f
    assert got["module"] and got["buffers"], f
EOF

# 3. the whole script, two tests: OUT from the environment, one tarball, a clear status
#    (--only: the tests whose path matches, in every suite: isa/MP.litmus, liveness/bar-red-MP)
OUT=$tmp/out bash bench/gpu/run_all.sh --bin "$tmp/pack/ptxlitmus" --quick 1 \
  --suites isa,liveness --only '/(MP|bar-red-MP)\.litmus$' > "$tmp/o" 2>&1; rc=$?
case $rc in 77|0|1) ;; *) cat "$tmp/o"; fail "run_all exit $rc" ;; esac
[ "$(ls "$tmp/out" | wc -l)" -eq 1 ] || { ls "$tmp/out"; fail "one file in the output folder"; }
tarball=$(ls "$tmp/out"/gpu-run-*.tar.gz) || fail "the tarball"
grep -q "^run_all: status $rc; $tarball" "$tmp/o" || { cat "$tmp/o"; fail "final status line"; }
mkdir "$tmp/x" && tar xzf "$tarball" -C "$tmp/x" || fail "tarball readable"
r=$(echo "$tmp/x"/gpu-run-*)
for f in summary.md timeline.txt steps.tsv info.txt record.log hw/hw-A-isa.json hw/hw-B-isa.json \
         hw/hw-A-isa.txt hw/hw-A-liveness.json hw/compile.log; do
  [ -s "$r/$f" ] || { ls -R "$r"; fail "$f in the tarball"; }
done
for s in info record sanitizer compile "hw A isa" "hw B isa" "hw A liveness" "hw B liveness"; do
  grep -q "^$s	" "$r/steps.tsv" || { cat "$r/steps.tsv"; fail "step $s in steps.tsv"; }
  grep -q "end $s: exit" "$r/timeline.txt" || fail "step $s in the timeline"
done
grep -qF "command: bench/gpu/run_all.sh --bin $tmp/pack/ptxlitmus --quick 1 --suites isa,liveness \
--only /(MP|bar-red-MP)\.litmus\$" "$r/info.txt" || { cat "$r/info.txt"; fail "the command in info.txt"; }
grep -q '"file":	"suites/isa/MP.litmus"' "$r/hw/hw-A-isa.json" \
  && grep -q '"file":	"suites/liveness/bar-red-MP.litmus"' "$r/hw/hw-A-liveness.json" \
  || { cat "$r/hw/hw-A-isa.json"; fail "--only picked the tests"; }
grep -q '"instances":	65536' "$r/hw/hw-A-isa.json" \
  && grep -q '"placement":	"shuffle"' "$r/hw/hw-B-isa.json" \
  && grep -q '"launches":	8' "$r/hw/hw-B-isa.json" || fail "A and B options"
if [ $rc -eq 77 ]; then
  grep -q 'skipped: the harness was built but cannot run here' "$r/hw/hw-A-isa.txt" \
    || { cat "$r/hw/hw-A-isa.txt"; fail "hw says it cannot run here"; }
  grep -q '^record video: skipped: no CUDA device' "$r/record.log" || fail "recorder skip"
  grep -q 'no CUDA device: skipped' "$r/sanitizer/bar_count_mismatch.compare" \
    || fail "compare_device skip"
  grep -q '^Result: no hardware test ran (skipped: no GPU here)' "$r/summary.md" \
    || { cat "$r/summary.md"; fail "summary result"; }
fi
grep -Eq '^\| A \| isa \| 1 \| ' "$r/summary.md" || { cat "$r/summary.md"; fail "summary table"; }
# the run reused the one compilation: no nvcc log in the A/B runs' outputs
grep -q 'refused' "$r/summary.md" || fail "the refused liveness test and its reason"

# 4. a hanging step is killed by its limit; the tarball is still written, status 2
mkdir "$tmp/fake"
printf '#!/bin/sh\nsleep 30\n' > "$tmp/fake/nvcc"; chmod +x "$tmp/fake/nvcc"
PATH=$tmp/fake:$PATH NVCC=$tmp/fake/nvcc RUN_ALL_MIN_LIMIT=1 bash bench/gpu/run_all.sh \
  --bin "$tmp/pack/ptxlitmus" --quick 1 --suites isa --steps hw --budget 1 "$tmp/out2" \
  > "$tmp/o" 2>&1; rc=$?
[ $rc -eq 2 ] || { cat "$tmp/o"; fail "a killed step: exit 2 (got $rc)"; }
grep -q 'end compile: exit [0-9]* (killed by its 1s limit)' "$tmp/o" || { cat "$tmp/o"; fail "kill note"; }
ls "$tmp/out2"/gpu-run-*.tar.gz >/dev/null || fail "tarball after a killed step"
pgrep -f "$tmp/fake/nvcc" >/dev/null && fail "the killed step left processes running"

# 5. an interrupted run still leaves its tarball, status 2
PATH=$tmp/fake:$PATH NVCC=$tmp/fake/nvcc bash bench/gpu/run_all.sh --bin "$tmp/pack/ptxlitmus" \
  --quick 1 --suites isa --steps hw "$tmp/out3" > "$tmp/o" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q 'start compile' "$tmp/o" && break; sleep 0.2; done
kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 2 ] || { cat "$tmp/o"; fail "interrupted: exit 2 (got $rc)"; }
ls "$tmp/out3"/gpu-run-*.tar.gz >/dev/null || { cat "$tmp/o"; fail "tarball after an interrupt"; }
grep -q 'interrupted' "$tmp/o" || fail "interrupt noted"
# 6. summary.py's sanitizer cells: the real "ERROR SUMMARY: N errors" (not "N errors were not
#    printed"), racecheck's hazard count, the first finding, and only compute-sanitizer's own
#    lines from its file (compare_device's echo of the executor's fault there is not its report)
s=$tmp/sum; mkdir -p "$s/sanitizer"
printf 'suites/sanitizer/d.yaml: agree bit for bit\nrc=0\n' > "$s/sanitizer/d.compare"
printf '========= Barrier error detected. Divergent thread(s) in block\n=========     by thread (32,0,0)\n========= ERROR SUMMARY: 1 error\nrc=1\n' > "$s/sanitizer/d.synccheck.check"
printf '========= COMPUTE-SANITIZER\nd.yaml: executor: exit 1: fault: barrier 1 used twice\n========= Barrier error detected. Divergent thread(s) in block.\n========= ERROR SUMMARY: 32 errors\n========= ERROR SUMMARY: 27 errors were not printed. Use --print-limit option to adjust the number of printed errors\nrc=1\n' > "$s/sanitizer/d.synccheck.csan"
printf 'no finding\nrc=0\n' > "$s/sanitizer/d.racecheck.check"
printf '========= COMPUTE-SANITIZER\nhello\n========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\nrc=0\n' > "$s/sanitizer/d.racecheck.csan"
python3 bench/gpu/summary.py "$s" > "$tmp/sum.md" 2>&1
grep -qF '| d | agree bit for bit | synccheck | Barrier error detected. Divergent thread(s) in block (1 error) | Barrier error detected. Divergent thread(s) in block. (32 errors) |' "$tmp/sum.md" \
  && grep -qF '| d | agree bit for bit | racecheck | no finding | 1 hazard: 1 error, 0 warnings |' "$tmp/sum.md" \
  || { cat "$tmp/sum.md"; fail "summary.py sanitizer cells"; }
echo "run_all: exit $rc on the stand-in, one tarball; killed steps and interrupts still pack"
