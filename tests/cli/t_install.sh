#!/usr/bin/env bash
# tests/cli/t_install.sh — make install PREFIX=...: the program, the man page, the header, the
# static and shared executor libraries and ptxlitmus.pc; a C program links with pkg-config's
# flags against the installed shared library and runs.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
make --no-print-directory install PREFIX="$tmp/p" > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
for f in bin/ptxlitmus share/man/man1/ptxlitmus.1 include/ptxexec.h lib/libptxexec.a \
         lib/libptxlitmus.a lib/libptxexec.so lib/pkgconfig/ptxlitmus.pc; do
  [ -f "$tmp/p/$f" ] || fail "$f not installed"
done
"$tmp/p/bin/ptxlitmus" version | grep -q '^ptxlitmus ' || fail "installed binary"
grep -q '^\.TH PTXLITMUS 1' "$tmp/p/share/man/man1/ptxlitmus.1" || fail "man page header"
export PKG_CONFIG_PATH=$tmp/p/lib/pkgconfig
flags=$(pkg-config --cflags --libs ptxlitmus) || fail "pkg-config"
sed 's|#include "include/ptxexec.h"|#include <ptxexec.h>|' tests/exec_standalone.c > "$tmp/user.c"
cc -o "$tmp/x" "$tmp/user.c" $flags -lm 2> "$tmp/e" || { cat "$tmp/e"; fail "link with pkg-config flags"; }
LD_LIBRARY_PATH=$tmp/p/lib "$tmp/x" > "$tmp/o" 2>&1 || fail "the program against libptxexec.so: $(tail -3 "$tmp/o")"
ldd "$tmp/x" | grep -q "$tmp/p/lib/libptxexec.so" 2>/dev/null || LD_LIBRARY_PATH=$tmp/p/lib ldd "$tmp/x" | grep -q libptxexec.so || fail "not linked with the shared library"
[ "$fails" = 0 ] || exit 1
echo "install: all checks passed"
