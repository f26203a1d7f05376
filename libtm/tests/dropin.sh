#!/usr/bin/env bash
# Drop-in replacement: a program linked against GCC's libitm runs on libtm with
# LD_LIBRARY_PATH=LIBTM_DIR, with nothing on stderr (no "no version information available"
# or other loader warnings); ldd and LD_DEBUG=libs show libtm's file; LIBTM_VERBOSE=1 prints
# exactly one stderr line that starts with "libtm" and names a version and the algorithm
# (the default, orec, and each LIBTM_ALGO value).
#   dropin.sh PROGRAM LIBTM_DIR
set -u
program=${1:?usage: dropin.sh PROGRAM LIBTM_DIR}
libtm_dir=${2:?usage: dropin.sh PROGRAM LIBTM_DIR}
libtm_so="$libtm_dir/libitm.so.1"
if [ ! -f "$libtm_so" ]; then
    echo "SKIP: $libtm_so is not built yet (make -C libtm)"
    exit 77
fi
[ -x "$program" ] || { echo "FAIL: $program is not built (make -C libtm/tests)"; exit 1; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# The program really is built against GCC's libitm: NEEDED libitm.so.1, no rpath to libtm.
readelf -dW "$program" | grep -q 'NEEDED.*\[libitm\.so\.1\]' ||
    fail "$program does not record NEEDED libitm.so.1"
if readelf -dW "$program" | grep -E 'R(UN)?PATH' | grep -q "$libtm_dir"; then
    fail "$program has an rpath to $libtm_dir: it must be linked against GCC's libitm"
fi
if env -u LD_LIBRARY_PATH "$program" >"$out" 2>"$err"; then
    grep -q '^runtime: GNU libitm' "$out" ||
        echo "note: without LD_LIBRARY_PATH the program loads '$(cat "$out")', not GCC's libitm"
fi

# Run on libtm.
LD_LIBRARY_PATH="$libtm_dir" "$program" >"$out" 2>"$err"
status=$?
[ "$status" -eq 0 ] || fail "on libtm the program exited with status $status"
if [ -s "$err" ]; then
    fail "on libtm the program wrote to stderr (loader or runtime warnings):"
    sed 's/^/    /' "$err"
fi
runtime=$(sed -n 's/^runtime: //p' "$out")
case $runtime in
    "GNU libitm"*|"") fail "with LD_LIBRARY_PATH=$libtm_dir the runtime is '$runtime', not libtm" ;;
    *) echo "runtime on LD_LIBRARY_PATH=$libtm_dir: $runtime" ;;
esac
resolved=$(LD_LIBRARY_PATH="$libtm_dir" ldd "$program" | awk '$1 == "libitm.so.1" { print $3 }')
[ "$(readlink -f "$resolved")" = "$(readlink -f "$libtm_so")" ] ||
    fail "ldd resolves libitm.so.1 to '$resolved', expected $libtm_so"
LD_DEBUG=libs LD_LIBRARY_PATH="$libtm_dir" "$program" >/dev/null 2>"$err"
grep -q "calling init: $libtm_so" "$err" ||
    fail "LD_DEBUG=libs does not show '$libtm_so' being initialised:" \
         "$(grep 'libitm' "$err" | head -5)"

# LIBTM_VERBOSE=1: one line at start naming the runtime, its version, the algorithm and why
# hardware transactions are (not) used; one line at exit with the commits by mode.
verbose_check() {
    local algo=$1 expected=$2 htm_env=${3:-} htm_expected=${4:-}
    if [ -n "$algo" ]; then
        env -u LIBTM_HTM $htm_env LIBTM_ALGO=$algo LIBTM_VERBOSE=1 LD_LIBRARY_PATH="$libtm_dir" "$program" >/dev/null 2>"$err"
    else
        env -u LIBTM_ALGO -u LIBTM_HTM $htm_env LIBTM_VERBOSE=1 LD_LIBRARY_PATH="$libtm_dir" "$program" >/dev/null 2>"$err"
    fi
    local lines line last
    lines=$(wc -l <"$err")
    line=$(head -n 1 "$err")
    last=$(tail -n 1 "$err")
    if [ "$lines" -ne 2 ]; then
        fail "LIBTM_VERBOSE=1${algo:+ LIBTM_ALGO=$algo}: $lines stderr lines, expected two:"
        sed 's/^/    /' "$err"
        return
    fi
    [[ $line == libtm* ]] || fail "LIBTM_VERBOSE=1 line does not start with 'libtm': $line"
    [[ $line =~ [0-9]+\.[0-9]+ ]] || fail "LIBTM_VERBOSE=1 line names no version (N.N): $line"
    [[ $line == *"$expected"* ]] ||
        fail "LIBTM_VERBOSE=1${algo:+ LIBTM_ALGO=$algo} line does not name the algorithm '$expected': $line"
    [ -z "$htm_expected" ] || [[ $line == *"$htm_expected"* ]] ||
        fail "LIBTM_VERBOSE=1 $htm_env: the line does not say '$htm_expected': $line"
    [[ $last =~ ^libtm:\ [0-9]+\ commits.*commits\ by\ mode:.*serial ]] ||
        fail "LIBTM_VERBOSE=1: no exit line with the commits by mode: $last"
    echo "LIBTM_VERBOSE=1${algo:+ LIBTM_ALGO=$algo} $htm_env: $line / $last"
}
if grep -qw rtm /proc/cpuinfo; then
    verbose_check "" adaptive "" "Intel RTM in use"
    verbose_check "" adaptive LIBTM_HTM=0 "switched off by LIBTM_HTM=0"
else
    verbose_check "" adaptive "" "the CPU has no usable RTM"
fi
for algo in ${LIBTM_ALGOS:-orec norec serial}; do
    verbose_check "$algo" "$algo"
done

if [ "$failures" -ne 0 ]; then
    echo "$failures drop-in check(s) failed"
    exit 1
fi
echo "the program built against GCC's libitm runs on libtm cleanly"
