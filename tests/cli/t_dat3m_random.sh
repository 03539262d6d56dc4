#!/usr/bin/env bash
# tests/cli/t_dat3m_random.sh — `--model ptx-v7.5` and `ptx-v6.0` against an independent
# evaluation of Dat3M's own cat files (tools/dat3m, docs/model.md "Event semantics") on a fixed
# sample of random tests: every reachable final state and every verdict must agree.  The sample
# is chosen to be cheap and to hold tests where Dat3M's events matter (a failed atom.cas that
# writes back, fence.sc outside the acquire and release patterns, barrier instances and
# quorums): with the ISA's events (--events isa) some of them must differ, so the comparison can
# fail.  First the evaluator itself meets the published verdicts of the public tests it reads.
# Skips when python3 or ../shared/spec/cat is missing.
set -u
bin=$1
command -v python3 > /dev/null || { echo "python3 not found"; exit 77; }
[ -d ../shared/spec/cat ] || { echo "../shared/spec/cat not found"; exit 77; }
# cheap seeds, then ones where Dat3M's events matter: a failed atom.cas (8 13 35 146 173),
# fence.sc (632 1211), barriers (105 135 508 879 1262 1695); python3 -m tools.dat3m.check
# --seeds 1-1000 is the full comparison (docs/model.md)
seeds=1-2,4-6,10,15-17,22,26,29-30,38,46,93,143,8,13,35,146,173,632,1211,105,135,508,879,1262,1695
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() {   # check MODEL EXPECT [verify arguments...]: EXPECT agree|differ
  local model=$1 want=$2; shift 2
  local extra=() a
  for a in "$@"; do extra+=("--extra=$a"); done
  out=$(python3 -m tools.dat3m.check --ptxlitmus "$bin" --model "$model" --seeds "$seeds" \
        "${extra[@]}" 2>&1)
  echo "$model $*: $(tail -n 1 <<<"$out")"
  if [ "$want" = agree ]; then
    grep -q " 0 differ" <<<"$out" && grep -q " 0 ptxlitmus errors" <<<"$out" ||
      fail "$model: the sample disagrees: $out"
  else
    grep -Eq " [1-9][0-9]* differ" <<<"$out" || fail "$model $* agrees: $out"
  fi
}
# the evaluator itself against the published verdicts it can read
for model in ptx-v7.5 ptx-v6.0; do
  out=$(python3 -m tools.dat3m.check --model "$model" \
        --published ../shared/conformance/dat3m-ptx 2>&1)
  rc=$?
  echo "$out" | tail -n 1
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || fail "$model: the evaluator disagrees with Dat3M: $out"
done
check ptx-v7.5 agree
check ptx-v6.0 agree
# each of Dat3M's readings matters on the sample: without it, some test differs
check ptx-v7.5 differ --cas-fail read
check ptx-v7.5 differ --events isa --cas-fail write
check ptx-v6.0 differ --events isa
[ "$fails" = 0 ] || exit 1
echo "dat3m random sample: all checks passed"
