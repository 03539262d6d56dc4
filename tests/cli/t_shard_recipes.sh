#!/usr/bin/env bash
# tests/cli/t_shard_recipes.sh — the recipes of docs/suites.md "More than one machine" (issue
# #30, item 4), taken from the page as written: the Slurm job array, the GitHub Actions matrix
# and the Kubernetes Indexed Job each run two shards here, with the variables their engine would
# set (SLURM_ARRAY_TASK_*, the matrix expressions, JOB_COMPLETION_INDEX), then their merge
# line; the merged report must hold the same results as one unsharded run.  Also: --shard auto
# with a 0-based Slurm array, and its refusals.
set -u
bin=$1
case "$bin" in /*) ;; *) bin=$PWD/${bin#./} ;; esac
root=$PWD
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/w/suites" "$tmp/bin"
cp -r suites/isa "$tmp/w/suites/"
ln -s "$bin" "$tmp/bin/ptxlitmus"; ln -s "$bin" "$tmp/w/ptxlitmus"   # as the recipes call it
export PATH="$tmp/bin:$PATH"
cd "$tmp/w" || exit 2
"$bin" suite -q suites/ --json full.json > /dev/null || fail "the unsharded run: exit $?"
# the recipes' lines: RECIPE<TAB>shard|merge<TAB>COMMAND
python3 - "$root/docs/suites.md" > "$tmp/lines" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("### More than one machine"):]
sec = sec[:sec.index("**GNU parallel**")]
blocks = re.findall(r"```[a-z]*\n(.*?)```", sec, re.S)
out = []
for i, b in enumerate(blocks):
    if "#SBATCH" in b:
        out.append(("slurm", "shard", [l for l in b.splitlines() if l.startswith("ptxlitmus suite")][0]))
        m = re.search(r"--wrap '([^']*)'", blocks[i + 1])
        out.append(("slurm", "merge", m.group(1)))
    elif "matrix:" in b:
        for l in b.splitlines():
            l = l.strip()
            if l.startswith("- run:") and "ptxlitmus suite" in l:
                out.append(("github", "shard", l[len("- run:"):].strip()))
            if l.startswith("- run:") and "ptxlitmus merge" in l:
                out.append(("github", "merge", l[len("- run:"):].strip()))
    elif "completionMode: Indexed" in b:
        out.append(("kubernetes", "shard", re.search(r'args: \["(.*)"\]', b).group(1)))
        out.append(("kubernetes", "merge", blocks[i + 1].strip()))
for r in out:
    print("\t".join((r[0], r[1], r[2])))
PY
[ "$(wc -l < "$tmp/lines")" = 6 ] || fail "expected 6 recipe lines (3 recipes x shard, merge): $(cat "$tmp/lines")"
same() {   # same NAME: results/all.json holds the results of full.json
  python3 - full.json results/all.json <<'PY' || fail "$1: the merged report differs from the unsharded run"
import json, sys
key = lambda d: sorted((r["file"], r["model"], r.get("verdict"), r["outcome"]) for r in json.load(open(d))["results"])
a, b = key(sys.argv[1]), key(sys.argv[2])
assert a == b and len(a) == 49, (len(a), len(b))
PY
}
run_recipe() {   # run_recipe NAME SUBST: both shards, then the merge, with SUBST applied
  local name=$1 subst=$2 k cmd
  rm -rf results; mkdir -p results
  for k in 1 2; do
    cmd=$(awk -F'\t' -v r="$name" '$1 == r && $2 == "shard" { print $3 }' "$tmp/lines" | sed "$subst" | sed "s/@K@/$k/g")
    case "$name" in
      slurm) env SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=1 \
               SLURM_ARRAY_TASK_MAX=2 SLURM_ARRAY_TASK_STEP=1 SLURM_CPUS_PER_TASK=1 bash -c "$cmd" ;;
      github) bash -c "$cmd" ;;
      kubernetes) env JOB_COMPLETION_INDEX=$((k - 1)) sh -c "$cmd" ;;
    esac > /dev/null 2> "$tmp/e" || fail "$name shard $k: exit $?: $cmd: $(head -c 300 "$tmp/e")"
  done
  cmd=$(awk -F'\t' -v r="$name" '$1 == r && $2 == "merge" { print $3 }' "$tmp/lines" | sed "$subst")
  bash -c "$cmd" > "$tmp/o" 2>&1 || fail "$name merge: exit $?: $cmd: $(tail -n 3 "$tmp/o")"
  grep -Eq '^total +49 +49 +0 +0 +0 ' "$tmp/o" || fail "$name merge: $(tail -n 3 "$tmp/o")"
  same "$name"
}
run_recipe slurm ''
run_recipe github 's/\${{ matrix.shard }}/@K@/g; s/\${{ strategy.job-total }}/2/g'
run_recipe kubernetes "s|/opt/ptxlitmus/suites|suites/|g; s|/results/|results/|g; s|auto/4|auto/2|g"
# a 0-based array (--array=0-1) is the same two shards
for k in 0 1; do
  env SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=0 \
    "$bin" suite suites/ --shard auto --json "z$k.json" -q > /dev/null || fail "0-based task $k: exit $?"
done
python3 -c "import json; assert [json.load(open(f))['shard'] for f in ('z0.json','z1.json')] == ['1/2','2/2']" \
  || fail "0-based array: shards $(grep -h '"shard"' z0.json z1.json)"
# refusals: no engine, an index past the count, an Indexed Job without N, a count mismatch
chk() {   # chk WANT-REGEX ENV...
  local want=$1; shift
  env "$@" "$bin" suite suites/ --shard "${SHARD:-auto}" -q > /dev/null 2> "$tmp/e"; local st=$?
  [ "$st" = 2 ] && grep -Eq "$want" "$tmp/e" || fail "$*: exit $st: $(cat "$tmp/e")"
}
chk "found neither SLURM_ARRAY_TASK_ID .* nor JOB_COMPLETION_INDEX" -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX
chk "found SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_COUNT=2" SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=2
chk "found JOB_COMPLETION_INDEX=1 and no shard count, expected --shard auto/N" JOB_COMPLETION_INDEX=1
SHARD=auto/2 chk "found JOB_COMPLETION_INDEX=2, expected an index below N" JOB_COMPLETION_INDEX=2
SHARD=auto/4 chk "found a Slurm job array of 2 tasks, expected 4" SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2
[ "$fails" = 0 ] && echo "shard recipes: slurm, github, kubernetes ok"
[ "$fails" = 0 ]
