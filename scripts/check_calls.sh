#!/usr/bin/env bash
# scripts/check_calls.sh — part of `make check-layers` (alone: `make check-calls`): what the
# compiled objects call, and how the files of each library folder depend on each other.
#
#  1. Calls go down the layers, not only includes (issue #25: an include check misses a call
#     through a prototype written by hand): each undefined symbol of an object of a folder that
#     another folder's object defines is checked against the layer table of
#     scripts/check_layers.sh (the same table, read from that script: a folder may use the files
#     its patterns name).  Printed as "exec/tex.c calls cli_fn (cli/run_tex.c): ...".
#  2. Inside a folder the files form layers too: no loop of calls among them.  File a calls file
#     b when a symbol that a's object leaves undefined (U) is defined by b's object (T, D, B, R,
#     C, V, W); a function pointer taken in a table counts too (the table's file depends on the
#     file that defines the function).  A loop is printed with its files and the symbols of its
#     edges.
#  3. No loop of includes among a folder's files: `#include "DIR/x.h"` in a file of DIR is an
#     edge from that file to x.h (files are the nodes: x.c including x.h is no loop).
#  4. No function over 150 lines without a stated reason: a definition starting in column 0 and
#     ending at the first "}" in column 0; more than 150 lines fails unless the comment just
#     above it says "(over 150 lines: REASON)".
# Graphs must be acyclic (tsort).  Objects are build/DIR/X.o of each DIR/X.c (BUILD, default
# build/; the Makefile builds them first); the sources are under SRC (default: the tree).
#
# Known loops: groups of files of one folder whose calls among themselves are not checked yet,
# with the reason ("FOLDER: FILES  # reason").  Edges leaving a group are still checked.  None
# now: frontend's litmus parsers, the last group, were split into layers (issue #30 item 3,
# docs/architecture.md "The litmus front ends").
set -u -f   # -f: the layer table's patterns are matched, not expanded as file names
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SRC=${SRC:-.}
FOLDERS="base ptx frontend exec model solver check report suite hw cli"
KNOWN='
'
MAXLEN=150
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-calls.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0; nknown=0

# the objects: one per source file of each folder
objs=()
for dir in $FOLDERS; do
  [ -d "$SRC/$dir" ] || continue
  set +f
  for c in "$SRC/$dir"/*.c; do
    [ -f "$c" ] || continue
    o="$BUILD/$dir/$(basename "$c" .c).o"
    if [ -f "$o" ]; then objs+=("$o"); else echo "check-calls: $o missing (build first)"; bad=1; fi
  done
  set -f
done
if [ ${#objs[@]} -eq 0 ]; then echo "check-calls: no objects under $BUILD (build first)"; exit 1; fi
# every symbol of every object in one nm run: "FILE.o:ADDR TYPE NAME" or "FILE.o: U NAME"
nm -A "${objs[@]}" > "$tmp/nm" 2>/dev/null || { echo "check-calls: nm failed"; exit 2; }

# ---------------------------------------------------------------- 1. down the layers
# the table: the lines between LAYERS=' and ' in check_layers.sh
table=$(sed -n "/^LAYERS='/,/^'/p" scripts/check_layers.sh | sed '1d;$d')
declare -A allow def
while read -r line; do
  [ -z "$line" ] && continue
  allow[${line%%:*}]=${line#*:}
done <<< "$table"
# symbol -> the source file that defines it
while read -r src sym; do def[$sym]=$src; done < <(
  awk -v B="$BUILD/" '$(NF - 1) ~ /^[TDBRCVW]$/ { f = $1; sub(/\.o:.*/, ".c", f)
                                                  print substr(f, length(B) + 1), $NF }' "$tmp/nm")
nref=0
while read -r src sym; do
  dir=${src%%/*}
  to=${def[$sym]:-}
  [ -z "$to" ] && continue                         # libc, libm, Z3, ...
  [ "${to%%/*}" = "$dir" ] && continue
  nref=$((nref + 1))
  ok=0
  for p in ${allow[$dir]:-}; do
    # shellcheck disable=SC2053
    if [[ $to == $p ]]; then ok=1; break; fi
  done
  if [ $ok -eq 0 ]; then
    echo "check-calls: $src calls $sym ($to): $dir may use only: ${allow[$dir]:-(nothing outside $dir)}"
    bad=1
  fi
done < <(awk -v B="$BUILD/" '$(NF - 1) == "U" { f = $1; sub(/\.o:.*/, ".c", f)
                                                print substr(f, length(B) + 1), $NF }' "$tmp/nm")

# ---------------------------------------------------------------- 2-4. inside each folder
# fail (print the loop) when graph `edges` of folder DIR has a cycle
cycle() {
  local dir=$1 kind=$2 edges=$3 out
  if ! out=$(tsort "$edges" 2>&1 > /dev/null); then
    echo "check-calls: $kind loop among the files of $dir/:"
    printf '%s\n' "$out" | grep -v 'input contains a loop' | sed 's/^tsort: /  /'
    [ "$kind" = "a call" ] && awk 'NR == FNR { on[$2] = 1; next } ($1 in on) && ($3 in on)' \
      <(printf '%s\n' "$out" | grep -v 'input contains a loop') "$tmp/syms" | sed 's/^/    /'
    bad=1
  fi
}

for dir in $FOLDERS; do
  [ -d "$SRC/$dir" ] || continue
  group=$(printf '%s\n' "$KNOWN" | sed -n "s/^$dir: *\([^#]*\)#.*/\1/p")
  # 2. calls: the folder's lines of the nm output
  awk -v B="$BUILD/$dir/" 'index($1, B) == 1' "$tmp/nm" |
    awk -v group="$group" -v syms="$tmp/syms" -v known="$tmp/known" '
    { f = $1; sub(/\.o:.*/, "", f); sub(/.*\//, "", f)
      t = $(NF - 1); s = $NF
      if (t == "U") users[s] = users[s] " " f
      else if (t ~ /^[TDBRCVW]$/) def[s] = f }
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
          printf "" > syms
          for (k in list) { split(k, ab, SUBSEP); print ab[1], "->", ab[2], ":" list[k] > syms }
          print nk + 0 > known }' > "$tmp/calls"
  nknown=$((nknown + $(cat "$tmp/known")))
  cycle "$dir" "a call" "$tmp/calls"
  # 3. includes among the folder's own files
  set +f
  for f in "$SRC/$dir"/*.c "$SRC/$dir"/*.h; do
    [ -f "$f" ] || continue
    sed -n "s|^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$dir/\([^\"]*\)\".*|\1|p" "$f" |
      awk -v a="$(basename "$f")" '{ print a, $1 }'
  done > "$tmp/incs"
  cycle "$dir" "an include" "$tmp/incs"
  # 4. function length
  awk -v MAX=$MAXLEN -v P="$SRC/" '
    FNR == 1 { cm = ""; s = 0 }
    /^\/\*/ || /^ \*/ { cm = cm $0 "\n"; next }
    /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { if (!s) { name = $0; start = FNR; why = cm } }
    /^\{/ { s = start }
    /^\}/ { if (s && FNR - s + 1 > MAX && why !~ /over 150 lines:/) {
              f = FILENAME; if (index(f, P) == 1) f = substr(f, length(P) + 1)
              printf "check-calls: %s:%d: a function of %d lines, over %d without a stated reason: %s\n",
                     f, s, FNR - s + 1, MAX, name }
            s = 0; cm = "" }
    /^[^ \t\/{}#]/ && !/^[A-Za-z_].*\(/ { cm = "" }
  ' "$SRC/$dir"/*.c > "$tmp/long"
  set -f
  if [ -s "$tmp/long" ]; then cat "$tmp/long"; bad=1; fi
done
if [ $bad -ne 0 ]; then echo "check-calls: FAILED"; exit 1; fi
known=""
[ "$nknown" -gt 0 ] && known=" ($nknown call edges inside known groups unchecked)"
echo "check-calls: ok: $nref calls between folders, all down the layers; no call or include" \
     "loop among the files of a folder; no function over $MAXLEN lines$known"
