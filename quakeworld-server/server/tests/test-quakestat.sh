#!/usr/bin/env bash
# Debian's qstat (quakestat) queries qwsv: server info, then the player list with -P, with
# players and spectators in the game and signing on.
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

# Spectators and clients still signing on (issue 28, item 7). quakestat takes a line with a
# negative ping for a spectator's and cuts the first 3 characters of its name, expecting
# mvdsv's "\s\" there: every such line must carry it, also while the client signs on.
client watcher $port -spectator -stay 60 -timeout 90 >"$tmp/watcher.log" 2>&1 &
client_pids+=($!)
wait_log "watcher entered as a spectator"
# two clients that connect and never sign on (a player, a spectator): "connected" for the
# status until they time out
python3 - "$port" >"$tmp/signon.log" 2>&1 <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
for qport, info in ((601, b"\\name\\joiner"), (602, b"\\name\\lurker\\spectator\\1")):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(5)
    s.sendto(b"\xff\xff\xff\xffgetchallenge\n", ("127.0.0.1", port))
    challenge = int(s.recv(64)[5:].split(b"\0")[0])
    s.sendto(b"\xff\xff\xff\xffconnect 28 %d %d \"%s\"\n" % (qport, challenge, info), ("127.0.0.1", port))
    print(s.recv(64))
time.sleep(60)
PY
client_pids+=($!)
wait_log "lurker connected from"
wait_log "joiner connected from"
oob $port "status 23" >"$tmp/status23"
tr -d '\n' <"$tmp/status23" | sed 's/\\n/\n/g' | grep -E '^[0-9]+ ' >"$tmp/lines" || true
cat "$tmp/lines"
[ "$(wc -l <"$tmp/lines")" = 4 ] || fail "status 23 does not list the four clients: $(cat "$tmp/status23")"
while read -r _ _ _ ping name _; do
    [ "${ping#-}" != "$ping" ] && [ "${name#\"\\s\\}" = "$name" ] &&
        fail "a negative ping without \\s\\ in front of the name: quakestat cuts $name"
done <"$tmp/lines"
quakestat -qws 127.0.0.1:$port -raw , -P >"$tmp/qs2" || fail "quakestat -P failed"
cat "$tmp/qs2"
# QWS,address,name,map,maxplayers,players,...: joiner and statbot are players
IFS=, read -r _ _ _ _ _ players _ <"$tmp/qs2"
[ "$players" = 2 ] || fail "quakestat counted '$players' players, expected 2 (statbot, joiner)"
for who in statbot joiner watcher lurker; do
    grep -q "^[0-9]*,$who," "$tmp/qs2" || fail "quakestat -P does not list $who by its whole name"
done
for who in watcher lurker; do
    grep -q "^[0-9]*,$who,-9999," "$tmp/qs2" || fail "quakestat does not show $who as a spectator"
done
quakestat -qws 127.0.0.1:$port | grep -Eq " 2/8 +2/" || fail "quakestat's table does not count 2 players and 2 spectators: $(quakestat -qws 127.0.0.1:$port)"
echo "ok"
