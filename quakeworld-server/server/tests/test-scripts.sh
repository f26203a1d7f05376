#!/usr/bin/env bash
# The Quake scripts behave like commands: --help and -h print their usage and exit 0, an
# unknown option is refused with exit 2 and says so (nothing runs, nothing is written).
. "$(dirname "$0")/lib.sh"
scripts=$(cd "$(dirname "$0")/../../../scripts" && pwd)
py=/usr/bin/python3
check() {   # check NAME COMMAND...: the command with --help, -h and --frobnicate
    local name=$1; shift
    for h in --help -h; do
        "$@" "$h" >"$tmp/out" 2>&1 || fail "$name $h exited $?: $(head -3 "$tmp/out")"
        grep -qi "usage\|$name" "$tmp/out" || fail "$name $h printed no usage: $(head -3 "$tmp/out")"
    done
    "$@" --frobnicate >"$tmp/out" 2>&1
    local rc=$?
    [ $rc = 2 ] || fail "$name --frobnicate exited $rc, expected 2: $(head -3 "$tmp/out")"
    grep -q -- "--frobnicate" "$tmp/out" || fail "$name does not name the unknown option"
}
check demo "$scripts/demo"
check quake-bench "$scripts/quake-bench"
check ezquake-screenshot "$scripts/ezquake-screenshot"
check plot-quake-bench "$py" "$scripts/plot-quake-bench.py"
"$py" "$scripts/atomic-quake-report.py" --help >"$tmp/out" 2>&1 || fail "atomic-quake-report --help failed"
grep -q "report CSV" "$tmp/out" || fail "atomic-quake-report --help printed no usage"
"$py" "$scripts/atomic-quake-report.py" report --frobnicate >"$tmp/out" 2>&1
[ $? = 2 ] || fail "atomic-quake-report report --frobnicate was accepted"
echo "ok"
