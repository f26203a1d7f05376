# Sourced by the tests that run Debian's mvdsv with the KTX game on qwmapgen maps: where mvdsv
# and KTX live, the skip when they are missing, a game folder for them, starting and stopping.
mvdsv=$(command -v mvdsv || echo /usr/games/mvdsv)
ktx_share=/usr/share/games/quake/ktx
ktx_so=/usr/lib/quakeworld/ktx/qwprogs.so

# Exits 77 (skipped) naming the package to install when mvdsv or KTX is missing.
require_mvdsv_ktx() {
    [ -x "$mvdsv" ] || { echo "skip: mvdsv is not installed (apt-get install mvdsv)"; exit 77; }
    [ -f "$ktx_so" ] && [ -d "$ktx_share" ] || {
        echo "skip: ktx is not installed (apt-get install ktx)"; exit 77; }
}

# make_game_dir BASE MAP SHARED: BASE/ktx with KTX's files linked (qwprogs.so by absolute path)
# and our own server.cfg starting MAP, BASE/id1/maps, and the shared game data (models,
# sounds, gfx, b_*.bsp) linked in when SHARED holds it.
make_game_dir() {
    local base=$1 map=$2 shared=$3 f
    mkdir -p "$base/ktx" "$base/id1/maps"
    for f in "$ktx_share"/*; do
        case $(basename "$f") in qwprogs.so|server.cfg) ;; *) ln -s "$f" "$base/ktx/";; esac
    done
    ln -s "$ktx_so" "$base/ktx/qwprogs.so"
    printf 'exec mvdsv.cfg\nexec ktx.cfg\nsv_getrealip 0\nset k_defmap %s\ndeathmatch 3\nteamplay 0\n' \
        "$map" >"$base/ktx/server.cfg"
    if [ -n "$shared" ] && [ -d "$shared/quake/id1" ]; then
        for f in progs sound gfx gfx.wad; do
            [ -e "$shared/quake/id1/$f" ] && ln -s "$shared/quake/id1/$f" "$base/id1/$f"
        done
        for f in "$shared"/quake/id1/maps/b_*.bsp; do [ -e "$f" ] && ln -s "$f" "$base/id1/maps/"; done
    fi
    return 0
}

# start_mvdsv BASE PORT MAP LOG: mvdsv in the background on 127.0.0.1 ($! is its pid).
start_mvdsv() {
    "$mvdsv" -basedir "$1" -game ktx -progtype 1 -ip 127.0.0.1 -port "$2" \
        +exec server.cfg +map "$3" >"$4" 2>&1 </dev/null &
}

# stop_process PID [TRIES]: TERM, up to TRIES x 0.2 s (default 10) to exit, then KILL.
stop_process() {
    local pid=$1 tries=${2:-10} i
    kill "$pid" 2>/dev/null
    for ((i = 0; i < tries; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}
