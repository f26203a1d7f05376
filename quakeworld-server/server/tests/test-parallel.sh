#!/usr/bin/env bash
# Several clients at once on a 2-thread server: all complete the sign-on and move, chat
# reaches the others, and the statistics show both threads processing packets.
# Usage: test-parallel.sh SYNC PORT
. "$(dirname "$0")/lib.sh"
sync=$1 port=$2
tmp=$tmp-$sync; mkdir -p "$tmp"
pick_map
start_server "$port" -threads 2 -sync "$sync" -stats 1
n=4
for i in $(seq 1 $n); do
    # a handshake, so nobody leaves before the chat went around (no timing assumptions):
    # bot1 chats until all others answered; each other bot answers once it heard bot1
    if [ "$i" = 1 ]; then
        extra=(-say "hello from bot1" -expect-chat "heard bot1" -expect-chat-count $((n - 1)))
    else
        extra=(-expect-chat "hello from bot1" -reply "heard bot1")
    fi
    client "bot$i" "$port" -shoot -stay 1 -timeout 30 "${extra[@]}" >"$tmp/client$i.log" 2>&1 &
    client_pids+=($!)
done
rc=0
for i in $(seq 1 $n); do
    wait "${client_pids[$((i - 1))]}" || { echo "bot$i failed:"; cat "$tmp/client$i.log"; rc=1; }
done
client_pids=()
[ $rc = 0 ] || fail "some clients failed"
stop_server
for i in $(seq 1 $n); do
    grep -q "bot$i entered the game" "$tmp/server.log" || fail "bot$i never entered the game"
done
final0=$(grep "qwsv-stats scope=final thread=0 " "$tmp/server.log")
final1=$(grep "qwsv-stats scope=final thread=1 " "$tmp/server.log")
total=$(grep "qwsv-stats scope=final thread=all " "$tmp/server.log")
echo "$final0"; echo "$final1"; echo "$total"
[ -n "$total" ] || fail "no final statistics"
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
[ "$(field "$final0" packets)" -gt 0 ] || fail "thread 0 processed no packets"
[ "$(field "$final1" packets)" -gt 0 ] || fail "thread 1 processed no packets"
[ "$(field "$total" cs_move_command)" -gt 0 ] || fail "no move command sections counted"
[ "$(field "$total" sync)" = "$sync" ] || fail "statistics report the wrong sync mode"
grep -q "qwsv-stats scope=interval thread=all" "$tmp/server.log" || fail "no interval statistics"
echo "ok"
