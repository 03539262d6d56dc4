#!/usr/bin/env bash
# bench/gpu/run_all.sh — every GPU job of the project in one go, for a lent GPU's few minutes;
# leaves ONE tarball, OUTDIR/gpu-run-UTCTIME.tar.gz, written even when a step fails or times
# out.  Steps (each with its own time limit; the whole within --budget seconds, default 400):
#   info       nvidia-smi, nvcc, compute-sanitizer, ptxlitmus versions, the host      info.txt
#   record     tests/kernels/record_gpu.sh: the executor's reference outputs  record.log record/gpu/
#   sanitizer  per suites/sanitizer/*.yaml and bench/gpu/kernels/*.yaml: compare_device.py, and
#              run --check beside compute-sanitizer (bench/gpu/sanitize_one.sh)  sanitizer/
#   compile    every hw test compiled once (--no-run --keep), --jobs at a time    hw/compile.log
#   hw A, B    ptxlitmus hw over each suite (isa own liveness async dat3m), plain (A: --timeout 20
#              --hang-timeout 5: a test the model says may hang is killed after 5 s, "hung")
#              and stressed (B: the same + --placement shuffle --stress lines --launches 8), all
#              at once, reusing the compiled programs                        hw/hw-A|B-SUITE.*
#   summary    bench/gpu/summary.py                                          summary.md
# record, sanitizer and compile run side by side, then the hw runs.  timeline.txt has the
# seconds of every step, steps.tsv their exit statuses.  Refused tests are listed with reasons.
#
# usage: bench/gpu/run_all.sh [options] [OUTDIR]      (OUTDIR, else $OUT)
#   --dat3m DIR     the public Dat3M PTX suite (default $DAT3M, else ../shared/conformance/
#                   dat3m-ptx, else .gpu/dat3m); missing: the dat3m suite is skipped with a note
#   --bin PATH      ptxlitmus (default .gpu/ptxlitmus with LD_LIBRARY_PATH=.gpu/lib, made by
#                   bench/gpu/pack.sh for a machine without the Debian packages; else ./ptxlitmus)
#   --suites LIST   comma-separated subset of isa,own,liveness,async,dat3m
#   --steps LIST    comma-separated subset of info,record,sanitizer,hw
#   --only REGEX    only the tests whose file path matches REGEX (grep -E), in every suite
#   --groups LIST   the recorder's groups (record_gpu.sh --groups; default all)
#   --quick N       N tests per suite, N sanitizer specs, the recorder's video group only
#                   (the CPU stand-in test, tests/cli/t_gpu_run_all.sh)
#   --jobs N        parallel nvcc compilations (default: the number of CPUs)
#   --budget S      seconds for the whole run (default 400); each step's limit is cut to fit
#   --arch sm_NN    nvcc -arch of the hw harnesses (default sm_90)
# exit status: 0 done, no forbidden state; 1 the GPU showed a state the model forbids; 2 a step
# failed or was killed by its limit (see summary.md); 77 nothing could run (no GPU, no nvcc).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
out=${OUT:-}
dat3m=${DAT3M:-}
bin=
suites="isa,own,liveness,async,dat3m"
want_steps="info,record,sanitizer,hw"
quick=0
only=
rec_groups=
cmdline="bench/gpu/run_all.sh $*"
jobs=$(nproc 2>/dev/null || echo 4)
budget=400
arch=sm_90
usage() { sed -n '/^# usage:/,/^# exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --dat3m) dat3m=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --suites) suites=$2; shift 2 ;;
    --steps) want_steps=$2; shift 2 ;;
    --quick) quick=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --groups) rec_groups=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "run_all: unknown option $1" >&2; usage ;;
    *) out=$1; shift ;;
  esac
done
[ -n "$out" ] || { echo "run_all: no output folder (give OUTDIR or set OUT)" >&2; usage; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
if [ -z "$bin" ]; then
  if [ -x .gpu/ptxlitmus ]; then bin=$root/.gpu/ptxlitmus
  else bin=$root/ptxlitmus; fi
fi
case $bin in /*) ;; *) bin=$root/$bin ;; esac
libdir=$(dirname "$bin")/lib
[ -d "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -z "$dat3m" ]; then
  for d in ../shared/conformance/dat3m-ptx .gpu/dat3m; do [ -d "$d" ] && { dat3m=$d; break; }; done
fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-run.XXXXXX") || exit 2
R=$work/gpu-run-$stamp      # becomes the tarball
B=$work/build               # programs, not in the tarball
mkdir -p "$R/hw" "$B" || exit 2
T0=$SECONDS
has() { case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac; }
now() { echo $((SECONDS - T0)); }
exec 3>&1   # the progress lines, also from steps whose output goes to a log
tl() { printf '[%4ds] %s\n' "$(now)" "$*" | tee -a "$R/timeline.txt" >&3; }
# limit WANT: WANT seconds, cut to what the budget leaves (at least RUN_ALL_MIN_LIMIT, 10)
minlim=${RUN_ALL_MIN_LIMIT:-10}
limit() {
  local l=$((budget - $(now) - 15)); [ $l -lt "$minlim" ] && l=$minlim; [ "$1" -lt $l ] && l=$1
  echo $l
}
# killsession SID: every process of a step's session (its nvcc, harness programs, sanitizers
# included, whatever process group they made), TERM then KILL
killsession() {
  local p; p=$(ps -o pid= -s "$1" 2>/dev/null | tr '\n' ' ')
  [ -n "${p// /}" ] || { kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null; return; }
  kill -TERM $p 2>/dev/null; sleep 1
  p=$(ps -o pid= -s "$1" 2>/dev/null | tr '\n' ' '); [ -n "${p// /}" ] && kill -KILL $p 2>/dev/null
}
# step NAME LIMIT CMD...: runs CMD in its own session; after LIMIT seconds the whole session is
# killed (one hang cannot eat the budget); logs start, end and exit status (steps.tsv)
step() {
  local name=$1 lim=$2 s rc note="" pid wd; shift 2
  s=$(now); tl "start $name (limit ${lim}s)"
  if command -v setsid >/dev/null; then setsid "$@" & else "$@" & fi
  pid=$!
  echo "$pid" >> "$B/sessions"
  ( for ((i = 0; i < lim; i++)); do sleep 1; kill -0 "$pid" 2>/dev/null || exit 0; done
    touch "$B/killed.$pid"; killsession "$pid" ) 2>/dev/null &
  wd=$!
  wait "$pid"; rc=$?
  wait "$wd" 2>/dev/null
  [ -e "$B/killed.$pid" ] && note="killed by its ${lim}s limit"
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$s" "$(now)" "$rc" "$note" >> "$R/steps.tsv"
  tl "end $name: exit $rc${note:+ ($note)}"
  return $rc
}
status=
finish() {
  local rc=$?
  trap - EXIT INT TERM
  [ -n "$status" ] || { status=2; tl "interrupted (exit $rc)"; }
  if [ -f "$B/sessions" ]; then   # steps still running (interrupted): end them
    while read -r sid; do kill -0 "$sid" 2>/dev/null && killsession "$sid"; done < "$B/sessions"
  fi
  python3 bench/gpu/summary.py "$R" > "$R/summary.md" 2>&1
  tl "end (status $status)"
  tar -C "$work" -czf "$out/gpu-run-$stamp.tar.gz.part" "gpu-run-$stamp" \
    && mv "$out/gpu-run-$stamp.tar.gz.part" "$out/gpu-run-$stamp.tar.gz"
  echo "run_all: $(tail -n1 "$R/summary.md" 2>/dev/null || true)"
  rm -rf "$work"
  echo "run_all: status $status; $out/gpu-run-$stamp.tar.gz ($(now) s)"
  exit "$status"
}
trap finish EXIT
trap 'exit 2' INT TERM HUP
tl "start: run_all.sh budget ${budget}s, suites $suites, steps $want_steps, quick $quick${only:+, only /$only/}${rec_groups:+, groups $rec_groups}"

# ---- info
if has "$want_steps" info; then
  info() {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -srm), $(nproc) CPUs, $(free -g 2>/dev/null | awk '/Mem:/ {print $2 " GiB"}')"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo 'no git')"
    echo "ptxlitmus: $("$bin" version 2>&1 | head -n1) ($bin)"
    [ -f "$(dirname "$bin")/MANIFEST" ] && sed 's/^/  pack: /' "$(dirname "$bin")/MANIFEST"
    local nv; nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    echo "nvcc: $("$nv" --version 2>&1 | grep -o 'release .*' || echo 'not found')"
    local cs; cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    echo "compute-sanitizer: $("$cs" --version 2>/dev/null | grep -m1 -i version || echo 'not found')"
    echo "python3: $(python3 --version 2>&1)"
    echo "gpu: $(nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader \
      2>/dev/null | head -n1 | grep . || echo 'none (nvidia-smi absent or failed)')"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null \
      | head -n1 | grep . || echo none)"
    echo "dat3m: ${dat3m:-not found}"
    nvidia-smi > "$R/nvidia-smi.txt" 2>&1
    "$nv" --version > "$R/nvcc.txt" 2>&1
    return 0
  }
  export -f info; export R bin dat3m
  echo "command: $cmdline" > "$R/info.txt"
  step info 30 bash -c info >> "$R/info.txt" 2>&1
fi

# ---- record, sanitizer: in the background
pids=()
if has "$want_steps" record; then
  groups=(); [ "$quick" -gt 0 ] && groups=(--groups video)
  [ -n "$rec_groups" ] && groups=(--groups "${rec_groups//,/ }")
  step record "$(limit 240)" bash tests/kernels/record_gpu.sh --out "$R/record/gpu" \
    --build "$B/record" "${groups[@]}" > "$R/record.log" 2>&1 &
  pids+=($!)
fi
if has "$want_steps" sanitizer; then
  specs=$(ls suites/sanitizer/*.yaml; ls bench/gpu/kernels/*.yaml)
  [ "$quick" -gt 0 ] && specs=$(echo "$specs" | head -n "$quick")
  san_all() { printf '%s\n' $specs | xargs -d '\n' -P 4 -I{} bash bench/gpu/sanitize_one.sh \
                "$bin" {} "$R/sanitizer"; }
  export -f san_all; export specs
  step sanitizer "$(limit 240)" bash -c san_all > "$R/sanitizer.log" 2>&1 &
  pids+=($!)
fi

# ---- hw: the test lists, one compilation of each, then A and B of every suite at once
if has "$want_steps" hw; then
  : > "$B/tests.tsv"
  for s in ${suites//,/ }; do
    case $s in
      dat3m) if [ -z "$dat3m" ] || [ ! -d "$dat3m" ]; then
               tl "dat3m: the suite is not here (--dat3m DIR): skipped"; continue; fi
             find "$dat3m" -name '*.litmus' | sort > "$B/$s.list" ;;
      isa|own|liveness|async) ls suites/$s/*.litmus > "$B/$s.list" ;;
      *) tl "unknown suite $s: skipped"; continue ;;
    esac
    [ -n "$only" ] && { grep -E -- "$only" "$B/$s.list" > "$B/$s.l"; mv "$B/$s.l" "$B/$s.list"; }
    [ "$quick" -gt 0 ] && { head -n "$quick" "$B/$s.list" > "$B/$s.l"; mv "$B/$s.l" "$B/$s.list"; }
    sed "s|^|$s\t|" "$B/$s.list" >> "$B/tests.tsv"
    mkdir -p "$B/hw/$s"
  done
  compile_one() {   # SUITE FILE: generate and compile one test (refusals are instant)
    timeout -k 5 300 "$bin" hw --allow-outside -q --no-run --arch "$arch" --keep "$B/hw/$1" "$2" \
      > /dev/null 2>&1
    echo "$1	$2	$?"
  }
  export -f compile_one; export bin arch B
  compile_all() { tr '\t' '\n' < "$B/tests.tsv" | xargs -d '\n' -P "$jobs" -n 2 bash -c \
                    'compile_one "$0" "$1"'; }
  export -f compile_all; export jobs
  step compile "$(limit 240)" bash -c compile_all > "$R/hw/compile.log" 2>&1
  tl "compiled: $(awk -F'\t' '$3 == 0' "$R/hw/compile.log" | wc -l) built, $(awk -F'\t' \
    '$3 != 0' "$R/hw/compile.log" | wc -l) refused/failed/skipped of $(wc -l < "$B/tests.tsv")"
  hw_pids=()
  lim=$(limit 300)
  for s in ${suites//,/ }; do
    [ -s "$B/$s.list" ] || continue
    for cfg in A B; do
      # each run its own folder (hard links to the compiled programs: outputs never collide)
      cp -al "$B/hw/$s" "$B/hw/$s-$cfg" 2>/dev/null || cp -a "$B/hw/$s" "$B/hw/$s-$cfg"
      opts=(--timeout 20 --hang-timeout 5)   # a test the model says may hang: 5 s
      [ $cfg = B ] && opts+=(--placement shuffle --stress lines --launches 8)
      mapfile -t files < "$B/$s.list"
      step "hw $cfg $s" "$lim" "$bin" hw --allow-outside --arch "$arch" --keep "$B/hw/$s-$cfg" \
        "${opts[@]}" --json "$R/hw/hw-$cfg-$s.json" "${files[@]}" \
        > "$R/hw/hw-$cfg-$s.txt" 2>&1 &
      hw_pids+=($!)
    done
  done
  wait "${hw_pids[@]}" 2>/dev/null
fi
wait "${pids[@]}" 2>/dev/null

# ---- status: forbidden > a failed step > nothing ran > done
python3 bench/gpu/summary.py "$R" > "$R/summary.md" 2>&1; srv=$?
status=0
if awk -F'\t' '$5 != "" || ($1 ~ /^hw / && $4 != 0 && $4 != 1 && $4 != 2 && $4 != 77) ||
               ($1 ~ /^(record|sanitizer|info|compile)$/ && $4 != 0 && $4 != 77)' \
     "$R/steps.tsv" | grep -q .; then status=2; fi
for s in ${suites//,/ }; do   # a suite that was listed must have its JSON results
  if has "$want_steps" hw && [ -s "$B/$s.list" ]; then
    for cfg in A B; do [ -s "$R/hw/hw-$cfg-$s.json" ] || status=2; done
  fi
done
[ $srv -eq 77 ] && [ $status -eq 0 ] && status=77
[ $srv -eq 1 ] && status=1
exit $status
