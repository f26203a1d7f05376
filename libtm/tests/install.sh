#!/usr/bin/env bash
# make install PREFIX=<fresh temporary directory> installs the library (libitm.so.1, the
# libitm.so link, libitm.a), include/libtm.h and lib/pkgconfig/libtm.pc; a program then
# compiles and links with `pkg-config --cflags --libs libtm` against that prefix and runs on
# the installed library.
#   install.sh LIBTM_SOURCE_DIR
set -u
libtm_src=${1:?usage: install.sh LIBTM_SOURCE_DIR}
if [ ! -f "$libtm_src/lib/libitm.so.1" ]; then
    echo "SKIP: $libtm_src/lib/libitm.so.1 is not built yet (make -C libtm)"
    exit 77
fi
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed (apt-get install pkg-config)"; exit 77; }

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# MAKEFLAGS of an enclosing make (jobserver, -s) must not leak into this one.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$libtm_src" install PREFIX="$prefix" \
        >"$prefix/install.log" 2>&1; then
    echo "FAIL: make -C $libtm_src install PREFIX=$prefix failed:"
    tail -n 20 "$prefix/install.log" | sed 's/^/    /'
    exit 1
fi

for file in lib/libitm.so.1 lib/libitm.so lib/libitm.a include/libtm.h lib/pkgconfig/libtm.pc; do
    [ -e "$prefix/$file" ] || fail "make install did not install $file"
done
[ "$failures" -eq 0 ] || exit 1

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs libtm) || { echo "FAIL: pkg-config --cflags --libs libtm failed"; exit 1; }
echo "pkg-config --cflags --libs libtm: $flags"
case $flags in *"$prefix"*) ;; *) fail "the pkg-config flags do not point into the prefix $prefix" ;; esac

cat >"$prefix/program.c" <<'PROGRAM'
#include <libtm.h>
#include <stdio.h>
extern const char *_ITM_libraryVersion(void);
static long accounts[2] = { 10, 0 };
int main(void)
{
    __transaction_atomic {
        accounts[0] -= 3;
        accounts[1] += 3;
    }
    printf("%s|%s|%ld\n", LIBTM_VERSION, _ITM_libraryVersion(), accounts[0] + accounts[1]);
    return 0;
}
PROGRAM
# shellcheck disable=SC2086
if ! gcc -std=gnu11 -Wall -Wextra -fno-tree-loop-distribute-patterns "$prefix/program.c" \
        -o "$prefix/program" $flags 2>"$prefix/compile.log"; then
    echo "FAIL: a program does not compile with the installed header and pkg-config flags:"
    sed 's/^/    /' "$prefix/compile.log"
    exit 1
fi
[ -s "$prefix/compile.log" ] && { echo "note: compiler output:"; cat "$prefix/compile.log"; }
output=$(env -u LD_LIBRARY_PATH "$prefix/program") || fail "the installed program failed: $output"
echo "program output: $output"
case $output in
    *"|GNU libitm"*) fail "the program built with pkg-config runs on GCC's libitm, not the installed libtm" ;;
esac
[ "${output##*|}" = 10 ] || fail "the program's transaction lost money: $output"
resolved=$(env -u LD_LIBRARY_PATH ldd "$prefix/program" | awk '$1 == "libitm.so.1" { print $3 }')
[ "$(readlink -f "$resolved")" = "$(readlink -f "$prefix/lib/libitm.so.1")" ] ||
    fail "the program loads libitm.so.1 from '$resolved', not from the prefix"

if [ "$failures" -ne 0 ]; then
    echo "$failures install check(s) failed"
    exit 1
fi
echo "make install + pkg-config work"
