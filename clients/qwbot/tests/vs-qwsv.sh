#!/usr/bin/env bash
# Scripted and replay bots against our server (build/bin/qwsv, 2 threads, -sync lock) on the
# one-room map from qwmapgen: all spawn, all move, a replay sends the recorded stream
# unchanged, and the server counts the moves the bots sent.
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
port=27620
start_qwsv $port 2 lock
run -bots 8 -interactions 300 -seed 5 -record "$work/a.trace"
[ "$(stats_value "$work/out" spawned)" = 8 ] || fail "not all 8 scripted bots spawned"
[ "$(stats_value "$work/out" completed)" = 8 ] || fail "not all 8 scripted bots completed"
[ "$(stats_value "$work/out" moved)" = 8 ] || fail "not every scripted bot's origin changed"
[ "$(stats_value "$work/out" bad_messages)" = 0 ] || fail "some qwsv messages could not be parsed"
run -replay "$work/a.trace" -record "$work/b.trace"
cmp "$work/a.trace" "$work/b.trace" || fail "the replay sent a different stream"
[ "$(stats_value "$work/out" moved)" = 8 ] || fail "not every replay bot's origin changed"
stop_server
final=$(grep 'qwsv-stats scope=final thread=all' "$server_log" | tail -1)
echo "$final"
commands=$(echo "$final" | tr ' ' '\n' | sed -n 's/^commands=//p')
[ -n "$commands" ] || fail "qwsv printed no final statistics"
# 2 runs x 2400 moves, each carrying up to 3 commands (the server reruns lost ones)
[ "$commands" -ge 4000 ] || fail "qwsv ran only $commands commands for 4800 moves"
echo "scripted and replay bots play on qwsv"
