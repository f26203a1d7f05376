#!/usr/bin/env bash
# A protocol-level client completes the whole sign-on (map checksum included) and walks:
# its origin as reported by the server changes. Also downloads a b_*.bsp when the shared
# Quake data is there.
. "$(dirname "$0")/lib.sh"
pick_map
port=27521
start_server $port -threads 1 -sync lock
client walker $port -timeout 15 >"$tmp/client.log" 2>&1 || fail "client: $(cat "$tmp/client.log")"
cat "$tmp/client.log"
grep -q "moved from" "$tmp/client.log" || fail "the client did not move"
grep -q "walker entered the game" "$tmp/server.log" || fail "no 'entered the game' log line"
if [ -z "$chktbl" ]; then
    echo "note: $QW_SHARED/quake/protocol/chktbl.bin missing: move checksums were not verified"
else
    grep -q "wrong sequence checksum" "$tmp/server.log" && fail "the server rejected valid move checksums"
fi
box=$QW_SHARED/quake/id1/maps/b_bh25.bsp
if [ -f "$box" ] && [ "$basedir" = "$QW_SHARED/quake" ]; then
    client fetcher $port -download maps/b_bh25.bsp -download-size "$(stat -c %s "$box")" \
        -timeout 15 >"$tmp/dl.log" 2>&1 || fail "download: $(cat "$tmp/dl.log")"
    cat "$tmp/dl.log"
else
    # the generated map itself is downloadable
    client fetcher $port -download "maps/$map.bsp" -download-size "$(stat -c %s "$mapfile")" \
        -timeout 15 >"$tmp/dl.log" 2>&1 || fail "download: $(cat "$tmp/dl.log")"
    cat "$tmp/dl.log"
fi
# a client with another version of the map is refused at prespawn (map checksum check)
if [ -x "$QW_BIN/qwmapgen" ]; then
    "$QW_BIN/qwmapgen" -o "$tmp/other/id1/maps/$map.bsp" --seed 99 --size 768 >/dev/null ||
        fail "qwmapgen (second map) failed"
    "$QWCLIENT" -port $port -name impostor -map "$tmp/other/id1/maps/$map.bsp" \
        -chktbl "$chktbl" -timeout 8 >"$tmp/impostor.log" 2>&1 &&
        fail "a client with a different map was let in"
    # the server logs the drop after sending the disconnect the client exits on
    wait_log "impostor dropped: map checksum mismatch"
fi
# a path outside maps/ is refused
client thief $port -download ../../etc/passwd -timeout 5 >"$tmp/thief.log" 2>&1 &&
    fail "a download outside maps/ was served"
grep -q "download refused" "$tmp/thief.log" || fail "no refusal: $(cat "$tmp/thief.log")"
# the largest free map: 85 brush models (a paged modellist), torches (spawnstatic), a real PVS
big=$QW_SHARED/quake/id1/maps/e1m2.bsp
if [ -f "$big" ]; then
    stop_server
    basedir=$QW_SHARED/quake map=e1m2 mapfile=$big
    start_server $port -threads 2 -sync lock
    client explorer $port -timeout 20 >"$tmp/e1m2.log" 2>&1 || fail "e1m2: $(cat "$tmp/e1m2.log")"
    grep "moved from" "$tmp/e1m2.log"
else
    echo "note: $big missing: the e1m2 sign-on was not checked"
fi
echo "ok"
