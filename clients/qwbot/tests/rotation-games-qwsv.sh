#!/usr/bin/env bash
# Matches in a row on qwsv, with four fighting bots that follow every map change and play
# (frags) on each map. GAME qc: id's QuakeWorld game (qwprogs.dat from ../shared), whose own
# rules end each match (timelimit, fraglimit), show the intermission for 5 s and change the
# map by its serverinfo rotation (`serverinfo oneroom small`, as QuakeWorld admins write it)
# or stay with `samelevel 1`. GAME c: the C deathmatch, its limits and `sv_maplist` (an empty
# list: the same map again). Each part waits for three changes and checks that each came
# after a whole match (and intermission) -- every map starts its clock and its game afresh,
# so the last map's end does not end the next one at once -- and that every bot entered and
# fragged on every map. Last, an rcon `map` during an intermission (in the C game, during a
# match): the new map runs a whole match of its own.
# Usage: rotation-games-qwsv.sh GAME PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
game=${1:-qc}
port=${2:-27643}
progs=$QW_SHARED/quake/qw/qwprogs.dat
if [ "$game" = qc ]; then
    [ -f "$progs" ] || skip "no $progs (id's game, ../shared/quake/README.md)"
    game_args=(-progs "$progs" +serverinfo oneroom small +serverinfo small oneroom)
    rotation=()
    frag_line="fraglog:"
    pause=5 # the intermission: QuakeC waits 5 s, then for a button
    same_args=(+set samelevel 1)
else
    game_args=(-progs none)
    rotation=(+set sv_maplist "oneroom small")
    frag_line="frag:"
    pause=0
    same_args=() # an empty sv_maplist
fi
[ -x "$QW_BIN/qwmapgen" ] || skip "build/bin/qwmapgen is not built yet"
mkdir -p "$work/qwsv/id1/maps"
"$QW_BIN/qwmapgen" -o "$work/qwsv/id1/maps/small.bsp" --size 1024 --spawns 16 --launchers 4 \
    >"$work/qwmapgen-small.log" 2>&1 || fail "qwmapgen failed: $(cat "$work/qwmapgen-small.log")"
bots=4
bot_pid=
stop_bots() {
    [ -n "$bot_pid" ] && kill "$bot_pid" 2>/dev/null && wait "$bot_pid" 2>/dev/null
    bot_pid=
}
trap 'stop_bots; cleanup' EXIT

# start QWSV-ARGS...: qwsv on the game, and four fighting bots that stay (in the background,
# stderr in $work/err)
start() {
    start_qwsv "$port" 2 stm "${game_args[@]}" +set rcon_password s3cret +set sv_crypt_rcon 0 "$@"
    "$QWBOT" -server 127.0.0.1:$port -basedir "$basedir" -map "$qwsv_map" -noprogress -v \
        -bots $bots -fight -seed 3 -interactions 1000000 -duration 600 -timeout 60 \
        >"$work/out" 2>"$work/err" &
    bot_pid=$!
}
changes() { grep -c "map changed to" "$server_log"; }
# entered_after N: bots that entered the game after the Nth map change
entered_after() {
    awk -v n="$1" '/map changed to/ { c++ } c == n && / entered the game$/ && !/qc:/ { print $(NF-3) }' \
        "$server_log" | sort -u | wc -l
}
# wait_changes N: until the log shows N map changes and every bot entered the last map
wait_changes() {
    for _ in $(seq 1 1500); do
        [ "$(changes)" -ge "$1" ] && [ "$(entered_after "$1")" -ge $bots ] && return 0
        kill -0 "$server_pid" 2>/dev/null || fail "qwsv died: $(tail -5 "$server_log")"
        kill -0 "$bot_pid" 2>/dev/null || fail "qwbot stopped: $(tail -5 "$work/err")"
        sleep 0.2
    done
    fail "only $(changes) map changes, $(entered_after "$1") bots on the last map"
}
mapnames() { grep "map changed to" "$server_log" | head -"$1" | sed 's/.*map changed to \([^:]*\):.*/\1/' | xargs; }
# check_part NAME MAPS MIN_SECONDS: the first three changes went to MAPS, each at least
# MIN_SECONDS after the last (a match and its intermission) on the server's clock, every bot
# entered every map and there was a frag on each
check_part() {
    local name=$1 maps=$2 min=$3
    [ "$(mapnames 3)" = "$maps" ] || fail "$name: the maps were '$(mapnames 3)', not '$maps'"
    awk -v min="$min" -v name="$name" '
        { t = substr($0, 2, index($0, "]") - 2) + 0 }
        /map changed to/ || /qwsv listening/ {
            if (n++ && n <= 4 && t - last < min) {
                printf "%s: a map change %.1f s after the last (a match and its intermission take %d)\n", name, t - last, min
                bad = 1
            }
            last = t
        }
        END { exit bad }' "$server_log" || fail "$name: a change came too early"
    for n in 1 2 3; do
        [ "$(entered_after $n)" -ge $bots ] || fail "$name: $(entered_after $n) of $bots bots entered map $n"
    done
    for n in 0 1 2; do
        frags=$(awk -v n=$n -v f="$frag_line" '/map changed to/ { c++ } c == n && index($0, f)' "$server_log" | wc -l)
        [ "$frags" -gt 0 ] || fail "$name: no frag before change $((n + 1))"
    done
    grep "qwsv-stats scope=final thread=all" "$server_log" | grep -q "qc_errors=0" ||
        fail "$name: QuakeC errors: $(grep 'QuakeC error' "$server_log" | head -3)"
    echo "$game $name: three matches, the maps $maps, every bot on each, frags on each"
}

# timelimit 0.1 min: id's game ends the match when the map's clock (from 1 s) reaches 6 s,
# and the intermission 5 s later when a bot presses fire; the C game after 6 s on the map
start "${rotation[@]}" +set timelimit 0.1
wait_changes 3
stop_bots; stop_server
check_part timelimit "small oneroom small" $((pause ? 10 : 6))

# fraglimit 1: the first frag ends the match
start "${rotation[@]}" +set fraglimit 1
wait_changes 3
stop_bots; stop_server
check_part fraglimit "small oneroom small" $pause

# the same map again each time
start "${same_args[@]}" +set fraglimit 1
wait_changes 3
stop_bots; stop_server
check_part samelevel "oneroom oneroom oneroom" $pause

# rcon map in the intermission (id's game: timelimit 0.05, the match ends 2 s into the map)
# or in the match (the C game: timelimit 0.05 is 3 s); the new map runs a whole match of its
# own (and intermission) before the game changes again
start "${rotation[@]}" +set timelimit 0.05
if [ "$game" = qc ]; then
    for _ in $(seq 1 600); do grep -q ": intermission$" "$work/err" && break; sleep 0.1; done
    grep -q ": intermission$" "$work/err" || fail "the bots never saw the intermission"
else
    for _ in $(seq 1 600); do [ "$(entered_after 0)" -ge $bots ] && break; sleep 0.1; done
fi
oob_reply=$(python3 "$top/quakeworld-server/server/tests/oob.py" $port "rcon s3cret map small")
echo "$oob_reply" | grep -q "changing to map small" || fail "rcon map: $oob_reply"
wait_changes 2
stop_bots; stop_server
[ "$(mapnames 2)" = "small oneroom" ] || fail "rcon: the maps were '$(mapnames 2)', not 'small oneroom'"
grep -q "rcon from 127.0.0.1:[0-9]*: map small" "$server_log" || fail "the rcon was not logged"
awk -v min=$((pause ? 7 : 3)) '/map changed to/ { t = substr($0, 2, index($0, "]") - 2) + 0; if (n++) d = t - last; last = t }
     END { exit !(d >= min) }' "$server_log" ||
    fail "rcon: the next change came before a whole match on small"
[ "$(entered_after 1)" -ge $bots ] || fail "rcon: not every bot entered small"
echo "$game: rcon map during the $([ "$game" = qc ] && echo intermission || echo match): every bot on small, a whole match there"
echo "the bots followed every map change of the $game game on qwsv"
