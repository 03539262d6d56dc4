#!/usr/bin/env bash
# scripts/check_calls.sh — `make check-calls`: inside each folder of the libraries the files form
# layers too: no loop of calls and no loop of includes among a folder's files, and no function
# over 150 lines without a stated reason.
#
# Calls: from the compiled objects (build/DIR/X.o of each DIR/X.c, one `nm` per folder): file a
# calls file b when a symbol that a's object leaves undefined (U) is defined by b's object (T, D,
# B, R).  A function pointer taken in a table counts too: the table's file depends on the file
# that defines the function.  Includes: `#include "DIR/x.h"` in a file of DIR is an edge from
# that file to x.h (files are the nodes: x.c including x.h is no loop).  Each graph must be
# acyclic (tsort); a loop is printed with its files and, for calls, the symbols of its edges.
# Functions: a definition starting in column 0 and ending at the first "}" in column 0; more
# than 150 lines fails unless the comment just above it says "(over 150 lines: REASON)".
#
# Known loops: groups of files of one folder whose calls among themselves are not checked yet,
# with the reason ("FOLDER: FILES  # reason").  Edges leaving a group are still checked.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
FOLDERS="base ptx frontend exec model solver check report suite hw cli"
KNOWN='
frontend: litmus_parse litmus_build litmus_insn litmus_async llvm_parse tileir_parse  # the litmus front ends call each other (predates this check; to split when the front end is next reworked)
'
MAXLEN=150
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-calls.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0; nknown=0

# fail (print the loop) when the graph FILE of folder DIR has a cycle
cycle() {
  local dir=$1 kind=$2 edges=$3 out
  if ! out=$(tsort "$edges" 2>&1 > /dev/null); then
    echo "check-calls: a $kind loop among the files of $dir/:"
    printf '%s\n' "$out" | grep -v 'input contains a loop' | sed 's/^tsort: /  /'
    [ "$kind" = call ] && awk 'NR == FNR { on[$2] = 1; next } ($1 in on) && ($3 in on)' \
      <(printf '%s\n' "$out" | grep -v 'input contains a loop') "$tmp/syms" | sed 's/^/    /'
    bad=1
  fi
}

for dir in $FOLDERS; do
  [ -d "$dir" ] || continue
  objs=()
  for c in "$dir"/*.c; do
    b=$(basename "$c" .c)
    objs+=("$BUILD/$dir/$b.o")
  done
  for o in "${objs[@]}"; do
    [ -f "$o" ] || { echo "check-calls: $o missing (build first)"; bad=1; continue 2; }
  done
  group=$(printf '%s\n' "$KNOWN" | sed -n "s/^$dir: *\([^#]*\)#.*/\1/p")
  # calls: one nm over the folder's objects, "FILE: ADDR TYPE NAME" or "FILE: TYPE NAME"
  nm -A "${objs[@]}" | awk -v group="$group" -v syms="$tmp/syms" -v known="$tmp/known" '
    { f = $1; sub(/\.o:.*/, "", f); sub(/.*\//, "", f)
      t = $(NF - 1); s = $NF
      if (t == "U") users[s] = users[s] " " f
      else if (t ~ /^[TDBRVW]$/) def[s] = f }
    END { n = split(group, g, " "); for (i = 1; i <= n; i++) ing[g[i]] = 1
          for (s in users) {
            if (!(s in def)) continue
            m = split(users[s], u, " ")
            for (i = 1; i <= m; i++) {
              a = u[i]; b = def[s]
              if (a == b) continue
              if ((a in ing) && (b in ing)) { if (!((a, b) in kn)) { kn[a, b] = 1; nk++ } continue }
              if (!((a, b) in e)) { e[a, b] = 1; print a, b }
              list[a, b] = list[a, b] " " s
            }
          }
          for (k in list) { split(k, ab, SUBSEP); print ab[1], "->", ab[2] ":" list[k] > syms }
          print nk + 0 > known }' > "$tmp/calls"
  nknown=$((nknown + $(cat "$tmp/known")))
  cycle "$dir" call "$tmp/calls"
  # includes among the folder's own files
  for f in "$dir"/*.c "$dir"/*.h; do
    [ -f "$f" ] || continue
    sed -n "s|^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$dir/\([^\"]*\)\".*|\1|p" "$f" |
      awk -v a="$(basename "$f")" '{ print a, $1 }'
  done > "$tmp/incs"
  cycle "$dir" include "$tmp/incs"
  # function length
  awk -v MAX=$MAXLEN '
    FNR == 1 { cm = ""; s = 0 }
    /^\/\*/ || /^ \*/ { cm = cm $0 "\n"; next }
    /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { if (!s) { name = $0; start = FNR; why = cm } }
    /^\{/ { s = start }
    /^\}/ { if (s && FNR - s + 1 > MAX && why !~ /over 150 lines:/)
              printf "check-calls: %s:%d: a function of %d lines, over %d without a stated reason: %s\n",
                     FILENAME, s, FNR - s + 1, MAX, name
            s = 0; cm = "" }
    /^[^ \t\/{}#]/ && !/^[A-Za-z_].*\(/ { cm = "" }
  ' "$dir"/*.c > "$tmp/long"
  if [ -s "$tmp/long" ]; then cat "$tmp/long"; bad=1; fi
done
if [ $bad -ne 0 ]; then echo "check-calls: FAILED"; exit 1; fi
echo "check-calls: ok: no call or include loop among the files of a folder, no function over" \
     "$MAXLEN lines ($nknown call edges inside known groups unchecked: frontend's litmus parsers)"
