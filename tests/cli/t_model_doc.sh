#!/usr/bin/env bash
# tests/cli/t_model_doc.sh — docs/model.md shows the default model's cat text beside the ISA
# sentences (issue #9): every line of its ```cat blocks is a line of model/ptx.cat, so the
# document cannot drift from the model the program runs.
set -u
fails=0
n=0
while IFS= read -r line; do
  n=$((n + 1))
  grep -qxF -- "$line" model/ptx.cat || { echo "FAIL: docs/model.md cat line not in model/ptx.cat: $line"; fails=$((fails + 1)); }
done < <(awk '/^```cat$/{f=1; next} /^```$/{f=0} f && NF' docs/model.md)
[ "$n" -gt 40 ] || { echo "FAIL: only $n cat lines in docs/model.md"; exit 1; }
# and every check of the model is shown
while IFS= read -r line; do
  grep -qxF -- "$line" docs/model.md || { echo "FAIL: the check '$line' of model/ptx.cat is not in docs/model.md"; fails=$((fails + 1)); }
done < <(grep -E '^(empty|acyclic|irreflexive|flag) ' model/ptx.cat)
[ "$fails" = 0 ] || exit 1
echo "model doc: $n cat lines, all in model/ptx.cat"
