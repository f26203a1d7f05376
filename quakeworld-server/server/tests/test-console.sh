#!/usr/bin/env bash
# The console on stdin, through a pipe: say reaches a player, status lists the players,
# kick drops one, map changes the map; the end of input leaves the server running; quit
# stops it (exit 0, final statistics), and a piped quit is not followed by "keeps running".
. "$(dirname "$0")/lib.sh"
pick_map
port=27562
cp "$mapfile" "$basedir/id1/maps/second.bsp"
mkfifo "$tmp/console"
exec 3<>"$tmp/console"  # the test's writer end (read-write: opening does not block)
server_stdin=$tmp/console start_server $port
console() { echo "$*" >&3; }
wait_log "console on stdin"

client alice $port -expect-chat "console: hello everybody" -timeout 60 >"$tmp/alice.log" 2>&1 3>&- &
alice=$!
client_pids+=($alice)
wait_log "alice entered the game"
console say hello everybody
wait "$alice" || fail "alice did not hear the console: $(cat "$tmp/alice.log")"
grep -q "chat: console: hello everybody" "$tmp/server.log" || fail "the chat is not logged"

client bob $port -stay 60 -timeout 90 >"$tmp/bob.log" 2>&1 3>&- &
bob=$!
client_pids+=($bob)
wait_log "bob entered the game"
console status
wait_log "^\[ *[0-9.]+\] +[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+:[0-9]{2} bob +127\.0\.0\.1:[0-9]+$"
grep -q "players  : 1 of 16" "$tmp/server.log" || fail "status does not count bob"
console kick bob being tested
wait_log "bob dropped: kicked by console: being"
wait "$bob" && fail "bob's client did not notice the kick"
grep -q "server disconnected us" "$tmp/bob.log" || fail "bob was not disconnected: $(cat "$tmp/bob.log")"

console map nosuchmap
wait_log "map nosuchmap: .*id1/maps/nosuchmap.bsp"
console map second
wait_log "map changed to second"
oob $port status | grep -q '\\map\\second\\' || fail "status does not show the new map"

exec 3>&-  # end of input
wait_log "console: end of input on stdin; the server keeps running"
kill -0 "$server_pid" || fail "the server stopped at the end of its input"
oob $port status >/dev/null || fail "the server does not answer after the end of its input"
stop_server

# quit while the console's input stays open (as a terminal does): the server stops by itself
mkfifo "$tmp/console2"
exec 4<>"$tmp/console2"
QW_CHKTBL=$chktbl "$QWSV" -ip 127.0.0.1 -port $port -basedir "$basedir" -map "$map" \
    <"$tmp/console2" >"$tmp/quit.log" 2>&1 3>&- 4>&- &
server_pid=$!
printf 'status\nquit\n' >&4
wait "$server_pid"
rc=$?
server_pid=
exec 4>&-
[ $rc = 0 ] || fail "qwsv exited with $rc after quit: $(tail -5 "$tmp/quit.log")"
grep -q "quit requested by console" "$tmp/quit.log" || fail "quit is not logged"
grep -q "qwsv-stats scope=final" "$tmp/quit.log" || fail "no final statistics after quit"

# quit from a script's pipe, whose end follows at once: the log does not claim that the
# server keeps running
printf 'status\nquit\n' | QW_CHKTBL=$chktbl "$QWSV" -ip 127.0.0.1 -port $port -basedir "$basedir" \
    -map "$map" >"$tmp/piped-quit.log" 2>&1 3>&- 4>&-
rc=$?
[ $rc = 0 ] || fail "qwsv exited with $rc after a piped quit: $(tail -5 "$tmp/piped-quit.log")"
! grep -q "keeps running" "$tmp/piped-quit.log" ||
    fail "after quit the log says the server keeps running: $(grep 'keeps running' "$tmp/piped-quit.log")"
echo "ok"
