#!/usr/bin/env bash
# A client that vanishes without "drop" is timed out (-clienttimeout), the others are told
# it left, and the slot is free again (quakestat counts no players).
. "$(dirname "$0")/lib.sh"
pick_map
port=27527
start_server $port -clienttimeout 1
client ghost $port -vanish -timeout 15 >"$tmp/ghost.log" 2>&1 || fail "ghost: $(cat "$tmp/ghost.log")"
for _ in $(seq 1 150); do
    grep -q "ghost dropped: timed out" "$tmp/server.log" && break
    sleep 0.1
done
grep -q "ghost dropped: timed out" "$tmp/server.log" || fail "the silent client was not timed out"
if command -v quakestat >/dev/null; then
    quakestat -qws 127.0.0.1:$port -raw , >"$tmp/qs"
    IFS=, read -r _ _ _ _ _ players _ <"$tmp/qs"
    [ "$players" = 0 ] || fail "quakestat still counts $players players"
fi
echo "ok"
