#!/usr/bin/env bash
# tests/cli/t_help.sh — `ptxlitmus help CMD` and the option parser agree (issue #30, item 2:
# `help verify` called --show all|forbidden refused though both work).  Every option that a
# command's help lists (the usage line, the lines that start with an option, the herd7
# spellings it names) is accepted by that command's parser: run with a value and two files
# that do not exist, it may fail on the value or the files, never as an unknown option.  And
# the values the help gives for --show are accepted.
set -u
bin=$1
case "$bin" in /*) ;; *) bin=$PWD/${bin#./} ;; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
for c in verify suite merge gen compare llvm-check run check hw table; do
  "$bin" help "$c" > "$tmp/help" 2>&1 || fail "help $c: exit $?"
  opts=$(python3 - "$tmp/help" <<'PY'
import re, sys
opts = set()
for l in open(sys.argv[1]):
    if l.startswith("usage:"):
        opts |= set(re.findall(r"(?<![\w-])(--?[A-Za-z][-A-Za-z0-9]*)", l[6:]))
    m = re.match(r"^\s+((?:--?[A-Za-z][-A-Za-z0-9]*(?:[ =][A-Z][A-Za-z|/.]*)?(?:, )?)+)", l)
    if m:
        opts |= set(re.findall(r"(--?[A-Za-z][-A-Za-z0-9]*)", m.group(1)))
    opts |= set(re.findall(r"herd7:? (-[a-z]+)", l))
print("\n".join(sorted(opts)))
PY
)
  [ -n "$opts" ] || fail "help $c lists no option"
  for o in $opts; do
    (cd "$tmp" && timeout 20 "$bin" "$c" "$o" nope1.litmus nope2.litmus > /dev/null 2> "$tmp/e"); st=$?
    [ "$st" = 124 ] && fail "$c $o: ran for 20 s"
    grep -q "unknown option" "$tmp/e" && fail "$c: help lists $o, the parser refuses it: $(head -n1 "$tmp/e")"
  done
  rm -rf "${tmp:?}"/nope*
done
# the values of --show that the help gives
grep -q 'refused' <("$bin" help verify) && fail "help verify still calls something refused"
for w in witness all forbidden; do
  "$bin" verify --allow-outside -q --show "$w" --graph "$tmp/g" suites/isa/MP.litmus || fail "--show $w: exit $?"
done
[ "$fails" = 0 ] && echo "help: every listed option is accepted"
[ "$fails" = 0 ]
