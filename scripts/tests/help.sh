#!/usr/bin/env bash
# Every command-line program of the repository answers --help and -h with its usage (exit 0,
# "usage" on standard output) and rejects an unknown option (a non-zero exit and a message on
# standard error that names the option or says what is wrong with it), without starting any
# work. Each program runs in a sandbox: a temporary tree that mirrors the repository, where
# the folders on the program's path are real and everything else is linked, except build/ and
# results/. So a program that ignores its arguments and starts a benchmark finds nothing built
# and writes no tracked result; whatever it writes lands in the sandbox and fails the test.
#   help.sh PROGRAM...       (paths inside the repository)
set -u
case "${1:-}" in
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") echo "help.sh: name the programs to check (see --help)" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd -P)
unknown=--no-such-option-for-the-help-test
limit=60   # seconds for one call: --help must not start anything long
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# sandbox_for PROGRAM: prints the sandbox's copy of PROGRAM, in a new tree under $work.
sandbox_for() {
    local rel=$1 sandbox=$work/tree dir="" part entry name
    rm -rf "$sandbox"
    mkdir -p "$sandbox"
    # Each folder on the way to the program is real; its entries link to the repository's.
    local parts=() ; IFS=/ read -r -a parts <<<"$(dirname "$rel")"
    while :; do
        for entry in "$top/$dir"* "$top/$dir".[!.]*; do
            [ -e "$entry" ] || [ -L "$entry" ] || continue
            name=$(basename "$entry")
            if [ -z "$dir" ]; then
                case $name in build|results|.git) continue ;; esac
            fi
            ln -s "$entry" "$sandbox/$dir$name"
        done
        [ ${#parts[@]} -gt 0 ] && [ "${parts[0]}" != . ] || break
        part=${parts[0]}; parts=("${parts[@]:1}")
        rm -f "$sandbox/$dir$part"   # build/ and results/ are not linked
        mkdir "$sandbox/$dir$part"
        dir=$dir$part/
    done
    rm -f "$sandbox/$rel"
    cp -p "$top/$rel" "$sandbox/$rel"
    echo "$sandbox/$rel"
}

# run_in_sandbox PROGRAM ARGS...: runs it from the sandbox's top, output in $work/out, $work/err.
run_in_sandbox() {
    local program=$1; shift
    (cd "$work/tree" && timeout -k 5 "$limit" "$program" "$@" </dev/null >"$work/out" 2>"$work/err")
}

# new_files: what the program created in the sandbox (its links aside).
new_files() { (cd "$work/tree" && find . -newer "$work/stamp" ! -type l ! -type d | sed 's|^\./||'); }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for arg in "$@"; do
    path=$(cd "$(dirname "$arg")" && pwd -P)/$(basename "$arg")
    rel=${path#"$top"/}
    if [ "$rel" = "$path" ] || [ ! -f "$path" ] || [ ! -x "$path" ]; then
        fail "$arg is not an executable file inside $top"
        continue
    fi
    program=$(sandbox_for "$rel")
    sleep 0.01; touch "$work/stamp"; sleep 0.01
    for option in --help -h; do
        run_in_sandbox "$program" "$option"
        status=$?
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then
            fail "$rel $option did not return within ${limit}s: it started work instead of printing its usage"
        elif [ $status -ne 0 ]; then
            fail "$rel $option exits with $status, not 0; stderr: $(head -c 300 "$work/err")"
        elif ! grep -qi usage "$work/out"; then
            fail "$rel $option prints no usage on standard output; it printed: $(head -c 300 "$work/out")"
        elif code=$(grep -m 1 -E '^[[:space:]]*(set -[euo]|[A-Za-z_]+=["$(]|(if|for|while|case) .*(; *(then|do)| in)$)' "$work/out"); then
            fail "$rel $option prints lines of its own code as usage: $code"
        else
            echo "ok: $rel $option: $(grep -i -m 1 usage "$work/out")"
        fi
    done
    run_in_sandbox "$program" "$unknown"
    status=$?
    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
        fail "$rel $unknown did not return within ${limit}s: an unknown option must stop it at once"
    elif [ $status -eq 0 ]; then
        fail "$rel accepts the unknown option $unknown (exit 0)"
    elif ! grep -qiE -- "$unknown|unknown|unrecognized" "$work/err"; then
        fail "$rel $unknown exits with $status but does not say on stderr that the option is" \
             "wrong; stderr: $(head -c 300 "$work/err")"
    else
        echo "ok: $rel $unknown: exit $status, $(head -n 1 "$work/err")"
    fi
    created=$(new_files)
    [ -z "$created" ] || fail "$rel wrote files when asked for help or given a wrong option: $(echo $created)"
done
if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "every program answers --help and -h and rejects unknown options"
