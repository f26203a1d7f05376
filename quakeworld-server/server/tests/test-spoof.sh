#!/usr/bin/env bash
# A player's connection against forged packets from its own address (tests/spoof.py): packets
# with its qport from other ports, at its next sequence and far ahead, while it plays; the
# player stays connected and answered, the attacker gets nothing; a real port move after a
# silence (a NAT) is followed.
. "$(dirname "$0")/lib.sh"
pick_map
port=27546
start_server $port -threads 2 -sync lock
python3 "$(dirname "$0")/spoof.py" $port >"$tmp/spoof.log" 2>&1 || fail "$(cat "$tmp/spoof.log")"
cat "$tmp/spoof.log"
grep -q "victim: port [0-9]* -> [0-9]* (address translation)" "$tmp/server.log" ||
    fail "the port move was not logged"
[ "$(grep -c 'address translation' "$tmp/server.log")" -eq 1 ] || fail "the port moved more than once"
grep -q "victim dropped" "$tmp/server.log" && fail "the player was dropped"
echo "ok"
