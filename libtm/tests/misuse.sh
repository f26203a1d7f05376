#!/usr/bin/env bash
# Misuse of the TM runtime ends in a defined way, each case with its exit status and, on
# libtm, exactly one stderr line that starts with "libtm:".
#   misuse.sh PROGRAM libtm|gcc
# With "gcc" (run under LD_LIBRARY_PATH=GCC's libitm) only the exit statuses are checked:
# GCC's messages differ (or are missing: it just calls abort()).
set -u
program=${1:?usage: misuse.sh PROGRAM libtm|gcc}
runtime=${2:?usage: misuse.sh PROGRAM libtm|gcc}
case $runtime in libtm|gcc) ;; *) echo "misuse.sh: runtime must be libtm or gcc, not '$runtime'" >&2; exit 2 ;; esac
if [ ! -x "$program" ]; then
    echo "misuse.sh: $program is not built (run make -C libtm/tests)" >&2
    exit 2
fi
if [ "$runtime" = libtm ]; then
    version=$("$program" runtime | grep -v '^misuse: ')
    case $version in
        "GNU libitm"*) echo "SKIP: $program runs on GCC's libitm ($version), not libtm: build" \
                            "libtm/lib/libitm.so.1 first"; exit 77 ;;
    esac
fi

failures=0
stderr_file=$(mktemp)
trap 'rm -f "$stderr_file"' EXIT

# check CASE EXPECTED_STATUS WHAT
check() {
    local case=$1 expected=$2 what=$3
    "$program" "$case" >/dev/null 2>"$stderr_file"
    local status=$?
    if [ "$status" -ne "$expected" ]; then
        echo "FAIL $case: exit status $status, expected $expected ($what); stderr was:"
        sed 's/^/    /' "$stderr_file"
        failures=$((failures + 1))
        return
    fi
    if [ "$runtime" = libtm ]; then
        local lines libtm_lines
        lines=$(wc -l <"$stderr_file")
        libtm_lines=$(grep -c '^libtm: ' "$stderr_file")
        if [ "$lines" -ne 1 ] || [ "$libtm_lines" -ne 1 ]; then
            echo "FAIL $case: stderr must be exactly one line starting with \"libtm: \"," \
                 "it was $lines line(s):"
            sed 's/^/    /' "$stderr_file"
            failures=$((failures + 1))
            return
        fi
    fi
    echo "ok $case: status $status ($what): $(head -c 200 "$stderr_file" | tr '\n' ' ')"
}

check cancel-irrevocable 134 "killed by SIGABRT: cancelling is impossible once irrevocable"
check drop-references 1 "_ITM_dropReferences is not supported"
check thread-exit 1 "a thread exited inside a transaction"
if [ "$runtime" = libtm ]; then # libtm's open nesting (GCC's libitm has none)
    check open-writes-parent-data 134 "an open transaction wrote its enclosing transaction's data"
    check open-null-function 134 "libtm_open without a function"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures misuse case(s) failed on $runtime"
    exit 1
fi
echo "all misuse cases ended as defined on $runtime"
