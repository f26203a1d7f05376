#!/usr/bin/env bash
# The real QuakeWorld server (Debian's mvdsv with the KTX game) loads maps made by qwmapgen:
# quakestat must report the generated map's name. Skips (exit 77) when mvdsv, KTX or quakestat
# is not installed. Usage: mvdsv_loads_map.sh QWMAPGEN PORT
set -u
mapgen=$1
port=$2
shared=${QW_SHARED:-}
mvdsv=$(command -v mvdsv || echo /usr/games/mvdsv)
ktx_share=/usr/share/games/quake/ktx
ktx_so=/usr/lib/quakeworld/ktx/qwprogs.so
[ -x "$mvdsv" ] || { echo "skip: mvdsv is not installed (apt-get install mvdsv)"; exit 77; }
[ -f "$ktx_so" ] && [ -d "$ktx_share" ] || { echo "skip: ktx is not installed (apt-get install ktx)"; exit 77; }
command -v quakestat >/dev/null || { echo "skip: quakestat is not installed (apt-get install qstat)"; exit 77; }

base=$(mktemp -d "${QW_TMPDIR:-/tmp}/qwmapgen-mvdsv.XXXXXX") || exit 1
pid=
cleanup() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    rm -rf "$base"
}
trap cleanup EXIT INT TERM

# Game folder: KTX's files linked, qwprogs.so linked by absolute path, our own server.cfg.
mkdir -p "$base/ktx" "$base/id1/maps"
for f in "$ktx_share"/*; do
    case $(basename "$f") in qwprogs.so|server.cfg) ;; *) ln -s "$f" "$base/ktx/";; esac
done
ln -s "$ktx_so" "$base/ktx/qwprogs.so"
cat >"$base/ktx/server.cfg" <<CFG
exec mvdsv.cfg
exec ktx.cfg
sv_getrealip 0
set k_defmap arena
deathmatch 3
teamplay 0
CFG
# Models and sounds are optional for the server; link them when the shared data is there.
if [ -n "$shared" ] && [ -d "$shared/quake/id1" ]; then
    for f in progs sound gfx gfx.wad; do
        [ -e "$shared/quake/id1/$f" ] && ln -s "$shared/quake/id1/$f" "$base/id1/$f"
    done
    for f in "$shared"/quake/id1/maps/b_*.bsp; do [ -e "$f" ] && ln -s "$f" "$base/id1/maps/"; done
fi

fail=0
check_map() {   # name, qwmapgen options...
    local name=$1; shift
    "$mapgen" -o "$base/id1/maps/$name.bsp" "$@" || { echo "FAIL: qwmapgen $*"; fail=1; return; }
    sed -i "s/^set k_defmap .*/set k_defmap $name/" "$base/ktx/server.cfg"
    "$mvdsv" -basedir "$base" -game ktx -progtype 1 -ip 127.0.0.1 -port "$port" \
        +exec server.cfg +map "$name" >"$base/mvdsv-$name.log" 2>&1 </dev/null &
    pid=$!
    local answer=
    for _ in $(seq 1 50); do
        answer=$(quakestat -qws "127.0.0.1:$port" -raw , 2>/dev/null | head -n 1)
        case $answer in *",$name,"*) break;; esac
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    echo "quakestat: $answer"
    case $answer in
        *",$name,"*) echo "ok: mvdsv runs $name";;
        *) echo "FAIL: mvdsv did not report map $name"; tail -n 20 "$base/mvdsv-$name.log"; fail=1;;
    esac
    if grep -E "Host_Error|SV_Error|ERROR" "$base/mvdsv-$name.log"; then
        echo "FAIL: mvdsv reported an error loading $name"; fail=1
    fi
    kill "$pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=
}

check_map arena
check_map bigarena --size 3000 --height 384 --pillars 20 --crates 30 --spawns 16 --seed 5
exit $fail
