#!/usr/bin/env bash
# libtm's libitm.so.1 exports what GCC's libitm.so.1 exports, under the same version nodes:
# every one of GCC's functions (173 in GCC 12) as name@LIBITM_1.0 / name@LIBITM_1.1, nothing
# else except symbols of version nodes named LIBTM_*; DT_SONAME libitm.so.1; no NEEDED
# libstdc++ (C programs must not need it); a non-executable stack (GNU_STACK without E).
#   symbols.sh LIBTM_SO GCC_SO
set -u
libtm=${1:?usage: symbols.sh LIBTM_SO GCC_SO}
gcc_so=${2:?usage: symbols.sh LIBTM_SO GCC_SO}
if [ ! -f "$libtm" ]; then
    echo "SKIP: $libtm is not built yet (make -C libtm)"
    exit 77
fi
if [ ! -f "$gcc_so" ]; then
    echo "SKIP: GCC's libitm ($gcc_so) is missing: install the libitm1 package"
    exit 77
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Defined dynamic symbols as "name@VERSION TYPE", without the version-name (ABS) entries.
exported() {
    readelf --dyn-syms -W "$1" |
        awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && $7 != "ABS" && $5 != "LOCAL" && $8 != "" {
                 name = $8; sub(/@@/, "@", name); print name, $4 }' | sort -u
}

gcc_list=$(exported "$gcc_so")
libtm_list=$(exported "$libtm")
gcc_count=$(echo "$gcc_list" | grep -c ' FUNC$')
echo "GCC's $gcc_so exports $gcc_count functions; libtm's $libtm exports $(echo "$libtm_list" | wc -l) symbols"
[ "$gcc_count" -eq 173 ] || echo "note: expected 173 functions in GCC 12's libitm, found $gcc_count"

missing=$(comm -23 <(echo "$gcc_list") <(echo "$libtm_list"))
if [ -n "$missing" ]; then
    fail "$(echo "$missing" | wc -l) of GCC's symbols are missing from libtm (or have another" \
         "version node or type):"
    echo "$missing" | head -40 | sed 's/^/    /'
fi
extra=$(comm -13 <(echo "$gcc_list") <(echo "$libtm_list") | grep -v '@LIBTM_' || true)
if [ -n "$extra" ]; then
    fail "libtm exports $(echo "$extra" | wc -l) symbol(s) GCC's libitm does not, outside a" \
         "LIBTM_* version node:"
    echo "$extra" | head -40 | sed 's/^/    /'
fi
unversioned=$(echo "$libtm_list" | grep -v '@' || true)
if [ -n "$unversioned" ]; then
    fail "unversioned exports (programs would get \"no version information available\"):"
    echo "$unversioned" | head -20 | sed 's/^/    /'
fi

dynamic=$(readelf -dW "$libtm")
soname=$(echo "$dynamic" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libitm.so.1 ] || fail "DT_SONAME is '$soname', expected libitm.so.1"
needed=$(echo "$dynamic" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "NEEDED: $needed"
case " $needed" in *libstdc++*|*libgcc_s*)
    fail "libtm needs a C++ runtime library ($needed): C programs must not need it" ;;
esac

stack=$(readelf -lW "$libtm" | awk '$1 == "GNU_STACK" { print $7 }')
if [ -z "$stack" ]; then
    fail "no GNU_STACK program header: the loader assumes an executable stack" \
         "(an assembly file lacks .note.GNU-stack)"
elif [[ $stack == *E* ]]; then
    fail "GNU_STACK flags are '$stack': executable stack (an assembly file lacks .note.GNU-stack)"
fi

dir=$(dirname "$libtm")
[ -e "$dir/libitm.so" ] || fail "$dir/libitm.so (the name -litm links against) is missing"
if [ -f "$dir/libitm.a" ]; then
    nm "$dir/libitm.a" 2>/dev/null | grep -q ' T _ITM_beginTransaction$' ||
        fail "$dir/libitm.a does not define _ITM_beginTransaction (static links need it)"
else
    fail "$dir/libitm.a (for -static links) is missing"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures symbol check(s) failed"
    exit 1
fi
echo "libtm's exports match GCC's libitm (same names, types and version nodes)"
