#!/usr/bin/env bash
# Every benchmark program answers --help and rejects bad input with exit 2 and a message that
# names the offending option.   tests/usage.sh BIN_DIR
set -u
bin=$1
failures=0

expect_usage_error() {  # PROGRAM WORD-EXPECTED-IN-MESSAGE ARGS...
  local program=$1 word=$2; shift 2
  local err rc
  err=$("$bin/$program" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q -- "$word" <<<"$err"; then
    echo "FAIL: $program $* exited $rc with '$err' (wanted exit 2 and a message naming $word)"
    failures=$((failures + 1))
  else
    echo "ok: $program $* -> $err"
  fi
}

for program in intset-tm intset-mutex intset-seq bank-tm bank-mutex bank-seq travel-tm travel-mutex travel-seq \
               genome-tm genome-mutex genome-seq graph-tm graph-mutex graph-seq; do
  for option in --help -h; do
    if ! "$bin/$program" $option | grep -q '^Usage:'; then
      echo "FAIL: $program $option does not print a usage text"; failures=$((failures + 1))
    fi
  done
  expect_usage_error "$program" --threads --threads 0
  expect_usage_error "$program" --duration --duration -1
  expect_usage_error "$program" --duration --duration abc
  expect_usage_error "$program" --seed --seed 12x
  expect_usage_error "$program" --bogus --bogus
  expect_usage_error "$program" stray stray
done
for program in intset-tm intset-mutex intset-seq; do
  expect_usage_error "$program" --structure --structure tree
  expect_usage_error "$program" --update --update 101
  expect_usage_error "$program" --size --size 0
  expect_usage_error "$program" --size-counter --size-counter nested
done
expect_usage_error bank-tm --accounts --accounts 1
for option in --help -h; do
  if ! "$bin/begin-commit" $option | grep -q '^Usage:'; then
    echo "FAIL: begin-commit $option does not print a usage text"; failures=$((failures + 1))
  fi
done
expect_usage_error begin-commit --sync --sync lock
expect_usage_error begin-commit --sync --threads 2
expect_usage_error begin-commit --threads --sync tm --threads 0
expect_usage_error begin-commit --ops --sync tm --ops 1x
expect_usage_error begin-commit --bogus --bogus
expect_usage_error begin-commit stray --sync tm stray
for program in travel-tm travel-mutex travel-seq; do
  expect_usage_error "$program" --relations --relations 8
  expect_usage_error "$program" --queries-per-tx --queries-per-tx 0
  expect_usage_error "$program" --queries-per-tx --queries 101
  expect_usage_error "$program" --query-range --query-range 0
  expect_usage_error "$program" --user --user 101
  expect_usage_error "$program" --transactions --transactions 0
  expect_usage_error "$program" --transactions --duration 1 --transactions 100
done
for program in genome-tm genome-mutex genome-seq; do
  expect_usage_error "$program" --gene-length --gene-length 255
  expect_usage_error "$program" --segment-length --segment-length 7
  expect_usage_error "$program" --segment-length --segment-length 20   # too short for 65536 bases
  expect_usage_error "$program" --segment-length --gene-length 256 --segment-length 200
  expect_usage_error "$program" --segments --segments 0
  expect_usage_error "$program" --segments --segments 268435456 --segment-length 1024
done
for program in graph-tm graph-mutex graph-seq; do
  expect_usage_error "$program" --scale --scale 7
  expect_usage_error "$program" --scale --scale 27
  expect_usage_error "$program" --edge-factor --edge-factor 0
done
expect_usage_error intset-seq "--threads 1" --threads 2
expect_usage_error bank-seq "--threads 1" --threads 2
expect_usage_error travel-seq "--threads 1" --threads 2
expect_usage_error genome-seq "--threads 1" --threads 2
expect_usage_error graph-seq "--threads 1" --threads 2

[ "$failures" -eq 0 ] && echo "usage: all checks passed"
exit $((failures > 0))
