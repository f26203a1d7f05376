#!/usr/bin/env bash
# Several clients at once on a 2-thread server: all complete the sign-on and move, chat
# reaches the others, and the statistics show both threads processing packets -- or with
# SCHED lpt (jobs: which thread gets whom depends on where the players stand) the frames'
# jobs, the sign-on's string commands deferred to the serial phase, and -framecsv's rows.
# Usage: test-parallel.sh SYNC PORT [SCHED]
. "$(dirname "$0")/lib.sh"
sync=$1 port=$2 sched=${3:-static}
tmp=$tmp-$sync-$sched; mkdir -p "$tmp"
pick_map
# -sched static with -nosteal: each thread serves the clients it was given (round-robin), so
# both must process packets; without it a thread done early takes over the other's
steal=(); [ "$sched" = static ] && steal=(-nosteal)
start_server "$port" -threads 2 -sync "$sync" -sched "$sched" -stats 1 -framecsv "$tmp/frames.csv" \
    "${steal[@]}"
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
[ "$(field "$total" cs_move_command)" -gt 0 ] || fail "no move command sections counted"
[ "$(field "$total" sync)" = "$sync" ] || fail "statistics report the wrong sync mode"
[ "$(field "$total" sched)" = "$sched" ] || fail "statistics report the wrong sched mode"
[ "$(field "$total" busy_frames)" -gt 0 ] || fail "no frame with a packet counted"
head -1 "$tmp/frames.csv" | grep -q "^frame,time_s,sched,sync,threads,jobs," || fail "no -framecsv header"
[ "$(wc -l <"$tmp/frames.csv")" -gt 1 ] || fail "no -framecsv row"
if [ "$sched" = lpt ]; then
    awk -F, 'NR > 1 && (($7 > 0 && $6 < 1) || $7 < $6) { bad = 1 } END { exit bad }' "$tmp/frames.csv" ||
        fail "a frame with clients but no job, or a job without a client"
    awk -F, 'NR > 1 && $6 >= 1 { jobs = 1 } END { exit !jobs }' "$tmp/frames.csv" ||
        fail "no frame had a job"
    [ "$(field "$total" deferred_clients)" -gt 0 ] || fail "the sign-on was not deferred to the serial phase"
else
    [ "$(field "$final0" packets)" -gt 0 ] || fail "thread 0 processed no packets"
    [ "$(field "$final1" packets)" -gt 0 ] || fail "thread 1 processed no packets"
fi
grep -q "qwsv-stats scope=interval thread=all" "$tmp/server.log" || fail "no interval statistics"
echo "ok"
