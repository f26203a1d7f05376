#!/usr/bin/env bash
# Debian's qstat (quakestat) queries qwsv: server info, then the player list with -P.
. "$(dirname "$0")/lib.sh"
command -v quakestat >/dev/null || skip "skipped: quakestat (Debian package qstat) is not installed"
pick_map
port=27520
start_server $port -maxclients 8
quakestat -qws 127.0.0.1:$port -raw , >"$tmp/qs0" || fail "quakestat failed"
cat "$tmp/qs0"
# QWS,address,name,map,maxplayers,players,ping,retries
IFS=, read -r type addr name qmap maxp players _ <"$tmp/qs0"
[ "$type" = QWS ] || fail "quakestat did not identify a QuakeWorld server: $(cat "$tmp/qs0")"
[ "$qmap" = "$map" ] || fail "quakestat map '$qmap' is not '$map'"
[ "$maxp" = 8 ] || fail "quakestat maxplayers '$maxp' is not 8"
[ "$players" = 0 ] || fail "quakestat counted '$players' players on an empty server"

client_in_game statbot $port
quakestat -qws 127.0.0.1:$port -raw , -P >"$tmp/qs1" || fail "quakestat -P failed"
cat "$tmp/qs1"
IFS=, read -r _ _ _ _ _ players _ <"$tmp/qs1"
[ "$players" = 1 ] || fail "quakestat counted '$players' players, expected 1"
# player line: userid,name,frags,connect time,colors,ping,skin
sed -n 2p "$tmp/qs1" | grep -q "^[0-9]*,statbot," || fail "quakestat -P does not list statbot"
# the plain table view parses too
quakestat -qws 127.0.0.1:$port -P | grep -q statbot || fail "quakestat table does not list statbot"
grep -q "FAIL" "$tmp/statbot.log" && fail "the client failed: $(cat "$tmp/statbot.log")"
echo "ok"
