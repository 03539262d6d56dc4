#!/usr/bin/env bash
# scripts/check_layers.sh — `make check-layers`: the folders of ptxlitmus form layers, and every
# `#include "dir/file"` of the sources must go down (or stay in its folder).  Reads every .c/.h
# (and .def) file, checks each include against the table below, prints the folder include
# graph, and fails on an include against the table or a cycle between folders (tsort).
#
# The table: one line per folder, "folder: patterns of the files it may include" (shell globs on
# the included path).  Its own folder is always allowed.  Edit it when folders move.
set -u -f   # -f: the patterns below are matched, not expanded as file names
cd "$(dirname "$0")/.."

LAYERS='
base:
ptx:       base/*
frontend:  base/* ptx/*
exec:      base/* ptx/* frontend/ptx_* include/*
include:
model:     base/* ptx/* frontend/*
solver:    base/* ptx/* frontend/* model/*
check:     base/* ptx/* frontend/* model/* solver/*
kcheck:    base/* ptx/* frontend/* model/* solver/* check/* exec/* include/*
report:    base/* ptx/* frontend/* model/* solver/* check/* kcheck/* include/*
suite:     base/* ptx/* frontend/* model/* solver/* check/* kcheck/* report/* include/*
hw:        base/* ptx/* frontend/* model/* solver/* check/* kcheck/* report/* suite/* include/*
cli:       base/* ptx/* frontend/* model/* solver/* check/* kcheck/* report/* suite/* hw/* exec/* include/*
tools:     *
tests:     *
fuzz:      *
bench:     *
'
# Known wrong-way includes, each with who removes it ("FILE INCLUDED  # reason").
EXCEPTIONS='
'

declare -A allow seen_edge
folders=()
while read -r line; do
  [ -z "$line" ] && continue
  f=${line%%:*}; pats=${line#*:}
  folders+=("$f"); allow[$f]=$pats
done <<< "$LAYERS"

is_exception() {
  local e
  while read -r e; do
    e=${e%%#*}; [ -z "${e// }" ] && continue
    read -r ef ei <<< "$e"
    [ "$ef" = "$1" ] && [ "$ei" = "$2" ] && return 0
  done <<< "$EXCEPTIONS"
  return 1
}

bad=0; nexc=0; edges=""
for dir in "${folders[@]}"; do
  [ -d "$dir" ] || continue
  while IFS= read -r file; do
    while IFS= read -r inc; do
      tdir=${inc%%/*}
      [ "$inc" = "$tdir" ] && continue            # "x.h" beside it (tests/check_main.h)
      [ "$tdir" = "$dir" ] && continue
      ok=0
      for p in ${allow[$dir]}; do
        # shellcheck disable=SC2053
        if [[ $inc == $p ]]; then ok=1; break; fi
      done
      if [ $ok -eq 0 ] && is_exception "$file" "$inc"; then
        echo "check-layers: known exception $file -> $inc"
        nexc=$((nexc + 1)); continue
      fi
      if [ $ok -eq 0 ]; then
        echo "check-layers: $file includes $inc:" \
             "$dir may include only: ${allow[$dir]:-(nothing outside $dir)}"
        bad=1
      fi
      if [ -z "${seen_edge[$dir $tdir]:-}" ]; then
        seen_edge[$dir $tdir]=1; edges+="$dir $tdir"$'\n'
      fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
  done < <(find "$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort)
done

echo "folder include graph (folder -> folders it includes):"
for dir in "${folders[@]}"; do
  tos=$(printf '%s' "$edges" | awk -v d="$dir" '$1 == d { print $2 }' | sort | tr '\n' ' ')
  [ -n "$tos" ] && printf '  %-9s -> %s\n' "$dir" "$tos"
done
# a cycle between the library folders (tests/tools/fuzz/bench are leaves by construction)
lib_edges=$(printf '%s' "$edges" | grep -v -E '^(tests|tools|fuzz|bench) ')
if ! cycle=$(printf '%s\n' "$lib_edges" | tsort 2>&1 > /dev/null); then
  echo "check-layers: a cycle between folders:"; printf '%s\n' "$cycle" | sed 's/^/  /'; bad=1
fi
if [ $bad -ne 0 ]; then echo "check-layers: FAILED"; exit 1; fi
echo "check-layers: ok ($nexc known exception(s))"
