#!/usr/bin/env bash
# bench/gpu/pack.sh — gathers what bench/gpu/run_all.sh needs on a GPU machine that lacks the
# Debian packages: the ptxlitmus binary (built here) and the shared libraries it loads that are
# not part of every Linux with a C++ compiler (ldd: libz3, libcjson, libyaml; not libc, libm,
# libstdc++, libgcc_s, the loader), into DIR (default .gpu/, ignored by git):
#   DIR/ptxlitmus, DIR/lib/*.so*, DIR/MANIFEST (what was packed, from where, the commit)
# run_all.sh runs DIR/ptxlitmus with LD_LIBRARY_PATH=DIR/lib.  The folder is carried to the GPU
# machine with the working tree (about 28 MB: libz3 is 23 MB).
# usage: bench/gpu/pack.sh [DIR]        exit: 0 packed, 2 a library not found or no binary
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
dir=${1:-.gpu}
make -s ptxlitmus >/dev/null || { echo "pack: make ptxlitmus failed" >&2; exit 2; }
rm -rf "$dir/lib" "$dir/ptxlitmus"
mkdir -p "$dir/lib" || exit 2
cp ptxlitmus "$dir/ptxlitmus" || exit 2
# system libraries: present wherever nvcc's host compiler is
system='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libutil)\.'
{
  echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git rev-parse HEAD 2>/dev/null || echo ?)"
  ./ptxlitmus version 2>/dev/null | head -n1
} > "$dir/MANIFEST"
n=0
while read -r name _ path _; do
  case $name in /*) continue ;; esac
  if [[ $name =~ $system ]]; then continue; fi
  if [ ! -f "$path" ]; then echo "pack: $name not found (ldd: $path)" >&2; exit 2; fi
  cp -L "$path" "$dir/lib/$name" || exit 2
  echo "lib/$name <- $path" >> "$dir/MANIFEST"
  n=$((n + 1))
done < <(ldd ./ptxlitmus)
# check the packed binary resolves every library from DIR/lib alone (no system copy of them)
if LD_LIBRARY_PATH=$dir/lib ldd "$dir/ptxlitmus" | grep -q 'not found'; then
  echo "pack: $dir/ptxlitmus has unresolved libraries" >&2; exit 2
fi
echo "pack: $dir/ptxlitmus and $n libraries ($(du -sh "$dir" | cut -f1)); see $dir/MANIFEST"
