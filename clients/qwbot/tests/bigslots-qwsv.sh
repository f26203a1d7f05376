#!/usr/bin/env bash
# More than 32 bots on one qwsv: with -maxclients 40 (-sched lpt -sync none, two threads)
# the bots, which ask for "bigslots", fill slots up to 39 and all play; a QuakeWorld client
# (the server tests' qwclient, which stops at any message about a slot from 32 on, as
# ezQuake does) stays in the game meanwhile and is never told about the big slots.
# Usage: bigslots-qwsv.sh PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
[ -n "${QWCLIENT:-}" ] && [ -x "$QWCLIENT" ] || skip "the server tests' qwclient is not built (make -C quakeworld-server check builds it)"
port=${1:-27642}
start_qwsv "$port" 2 none -maxclients 40 -sched lpt
"$QWCLIENT" -port "$port" -name plain -map "$basedir/id1/maps/$qwsv_map.bsp" \
    -chktbl "${QW_CHKTBL:-}" -stay 600 -timeout 620 >"$work/plain.log" 2>&1 &
plain_pid=$!
for _ in $(seq 100); do
    grep -q "plain entered the game" "$server_log" && break
    kill -0 "$plain_pid" 2>/dev/null || fail "qwclient stopped: $(cat "$work/plain.log")"
    sleep 0.1
done
grep -q "plain entered the game" "$server_log" || fail "qwclient did not enter the game"
run -bots 39 -interactions 300 -seed 3
kill -0 "$plain_pid" 2>/dev/null || { wait "$plain_pid"; fail "qwclient stopped while the bots played: $(cat "$work/plain.log")"; }
kill "$plain_pid"
v() { stats_value "$work/out" "$1"; }
[ "$(v spawned)" = 39 ] || fail "not all 39 bots spawned"
[ "$(v completed)" = 39 ] || fail "not all 39 bots completed"
[ "$(v bad_messages)" = 0 ] || fail "some qwsv messages could not be parsed"
grep -q "connected from .*(slot 39," "$server_log" || fail "no bot got slot 39"
stop_server
grep 'qwsv-stats scope=final thread=all' "$server_log"
echo "39 bots in slots up to 39 and a QuakeWorld client play on one qwsv"
