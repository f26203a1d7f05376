#!/usr/bin/env bash
# A real QuakeWorld client (ezquake, under Xvfb) connects to mvdsv running a qwmapgen map
# (with rocket launchers and teleporters: brush models *1..*4 that it loads too), loads and
# draws it, and enters the game. Skips (exit 77) when ezquake, Xvfb, mvdsv/KTX or the
# shared game data (gfx, models) are missing. Usage: ezquake_plays_map.sh QWMAPGEN PORT
set -u
mapgen=$1
port=$2
shared=${QW_SHARED:-}
ezquake=/usr/lib/games/ezquake/ezquake
. "$(dirname "$0")/mvdsv_ktx.sh"
require_mvdsv_ktx
[ -x "$ezquake" ] || { echo "skip: ezquake is not installed (apt-get install ezquake)"; exit 77; }
command -v Xvfb >/dev/null || { echo "skip: Xvfb is not installed (apt-get install xvfb)"; exit 77; }
[ -n "$shared" ] && [ -f "$shared/quake/id1/gfx.wad" ] || {
    echo "skip: the client needs the shared game data (\$QW_SHARED/quake/id1/gfx.wad)"; exit 77; }

base=$(mktemp -d "${QW_TMPDIR:-/tmp}/qwmapgen-ezquake.XXXXXX") || exit 1
pids=()
cleanup() {   # ezquake ignores TERM: one second, then KILL
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_process "${pids[i]}" 5; done
    rm -rf "$base"
}
trap cleanup EXIT INT TERM

make_game_dir "$base" arena "$shared"
"$mapgen" -o "$base/id1/maps/arena.bsp" --launchers 2 --teleporters 4 || exit 1

start_mvdsv "$base" "$port" arena "$base/mvdsv.log"
pids+=($!)
# A free display number, chosen by Xvfb itself.
exec 5<> <(:)
Xvfb -displayfd 5 -screen 0 640x480x24 -nolisten tcp >"$base/xvfb.log" 2>&1 &
pids+=($!)
display=
read -t 30 -u 5 display  # the display number, once Xvfb listens (slow on a loaded machine)
[ -n "$display" ] || { echo "FAIL: Xvfb did not start"; cat "$base/xvfb.log"; exit 1; }
DISPLAY=:$display "$ezquake" -basedir "$base" -window -nosound +connect "127.0.0.1:$port" \
    >"$base/ezquake.log" 2>&1 </dev/null &
pids+=($!)

for _ in $(seq 1 150); do
    grep -q "entered the game" "$base/mvdsv.log" && break
    kill -0 "${pids[2]}" 2>/dev/null || break
    sleep 0.2
done
grep -E "connected|entered the game" "$base/mvdsv.log"
if grep -q "entered the game" "$base/mvdsv.log"; then
    echo "ok: ezquake loaded the generated map and entered the game"
    exit 0
fi
echo "FAIL: ezquake did not enter the game on the generated map"
tail -n 20 "$base/mvdsv.log" "$base/ezquake.log"
exit 1
