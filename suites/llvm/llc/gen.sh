#!/usr/bin/env bash
# suites/llvm/llc/gen.sh — the evidence for the llc14 mapping (frontend/llvm_parse.c,
# docs/llvm-mapping.md): one small .ll file per LLVM memory instruction form, compiled with
#   llc -march=nvptx64 -mcpu=sm_80 FORM.ll -o FORM.ptx
# (the llc of this machine is Debian LLVM 14.0.6, which knows no sm_90: -mcpu=sm_90 is ignored
# with a warning, so sm_80 is used; the atomics lowering is the same for both in LLVM 14).
# A form llc cannot lower leaves FORM.err (the "LLVM ERROR: Cannot select" line) instead.
# Writes table.tsv: form, then the memory instructions of the PTX or the error.
set -u
cd "$(dirname "$0")"
LLC=${LLC:-llc}
forms=(
  'load_na|%r = load i32, ptr %x, align 4'
  'load_volatile|%r = load volatile i32, ptr %x, align 4'
  'load_monotonic|%r = load atomic i32, ptr %x monotonic, align 4'
  'load_monotonic_block|%r = load atomic i32, ptr %x syncscope("block") monotonic, align 4'
  'load_monotonic_device|%r = load atomic i32, ptr %x syncscope("device") monotonic, align 4'
  'load_acquire|%r = load atomic i32, ptr %x acquire, align 4'
  'load_seq_cst|%r = load atomic i32, ptr %x seq_cst, align 4'
  'store_na|store i32 1, ptr %x, align 4'
  'store_volatile|store volatile i32 1, ptr %x, align 4'
  'store_monotonic|store atomic i32 1, ptr %x monotonic, align 4'
  'store_monotonic_block|store atomic i32 1, ptr %x syncscope("block") monotonic, align 4'
  'store_release|store atomic i32 1, ptr %x release, align 4'
  'store_seq_cst|store atomic i32 1, ptr %x seq_cst, align 4'
  'fence_acquire|fence acquire'
  'fence_release|fence release'
  'fence_acq_rel_block|fence syncscope("block") acq_rel'
  'fence_seq_cst|fence seq_cst'
  'rmw_add_monotonic|%r = atomicrmw add ptr %x, i32 1 monotonic'
  'rmw_add_acquire|%r = atomicrmw add ptr %x, i32 1 acquire'
  'rmw_add_release|%r = atomicrmw add ptr %x, i32 1 release'
  'rmw_add_acq_rel|%r = atomicrmw add ptr %x, i32 1 acq_rel'
  'rmw_add_seq_cst|%r = atomicrmw add ptr %x, i32 1 seq_cst'
  'rmw_add_seq_cst_block|%r = atomicrmw add ptr %x, i32 1 syncscope("block") seq_cst'
  'rmw_add_monotonic_device|%r = atomicrmw add ptr %x, i32 1 syncscope("device") monotonic'
  'rmw_xchg_seq_cst|%r = atomicrmw xchg ptr %x, i32 1 seq_cst'
  'cmpxchg_monotonic|%r = cmpxchg ptr %x, i32 0, i32 1 monotonic monotonic'
  'cmpxchg_acquire|%r = cmpxchg ptr %x, i32 0, i32 1 acquire acquire'
  'cmpxchg_seq_cst|%r = cmpxchg ptr %x, i32 0, i32 1 seq_cst seq_cst'
)
echo "# $($LLC --version | grep -m1 -i 'llvm version' | sed 's/^ *//'); $LLC -march=nvptx64 -mcpu=sm_80" > table.tsv
for f in "${forms[@]}"; do
  name=${f%%|*}; insn=${f#*|}
  # LLVM 14 reads typed pointers: ptr %x is written i32* %x there
  insn14=$(sed 's/ptr %x/i32* %x/' <<< "$insn")
  { echo 'target triple = "nvptx64-nvidia-cuda"'
    echo 'define void @f(i32* %x, i32* %out) {'
    echo "  $insn14"
    case $insn in
      *cmpxchg*) echo '  %v = extractvalue { i32, i1 } %r, 0'; echo '  store i32 %v, i32* %out, align 4' ;;
      %r*) echo '  store i32 %r, i32* %out, align 4' ;;   # (keeps the result live)
    esac
    echo '  ret void'
    echo '}'; } > "$name.ll"
  rm -f "$name.ptx" "$name.err"
  if ( $LLC -march=nvptx64 -mcpu=sm_80 "$name.ll" -o "$name.ptx" ) 2> "$name.stderr"; then
    out=$(grep -E '^\s+(ld|st|atom|fence|membar)' "$name.ptx" | grep -v -E 'param|\[%rd2\]' | tr -s ' \t' ' ' | sed 's/^ //' | tr '\n' ' ')
  else
    rm -f "$name.ptx"
    grep -m1 'LLVM ERROR' "$name.stderr" | sed -E 's/0x[0-9a-f]+(: )?//g' > "$name.err"
    out="ERROR: $(cut -c1-60 "$name.err")"
  fi
  rm -f "$name.stderr"
  printf '%s\t%s\t%s\n' "$name" "$insn" "$out" >> table.tsv
done
cat table.tsv
