#!/usr/bin/env bash
# A real QuakeWorld client (ezquake, under Xvfb) connects to mvdsv running a qwmapgen map,
# loads and draws it, and enters the game. Skips (exit 77) when ezquake, Xvfb, mvdsv/KTX or the
# shared game data (gfx, models) are missing. Usage: ezquake_plays_map.sh QWMAPGEN PORT
set -u
mapgen=$1
port=$2
shared=${QW_SHARED:-}
mvdsv=$(command -v mvdsv || echo /usr/games/mvdsv)
ezquake=/usr/lib/games/ezquake/ezquake
ktx_share=/usr/share/games/quake/ktx
ktx_so=/usr/lib/quakeworld/ktx/qwprogs.so
[ -x "$mvdsv" ] && [ -f "$ktx_so" ] || { echo "skip: mvdsv and ktx are not installed"; exit 77; }
[ -x "$ezquake" ] || { echo "skip: ezquake is not installed (apt-get install ezquake)"; exit 77; }
command -v Xvfb >/dev/null || { echo "skip: Xvfb is not installed (apt-get install xvfb)"; exit 77; }
[ -n "$shared" ] && [ -f "$shared/quake/id1/gfx.wad" ] || {
    echo "skip: the client needs the shared game data (\$QW_SHARED/quake/id1/gfx.wad)"; exit 77; }

base=$(mktemp -d "${QW_TMPDIR:-/tmp}/qwmapgen-ezquake.XXXXXX") || exit 1
pids=()
stop() {   # pid: TERM, then KILL (ezquake ignores TERM)
    kill "$1" 2>/dev/null
    for _ in 1 2 3 4 5; do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
cleanup() {
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop "${pids[i]}"; done
    rm -rf "$base"
}
trap cleanup EXIT INT TERM

mkdir -p "$base/ktx" "$base/id1/maps"
for f in "$ktx_share"/*; do
    case $(basename "$f") in qwprogs.so|server.cfg) ;; *) ln -s "$f" "$base/ktx/";; esac
done
ln -s "$ktx_so" "$base/ktx/qwprogs.so"
printf 'exec mvdsv.cfg\nexec ktx.cfg\nsv_getrealip 0\nset k_defmap arena\ndeathmatch 3\nteamplay 0\n' \
    >"$base/ktx/server.cfg"
for f in progs sound gfx gfx.wad; do ln -s "$shared/quake/id1/$f" "$base/id1/$f"; done
for f in "$shared"/quake/id1/maps/b_*.bsp; do ln -s "$f" "$base/id1/maps/"; done
"$mapgen" -o "$base/id1/maps/arena.bsp" || exit 1

"$mvdsv" -basedir "$base" -game ktx -progtype 1 -ip 127.0.0.1 -port "$port" \
    +exec server.cfg +map arena >"$base/mvdsv.log" 2>&1 </dev/null &
pids+=($!)
# A free display number, chosen by Xvfb itself.
exec 5<> <(:)
Xvfb -displayfd 5 -screen 0 640x480x24 -nolisten tcp >"$base/xvfb.log" 2>&1 &
pids+=($!)
display=
for _ in $(seq 1 50); do
    read -t 0.2 -u 5 display && break
done
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
