#!/usr/bin/env bash
# Map rotation on qwsv with bots in the game: when a match ends (fraglimit, then timelimit)
# the server loads the next map of sv_maplist and sends the clients "changing" +
# "reconnect"; every bot signs on to the new map (its checksum read from -basedir, as a
# real client loads the map) and plays on until its moves are done.
# Usage: rotation-qwsv.sh PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
port=${1:-27640}
[ -x "$QW_BIN/qwmapgen" ] || skip "build/bin/qwmapgen is not built yet"
mkdir -p "$work/qwsv/id1/maps"
"$QW_BIN/qwmapgen" -o "$work/qwsv/id1/maps/small.bsp" --size 1024 --spawns 16 \
    >"$work/qwmapgen-small.log" 2>&1 || fail "qwmapgen failed: $(cat "$work/qwmapgen-small.log")"
v() { stats_value "$work/out" "$1"; }
# bots that entered the game again after the server's first change to MAP
followed() {
    sed -n "/map changed to $1:/,\$p" "$server_log" | grep -o "[^ ]* entered the game" |
        sort -u | wc -l
}

# fraglimit: six fighting bots (-sync stm, two threads), the first frag ends the match
start_qwsv "$port" 2 stm +set sv_maplist "oneroom small" +set fraglimit 1
run -bots 6 -interactions 3000 -fight -seed 7 -closedloop -v
[ "$(v completed)" = 6 ] || fail "not all 6 bots completed across the map changes"
stop_server
grep -q "match over on oneroom: fraglimit 1 reached by qwbot" "$server_log" ||
    fail "the fraglimit did not end the match: $(grep -v qwsv-stats "$server_log" | tail -5)"
grep -q "map changed to small: 6 client(s) sent to it" "$server_log" ||
    fail "the next map of sv_maplist was not loaded with the 6 bots"
[ "$(followed small)" = 6 ] || fail "$(followed small) of 6 bots signed on to small"
grep -q "qwbot[0-9]*: the server runs map small now" "$work/err" ||
    fail "qwbot did not say that it follows the map change"

# timelimit: 0.02 minutes (1.2 s) on oneroom; four scripted bots at the real pace need 5 s
start_qwsv "$port" 1 lock +set sv_maplist "small" +set timelimit 0.02
run -bots 4 -interactions 400 -v
[ "$(v completed)" = 4 ] || fail "not all 4 bots completed across the map change"
stop_server
grep -q "match over on oneroom: timelimit 0.02 min reached" "$server_log" ||
    fail "the timelimit did not end the match"
grep -q "map changed to small: 4 client(s) sent to it" "$server_log" ||
    fail "the rotation did not go to small with the 4 bots"
[ "$(followed small)" = 4 ] || fail "$(followed small) of 4 bots signed on to small"
echo "the bots followed the map rotation on qwsv"
