#!/usr/bin/env bash
# A synchronisation mode under a sanitizer: qwsv built without -fgnu-tm and with
# -fsanitize=thread (tests.mk: qwsv-tsan; or address,undefined: qwsv-asan, make check-asan)
# runs 3 threads while six clients aim at each other and shoot (damage, deaths, respawns, frag
# broadcasts, rockets once picked up) until four obituaries went round, and one of them chats.
# Any report (a race, a bad memory access, undefined behaviour) fails the test.
# SCHED lpt: the frame's jobs run with -sync none (no lock, no transaction in RP).
# Usage: test-tsan.sh QWSV_TSAN SYNC PORT [SCHED]
. "$(dirname "$0")/lib.sh"
QWSV=$1 sync=$2 port=$3 sched=${4:-static}
tmp=$tmp-$sync-$sched; mkdir -p "$tmp"
[ -x "$QWSV" ] || skip "skipped: $QWSV is not built"
pick_map --size 768 --pillars 0 --crates 2 --spawns 8
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1"
start_server "$port" -threads 3 -sync "$sync" -sched "$sched" -maxclients 8
n=6
for i in $(seq 1 $n); do
    extra=()
    [ "$i" = 1 ] && extra=(-say "hello from bot1")
    client "bot$i" "$port" -shoot -expect-obituaries 4 -timeout 120 "${extra[@]}" \
        >"$tmp/client$i.log" 2>&1 &
    client_pids+=($!)
done
rc=0
for i in $(seq 1 $n); do
    wait "${client_pids[$((i - 1))]}" || { echo "bot$i failed:"; tail -5 "$tmp/client$i.log"; rc=1; }
done
client_pids=()
stop_server
if grep -q "ERROR: AddressSanitizer\|runtime error:" "$tmp/server.log"; then
    grep -B 2 -A 30 "ERROR: AddressSanitizer\|runtime error:" "$tmp/server.log" | head -80
    fail "AddressSanitizer/UBSan reported a problem in -sync $sync -sched $sched"
fi
if grep -q "WARNING: ThreadSanitizer" "$tmp/server.log"; then
    grep -A 30 "WARNING: ThreadSanitizer" "$tmp/server.log" | head -80
    fail "ThreadSanitizer reported $(grep -c 'WARNING: ThreadSanitizer' "$tmp/server.log") problem(s) in -sync $sync -sched $sched"
fi
[ $rc = 0 ] || fail "some clients failed"
frags=$(grep -c "frag: " "$tmp/server.log")
echo "frags logged: $frags"
[ "$frags" -ge 4 ] || fail "only $frags frags: the fight did not happen"
grep -q "chat: bot1: hello from bot1" "$tmp/server.log" || fail "the chat line was not broadcast"
grep "qwsv-stats scope=final thread=all" "$tmp/server.log"
echo "ok: nothing reported in -sync $sync -sched $sched"
