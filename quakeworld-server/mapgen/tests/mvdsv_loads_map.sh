#!/usr/bin/env bash
# The real QuakeWorld server (Debian's mvdsv with the KTX game) loads maps made by qwmapgen:
# quakestat must report the generated map's name. Skips (exit 77) when mvdsv, KTX or quakestat
# is not installed. Usage: mvdsv_loads_map.sh QWMAPGEN PORT
set -u
mapgen=$1
port=$2
shared=${QW_SHARED:-}
. "$(dirname "$0")/mvdsv_ktx.sh"
require_mvdsv_ktx
command -v quakestat >/dev/null || { echo "skip: quakestat is not installed (apt-get install qstat)"; exit 77; }

base=$(mktemp -d "${QW_TMPDIR:-/tmp}/qwmapgen-mvdsv.XXXXXX") || exit 1
pid=
cleanup() {
    [ -n "$pid" ] && stop_process "$pid"
    rm -rf "$base"
}
trap cleanup EXIT INT TERM

make_game_dir "$base" arena "$shared"

fail=0
check_map() {   # name, qwmapgen options...
    local name=$1; shift
    "$mapgen" -o "$base/id1/maps/$name.bsp" "$@" || { echo "FAIL: qwmapgen $*"; fail=1; return; }
    sed -i "s/^set k_defmap .*/set k_defmap $name/" "$base/ktx/server.cfg"
    start_mvdsv "$base" "$port" "$name" "$base/mvdsv-$name.log"
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
    stop_process "$pid"
    pid=
}

check_map arena
check_map bigarena --size 3000 --height 384 --pillars 20 --crates 30 --spawns 16 --seed 5
# the benchmarks' one-room map: brush models *1..*24 (the teleporter pads), launchers
check_map pads --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1
exit $fail
