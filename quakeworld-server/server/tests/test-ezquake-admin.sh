#!/usr/bin/env bash
# The real client, ezQuake (under Xvfb), against qwsv's admin interface: its rcon command
# (hashed, ezQuake's default cl_crypt_rcon 1) runs "status" on the server, and when rcon
# changes the map, ezQuake follows ("changing", "reconnect") and enters the game on the new
# map. Skips (exit 77) without ezquake, Xvfb or the shared game data.
. "$(dirname "$0")/lib.sh"
ezquake=/usr/lib/games/ezquake/ezquake
[ -x "$ezquake" ] || skip "skip: ezquake is not installed (scripts/deps.sh --desktop)"
command -v Xvfb >/dev/null || skip "skip: Xvfb is not installed (scripts/deps.sh --desktop)"
shared=$QW_SHARED/quake
for f in gfx.wad maps/crateprefab_dm.bsp maps/lqdm2.bsp; do
    [ -f "$shared/id1/$f" ] || skip "skip: the client needs the shared game data ($shared/id1/$f)"
done
port=27564
basedir=$shared map=crateprefab_dm
start_server $port -threads 2 -sync stm +set rcon_password s3cret
# the client writes its configuration into its basedir: a private one linking the data
mkdir -p "$tmp/client/id1"
for f in "$shared"/id1/*; do ln -s "$f" "$tmp/client/id1/"; done
exec 5<> <(:)
Xvfb -displayfd 5 -screen 0 640x480x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
client_pids+=($!)
display=
read -t 30 -u 5 display  # the display number, once Xvfb listens (slow on a loaded machine)
[ -n "$display" ] || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
DISPLAY=:$display "$ezquake" -basedir "$tmp/client" -window -nosound +rcon_password s3cret \
    +rcon_address 127.0.0.1:$port "+rcon status" +connect 127.0.0.1:$port \
    >"$tmp/ezquake.log" 2>&1 </dev/null &
ezquake_pid=$!
trap 'kill -9 $ezquake_pid 2>/dev/null; cleanup' EXIT  # ezQuake ignores SIGTERM
wait_log "entered the game"
grep -q "\] rcon from 127.0.0.1:[0-9]*: status" "$tmp/server.log" ||
    fail "ezQuake's rcon status was not accepted: $(grep -i rcon "$tmp/server.log")"
oob --hash-rcon $port "rcon s3cret map lqdm2" | grep -q "changing to map lqdm2" ||
    fail "rcon map lqdm2 got no answer"
wait_log "map changed to lqdm2: 1 client"
for _ in $(seq 1 200); do
    [ "$(grep -c "entered the game" "$tmp/server.log")" -ge 2 ] && break
    sleep 0.1
done
sed -n '/map changed to lqdm2/,$p' "$tmp/server.log" | grep -q "entered the game" ||
    fail "ezQuake did not follow the map change: $(tail -5 "$tmp/server.log")"
grep -E "rcon from|map changed|entered the game" "$tmp/server.log"
echo "ok"
