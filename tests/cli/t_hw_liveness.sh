#!/usr/bin/env bash
# tests/cli/t_hw_liveness.sh — liveness on hardware (issue #29), with a stand-in for nvcc whose
# "harness" either never ends or prints a fixed histogram (no GPU, no real nvcc needed):
#   a test the model says may hang runs with --hang-timeout and, killed there, is "hung" and
#   consistent (exit 0); a test the model says terminates that hangs is an alarm (exit 1); a
#   test that may hang but ran to its end counts as "hang never seen".
set -u
bin=$1
. tests/hw/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/nvcc" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; }
out=
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cat > "$out" <<'P'
#!/bin/sh
[ "$FAKE_MODE" = hang ] && exec sleep 60
printf 'HWINFO gpu stand-in\nHWINFO instances 64\nHWINFO launches 1\nHWHIST 64 %s\nHWEND\n' "$FAKE_VALUE"
P
chmod +x "$out"
EOF
chmod +x "$tmp/nvcc"
L=suites/liveness
run() { "$bin" hw --allow-outside --nvcc "$tmp/nvcc" --json "$tmp/j" "$@" > "$tmp/o" 2> "$tmp/e"; }

# 1. may hang, hangs: killed at --hang-timeout (not --timeout), consistent
start=$SECONDS
FAKE_MODE=hang run --timeout 60 --hang-timeout 1 $L/spin-flag-never-set.litmus; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/o" "$tmp/e"; fail "a consistent hang: exit 0 (got $rc)"; }
[ $((SECONDS - start)) -lt 20 ] || fail "the short limit was not used"
grep -q "^Test spin-flag-never-set: hung: ran past 1 s (killed); the model says it may hang: P1 spins at 6:4 'ld.acquire.gpu r0, f' reading f=0" \
  "$tmp/o" || { cat "$tmp/o"; fail "hung message"; }
grep -q '"status":	"hung"' "$tmp/j" && grep -q '"hang":	"consistent"' "$tmp/j" \
  && grep -q '"liveness":	"may-hang"' "$tmp/j" || { cat "$tmp/j"; fail "hung JSON"; }

# 2. terminates in the model, hangs on the "GPU": an alarm, exit 1
FAKE_MODE=hang run --timeout 1 $L/spin-flag-set.litmus; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/o" "$tmp/e"; fail "a hang the model rules out: exit 1 (got $rc)"; }
grep -q 'hung: ran past 1 s (killed) <== the model says every execution terminates' "$tmp/o" \
  && grep -q 'hung, but the model says it terminates' "$tmp/e" \
  && grep -q '"hang":	"alarm"' "$tmp/j" || { cat "$tmp/o" "$tmp/e"; fail "alarm report"; }

# 3. may hang, ran to its end: hang never seen (its one final state is the model's)
FAKE_VALUE=1 run --hang-timeout 10 $L/spin-flag-reset.litmus; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/o" "$tmp/e"; fail "never seen: exit 0 (got $rc)"; }
grep -q "^Liveness spin-flag-reset may-hang (P1 spins at .*): hang never seen" "$tmp/o" \
  && grep -q '"hang":	"never seen"' "$tmp/j" || { cat "$tmp/o"; fail "hang never seen"; }
grep -q '^observed-forbidden 0$' "$tmp/o" || fail "the state is allowed"

# 4. suite --hw counts them
mkdir "$tmp/s"
cp $L/spin-flag-never-set.litmus $L/spin-flag-reset.litmus "$tmp/s/"
printf 'suite: live\ntests:\n  - file: spin-flag-never-set.litmus\n    expect: { ptx: No }\n  - file: spin-flag-reset.litmus\n    expect: { ptx: Ok }\n' \
  > "$tmp/s/manifest.yaml"
FAKE_MODE=hang "$bin" suite --allow-outside --hw --nvcc "$tmp/nvcc" --hang-timeout 1 "$tmp/s" \
  > "$tmp/o" 2>&1; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/o"; fail "suite --hw with consistent hangs: exit 0 (got $rc)"; }
grep -Eq '^live +2 +0 +0 +0 +0 +0 +0 +0 +2$' "$tmp/o" \
  && grep -q '^hung 2 (0 where the model says every execution terminates)$' "$tmp/o" \
  || { cat "$tmp/o"; fail "suite table: hung column and summary"; }
echo "liveness: hung (consistent), hung (alarm), hang never seen, suite tally"
