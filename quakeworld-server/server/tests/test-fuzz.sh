#!/usr/bin/env bash
# Runs the libFuzzer harness (clang-14 -fsanitize=fuzzer,address) for a short, bounded
# time, seeded with the regression corpus. Any crash or sanitizer report fails the test.
. "$(dirname "$0")/lib.sh"
fuzzer=$1
[ -x "$fuzzer" ] || skip "skipped: the fuzzer was not built (needs clang-14 with libFuzzer)"
mkdir -p "$tmp/new"
"$fuzzer" -max_total_time=8 -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$tmp/" \
    "$tmp/new" "$QW_CORPUS" 2>&1 | tail -n 25
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || fail "the fuzzer found a crash (exit $rc); the input is in $tmp/"
echo "ok"
