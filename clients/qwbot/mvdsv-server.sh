#!/usr/bin/env bash
# Prepares a basedir for the real QuakeWorld server mvdsv with the ktx mod on the free maps of
# $QW_SHARED/quake and runs it in the foreground on 127.0.0.1 (callers background and kill it).
#   clients/qwbot/mvdsv-server.sh DIR PORT [MAP] [MAXCLIENTS]
# DIR is created (id1 -> the shared id1, a copy of ktx with local.cfg). Exit 77 with a reason
# when mvdsv, ktx or the shared data are missing.
# MVDSV_EXTRA_MAP=FILE.bsp adds a map of our own (e.g. from qwmapgen) beside the shared ones:
# DIR/id1 is then a folder of links to the shared files plus that map.
# MVDSV_QWPROGS=FILE runs QuakeWorld's own game in QuakeC (id's qwprogs.dat) instead of ktx:
# mvdsv -progtype 0 with FILE as DIR/qw/qwprogs.dat, deathmatch 1 (ktx is then not needed).
#   -h, --help: this text
set -euo pipefail
usage="usage: mvdsv-server.sh DIR PORT [MAP] [MAXCLIENTS]   (-h, --help: more)"
case "${1:-}" in
    -h|--help)
        echo "$usage"
        # the comment block at the top of this file, up to its first line of code
        awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"
        exit 0 ;;
    -*) echo "mvdsv-server.sh: unknown option $1 ($usage)" >&2; exit 2 ;;
esac
[ $# -ge 2 ] || { echo "mvdsv-server.sh: DIR and PORT are needed ($usage)" >&2; exit 2; }
dir=$1
port=$2
case $port in ''|*[!0-9]*) echo "mvdsv-server.sh: PORT $port is not a number ($usage)" >&2; exit 2 ;; esac
map=${3:-crateprefab_dm}
maxclients=${4:-32}
here=$(cd "$(dirname "$0")" && pwd)
shared=${QW_SHARED:-$here/../../../shared}
mvdsv=${MVDSV:-/usr/games/mvdsv}
ktx=/usr/share/games/quake/ktx
progs=/usr/lib/quakeworld/ktx/qwprogs.so

[ -d "$shared/quake/id1/maps" ] || { echo "skip: $shared/quake (the free Quake data) is missing"; exit 77; }
[ -x "$mvdsv" ] || { echo "skip: mvdsv is not installed (Debian package mvdsv)"; exit 77; }
qwprogs=${MVDSV_QWPROGS:-}
if [ -z "$qwprogs" ]; then
    [ -d "$ktx" ] && [ -f "$progs" ] || { echo "skip: ktx is not installed (Debian package ktx)"; exit 77; }
fi
[ -z "$qwprogs" ] || [ -f "$qwprogs" ] || { echo "mvdsv-server.sh: MVDSV_QWPROGS $qwprogs does not exist" >&2; exit 2; }
extra=${MVDSV_EXTRA_MAP:-}

mkdir -p "$dir"
id1=$(cd "$shared/quake/id1" && pwd)
if [ -n "$extra" ]; then
    [ -f "$extra" ] || { echo "mvdsv-server.sh: MVDSV_EXTRA_MAP $extra does not exist" >&2; exit 2; }
    rm -rf "$dir/id1"
    mkdir -p "$dir/id1/maps"
    for f in "$id1"/*; do [ "$(basename "$f")" = maps ] || ln -s "$f" "$dir/id1/"; done
    for f in "$id1"/maps/*; do ln -s "$f" "$dir/id1/maps/"; done
    cp "$extra" "$dir/id1/maps/"
else
    ln -sfn "$id1" "$dir/id1"
fi
[ -f "$dir/id1/maps/$map.bsp" ] || { echo "mvdsv-server.sh: no map $map in $dir/id1/maps" >&2; exit 2; }
if [ -n "$qwprogs" ]; then
    mkdir -p "$dir/qw"
    ln -sf "$(cd "$(dirname "$qwprogs")" && pwd)/$(basename "$qwprogs")" "$dir/qw/qwprogs.dat"
    cat > "$dir/qw/server.cfg" <<CFG
deathmatch 1
teamplay 0
timelimit 0
fraglimit 0
maxclients $maxclients
sv_getrealip 0
sv_mapcheck 1
CFG
    cd "$dir"
    exec "$mvdsv" -basedir "$dir" -game qw -progtype 0 -ip 127.0.0.1 -port "$port" \
        +exec server.cfg +map "$map"
fi
rm -rf "$dir/ktx"
cp -r "$ktx" "$dir/ktx"
ln -sfn "$progs" "$dir/ktx/qwprogs.so"
# KTX switches to its default map (an id map that is not here) when the last player leaves,
# unless told otherwise. Free-for-all, no match started: the bots play in KTX's "prewar".
# (Matchless mode would rotate maps and record demos.)
cat > "$dir/ktx/local.cfg" <<CFG
set k_defmap $map
set k_mode 3
set k_defmode ffa
deathmatch 3
teamplay 0
timelimit 0
fraglimit 0
maxclients $maxclients
sv_getrealip 0
sv_mapcheck 1
CFG
grep -q '^exec local.cfg' "$dir/ktx/server.cfg" || echo "exec local.cfg" >> "$dir/ktx/server.cfg"
cd "$dir"
exec "$mvdsv" -basedir "$dir" -game ktx -progtype 1 -ip 127.0.0.1 -port "$port" \
    +exec server.cfg +map "$map"
