#!/usr/bin/env bash
# bench/hw/record.sh — record a hardware run of the public Dat3M PTX suite and suites/isa into
# docs/hw-results/RUN/ (docs/hardware.md, "Recording a run"): per configuration the text
# reports (herd-like blocks with every histogram) and the JSON results, the run's metadata,
# and table.md summarising observed states against the model.  Every test is compiled once
# (--keep reuses the build across configurations).
#
# usage: bench/hw/record.sh [--dat3m DIR] [--out DIR] [-- extra ptxlitmus hw options]
#   configurations: plain (as-test placement, no stress), shuffle+lines, shuffle+random, each with
#   --instances 262144 --launches 8 --seed 1 unless the extra options say otherwise.
# exit status: 0 recorded, 1 a state the model forbids was observed (see table.md),
#              77 no GPU here (nothing recorded), 2 usage error or no result.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
dat=${DAT3M:-/work/shared/conformance/dat3m-ptx}
out=docs/hw-results
while [ $# -gt 0 ]; do
  case $1 in
    --dat3m) dat=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--dat3m DIR] [--out DIR] [-- hw options]" >&2; exit 2 ;;
  esac
done
[ -x ./ptxlitmus ] || make -s ptxlitmus || exit 2
[ -d "$dat" ] || { echo "record: the Dat3M suite is not at $dat (--dat3m DIR)" >&2; exit 2; }
run="$out/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run/build" || exit 2
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "host: $(uname -srm)"
  echo "ptxlitmus: $(./ptxlitmus version)"
  echo "options: --instances 262144 --launches 8 --seed 1 $*"
  command -v nvidia-smi >/dev/null \
    && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} > "$run/meta.txt"
find "$dat" -name '*.litmus' | sort > "$run/dat3m.list"
worst=0; ran=0
for cfg in "plain:--placement as-test --stress none" \
           "shuffle+lines:--placement shuffle --stress lines" \
           "shuffle+random:--placement shuffle --stress random"; do
  name=${cfg%%:*}; opts=${cfg#*:}
  for suite in isa dat3m; do
    if [ $suite = isa ]; then files=(suites/isa/*.litmus)
    else mapfile -t files < "$run/dat3m.list"; fi
    # shellcheck disable=SC2086
    ./ptxlitmus hw --allow-outside --instances 262144 --launches 8 --seed 1 $opts "$@" --keep "$run/build" \
      --json "$run/$name-$suite.json" "${files[@]}" > "$run/$name-$suite.txt" 2>&1
    rc=$?
    echo "record: $name $suite: exit $rc"
    [ $rc -eq 1 ] && worst=1
    grep -q '"status":	"ran"' "$run/$name-$suite.json" 2>/dev/null && ran=1
  done
done
if [ $ran -eq 0 ]; then
  echo "record: no test ran, nothing recorded: $(grep -m1 -o 'cannot run here: .*' "$run/plain-isa.txt")"
  rm -rf "$run"
  exit 77
fi
rm -rf "$run/build"
python3 bench/hw/table.py "$run"/*.json > "$run/table.md" || exit 2
echo "record: $run/table.md"
exit $worst
