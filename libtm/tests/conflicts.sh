#!/usr/bin/env bash
# LIBTM_CONFLICTS names known conflicts exactly (conflicts.c): under orec and norec, forced,
# the handshaken rounds give one row per victim block, with its writer block, the location as
# symbol+offset (game+32 is game.field, game+40 game.neighbour; the heap block by the block
# that allocated it) and true apart from false: a read of the neighbour aborts nobody at a
# validation (orec checks the values before giving up, norec compares them), and under orec a
# held lock over the stripe is a false conflict; free-running (hardware transactions where the
# CPU has RTM, and with LIBTM_HTM=0) the records add up to libtm's abort counts. Also the bad
# inputs: an unknown LIBTM_CONFLICTS value, --png without --conflicts, a file without records.
#   conflicts.sh PROGRAM LIBTM-STATS
set -u
program=${1:?usage: conflicts.sh PROGRAM LIBTM-STATS}
tool=${2:?usage: conflicts.sh PROGRAM LIBTM-STATS}
source=$(dirname "$0")/conflicts.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The file:line libtm-stats prints for the block whose begin line has "block: NAME".
line_of() { echo "conflicts.c:$(grep -n "block: $1 " "$source" | cut -d: -f1)"; }
VN=$(line_of victim-neighbour) VF=$(line_of victim-field) VH=$(line_of victim-heap)
WA=$(line_of writer-a) WB=$(line_of writer-b) AL=$(line_of allocator)
VL=$(line_of victim-held) WL=$(line_of writer-held)

rounds=30 # 10 of each kind
run() { # NAME ENV... -- ARGS...: runs the program, leaves $work/NAME.json and NAME.conflicts
    local name=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    if ! env "${envs[@]}" LIBTM_CONFLICTS=1 LIBTM_STATS="$work/$name.json" "$program" "$@" \
            >"$work/$name.out" 2>&1; then
        fail "$name: the program failed: $(tail -3 "$work/$name.out")"
        return 1
    fi
    "$tool" --conflicts --json "$work/$name.json" >"$work/$name.conflicts" ||
        fail "$name: libtm-stats --conflicts --json failed"
}

# check NAME PYTHON-ASSERTIONS: c is the tool's JSON, rows(victim, writer, location, class)
# the count of the rows that match.
check() {
    local name=$1 code=$2
    /usr/bin/python3 - "$work/$name.conflicts" <<EOF || fail "$name: see above"
import json, sys
c = json.load(open(sys.argv[1]))
def rows(victim, writer, location, cls):
    return sum(r["count"] for r in c["conflicts"] if r["victim"].startswith(victim + " ") and
               r["writer"].startswith(writer + " ") and r["location"] == location and
               r["class"] == cls)
def want(what, got, expected):
    if got != expected:
        print(f"$name: {what}: {got}, expected {expected}")
        print(json.dumps(c["conflicts"], indent=1))
        sys.exit(1)
want("records against libtm's conflict aborts", c["recorded_conflicts"], c["conflict_aborts"])
want("hardware abort records against libtm's hardware aborts", c["recorded_htm_aborts"],
     c["htm_aborts"])
$code
EOF
}

heap="heap block of $AL allocate_heap +32"
if run orec LIBTM_ALGO=orec -- exact --rounds=$rounds; then
    check orec "
want('field read, writer B: true', rows('$VF', '$WB', 'game+32', 'true'), 10)
want('heap field read, writer B: true', rows('$VH', '$WB', '$heap', 'true'), 10)
want('all conflicts (the neighbour read passes the value check)', c['recorded_conflicts'], 20)"
fi
if run held LIBTM_ALGO=orec LIBTM_CM=immediate -- held --rounds=10; then
    check held "
want('neighbour read, lock held by a writer of the field: false (same stripe)',
     rows('$VL', '$WL', 'game+40', 'false_stripe'), 10)
want('no other row', c['recorded_conflicts'], 10)"
fi
if run norec LIBTM_ALGO=norec -- exact --rounds=$rounds; then
    check norec "
want('field read, writer B: true', rows('$VF', '$WB', 'game+32', 'true'), 10)
want('heap field read, writer B: true', rows('$VH', '$WB', '$heap', 'true'), 10)
want('all conflicts (norec compares values: no false ones)', c['recorded_conflicts'], 20)"
fi
for mode in default htm0; do
    envs=(LIBTM_VERBOSE=0)
    [ $mode = htm0 ] && envs=(LIBTM_HTM=0)
    if run free-$mode "${envs[@]}" -- free --ops=20000; then
        check free-$mode "
known = {'$VN', '$VF', '$VH', '$WA', '$WB', '$AL', '$VL', '$WL'}
for r in c['conflicts']:
    if r['victim'].split(' ')[0] not in known:
        print('$mode: unknown victim block', r); sys.exit(1)
for r in c['htm_abort_codes']:
    if r['block'].split(' ')[0] not in known:
        print('$mode: unknown hardware block', r); sys.exit(1)"
    fi
done

# Without LIBTM_STATS the records go to libtm-stats.PID.json in the working directory.
(cd "$work" && LIBTM_ALGO=orec LIBTM_CONFLICTS=1 "$program" exact --rounds=3 >/dev/null 2>&1) ||
    fail "LIBTM_CONFLICTS=1 without LIBTM_STATS: the program failed"
ls "$work"/libtm-stats.*.json >/dev/null 2>&1 ||
    fail "LIBTM_CONFLICTS=1 without LIBTM_STATS wrote no libtm-stats.PID.json"

# Bad inputs.
LIBTM_CONFLICTS=yes LIBTM_ALGO=orec LIBTM_STATS="$work/bad.json" "$program" exact --rounds=3 \
    >/dev/null 2>"$work/bad.err" || fail "LIBTM_CONFLICTS=yes: the program failed"
grep -q '^libtm: LIBTM_CONFLICTS=yes is unknown' "$work/bad.err" ||
    fail "LIBTM_CONFLICTS=yes: no warning ($(cat "$work/bad.err"))"
"$tool" --conflicts "$work/bad.json" | grep -q 'no conflict records: run the program with LIBTM_CONFLICTS=1' ||
    fail "a file without records: the tool does not say so"
if "$tool" --png "$work/x.png" "$work/orec.json" >/dev/null 2>"$work/png.err"; then
    fail "--png without --conflicts was accepted"
fi
grep -q -- '--png needs --conflicts' "$work/png.err" || fail "--png without --conflicts: no message"
"$tool" --conflicts --png "$work/m.png" "$work/orec.json" >/dev/null && [ -s "$work/m.png" ] ||
    fail "--png wrote no picture"

if [ $failures -ne 0 ]; then
    echo "conflicts.sh: $failures failure(s)"
    exit 1
fi
echo "conflicts.sh: all checks passed"
