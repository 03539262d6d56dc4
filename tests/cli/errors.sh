#!/usr/bin/env bash
# tests/cli/errors.sh [PTXLITMUS] — the error catalogue (tests/errors/, docs/reliability.md).
#
# Each malformed input tests/errors/<kind>/NNN-name.<ext> has a NNN-name.expect holding the one
# line the tool must print on stderr: either the exact line, or `re:` followed by an extended
# regular expression for the whole line.  Paths are relative to the repository root.  Kinds:
#   litmus/*.litmus   ptxlitmus verify FILE
#   run/*.yaml        ptxlitmus run FILE        (launch specs; they may name .ptx files beside them)
#   suite/*.yaml      ptxlitmus suite FILE      (manifests; exit status 1 as docs/suites.md says)
#   cli/*.args        ptxlitmus <the words of the file>   (option errors and limits; only the
#                     first line of stderr is compared, the usage text may follow)
# NNN-name.status (optional) gives another expected exit status (e.g. 1 for a kernel fault).
# NNN-name.known (optional) describes a defect of the tool's message that is known and reported:
# the .expect then holds the message the tool should print, a mismatch is listed as a known
# defect and does not fail the run, and a match asks for the .known file to be removed.
# For every input: exit status 2, exactly the expected line on stderr, and — for file inputs —
# the form `file:line:col: found X, expected Y`.  Then all litmus inputs in ONE batch together
# with valid tests: exit status 2, every expected line present, and the valid tests still
# decided (their herd blocks on stdout).
set -u
bin=${1:-./ptxlitmus}
cd "$(dirname "$0")/../.."
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
form='^[^:]+:[0-9]+:[0-9]+: found .+, expected .+$'

known=0; fixed=0
cur_known=""   # the .known text of the input being checked, if any
bad() {
  if [ -n "$cur_known" ]; then echo "errors: known defect $1: $cur_known"; known=$((known + 1)); cur_known=KNOWN-REPORTED; return; fi
  echo "errors: FAIL $1: $2"; fail=$((fail + 1))
}

# first_line VAR FILE: VAR = the first line of FILE (a builtin read: the catalogue checks
# hundreds of inputs, a subprocess per line read cost more than the tool itself)
first_line() { local _l; IFS= read -r _l < "$2" || true; printf -v "$1" '%s' "$_l"; }

# check_one NAME EXPECTFILE STATUS STDERRFILE CHECKFORM [FIRSTLINE]
# (FIRSTLINE=1: only the first line counts; usage errors print the usage after it)
check_one() {
  local name=$1 exp=$2 st=$3 errf=$4 checkform=$5 first=${6:-0} want got status=2
  cur_known=""; [ -f "${exp%.expect}.known" ] && first_line cur_known "${exp%.expect}.known"
  check_one_inner "$@"
  if [ -n "$cur_known" ] && [ "$cur_known" != KNOWN-REPORTED ]; then
    echo "errors: $name passes now: remove ${exp%.expect}.known"; fixed=$((fixed + 1))
  fi
  cur_known=""
}
check_one_inner() {
  local name=$1 exp=$2 st=$3 errf=$4 checkform=$5 first=${6:-0} want got status=2
  local l lines=()
  [ -f "${exp%.expect}.status" ] && first_line status "${exp%.expect}.status"
  first_line want "$exp"
  while IFS= read -r l || [ -n "$l" ]; do [ -n "$l" ] && lines+=("$l"); done < "$errf"
  [ "$first" = 1 ] && lines=("${lines[@]:0:1}")
  got=${lines[0]-}
  if [ "$st" -ne "$status" ]; then bad "$name" "exit status $st, expected $status"; return; fi
  if [ "${#lines[@]}" -gt 1 ]; then bad "$name" "expected one line on stderr, got:"; printf '%s\n' "${lines[@]:0:5}"; return; fi
  if [[ $want == re:* ]]; then
    [[ $got =~ ^${want#re:}$ ]] || { bad "$name" "stderr '$got' does not match /${want#re:}/"; return; }
  elif [ "$got" != "$want" ]; then
    bad "$name" "stderr differs"; echo "  expected: $want"; echo "  found:    $got"; return
  fi
  if [ "$checkform" = 1 ] && ! [[ $got =~ $form ]]; then bad "$name" "'$got' is not 'file:line:col: found X, expected Y'"; return; fi
  pass=$((pass + 1))
}

run_kind() {   # run_kind DIR EXT SUBCOMMAND
  local dir=$1 ext=$2 sub=$3 f exp
  for f in "$dir"/*."$ext"; do
    [ -e "$f" ] || continue
    exp=${f%.*}.expect
    if [ ! -f "$exp" ]; then bad "$f" "no ${exp##*/}"; continue; fi
    case $sub in
      cli) # shellcheck disable=SC2046
           timeout 120 "$bin" $(cat "$f") > "$tmp/out" 2> "$tmp/err"; st=$?; check_one "$f" "$exp" $st "$tmp/err" 0 1 ;;
      *)   timeout 120 "$bin" "$sub" "$f" > "$tmp/out" 2> "$tmp/err"; st=$?; check_one "$f" "$exp" $st "$tmp/err" 1 ;;
    esac
  done
}

# ERRORS_LITMUS_BATCH_ONLY=1 (make check-errors-asan): the litmus inputs only in the batch below,
# which reads every one of them in one process and checks every expected line (an ASan process
# start costs more than the check; the plain run checks each input alone as well)
[ "${ERRORS_LITMUS_BATCH_ONLY:-0}" = 1 ] || run_kind tests/errors/litmus litmus verify
run_kind tests/errors/run yaml run
run_kind tests/errors/cli args cli
run_kind tests/errors/suite yaml suite

# one batch: the malformed tests between valid ones
shopt -s nullglob
lit=(tests/errors/litmus/*.litmus)
if [ ${#lit[@]} -gt 0 ]; then
  timeout 300 "$bin" verify suites/isa/MP.litmus "${lit[@]}" suites/isa/SB-fence-sc.litmus > "$tmp/out" 2> "$tmp/err"; st=$?
  ok=1
  [ "$st" -eq 2 ] || { bad batch "exit status $st, expected 2"; ok=0; }
  n=$(grep -c . "$tmp/err")
  [ "$n" -eq ${#lit[@]} ] || { bad batch "$n lines on stderr for ${#lit[@]} malformed tests"; ok=0; }
  for f in "${lit[@]}"; do
    want=$(head -n1 "${f%.*}.expect")
    if [[ $want == re:* ]]; then grep -Eq "^${want#re:}$" "$tmp/err" || { bad batch "no line for $f"; ok=0; }
    else grep -Fxq -- "$want" "$tmp/err" || { bad batch "no line for $f"; ok=0; }
    fi
  done
  for t in MP SB-fence-sc; do grep -q "^Test $t " "$tmp/out" || { bad batch "valid test $t was not decided"; ok=0; }; done
  [ $ok = 1 ] && pass=$((pass + 1))
fi
echo "${CHECK_LABEL:-errors}: $pass passed, $fail failed, $known known defects (tests/errors/*/*.known)"
[ "$fail" -eq 0 ]
