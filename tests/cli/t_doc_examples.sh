#!/usr/bin/env bash
# tests/cli/t_doc_examples.sh — every shell example of README.md and docs/*.md runs as written:
# the lines of ```sh blocks that start with `ptxlitmus ` or `./ptxlitmus ` (a trailing '\'
# joins the next line) are run from the project root with the binary under test, and must
# exit 0.  Examples write their files under build/.
set -u
bin=$1
n=0; fails=0
while IFS=$'\t' read -r where cmd; do
  n=$((n + 1))
  run=${cmd#./}; run="\"$bin\" ${run#ptxlitmus }"
  if ! out=$(timeout 120 bash -c "$run" 2>&1 < /dev/null); then
    echo "FAIL $where: $cmd"; printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
    fails=$((fails + 1))
  fi
done < <(awk '
  FNR == 1 { inblock = 0; cont = "" }
  /^```sh[[:space:]]*$/ { inblock = 1; next }
  /^```/ { inblock = 0; next }
  inblock {
    line = $0
    if (cont != "") { cont = cont " " line; start_ok = 1 }
    else if (line ~ /^(\.\/)?ptxlitmus /) { cont = line; at = FNR }
    else next
    if (cont ~ /\\$/) { sub(/\\$/, "", cont); next }
    printf "%s:%d\t%s\n", FILENAME, at, cont; cont = ""
  }' README.md docs/*.md)
[ "$n" -ge 8 ] || { echo "FAIL: only $n examples found"; exit 1; }
[ "$fails" = 0 ] || exit 1
echo "doc examples: $n ran, all exit 0"
