#!/usr/bin/env bash
# bench/gpu/sanitize_one.sh — one launch spec, the executor beside the GPU (run by
# bench/gpu/run_all.sh, several specs at a time):
#   DIR/NAME.compare   bench/compare_device.py SPEC (executor and GPU, buffers bit for bit)
#   DIR/NAME.TOOL.check  ptxlitmus run --check TOOL SPEC (the executor's report)
#   DIR/NAME.TOOL.csan   compute-sanitizer --tool TOOL python3 bench/compare_device.py SPEC
# for each TOOL the spec is about (suites/sanitizer/README.md: oob/misaligned memcheck, *sync*,
# bar_count_mismatch and shfl_mask synccheck, race* racecheck, uninit* initcheck; the specs with
# no fault under racecheck, synccheck and initcheck; none for spin, which never ends on a GPU).
# Each command has its own time limit; its exit status ends the file as "rc=N".
# usage: bench/gpu/sanitize_one.sh PTXLITMUS SPEC DIR [compare-only]
set -u
bin=$1 spec=$2 dir=$3 only=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$spec" .yaml)
csan=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p "$dir" || exit 2
limit=${SANITIZE_TIMEOUT:-60}
case $name in
  spin) tools= ;;   # spins forever on purpose: the executor's --timeout report only
  *oob*|misaligned) tools=memcheck ;;
  *sync*|bar_count_mismatch|shfl_mask) tools=synccheck ;;
  *race*) tools=racecheck ;;
  uninit*) tools=initcheck ;;
  *) tools="racecheck synccheck initcheck" ;;
esac
[ "$only" = compare-only ] && tools=
if [ "$name" != spin ]; then
  timeout -k 5 "$limit" python3 "$here/../compare_device.py" --bin "$bin" "$spec" \
    > "$dir/$name.compare" 2>&1
  echo "rc=$?" >> "$dir/$name.compare"
else
  timeout -k 5 "$limit" "$bin" run --timeout 5 "$spec" > "$dir/$name.check" 2>&1
  echo "rc=$?" >> "$dir/$name.check"
fi
for t in $tools; do
  timeout -k 5 "$limit" "$bin" run --timeout 20 --check "$t" "$spec" > "$dir/$name.$t.check" 2>&1
  echo "rc=$?" >> "$dir/$name.$t.check"
  if [ -x "$csan" ]; then
    timeout -k 5 "$limit" "$csan" --tool "$t" --print-limit 5 \
      python3 "$here/../compare_device.py" --bin "$bin" "$spec" > "$dir/$name.$t.csan" 2>&1
    echo "rc=$?" >> "$dir/$name.$t.csan"
  else
    echo "compute-sanitizer not found: skipped" > "$dir/$name.$t.csan"
  fi
done
exit 0
