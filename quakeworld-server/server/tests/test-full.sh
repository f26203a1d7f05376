#!/usr/bin/env bash
# A full server answers a connect with the protocol's reject ("n" + reason).
. "$(dirname "$0")/lib.sh"
pick_map
port=27524
start_server $port -maxclients 1
client first $port -stay 60 -timeout 90 >"$tmp/first.log" 2>&1 &
client_pids+=($!)
for _ in $(seq 1 100); do
    grep -q "first entered the game" "$tmp/server.log" && break
    sleep 0.1
done
grep -q "first entered the game" "$tmp/server.log" || fail "the first client did not get in"
client second $port -expect-reject -timeout 5 >"$tmp/second.log" 2>&1 ||
    fail "the second client was not rejected: $(cat "$tmp/second.log")"
cat "$tmp/second.log"
grep -q "server is full" "$tmp/server.log" || fail "no 'server is full' log line"
grep -q "FAIL" "$tmp/first.log" && fail "the first client failed: $(cat "$tmp/first.log")"
echo "ok"
