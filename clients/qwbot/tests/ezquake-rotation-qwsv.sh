#!/usr/bin/env bash
# The real client, ezQuake (under Xvfb), through three matches of a map rotation on qwsv,
# beside two fighting qwbots. GAME qc: id's QuakeWorld game (qwprogs.dat from ../shared),
# whose rules end each match (timelimit 0.1), show the intermission and change the map by its
# serverinfo rotation; GAME c: the C deathmatch and its sv_maplist. ezQuake holds and lets go
# of fire in a loop (an alias in its autoexec.cfg), so it shoots, respawns after a death and
# leaves an intermission as a player does. After each of three map changes from its first
# entry, the test asserts that ezQuake entered the game again on the new map and that the
# server's status on that map lists it with a ping (its moves are answered); in the C game,
# that the match-over scoreboard of each of those maps lists it.
#
# What made the first attempt hang: the client's basedir held only the generated maps, and
# id's game uses BSP item models (maps/b_bh25.bsp, maps/b_shell0.bsp, ...). ezQuake asked
# to download them, qwsv refused, and ezQuake dropped out at the first sign-on -- it never
# entered, on any map. The client's basedir here links every shared map too.
# Skips (exit 77) without ezquake, Xvfb or the shared game data.
# Usage: ezquake-rotation-qwsv.sh GAME PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
game=${1:-qc}
port=${2:-27647}
ezquake=/usr/lib/games/ezquake/ezquake
[ -x "$ezquake" ] || skip "ezquake is not installed (scripts/deps.sh --desktop)"
command -v Xvfb >/dev/null || skip "Xvfb is not installed (scripts/deps.sh --desktop)"
command -v quakestat >/dev/null || skip "quakestat is not installed (Debian package qstat)"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
shared=$QW_SHARED/quake
for f in gfx.wad maps/b_bh25.bsp; do
    [ -f "$shared/id1/$f" ] || skip "ezquake needs the shared game data ($shared/id1/$f)"
done
progs=$shared/qw/qwprogs.dat
if [ "$game" = qc ]; then
    [ -f "$progs" ] || skip "no $progs (id's game, ../shared/quake/README.md)"
    game_args=(-progs "$progs" +serverinfo oneroom small +serverinfo small oneroom)
else
    game_args=(-progs none +set sv_maplist "oneroom small")
fi
[ -x "$QW_BIN/qwmapgen" ] || skip "build/bin/qwmapgen is not built yet"
mkdir -p "$work/qwsv/id1/maps"
"$QW_BIN/qwmapgen" -o "$work/qwsv/id1/maps/small.bsp" --size 1024 --spawns 16 --launchers 4 \
    >"$work/qwmapgen-small.log" 2>&1 || fail "qwmapgen failed: $(cat "$work/qwmapgen-small.log")"
bot_pid='' ezquake_pid='' xvfb_pid=''
stop_all() {
    # ezQuake ignores SIGTERM
    [ -n "$ezquake_pid" ] && { kill -9 "$ezquake_pid" && wait "$ezquake_pid"; } 2>/dev/null
    [ -n "$bot_pid" ] && kill "$bot_pid" 2>/dev/null && wait "$bot_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    ezquake_pid='' bot_pid='' xvfb_pid=''
}
trap 'stop_all; cleanup' EXIT
start_qwsv "$port" 2 stm "${game_args[@]}" +set timelimit 0.1

# the client's basedir: the shared data linked (ezQuake writes its config there), every map
# the server may name (the shared ones hold id's item models) and the loop on fire
mkdir -p "$work/client/id1/maps"
for f in "$shared"/id1/*; do [ "${f##*/}" = maps ] || ln -s "$f" "$work/client/id1/"; done
for f in "$shared"/id1/maps/*.bsp "$work"/qwsv/id1/maps/*.bsp; do ln -s "$f" "$work/client/id1/maps/"; done
cat >"$work/client/id1/autoexec.cfg" <<'EOF'
alias fireloop "+attack; wait; wait; -attack; wait; wait; fireloop"
EOF
exec 5<> <(:)
Xvfb -displayfd 5 -screen 0 640x480x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
display=''
read -r -t 30 -u 5 display # the display number, once Xvfb listens (slow on a loaded machine)
[ -n "$display" ] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
# fireloop after connect: the loop runs in front of the rest of the command line
DISPLAY=:$display "$ezquake" -basedir "$work/client" -window -nosound +name ezq \
    +connect 127.0.0.1:$port +fireloop >"$work/ezquake.log" 2>&1 </dev/null &
ezquake_pid=$!
"$QWBOT" -server 127.0.0.1:$port -basedir "$basedir" -map "$qwsv_map" -noprogress -v \
    -bots 2 -fight -seed 3 -interactions 1000000 -duration 600 -timeout 60 \
    >"$work/out" 2>"$work/err" &
bot_pid=$!

changes() { grep -c "map changed to" "$server_log"; }
# ezq_entered_after N: ezQuake entered the game after the Nth map change (before the next)
ezq_entered_after() {
    awk -v n="$1" '/map changed to/ { c++ } c == n && /\] ezq entered the game$/ { e = 1 }
        END { exit !e }' "$server_log"
}
mapname() { grep "map changed to" "$server_log" | sed -n "$1s/.*map changed to \([^:]*\):.*/\1/p"; }
alive() {
    kill -0 "$server_pid" 2>/dev/null || fail "qwsv died: $(tail -5 "$server_log")"
    kill -0 "$bot_pid" 2>/dev/null || fail "qwbot stopped: $(tail -5 "$work/err")"
    kill -0 "$ezquake_pid" 2>/dev/null || fail "ezquake exited: $(tail -5 "$work/ezquake.log")"
}

# ezQuake's first entry (on the first map, or on the next when it connected during the
# intermission: id's game then ends the intermission at once)
first=''
for _ in $(seq 1 600); do
    alive
    for n in 0 1; do ezq_entered_after $n && { first=$n; break 2; }; done
    sleep 0.2
done
[ -n "$first" ] || fail "ezquake never entered the game: $(grep ezq "$server_log" | tail -5)"
echo "ezquake entered the game after map change $first"
maps=''
for n in $((first + 1)) $((first + 2)) $((first + 3)); do
    for _ in $(seq 1 600); do
        alive
        [ "$(changes)" -ge $n ] && ezq_entered_after $n && break
        sleep 0.2
    done
    ezq_entered_after $n ||
        fail "ezquake did not enter after map change $n ($(changes) changes): $(grep ezq "$server_log" | tail -5)"
    map=$(mapname $n)
    maps="$maps $map"
    # the server's status while that map runs: ezq on it with a ping (999 while signing on)
    ok=''
    for _ in $(seq 1 100); do
        st=$(quakestat -qws 127.0.0.1:$port -P -raw , 2>/dev/null)
        [ "$(changes)" -eq $n ] || break
        if echo "$st" | head -1 | grep -q ",$map," &&
            echo "$st" | awk -F, '$2 == "ezq" && $7 > 0 && $7 < 999 { f = 1 } END { exit !f }'; then
            ok=1
            break
        fi
        sleep 0.2
    done
    [ -n "$ok" ] || fail "the status on $map (change $n) never listed ezq with a ping: $st"
    echo "change $n: ezquake entered $map, status: $(echo "$st" | grep ',ezq,')"
done
# the C game: the scoreboard at the end of each of those matches lists ezq (the qc game's
# match ends without a log line)
if [ "$game" = c ]; then
    for n in $((first + 1)) $((first + 2)) $((first + 3)); do
        for _ in $(seq 1 300); do [ "$(changes)" -gt $n ] && break; alive; sleep 0.2; done
        over=$(awk -v n="$n" '/map changed to/ { c++ } c == n && /match over on/' "$server_log")
        echo "$over" | grep -q ", ezq [0-9-]*$\|: ezq [0-9-]*," ||
            fail "the match after change $n ended without ezq on the scoreboard: $over"
    done
fi
stop_all
stop_server
case "$(echo $maps)" in
"small oneroom small" | "oneroom small oneroom") ;;
*) fail "the rotation went to '$maps', not oneroom and small in turn" ;;
esac
grep "qwsv-stats scope=final thread=all" "$server_log" | grep -q "qc_errors=0" ||
    fail "QuakeC errors: $(grep 'QuakeC error' "$server_log" | head -3)"
echo "ezquake played three matches of the $game game's rotation:$maps"
