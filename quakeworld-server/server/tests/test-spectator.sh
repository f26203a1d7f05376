#!/usr/bin/env bash
# A spectator ("spectator 1" in its userinfo) next to two players who shoot at anything they
# see: it signs on with the spectator bit in its slot, sees the game, is announced to the
# others as a spectator and never shown to them as a player; its chat is marked; the players
# fight on without it (frags happen, none of them by or to the spectator).
. "$(dirname "$0")/lib.sh"
port=27533
pick_map --size 768 --pillars 0 --crates 0
start_server "$port" -threads 2 -sync "${1:-stm}"
client watcher "$port" -spectator -stay 4 -timeout 60 -say "just watching" >"$tmp/watcher.log" 2>&1 &
client_pids+=($!)
for _ in $(seq 1 100); do grep -q "watcher entered as a spectator" "$tmp/server.log" && break; sleep 0.1; done
grep -q "watcher entered as a spectator" "$tmp/server.log" || fail "the spectator did not enter"
for i in 1 2; do
    client "p$i" "$port" -shoot -expect-obituaries 1 -expect-spectator watcher -timeout 60 \
        >"$tmp/p$i.log" 2>&1 &
    client_pids+=($!)
done
rc=0
for i in 0 1 2; do
    wait "${client_pids[$i]}" || rc=1
done
client_pids=()
tail -3 "$tmp/watcher.log" "$tmp/p1.log" "$tmp/p2.log"
[ $rc = 0 ] || fail "a client failed"
grep -q "watcher is a spectator in slot" "$tmp/p1.log" || fail "p1 was not told watcher is a spectator"
grep -q "chat: \[SPEC\] watcher: just watching" "$tmp/server.log" || fail "the spectator's chat is not marked"
grep -q "frag: " "$tmp/server.log" || fail "the players did not fight"
grep "frag: " "$tmp/server.log" | grep -q watcher && fail "the spectator took part in a frag"
stop_server
echo "ok"
