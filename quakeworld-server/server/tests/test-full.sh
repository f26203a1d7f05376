#!/usr/bin/env bash
# A full server answers a connect with the protocol's reject ("n" + reason).
. "$(dirname "$0")/lib.sh"
pick_map
port=27524
start_server $port -maxclients 1
client_in_game first $port
client second $port -expect-reject -timeout 5 >"$tmp/second.log" 2>&1 ||
    fail "the second client was not rejected: $(cat "$tmp/second.log")"
cat "$tmp/second.log"
grep -q "server is full" "$tmp/server.log" || fail "no 'server is full' log line"
grep -q "FAIL" "$tmp/first.log" && fail "the first client failed: $(cat "$tmp/first.log")"
echo "ok"
