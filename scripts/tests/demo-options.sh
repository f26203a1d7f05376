#!/usr/bin/env bash
# scripts/demo refuses a --threads that is not a number of at least 1, with a message on
# standard error and exit 2, before it starts anything (it parses its options first).
#   demo-options.sh        (-h, --help: this text)
set -u
case "${1:-}" in
    -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
demo=$(cd "$(dirname "$0")/.." && pwd)/demo
failures=0
for bad in 0 x -1 2x 08 ""; do
    err=$(timeout 20 "$demo" --threads "$bad" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ] || ! grep -q -- "--threads" <<<"$err"; then
        echo "FAIL: demo --threads '$bad': exit $rc, stderr: $err"
        failures=$((failures + 1))
    fi
done
[ $failures = 0 ] && echo "PASS: demo rejects every bad --threads"
exit $((failures > 0))
