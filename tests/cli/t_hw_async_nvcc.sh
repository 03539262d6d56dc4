#!/usr/bin/env bash
# tests/cli/t_hw_async_nvcc.sh — suites/async and suites/liveness on hardware, without a GPU
# (issue #29): at least 45 of the 53 async tests and 13 of the 16 liveness tests generate (the
# rest refused, each with its file:line:col reason), and the device code of every generated
# program compiles for sm_90a — nvcc -ptx, then ptxas, in one run over all of them
# (combine_device, tests/hw/lib.sh: the cheap way).  Without nvcc only the generation is checked.
set -u
bin=$1
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() {   # SUITE MIN: generate every test of suites/SUITE; at least MIN of them
  local n all
  "$bin" hw --allow-outside --no-compile --keep "$tmp/$1" suites/$1/*.litmus > "$tmp/$1.o" \
    2> "$tmp/$1.e"
  n=$(grep -c ': generated' "$tmp/$1.o"); all=$(ls suites/$1/*.litmus | wc -l)
  [ "$n" -ge "$2" ] || { cat "$tmp/$1.e"; fail "$1: $n of $all generated, expected at least $2"; }
  # every refused test says where and why
  [ "$(grep -cE "^suites/$1/[^:]+:[0-9]+:[0-9]+: found .*, expected " "$tmp/$1.e")" -eq \
    $((all - n)) ] || { cat "$tmp/$1.e"; fail "$1: a refusal without file:line:col: found, expected"; }
  echo "$1: $n/$all generated"
}
gen async 45
gen liveness 13
# what the generator decided for the newer instructions (tests/test_hw_async.c has the details)
grep -q '#define T_CBAR 1' "$tmp/async/MP+barrier.cluster.cu" \
  && grep -q '#define T_REMOTE 1' "$tmp/async/MP+st.async.cu" \
  && grep -q '#define T_BULK 1' "$tmp/async/MP+cp.async.bulk+mbarrier.cu" \
  && grep -q 'mbarrier.try_wait.parity.shared.b64' "$tmp/async/MP+mbar.spin.cu" \
  || fail "async programs: cluster barrier, peer shared memory, bulk copies, mbarrier waits"

nvcc=$(find_nvcc)
[ -n "$nvcc" ] || { echo "nvcc not found: generation checked, compilation skipped"; exit 0; }
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$ptxas" ] || ptxas=$(command -v ptxas) || { echo "ptxas not found: compilation skipped"; exit 0; }
progs=("$tmp"/async/*.cu "$tmp"/liveness/*.cu)
combine_device "$tmp/all.cu" "${progs[@]}"
"$nvcc" -arch=sm_90a -ptx -diag-suppress 177 -o "$tmp/all.ptx" "$tmp/all.cu" > "$tmp/e" 2>&1 \
  || { head -40 "$tmp/e"; fail "nvcc -ptx of the combined device code"; }
"$ptxas" -arch=sm_90a -o "$tmp/all.cubin" "$tmp/all.ptx" > "$tmp/e" 2>&1 \
  || { head -40 "$tmp/e"; fail "ptxas sm_90a"; }
[ "$(grep -c '^\.visible \.entry hw_kernel_' "$tmp/all.ptx")" -eq ${#progs[@]} ] \
  || fail "one kernel per program"
echo "${#progs[@]} programs' device code compiled for sm_90a (nvcc -ptx + ptxas)"
