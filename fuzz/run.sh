#!/usr/bin/env bash
# fuzz/run.sh TARGET SECONDS [libFuzzer options...] — runs fuzz/out/fuzz_TARGET for SECONDS on one
# worker with a working corpus in fuzz/out/corpus/TARGET, seeded from the bundled suites (litmus,
# conditions), tests/kernels/*.ptx (ptx, exec), fuzz/seeds/cat and tests/errors/cat (cat) and from
# fuzz/regressions/TARGET.  Crashes go to
# fuzz/out/crashes/TARGET/.  Appends "TARGET runs seconds(taken/budget) exec/s crashes" to
# fuzz/out/stats.txt
# and exits non-zero when the run found a crash, a leak or a timeout.
set -u
t=$1; secs=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=fuzz/out/fuzz_$t
[ -x "$bin" ] || { echo "fuzz/run.sh: $bin missing (make fuzz-build)" >&2; exit 2; }
corpus=fuzz/out/corpus/$t
crashes=fuzz/out/crashes/$t
mkdir -p "$corpus" "$crashes" "fuzz/regressions/$t"
if [ -z "$(ls -A "$corpus")" ]; then
  case $t in
    litmus|litmus_parse) cp suites/*/*.litmus "$corpus"/ 2>/dev/null
            for f in tests/errors/litmus/*.litmus; do [ -f "$f" ] && cp "$f" "$corpus/err-${f##*/}"; done ;;
    cond)   # the proposition after the quantifier, as one line, one seed per test: one awk for
            # every file (three processes per file took 88 s of the fuzz smoke run's 117)
            awk -v dir="$corpus" '
              function flush() { if (out != "") { printf "%s", buf > out; close(out) } }
              FNR == 1 { flush(); out = dir "/seed" n++; buf = ""; on = 0 }
              !on && /^[[:space:]]*(~?exists|forall)/ { on = 1; sub(/^[[:space:]]*(~?exists|forall)/, "") }
              on { buf = buf $0 " " }
              END { flush() }' suites/*/*.litmus ;;
    ptx|exec) cp tests/kernels/*.ptx "$corpus"/ 2>/dev/null ;;
    frontends) cp suites/tileir/*.litmus suites/llvm/*.litmus "$corpus"/ 2>/dev/null
            for f in tests/errors/litmus/3*-tileir-*.litmus tests/errors/litmus/3*-llvm-*.litmus; do
              [ -f "$f" ] && cp "$f" "$corpus/err-${f##*/}"; done ;;
    manifest) i=0; for f in suites/*/manifest.yaml; do cp "$f" "$corpus/seed$i.yaml"; i=$((i+1)); done ;;
    cat)    for f in fuzz/seeds/cat/*.cat tests/errors/cat/*.cat; do
              [ -f "$f" ] && cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
            done ;;
    spec)   printf 'module: k.ptx\ngrid: 1\nblock: 16\nbuffers:\n  x: { type: u32, count: 16, init: { file: d.bin } }\nparams:\n  - { u32: 16 }\n  - { buffer: x }\noutputs:\n  - { buffer: x, file: x.out }\n' > "$corpus/seed-ok.yaml"
            for f in tests/errors/run/*.yaml; do [ -f "$f" ] && cp "$f" "$corpus/err-${f##*/}"; done ;;
  esac
fi
# A smoke run (FUZZ_BUDGET_CHECK=1) starts from at most 32 of the seeds: libFuzzer runs the
# whole initial corpus before -max_total_time counts, and the working corpus of the litmus
# target (~3900 files at 5 exec/s under ASan with Z3) alone took 13 minutes of a 5 s budget.
if [ "${FUZZ_BUDGET_CHECK:-0}" = 1 ]; then
  smoke=fuzz/out/smoke/$t
  rm -rf "$smoke"; mkdir -p "$smoke"
  ls "$corpus" | sort | head -n 32 | while read -r f; do cp "$corpus/$f" "$smoke/"; done
  corpus=$smoke
fi
dict=()
[ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
log=fuzz/out/$t.log
start=$SECONDS
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
"$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" "$@" \
  "$corpus" "fuzz/regressions/$t" > "$log" 2>&1
rc=$?
took=$((SECONDS - start))
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n1)
rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -n1)
ncrash=$(ls -A "$crashes" | wc -l)
printf '%-7s runs=%s seconds=%s/%s exec/s=%s crashes=%s rc=%s\n' "$t" "${runs:-?}" "$took" "$secs" "${rate:-?}" "$ncrash" "$rc" | tee -a fuzz/out/stats.txt
# FUZZ_BUDGET_CHECK=1 (make fuzz-smoke): the run must end within its budget plus 10 s for the
# start and the initial corpus; an input that runs long (an unbounded verify) fails it
if [ "${FUZZ_BUDGET_CHECK:-0}" = 1 ] && [ "$rc" -eq 0 ] && [ "$took" -gt $((secs + 10)) ]; then
  echo "fuzz/run.sh: $t took ${took} s, over its budget of ${secs} s (+10 s start-up)" >&2
  rc=1
fi
if [ "$rc" -ne 0 ]; then
  echo "fuzz/run.sh: $t failed (exit $rc), see $log; artifacts in $crashes" >&2
  grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 >&2
fi
exit "$rc"
