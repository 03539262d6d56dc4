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

# combine_device OUT.cu PROG.cu...: the device code of several generated harness programs in
# one translation unit, for one nvcc run (the cheap compile check of many tests): each program
# up to the end of its kernel, in a namespace of its own, its extern "C" functions renamed, its
# macros undefined after it; the headers once at the top.
combine_device() {
  local out=$1 k=0 f; shift
  printf '#include <cuda.h>\n#include <cuda_runtime.h>\n#include <dlfcn.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <algorithm>\n#include <map>\n#include <vector>\n' > "$out"
  for f in "$@"; do
    k=$((k + 1))
    { echo "// ---- $f"; echo "namespace t$k {"
      awk '/^#include/ { next } { print } /^#endif \/\* HW_HOST_SHIM \*\/$/ { exit }' "$f" \
        | sed -E "s/\bhw_thread_([0-9]+)/hw_thread_${k}_\1/g; s/\bhw_kernel\b/hw_kernel_$k/g"
      echo "}"
      grep -oE '^#define [A-Za-z_][A-Za-z0-9_]*' "$f" | sort -u | sed 's/^#define/#undef/'
    } >> "$out"
  done
}

# split_ptx ALL.ptx K: the PTX of program K out of the PTX nvcc made of combine_device's
# translation unit, under the names of a program compiled alone again (hw_thread_K_N ->
# hw_thread_N, hw_kernel_K -> hw_kernel): the header (.version, .target, .address_size), every
# top-level declaration or definition of program K (its extern "C" functions, or a name in its
# namespace tK, mangled _ZN2tK...), and those of no program.  Each function's body is what nvcc
# makes of it alone (compiled in one module, only the order of the functions differs).
split_ptx() {
  awk -v k="$2" '
    function owner(s,   m) {
      if (match(s, /hw_(thread|kernel)_[0-9]+/)) {
        m = substr(s, RSTART, RLENGTH); sub(/hw_(thread|kernel)_/, "", m); return m + 0 }
      if (match(s, /_ZN[0-9]t[0-9]/))   # _ZN <length of tK> tK: K has that length - 1 digits
        return substr(s, RSTART + 5, substr(s, RSTART + 3, 1) - 1) + 0
      return -1
    }
    function flush(   i, s, o) {
      if (n == 0) return
      s = ""; for (i = 1; i <= n; i++) s = s buf[i] "\n"
      o = owner(s)
      if (o == -1 || o == k) printf "%s\n", s
      n = 0
    }
    /^\.(version|target|address_size)/ && depth == 0 { print; next }
    depth == 0 && n == 0 && (/^\/\// || /^[ \t]*$/) { next }
    { buf[++n] = $0; o = gsub(/\{/, "{"); c = gsub(/\}/, "}"); depth += o - c; if (o) body = 1
      if (depth == 0 && (body || /;[ \t]*$/)) { flush(); body = 0 } }
    END { flush() }' "$1" | sed -E "s/hw_kernel_$2([^0-9]|\$)/hw_kernel\1/g; s/hw_thread_$2_/hw_thread_/g"
}

# device_ptx DIR TEST...: the programs `$bin hw --no-compile --keep DIR` generates for the
# TESTs, their device code through one nvcc -ptx and one ptxas (combine_device: the CUDA
# headers are read once, not once per program), and each program's PTX split back out
# (split_ptx) into DIR/NAME.ptx.  Uses the calling test's $bin, $nvcc and $ptxas; an error
# fails the test.
device_ptx() {
  local dir=$1 progs=() k=0 t; shift
  mkdir -p "$dir"
  "$bin" hw --allow-outside --no-compile --keep "$dir" "$@" >/dev/null 2>"$dir/all.err" \
    || { cat "$dir/all.err"; fail "generation of $*"; }
  for t in "$@"; do progs+=("$dir/$(basename "$t" .litmus).cu"); done
  combine_device "$dir/all.cu" "${progs[@]}"
  "$nvcc" -arch=sm_90 -ptx -diag-suppress 177 -o "$dir/all.ptx" "$dir/all.cu" 2>"$dir/all.err" \
    || { cat "$dir/all.err"; fail "nvcc -ptx of the device code of $*"; }
  "$ptxas" -arch=sm_90 -o "$dir/all.cubin" "$dir/all.ptx" 2>"$dir/all.err" \
    || { cat "$dir/all.err"; fail "ptxas on the device code of $*"; }
  for t in "$@"; do
    k=$((k + 1)); split_ptx "$dir/all.ptx" $k > "$dir/$(basename "$t" .litmus).ptx"
  done
}
