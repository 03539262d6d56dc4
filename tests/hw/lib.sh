# tests/hw/lib.sh — helpers of the `ptxlitmus hw` CLI tests (sourced by tests/cli/t_hw_*.sh).

fail() { echo "FAIL: $*"; exit 1; }

# The nvcc the tests use: $NVCC, then $PATH, then /usr/local/cuda/bin/nvcc; empty if none.
find_nvcc() {
  if [ -n "${NVCC:-}" ] && [ -x "$NVCC" ]; then echo "$NVCC"; return; fi
  command -v nvcc 2>/dev/null && return
  [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc
}

# ptx_body FILE.ptx N: the instructions of .func hw_thread_N, one per line, without comments,
# labels, declarations or braces.
ptx_body() {
  awk -v fn="hw_thread_$2" '
    $0 ~ "^(\\.visible |\\.weak )?\\.func.* " fn "\\(" { on = 1; next }
    on && /^}/ { exit }
    on {
      sub(/\/\/.*/, ""); gsub(/^[ \t]+|[ \t]+$/, "")
      if ($0 == "" || $0 ~ /^[{}]$/ || $0 ~ /^\./ || $0 ~ /:$/ || $0 ~ /^\)/ || $0 ~ /^\(/) next
      print
    }' "$1"
}

# in_order FILE.ptx N REGEX...: the regexes match instructions of hw_thread_N in this order.
in_order() {
  local f=$1 n=$2; shift 2
  ptx_body "$f" "$n" | awk -v pats="$(printf '%s\n' "$@")" '
    BEGIN { np = split(pats, p, "\n"); k = 1 }
    k <= np && $0 ~ p[k] { k++ }
    END { if (k <= np) { print "missing or out of order: " p[k]; exit 1 } }' \
    || { echo "--- hw_thread_$n of $f:"; ptx_body "$f" "$n"; fail "PTX of $f thread $n"; }
}
