#!/usr/bin/env bash
# scripts/all-results calls the benchmark scripts with options they know, runs every
# benchmark whose output the READMEs quote, and with --quick hands each one an output
# folder under build/all-results-quick/. It runs in a temporary tree whose benchmark scripts
# are stubs: each records its arguments and checks every --option against the real script's
# --help text, so nothing is measured and no tracked result can be touched.
#   all-results.sh            (from anywhere; -h, --help: this text)
set -u
case "${1:-}" in
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "all-results.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

benchmarks="libtm-bench libtm-cm-bench quake-bench apache-bench memcache-soak"
mkdir -p "$work/tree/scripts"
cp -p "$top/scripts/all-results" "$work/tree/scripts/"
for b in $benchmarks; do
    "$top/scripts/$b" --help >"$work/$b.help" 2>&1 || fail "$b --help exits non-zero"
    cat >"$work/tree/scripts/$b" <<EOF
#!/usr/bin/env bash
# Stub of $b: records its call, refuses an option the real $b does not document.
echo "$b\${*:+ \$*}" >>"$work/calls"
for a in "\$@"; do
    case \$a in
        --*) grep -q -- "\$a\\b" "$work/$b.help" || { echo "$b: unknown option \$a" >&2; exit 2; } ;;
    esac
done
EOF
    chmod +x "$work/tree/scripts/$b"
done

# run MODE...: all-results in the tree; the calls it made go to $work/calls.
run() {
    rm -f "$work/calls"
    if ! (cd "$work/tree" && scripts/all-results "$@" >"$work/out" 2>&1); then
        fail "all-results $* failed:"; sed 's/^/    /' "$work/out"
    fi
}
# expect PATTERN WHAT: one recorded call matches the extended regular expression.
expect() {
    grep -qE "$1" "$work/calls" || fail "$2: no call matches '$1'; calls: $(paste -sd '|' "$work/calls")"
}

run
expect '^libtm-bench$' "full run: libtm-bench (results/libtm-bench.*)"
expect '^libtm-bench --no-htm$' "full run: libtm-bench --no-htm (results/libtm-bench-nohtm.*)"
expect '^libtm-cm-bench$' "full run: libtm-cm-bench (results/libtm-cm-bench*)"
expect '^quake-bench --paper$' "full run: quake-bench --paper (results/atomic-quake*)"
expect '^quake-bench --sweep$' "full run: quake-bench --sweep (results/quake-bench.*)"
expect '^quake-bench --sched$' "full run: quake-bench --sched (results/quake-sched.*)"
expect '^quake-bench --qc-cost$' "full run: quake-bench --qc-cost (results/quake-qc.*)"
expect '^quake-bench --paper --qc --loads replay$' "full run: the study on id's game (results/atomic-quake-qc*)"
expect '^apache-bench( --paper)?$' "full run: apache-bench --paper (results/apache-bench*)"
expect '^memcache-soak$' "full run: memcache-soak (results/memcache-soak.*)"

run --quick
quick=$work/tree/build/all-results-quick
expect '^libtm-bench .*--small' "--quick: libtm-bench --small"
expect '^libtm-cm-bench .*--quick' "--quick: libtm-cm-bench --quick"
expect '^quake-bench .*--quick' "--quick: quake-bench --quick (the Atomic Quake study)"
expect '^quake-bench .*--sweep' "--quick: quake-bench --sweep"
expect '^apache-bench .*--quick' "--quick: apache-bench --quick"
expect '^memcache-soak .*--requests' "--quick: memcache-soak --requests (a short soak)"
# Every quick call names its output folder, and that folder is under build/all-results-quick.
while read -r name args; do
    dir=$(echo " $args " | sed -n 's/.* --\(results\|out\) \([^ ]*\) .*/\2/p')
    case $dir in
        "$quick"/*) ;;
        "") fail "--quick: '$name $args' names no output folder (it would write results/)" ;;
        *) fail "--quick: '$name $args' writes outside build/all-results-quick/" ;;
    esac
done <"$work/calls"

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all-results: every benchmark called with known options; --quick writes only under build/"
