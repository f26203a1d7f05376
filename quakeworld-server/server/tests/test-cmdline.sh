#!/usr/bin/env bash
# The command line and server.cfg as mvdsv users know them: server.cfg from the game
# directory runs first (a bad line is reported with file:line and the fix, the rest still
# runs), then the command line in its order (+set, +exec, +map and the classic -options);
# the cvars reach the serverinfo; a bad +command stops the start; --version; -logfile.
. "$(dirname "$0")/lib.sh"
pick_map
port=27560
cp "$mapfile" "$basedir/id1/maps/second.bsp"
cat >"$basedir/id1/server.cfg" <<'CFG'
// server.cfg of the test
hostname "From server.cfg"
maxclients 6
fraglimt 5
timelimit soon
fraglimit 7
exec extra.cfg
CFG
echo 'serverinfo admin "ops at example.org"' >"$basedir/id1/extra.cfg"
echo 'maxclients 5; timelimit 20' >"$basedir/id1/cmdline.cfg"

"$QWSV" --version >"$tmp/version" || fail "--version exited non-zero"
grep -Eq "^qwsv [0-9]+\.[0-9]+ \(QuakeWorld protocol 28" "$tmp/version" ||
    fail "--version printed: $(cat "$tmp/version")"

start_server $port +set hostname "Command Line Host" +exec cmdline.cfg +map second \
    -logfile "$tmp/qwsv.log"
cfg=$basedir/id1/server.cfg
grep -q "$cfg:4: unknown command or variable \"fraglimt\": did you mean \"fraglimit\"?" \
    "$tmp/server.log" || fail "the misspelt cvar is not reported with file:line and the fix"
grep -q "$cfg:5: timelimit needs a number from 0 to" "$tmp/server.log" ||
    fail "the bad value is not reported with file:line and what is accepted"
oob $port status >"$tmp/status" || fail "no status reply"
cat "$tmp/status"
info=$(head -1 "$tmp/status")
for kv in 'hostname\\Command Line Host' 'maxclients\\5' 'timelimit\\20' 'fraglimit\\7' \
          'admin\\ops at example.org' 'map\\second' '\*gamedir\\qw'; do
    echo "$info" | grep -q "\\\\$kv" || fail "serverinfo lacks $kv (command line after server.cfg)"
done
echo "$info" | grep -q "rcon_password" && fail "rcon_password leaked into the serverinfo"
grep -q "listening on 127.0.0.1:$port, map second" "$tmp/server.log" ||
    fail "+map second did not override -map $map"
stop_server

# -logfile: the same lines, with wall-clock timestamps
head -3 "$tmp/qwsv.log"
grep -q "listening on 127.0.0.1:$port" "$tmp/qwsv.log" || fail "the log file lacks the start"
stamp='^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} [+-][0-9]{4} '
bad=$(grep -Evc "$stamp" "$tmp/qwsv.log")
[ "$bad" = 0 ] || fail "$bad log file lines lack a wall-clock timestamp"
first=$(head -1 "$tmp/qwsv.log" | cut -c1-19)
now=$(date +%s)
then=$(date -d "$first" +%s) || fail "the timestamp '$first' is not a date"
[ $((now - then)) -ge 0 ] && [ $((now - then)) -lt 600 ] ||
    fail "the log's time $first is not the wall-clock time (now $(date '+%F %T'))"

# a rotation whose maps are all missing: each is skipped once per match end, said so, and
# the match restarts on the current map (a loaded machine may end a second 0.3 s match
# before the stop arrives: only the first end is counted)
rm "$basedir/id1/server.cfg"
start_server $port +set sv_maplist "gone1 gone2" +set timelimit 0.005
wait_log "map changed to $map: 0 client"
stop_server
first_end=$(sed -n '/match over/,/map changed to/p' "$tmp/server.log" | sed '/map changed to/q')
[ "$(grep -c "sv_maplist: skipping gone1: cannot open .*gone1.bsp" <<<"$first_end")" = 1 ] ||
    fail "the missing rotation map gone1 is not reported once: $(grep skipping <<<"$first_end")"
grep -q "sv_maplist: skipping gone2" "$tmp/server.log" || fail "gone2 is not reported"

# an error on the command line stops the start, naming the command
"$QWSV" -basedir "$basedir" -ip 127.0.0.1 -port $port +map "$map" +set maxclients lots \
    </dev/null >"$tmp/out" 2>&1 && fail "+set maxclients lots was accepted"
grep -q "maxclients needs a whole number" "$tmp/out" || fail "bad +set error: $(cat "$tmp/out")"
"$QWSV" -basedir "$basedir" -ip 127.0.0.1 -port $port +map nosuchmap </dev/null >"$tmp/out" 2>&1 &&
    fail "+map nosuchmap was accepted"
grep -q "id1/maps/nosuchmap.bsp" "$tmp/out" || fail "+map of a missing map: $(cat "$tmp/out")"
"$QWSV" -basedir "$basedir" -ip 127.0.0.1 -port $port </dev/null >"$tmp/out" 2>&1 &&
    fail "a start without any map was accepted"
grep -q "give -map NAME or +map NAME" "$tmp/out" || fail "no-map error: $(cat "$tmp/out")"
"$QWSV" -basedir "$basedir" -map "$map" -logfile /nonexistent/dir/qwsv.log </dev/null \
    >"$tmp/out" 2>&1 && fail "an unwritable -logfile was accepted"
grep -q "\-logfile /nonexistent/dir/qwsv.log: cannot open" "$tmp/out" ||
    fail "bad -logfile error: $(cat "$tmp/out")"
echo "ok"
