#!/usr/bin/env bash
# The man pages libtm(7) and libtm-stats(1) (libtm/man/):
#   - they render without a warning: groff -man -ww, man -l at several widths, mandoc -T lint
#     (when mandoc is installed: scripts/deps.sh installs it), and lexgrog reads their NAME
#     line (what mandb and apropos index);
#   - they say what the code does: every LIBTM_* variable the runtime reads, every algorithm of
#     src/algorithms.def, every contention manager of src/managers.def (both as
#     `tools/libtm-stats --list` prints them), every function of
#     include/libtm.h and every abort reason of the statistics is described in libtm(7), and
#     nothing else is listed as one; every option of `libtm-stats --help` is in libtm-stats(1);
#     both name the version of include/libtm.h.
#   man.sh LIBTM_SOURCE_DIR
set -u
libtm_src=${1:?usage: man.sh LIBTM_SOURCE_DIR}
man_dir=$libtm_src/man
pages=("$man_dir/libtm.7" "$man_dir/libtm-stats.1")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
for tool in groff man lexgrog; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/deps.sh)"; exit 77; }
done
for page in "${pages[@]}"; do
    [ -f "$page" ] || { echo "FAIL: $page is missing"; exit 1; }
done

# ---- rendering ---------------------------------------------------------------------------
work_err=$(mktemp)
trap 'rm -f "$work_err"' EXIT
for page in "${pages[@]}"; do
    name=$(basename "$page")
    warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$warnings" ] && ok "$name: groff -man -ww: no warning" ||
        fail "$name: groff -man -Tutf8 -ww warns:"$'\n'"$warnings"
    for width in 60 80 132; do
        rendered=$(LC_ALL=C.UTF-8 MANWIDTH=$width man -l "$page" 2>"$work_err")
        err=$(cat "$work_err")
        [ -z "$err" ] || fail "$name: man -l at $width columns warns: $err"
        for heading in NAME SYNOPSIS DESCRIPTION "SEE ALSO"; do
            grep -q "^$heading\$" <<<"$rendered" || fail "$name: man -l at $width columns shows no $heading section"
        done
    done
    if command -v mandoc >/dev/null; then
        lint=$(mandoc -T lint "$page" 2>&1)
        [ -z "$lint" ] && ok "$name: mandoc -T lint: clean" || fail "$name: mandoc -T lint:"$'\n'"$lint"
    else
        echo "note: mandoc is not installed (scripts/deps.sh installs it): mandoc -T lint not run"
    fi
    whatis=$(lexgrog "$page" 2>&1)
    case $whatis in
        *": \"${name%.*} - "*) ok "$name: lexgrog reads $whatis" ;;
        *) fail "$name: lexgrog cannot read the NAME line: $whatis" ;;
    esac
done

# ---- what the pages say against the source -----------------------------------------------
version=$(sed -n 's/^#define LIBTM_VERSION "\(.*\)"/\1/p' "$libtm_src/include/libtm.h")
for page in "${pages[@]}"; do
    grep -q "^\.TH .* \"libtm $version\"" "$page" ||
        fail "$(basename "$page"): its .TH line does not name libtm $version (include/libtm.h)"
done
page7=$man_dir/libtm.7
text7=$(LC_ALL=C.UTF-8 MANWIDTH=1000 man -l "$page7" 2>/dev/null)
# section_tags TITLE: the tags of the .TP entries in libtm(7)'s section or subsection TITLE.
section_tags() {
    awk -v title="$1" '
        /^\.S[HS] / { inside = (substr($0, 5) == title); next }
        inside && /^\.TP/ { tag = 1; next }
        inside && tag { tag = 0; print }
    ' "$page7" | sed -E 's/^\.B[IR]? //; s/[ =].*//; s/\\//g'
}
# compare WHAT DOCUMENTED ACTUAL: the two lists must hold the same names.
compare() {
    local what=$1 documented actual
    documented=$(tr ' ' '\n' <<<"$2" | sed '/^$/d' | sort -u)
    actual=$(tr ' ' '\n' <<<"$3" | sed '/^$/d' | sort -u)
    if [ -z "$actual" ]; then
        fail "cannot read the $what from the source"
    elif [ "$documented" = "$actual" ]; then
        ok "libtm(7) describes exactly the $what: $(echo $actual)"
    else
        fail "libtm(7) and the source disagree on the $what (< man page, > source):"
        diff <(echo "$documented") <(echo "$actual") | grep '^[<>]' | sed 's/^/    /'
    fi
}

variables=$(grep -oh 'getenv("LIBTM_[A-Z_]*")' "$libtm_src"/src/*.c | sed 's/getenv("\(.*\)")/\1/')
compare "environment variables" "$(section_tags ENVIRONMENT)" "$variables"

algorithms=$("$libtm_src/tools/libtm-stats" --list algorithms)
compare "algorithms" "$(section_tags Algorithms)" "$algorithms"
algo_line=$(grep -o 'LIBTM_ALGO={[a-z0-9_|]*}' <<<"$text7" | head -n 1)
compare "LIBTM_ALGO values" "$(sed 's/.*{\(.*\)}/\1/' <<<"$algo_line" | tr '|' ' ')" "$algorithms"

managers=$("$libtm_src/tools/libtm-stats" --list managers)
compare "contention managers" "$(section_tags 'Contention managers')" "$managers"
cm_paragraph=$(awk '/^\.BI LIBTM_CM=/ { on = 1; next } on && /^\.TP/ { exit } on' "$page7" |
               grep -o '[a-z]\+' | sort -u)
for cm in $managers; do
    grep -qx "$cm" <<<"$cm_paragraph" || fail "libtm(7)'s LIBTM_CM entry does not list $cm"
done

for function in $(grep -o '\blibtm_[a-z_]*(' "$libtm_src/include/libtm.h" | tr -d '(' | sort -u); do
    grep -q "$function" "$page7" || fail "libtm(7) does not mention $function() of libtm.h"
done
reasons=$(sed -n '/tm_abort_reason_names\[.*\] = {/,/};/p' "$libtm_src/src/stats.c" |
          grep -o '"[a-z_]*"' | tr -d '"')
[ -n "$reasons" ] || fail "cannot read the abort reasons from src/stats.c"
for reason in $reasons; do
    for page in "${pages[@]}"; do
        grep -qw -- "$reason" "$page" || fail "$(basename "$page") does not name the abort reason $reason"
    done
done

# ---- libtm-stats(1) against libtm-stats --help -------------------------------------------
options=$("$libtm_src/tools/libtm-stats" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$options" ] || fail "libtm-stats --help lists no option"
for option in $options; do
    grep -q "^\.B[R]* .*${option//-/\\\\-}" "$man_dir/libtm-stats.1" ||
        fail "libtm-stats(1) does not describe $option"
done

if [ "$failures" -ne 0 ]; then
    echo "$failures man page check(s) failed"
    exit 1
fi
echo "the man pages render cleanly and match the source"
