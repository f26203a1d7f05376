#!/usr/bin/env bash
# readme-claims finds wrong claims and passes right ones: a README written here plants one
# wrong claim of each kind (a file, a make target, a folder of make -C, a command's option, an
# option alone after its command, an option's missing value, a code line's command), each on
# a line of its own (the code line after an empty one), beside the same claims written
# right. The check must exit 1 and name every planted one as README:LINE: `CLAIM`, and none
# of the right ones; the right ones alone must pass.
#   readme-claims.sh          (from anywhere; -h, --help: this text)
set -u
case "${1:-}" in
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "readme-claims.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The right claims: the same kinds, as the tree has them (programs of scripts/ and libtm's
# tools, which need no build).
right='# right claims
- `scripts/deps.sh`, `libtm/src/algo_orec.c/.h`, `results/libtm-bench{,-nohtm}.csv`
- `make check`, `make -C libtm stress`
- `scripts/quake-bench --sched` (`--quick`: a minute)
- `libtm/tools/libtm-stats --list algorithms`

    scripts/all-results --quick'
printf '%s\n' "$right" >"$work/README.md"
if ! "$top/scripts/readme-claims" "$work/README.md" >"$work/out" 2>"$work/err"; then
    fail "right claims rejected:"; cat "$work/err"
fi

# line: claim written wrong
planted=(
    '3: `scripts/no-such-script`'
    '4: `libtm/src/algo_orec.c/.x`'
    '5: `results/libtm-bench{,-typo}.csv`'
    '6: `make no-such-target`'
    '7: `make -C libtm stres`'
    '8: `make -C no-such-folder check`'
    '9: `scripts/quake-bench --sched --no-such-option`'
    '10: `--quikc`'
    '11: `libtm/tools/libtm-stats --list`'
    '13: `scripts/all-results --fast`'
)
{
    printf '%s\n' "$right" | head -1
    echo
    for p in "${planted[@]}"; do
        claim=${p#*: }
        case $claim in
            '`--quikc`') echo "- \`scripts/quake-bench --sched\` (\`--quikc\`: a typo)" ;;
            '`scripts/all-results --fast`') printf '\n    scripts/all-results --fast\n' ;;
            *) echo "- $claim" ;;
        esac
    done
    printf '%s\n' "$right" | tail -n +2
} >"$work/README.md"
"$top/scripts/readme-claims" "$work/README.md" >"$work/out" 2>"$work/err"
status=$?
[ $status -eq 1 ] || fail "exit $status with wrong claims, not 1"
for p in "${planted[@]}"; do
    grep -qF "README.md:$p" "$work/err" || fail "not named: README.md:$p"
done
wrong=$(grep -c '^/.*README.md:[0-9]*: `' "$work/err")
[ "$wrong" -eq ${#planted[@]} ] || fail "$wrong claims named wrong, ${#planted[@]} planted"
grep -q "${#planted[@]} of .* claims in 1 README(s) are wrong" "$work/err" || fail "no summary line"

if [ $failures -gt 0 ]; then
    echo "--- readme-claims said:"; cat "$work/err"
    exit 1
fi
echo "readme-claims: ${#planted[@]} planted wrong claims named, the right ones pass"
