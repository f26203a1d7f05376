#!/usr/bin/env bash
# make install, install-system, uninstall and uninstall-system into fresh temporary prefixes,
# as a user runs them, without root and without touching the system:
#   1. make install: exactly the private layout (the library in PREFIX/lib/libtm, nothing named
#      libitm* in PREFIX/lib), a libtm.pc whose flags carry the run path;
#   2. a program built with `pkg-config --cflags --libs libtm` runs on the installed libtm
#      (ldd and LD_DEBUG name the private path), also linked -static, and the installed
#      libtm-stats names its atomic block; the man pages are found under PREFIX/share/man;
#   3. a program built with plain `gcc -fgnu-tm` keeps GCC's libitm even when PREFIX/lib is
#      in the loader's path (as /usr/local/lib is);
#   4. make uninstall leaves no file behind; DESTDIR stages the same files, naming PREFIX only;
#   5. make install-system warns, puts libtm's libitm.so.1 into PREFIX/lib (the plain program
#      then loads libtm from there), refuses to overwrite or remove a libitm.so.1 that is not
#      libtm's; make uninstall-system leaves no file behind.
#   install.sh LIBTM_SOURCE_DIR
set -u
libtm_src=${1:?usage: install.sh LIBTM_SOURCE_DIR}
gcc_libitm_dir=/usr/lib/x86_64-linux-gnu
if [ ! -f "$libtm_src/lib/libitm.so.1" ]; then
    echo "SKIP: $libtm_src/lib/libitm.so.1 is not built yet (make -C libtm)"
    exit 77
fi
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed (scripts/deps.sh)"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# run_make LOG TARGET VARIABLE=VALUE...: make -C libtm, output in LOG. MAKEFLAGS of an
# enclosing make (jobserver, -s) must not leak into this one.
run_make() {
    local log=$1; shift
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$libtm_src" "$@" >"$log" 2>&1
}
# files ROOT: every file and symbolic link under ROOT, relative, sorted.
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }
# loaded_libitm PROGRAM [ENV...]: the libitm.so.1 the loader maps for PROGRAM, resolved.
loaded_libitm() {
    local program=$1; shift
    local path
    path=$(env -u LD_LIBRARY_PATH "$@" LD_DEBUG=libs "$program" 2>&1 >/dev/null |
           sed -n 's/.*calling init: \(.*libitm\.so\.1\)$/\1/p' | head -n 1)
    [ -n "$path" ] && readlink -f "$path"
}
# is_libtm FILE: FILE is libtm's library (its own version node), not GCC's.
is_libtm() { readelf -V "$1" 2>/dev/null | grep -q 'LIBTM_1\.0'; }
gcc_libitm=$(readlink -f "$gcc_libitm_dir/libitm.so.1")

cat >"$work/uses-libtm.c" <<'PROGRAM'
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
    printf("%s|%s|%s|%ld\n", LIBTM_VERSION, _ITM_libraryVersion(), libtm_algorithm(),
           accounts[0] + accounts[1]);
    return 0;
}
PROGRAM
cat >"$work/plain.c" <<'PROGRAM'
#include <stdio.h>
extern const char *_ITM_libraryVersion(void);
static int counter;
int main(void)
{
    __transaction_atomic { counter++; }
    printf("%s|%d\n", _ITM_libraryVersion(), counter);
    return 0;
}
PROGRAM
# A program that is not built against libtm: GCC's libitm at link time.
if ! gcc -std=gnu11 -fgnu-tm -fno-tree-loop-distribute-patterns "$work/plain.c" -o "$work/plain" \
        2>"$work/plain.log"; then
    echo "FAIL: plain gcc -fgnu-tm does not build:"; sed 's/^/    /' "$work/plain.log"; exit 1
fi

# ---- 1. make install: the private layout -------------------------------------------------
prefix=$work/private/usr
if ! run_make "$work/install.log" install PREFIX="$prefix"; then
    echo "FAIL: make -C $libtm_src install PREFIX=$prefix failed:"
    tail -n 20 "$work/install.log" | sed 's/^/    /'
    exit 1
fi
expected="bin/libtm-stats
include/libtm.h
lib/libtm/libitm.a
lib/libtm/libitm.so
lib/libtm/libitm.so.1
lib/pkgconfig/libtm.pc
share/libtm/algorithms.def
share/libtm/managers.def
share/man/man1/libtm-stats.1
share/man/man7/libtm.7"
installed=$(files "$prefix")
if [ "$installed" = "$expected" ]; then
    ok "make install put exactly the private layout in place"
else
    fail "make install's files differ from the private layout:"
    diff <(echo "$expected") <(echo "$installed") | sed 's/^/    /'
    exit 1
fi
[ "$(readlink "$prefix/lib/libtm/libitm.so")" = libitm.so.1 ] ||
    fail "lib/libtm/libitm.so is not a link to libitm.so.1"
is_libtm "$prefix/lib/libtm/libitm.so.1" || fail "lib/libtm/libitm.so.1 is not libtm's library"
grep -q 'private' "$work/install.log" || fail "make install does not say that the install is private"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
libdir=$(pkg-config --variable=libdir libtm) || { echo "FAIL: pkg-config cannot read libtm.pc"; exit 1; }
[ "$libdir" = "$prefix/lib/libtm" ] || fail "libtm.pc's libdir is $libdir, expected $prefix/lib/libtm"
flags=$(pkg-config --cflags --libs libtm)
echo "pkg-config --cflags --libs libtm: $flags"
for flag in "-I$prefix/include" -fgnu-tm -fno-tree-loop-distribute-patterns "-L$prefix/lib/libtm" \
            "-Wl,-rpath,$prefix/lib/libtm" -litm; do
    case " $flags " in *" $flag "*) ;; *) fail "pkg-config's flags lack $flag" ;; esac
done
[ "$(pkg-config --modversion libtm)" = "$(sed -n 's/^#define LIBTM_VERSION "\(.*\)"/\1/p' \
    "$libtm_src/include/libtm.h")" ] || fail "libtm.pc's version is not libtm.h's LIBTM_VERSION"

# ---- 2. a program built with pkg-config runs on the installed libtm ----------------------
# shellcheck disable=SC2086
if ! gcc -std=gnu11 -g -Wall -Wextra "$work/uses-libtm.c" -o "$work/uses-libtm" $flags \
        2>"$work/compile.log"; then
    echo "FAIL: a program does not compile with the installed header and pkg-config flags:"
    sed 's/^/    /' "$work/compile.log"
    exit 1
fi
[ -s "$work/compile.log" ] && { echo "note: compiler output:"; cat "$work/compile.log"; }
output=$(env -u LD_LIBRARY_PATH LIBTM_STATS="$work/stats-%p.json" "$work/uses-libtm") ||
    fail "the program built with pkg-config failed: $output"
echo "program built with pkg-config: $output"
case $output in
    *"|libtm "*) ok "the program built with pkg-config runs on libtm" ;;
    *) fail "the program built with pkg-config does not run on libtm: $output" ;;
esac
[ "${output##*|}" = 10 ] || fail "the program's transaction lost money: $output"
private_lib=$(readlink -f "$prefix/lib/libtm/libitm.so.1")
resolved=$(env -u LD_LIBRARY_PATH ldd "$work/uses-libtm" | awk '$1 == "libitm.so.1" { print $3 }')
[ "$(readlink -f "$resolved")" = "$private_lib" ] ||
    fail "ldd: the program loads libitm.so.1 from '$resolved', not from $prefix/lib/libtm"
loaded=$(loaded_libitm "$work/uses-libtm")
if [ "$loaded" = "$private_lib" ]; then
    ok "LD_DEBUG: the program maps $loaded"
else
    fail "LD_DEBUG: the program maps '$loaded', not $private_lib"
fi

# The installed libtm-stats reads the program's statistics and names its atomic block.
stats_table=$("$prefix/bin/libtm-stats" "$work"/stats-*.json 2>&1)
case $stats_table in
    *"uses-libtm.c:"*) ok "the installed libtm-stats resolves the block to uses-libtm.c:LINE" ;;
    *) fail "the installed libtm-stats does not name uses-libtm.c:"; echo "$stats_table" | sed 's/^/    /' ;;
esac

# The installed libtm-stats lists the registries it was installed with.
listed=$("$prefix/bin/libtm-stats" --list managers 2>&1 | paste -sd ' ')
[ "$listed" = "$("$libtm_src/tools/libtm-stats" --list managers | paste -sd ' ')" ] &&
    ok "the installed libtm-stats --list managers: $listed" ||
    fail "the installed libtm-stats --list managers prints: $listed"

# gcc -static takes the installed libitm.a (pkg-config --static adds -pthread).
# shellcheck disable=SC2046
if gcc -std=gnu11 -static "$work/uses-libtm.c" -o "$work/uses-libtm-static" \
        $(pkg-config --static --cflags --libs libtm) 2>"$work/static.log"; then
    static_output=$("$work/uses-libtm-static")
    case $static_output in
        *"|libtm "*) ok "linked -static with pkg-config --static, it runs libtm: $static_output" ;;
        *) fail "the -static program does not run libtm: $static_output" ;;
    esac
else
    fail "gcc -static with pkg-config --static --cflags --libs libtm does not link:"
    sed 's/^/    /' "$work/static.log"
fi

# The man pages are found where man looks for PREFIX's pages.
for page in "7 libtm:LIBTM_RETRIES" "1 libtm-stats:--per-file"; do
    section_name=${page%%:*} needle=${page#*:}
    # shellcheck disable=SC2086
    if LC_ALL=C.UTF-8 MANWIDTH=80 man -M "$prefix/share/man" $section_name 2>/dev/null | grep -q -- "$needle"; then
        ok "man -M PREFIX/share/man $section_name shows the page"
    else
        fail "man -M $prefix/share/man $section_name does not show the installed page"
    fi
done

# ---- 3. plain -fgnu-tm programs keep GCC's libitm ----------------------------------------
# PREFIX/lib in the loader's path stands for /usr/local/lib in /etc/ld.so.conf.d.
loaded=$(loaded_libitm "$work/plain" LD_LIBRARY_PATH="$prefix/lib")
if [ "$loaded" = "$gcc_libitm" ]; then
    ok "a plain -fgnu-tm program keeps GCC's libitm ($loaded) with PREFIX/lib in the loader's path"
else
    fail "a plain -fgnu-tm program maps '$loaded' with $prefix/lib in the loader's path," \
         "not GCC's $gcc_libitm"
fi

# ---- 4. make uninstall; DESTDIR ----------------------------------------------------------
run_make "$work/uninstall.log" uninstall PREFIX="$prefix" ||
    fail "make uninstall failed: $(tail -n 5 "$work/uninstall.log")"
left=$(files "$prefix")
[ -z "$left" ] || fail "make uninstall left files behind: $left"
[ ! -e "$prefix/lib/libtm" ] || fail "make uninstall left the directory lib/libtm"
[ -z "$left" ] && [ ! -e "$prefix/lib/libtm" ] && ok "make uninstall removed every file"

destdir=$work/stage
staged_prefix=/opt/libtm-install-test
if run_make "$work/destdir.log" install DESTDIR="$destdir" PREFIX="$staged_prefix"; then
    staged=$(files "$destdir$staged_prefix")
    [ "$staged" = "$expected" ] || fail "make install DESTDIR=... staged other files: $staged"
    [ -z "$(files "$destdir" | grep -v "^${staged_prefix#/}/")" ] ||
        fail "make install DESTDIR=... wrote outside DESTDIR/PREFIX"
    grep -qx "prefix=$staged_prefix" "$destdir$staged_prefix/lib/pkgconfig/libtm.pc" ||
        fail "the staged libtm.pc does not say prefix=$staged_prefix"
    ! grep -rq "$destdir" "$destdir$staged_prefix/lib/pkgconfig" ||
        fail "the staged libtm.pc names the DESTDIR"
    [ ! -e "$staged_prefix" ] || fail "make install DESTDIR=... created $staged_prefix itself"
    run_make "$work/destdir-uninstall.log" uninstall DESTDIR="$destdir" PREFIX="$staged_prefix" ||
        fail "make uninstall DESTDIR=... failed"
    [ -z "$(files "$destdir")" ] || fail "make uninstall DESTDIR=... left: $(files "$destdir")"
    ok "DESTDIR stages the same files under DESTDIR, naming PREFIX; uninstall removes them"
else
    fail "make install DESTDIR=$destdir PREFIX=$staged_prefix failed: $(tail -n 5 "$work/destdir.log")"
fi

# ---- 5. make install-system --------------------------------------------------------------
system_prefix=$work/system/usr
if run_make "$work/install-system.log" install-system PREFIX="$system_prefix"; then
    grep -q "WARNING:.*EVERY program" "$work/install-system.log" &&
        grep -q "WARNING: Undo: make uninstall-system" "$work/install-system.log" ||
        fail "make install-system does not warn that it replaces GCC's libitm and how to undo it"
    ! grep -q "private: other -fgnu-tm programs keep GCC's libitm" "$work/install-system.log" ||
        fail "make install-system says the install is private, which it is not"
    first=$(grep -v '^make' "$work/install-system.log" | head -n 1)
    case $first in WARNING:*) ;; *) fail "make install-system does not warn first: '$first'" ;; esac
    if is_libtm "$system_prefix/lib/libitm.so.1"; then
        ok "make install-system put libtm's libitm.so.1 into PREFIX/lib"
    else
        fail "make install-system did not put libtm's libitm.so.1 into $system_prefix/lib"
    fi
    [ "$(files "$system_prefix")" = "$(printf '%s\n' "$expected" lib/libitm.so.1 | sort)" ] ||
        fail "make install-system installed other files: $(files "$system_prefix")"
    loaded=$(loaded_libitm "$work/plain" LD_LIBRARY_PATH="$system_prefix/lib")
    [ "$loaded" = "$(readlink -f "$system_prefix/lib/libitm.so.1")" ] &&
        ok "with install-system, a plain -fgnu-tm program loads libtm from PREFIX/lib" ||
        fail "with install-system and PREFIX/lib in the loader's path, the plain program maps '$loaded'"
    run_make "$work/uninstall-system.log" uninstall-system PREFIX="$system_prefix" ||
        fail "make uninstall-system failed: $(tail -n 5 "$work/uninstall-system.log")"
    left=$(files "$system_prefix")
    [ -z "$left" ] && ok "make uninstall-system removed every file" ||
        fail "make uninstall-system left files behind: $left"
else
    fail "make install-system PREFIX=$system_prefix failed: $(tail -n 5 "$work/install-system.log")"
fi

# Another runtime's libitm.so.1 in PREFIX/lib is never overwritten or removed.
foreign_prefix=$work/foreign
mkdir -p "$foreign_prefix/lib"
cp "$gcc_libitm" "$foreign_prefix/lib/libitm.so.1"
if run_make "$work/foreign.log" install-system PREFIX="$foreign_prefix"; then
    fail "make install-system overwrote GCC's libitm.so.1 in $foreign_prefix/lib"
else
    grep -q "not libtm" "$work/foreign.log" ||
        fail "make install-system refused without saying why: $(cat "$work/foreign.log")"
fi
cmp -s "$gcc_libitm" "$foreign_prefix/lib/libitm.so.1" || fail "GCC's libitm.so.1 copy was changed"
run_make "$work/foreign-uninstall.log" uninstall-system PREFIX="$foreign_prefix" &&
    fail "make uninstall-system accepted to remove a libitm.so.1 that is not libtm's"
[ -f "$foreign_prefix/lib/libitm.so.1" ] &&
    ok "install-system and uninstall-system leave a libitm.so.1 that is not libtm's alone" ||
    fail "make uninstall-system removed GCC's libitm.so.1 copy"

if [ "$failures" -ne 0 ]; then
    echo "$failures install check(s) failed"
    exit 1
fi
echo "make install, install-system, uninstall, uninstall-system, DESTDIR and pkg-config work"
