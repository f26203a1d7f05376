#!/usr/bin/env bash
# qwsv -replay: eight virtual clients replay qwbot's shipped fight trace inside the server
# (net/replay.h) on the map it was recorded on, with 2 threads and transactions, while a
# network client joins and plays beside them: they sign on, fight (kills), every reply they
# get is counted, none is dropped, and the network client sees them on its scoreboard. The
# same at the trace's pace (never more moves than the trace's schedule allows), with
# -waitall and with -sched lpt; and a missing or broken trace, or too many clients for
# maxclients, stop the start with a message naming the cause. Usage: test-replay.sh PORT
. "$(dirname "$0")/lib.sh"
port=${1:-27541}
traces=$(cd "$(dirname "$0")/../../../clients/qwbot/traces" && pwd)
trace=$traces/fight-8x2000.trace
[ -f "$trace" ] || fail "the shipped trace $trace is missing"
# the one-room map the fight was recorded on (clients/qwbot/README.md)
pick_map --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1

# stat KEY LINE: a value of a qwsv-stats line
stat() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

start_server "$port" -threads 2 -sync stm -replay "$trace" -stats 1
wait_log "-replay .*: 8 virtual clients \(streams of 8 bots, closed loop\)"
wait_log "replay8 entered the game"
board_join watcher
board_sees watcher " name replay1 "
board_sees watcher " name replay8 "
wait_log "qwsv-stats scope=interval thread=all .* kills=[1-9]"
board_leave watcher
stop_server
final=$(grep "qwsv-stats scope=final thread=all" "$tmp/server.log")
[ -n "$final" ] || fail "no final statistics"
echo "$final" | tr ' ' '\n' | grep -E "^(commands|packets|replayed_replies|kills|deaths|bad_packets)="
[ "$(stat bad_packets "$final")" = 0 ] || fail "virtual clients' packets were rejected"
[ "$(stat commands "$final")" -gt 1000 ] || fail "few commands ran: $final"
# every packet gets a reply: the virtual clients' are counted, the watcher's sent
[ "$(stat replayed_replies "$final")" -gt "$(( $(stat commands "$final") * 9 / 10 ))" ] ||
    fail "fewer replies counted than commands ran: $final"
grep -E "replay[0-9]+ dropped: " "$tmp/server.log" | grep -v "server shutting down" &&
    fail "a virtual client was dropped"

# at the trace's pace: the schedule (one move per 13 ms and client) bounds the moves
start_server "$port" -threads 2 -sync lock -replay "$trace" -replayspeed 1 -quitafter 2
wait "$server_pid"; server_pid=
final=$(grep "qwsv-stats scope=final thread=all" "$tmp/server.log")
secs=$(stat seconds "$final")
most=$(awk -v s="$secs" 'BEGIN { printf "%d", 8 * (s * 1000 / 13 + 2) }')
[ "$(stat commands "$final")" -gt 0 ] || fail "no commands at the trace's pace"
[ "$(stat commands "$final")" -le "$most" ] ||
    fail "$(stat commands "$final") moves in $secs s: more than the trace's pace allows ($most)"

# -waitall (every client has a packet before RP) and -sched lpt (jobs; string commands and
# respawns wait for the serial phase) keep the virtual clients going
for mode in "-waitall -sync lock" "-sched lpt -sync none"; do
    # shellcheck disable=SC2086
    start_server "$port" -threads 2 $mode -replay "$trace" -quitafter 2
    wait "$server_pid"; server_pid=
    final=$(grep "qwsv-stats scope=final thread=all" "$tmp/server.log")
    [ "$(stat commands "$final")" -gt 1000 ] || fail "$mode: few commands: $final"
done

# what stops the start, and how it says so
refuse() {
    local expect=$1; shift
    QW_CHKTBL=$chktbl "$QWSV" -ip 127.0.0.1 -port "$port" -basedir "$basedir" -map "$map" "$@" \
        </dev/null >"$tmp/refused.log" 2>&1 && fail "qwsv started with $*"
    grep -q -- "$expect" "$tmp/refused.log" || fail "no '$expect' in: $(cat "$tmp/refused.log")"
}
refuse "/nonexistent.trace" -replay /nonexistent.trace
head -c 100 "$trace" >"$tmp/cut.trace"
refuse "$tmp/cut.trace" -replay "$tmp/cut.trace"
refuse "maxclients is 4" -replay "$trace" -maxclients 4
echo "ok"
