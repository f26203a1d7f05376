#!/usr/bin/env bash
# intset --size-counter on GCC's libitm: flat and closed run and verify (the count equals the
# set's size); open, which needs libtm's libtm_open, is refused with exit 2 and a message that
# says so.   tests/size-counter-libitm.sh INTSET_TM GCC_LIBITM_DIR
set -u
program=${1:?usage: size-counter-libitm.sh INTSET_TM GCC_LIBITM_DIR}
libitm_dir=${2:?usage: size-counter-libitm.sh INTSET_TM GCC_LIBITM_DIR}
[ -e "$libitm_dir/libitm.so.1" ] || { echo "SKIP: GCC's libitm is not in $libitm_dir"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for mode in flat closed; do
  out=$(LD_LIBRARY_PATH=$libitm_dir "$program" --structure hashset --update 50 --threads 4 \
        --duration 0.2 --size-counter "$mode" 2>&1) || fail "--size-counter $mode on GCC's libitm: $out"
  grep -q "size_counter=$mode" <<<"$out" || fail "no size_counter=$mode in: $out"
  echo "ok: --size-counter $mode runs and verifies on GCC's libitm"
done
err=$(LD_LIBRARY_PATH=$libitm_dir "$program" --structure hashset --size-counter open --duration 0.1 2>&1 >/dev/null)
status=$?
[ $status -eq 2 ] || fail "--size-counter open on GCC's libitm exited $status, expected 2: $err"
grep -q "needs libtm's libtm_open" <<<"$err" || fail "unclear refusal: $err"
echo "ok: --size-counter open is refused on GCC's libitm: $err"
