#!/usr/bin/env bash
# scripts/check_calls.sh — part of `make check-layers`: what the objects CALL (or reference) goes
# down the layers too, not only what the sources include (issue #25: an include check misses a
# call through a prototype written by hand).  For every object of a library folder under
# BUILD (default build/), each undefined symbol that another folder's object defines is checked
# against the layer table of scripts/check_layers.sh (the same table, read from that script: a
# folder may use the files its patterns name).  Needs the objects: the Makefile builds the
# libraries first.  Prints each wrong-way reference "exec/tex.o calls cli_fn (cli/run_tex.c)".
set -u -f
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}

# the table: the lines between LAYERS=' and ' in check_layers.sh
table=$(sed -n "/^LAYERS='/,/^'/p" scripts/check_layers.sh | sed '1d;$d')
declare -A allow
while read -r line; do
  [ -z "$line" ] && continue
  allow[${line%%:*}]=${line#*:}
done <<< "$table"

dirs="base ptx frontend exec model solver check report suite hw cli"
objs=()
for d in $dirs; do
  [ -d "$BUILD/$d" ] || continue
  set +f; objs+=("$BUILD/$d"/*.o); set -f
done
if [ ${#objs[@]} -eq 0 ]; then echo "check-calls: no objects under $BUILD (build first)"; exit 1; fi

# symbol -> the source file that defines it (global text, data, bss, read-only data)
declare -A def
while read -r obj _ sym; do
  src=${obj%%:*}; src=${src#"$BUILD"/}; src=${src%.o}.c   # nm -A: "FILE.o:ADDRESS"
  def[$sym]=$src
done < <(nm -A --defined-only "${objs[@]}" 2>/dev/null |
         awk '$2 ~ /^[TDBRC]$/ { print $1, $2, $3 }')

bad=0; n=0
# every undefined symbol of every object, as "FILE.o: U SYM" (nm -A), in one nm run
while read -r obj sym; do
  src=${obj%:}; src=${src#"$BUILD"/}; src=${src%.o}.c; dir=${src%%/*}
  to=${def[$sym]:-}
  [ -z "$to" ] && continue                         # libc, libm, Z3, ...
  [ "${to%%/*}" = "$dir" ] && continue
  n=$((n + 1))
  ok=0
  for p in ${allow[$dir]:-}; do
    # shellcheck disable=SC2053
    if [[ $to == $p ]]; then ok=1; break; fi
  done
  if [ $ok -eq 0 ]; then
    echo "check-calls: $src calls $sym ($to): $dir may use only: ${allow[$dir]:-(nothing outside $dir)}"
    bad=1
  fi
done < <(nm -A -u "${objs[@]}" | awk '{ print $1, $NF }')
if [ $bad -ne 0 ]; then echo "check-calls: FAILED"; exit 1; fi
echo "check-calls: ok ($n references between folders, all down the layers)"
