#!/usr/bin/env bash
# A progs with which nobody can enter a map (tests/qc-refused/, compiled here with Debian's
# fteqcc): its worldspawn fails on "badworld", ClientConnect on "badconnect",
# PutClientInServer on "badspawn". qwsv refuses to start on each, naming the function and
# the error; running on a good map, it refuses to change to each (console `map`), says why,
# stays on its map, and a player still enters.
. "$(dirname "$0")/lib.sh"
command -v fteqcc >/dev/null || skip "skipped: fteqcc is not installed (scripts/deps.sh installs it)"
pick_map
port=27548
src=$(cd "$(dirname "$0")/qc-refused" && pwd)
{ echo refused.dat; sed 1d "$src/progs.src" | sed "s|^|$src/|"; } >"$tmp/progs.src"
(cd "$tmp" && fteqcc -srcfile progs.src >fteqcc.out 2>&1) && grep -q "^Compile Complete" "$tmp/fteqcc.out" ||
    fail "fteqcc: $(cat "$tmp/fteqcc.out")"
server_game="-progs $tmp/refused.dat"
for m in badworld badconnect badspawn; do cp "$mapfile" "$basedir/id1/maps/$m.bsp"; done

# at start: refused, exit 1, the function and the error named
expect_refused() { # MAP FUNCTION ERROR [INNERMOST]
    local out
    out=$(QW_CHKTBL=$chktbl timeout 30 "$QWSV" -ip 127.0.0.1 -port $port -basedir "$basedir" \
          -map "$1" $server_game </dev/null 2>&1)
    local rc=$?
    [ $rc -eq 1 ] || fail "qwsv -map $1 exited with $rc: $(echo "$out" | tail -3)"
    echo "$out" | grep -q "listening on" && fail "qwsv listened on $1"
    echo "$out" | grep -Eq "^qwsv: $1: .*QuakeC error in $2 \(program error, in ${4:-$2}\): $3$" ||
        fail "qwsv -map $1 did not name $2 and its error: $(echo "$out" | tail -3)"
    echo "refused at start: $(echo "$out" | grep "^qwsv: ")"
}
expect_refused badworld worldspawn "the world refuses to spawn"
expect_refused badconnect ClientConnect "no connections on this map"
expect_refused badspawn PutClientInServer "no spawn spot on this map" SelectSpot

# on a map change: refused, back to the map that ran, players still enter
mkfifo "$tmp/console"
exec 3<>"$tmp/console"
server_stdin=$tmp/console start_server $port
console() { echo "$*" >&3; }
wait_log "console on stdin"
client_in_game alice $port
n=0
for change in "badworld worldspawn the world refuses to spawn" \
              "badconnect ClientConnect no connections on this map" \
              "badspawn PutClientInServer no spawn spot on this map"; do
    read -r m fn msg <<<"$change"
    n=$((n + 1))
    console map "$m"
    wait_log "map change to $m refused: .*QuakeC error in $fn .*: $msg; back to $map"
    for _ in $(seq 1 200); do
        [ "$(grep -c "map changed to $map:" "$tmp/server.log")" -ge $n ] && break
        sleep 0.1
    done
    [ "$(grep -c "map changed to $map:" "$tmp/server.log")" -ge $n ] || fail "not back on $map after $m"
    oob $port status | grep -q "\\\\map\\\\$map\\\\" || fail "status does not show $map after $m"
    client "bob$n" $port -timeout 30 >"$tmp/bob$n.log" 2>&1 3>&- ||
        fail "bob$n could not enter $map after the refused $m: $(cat "$tmp/bob$n.log")"
    grep -q "bob$n entered the game" "$tmp/server.log" || fail "bob$n did not enter after $m"
    echo "refused map change to $m: $(grep -o "map change to $m refused: .*" "$tmp/server.log" | head -1)"
done
grep -q "map changed to bad" "$tmp/server.log" && fail "a refused map ran"
echo "ok"
