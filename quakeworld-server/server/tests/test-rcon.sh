#!/usr/bin/env bash
# rcon: "rcon PASSWORD COMMAND" runs console commands and sends back their output, with the
# password hashed with a time stamp as mvdsv and ezQuake do it (sv_crypt_rcon 1, the
# default) or plain (sv_crypt_rcon 0); a wrong password or an old time stamp gets
# "Bad rcon_password." and a log line with the address; after
# sv_rcon_maxfails wrong ones an address is ignored for sv_rcon_window seconds (checked by
# order, not by time: oob.py's closing ping is answered after everything before it), while
# other addresses still get in; without rcon_password rcon is off. quit over rcon stops the
# server.
. "$(dirname "$0")/lib.sh"
pick_map
port=27563
start_server $port
# rcon_password unset: rcon is off
oob --bind 127.0.0.3 $port "rcon '' status" "rcon x status" >"$tmp/off" || fail "no answer"
[ "$(grep -c '^reply: nBad rcon_password\.\\n$' "$tmp/off")" = 2 ] || fail "rcon without a password: $(cat "$tmp/off")"
grep -q "Bad rcon from 127.0.0.3:[0-9]*: status (rcon_password is not set" "$tmp/server.log" ||
    fail "rcon while disabled is not logged"
stop_server

# the hashed form (the default)
start_server $port +set rcon_password s3cret
oob --hash-rcon $port "rcon s3cret status" | grep -q "^reply: nhostname : qwsv Atomic Quake" ||
    fail "hashed rcon status got no status"
oob --hash-rcon $port 'rcon s3cret hostname "Two Words"' >/dev/null
oob $port status | grep -q '\\hostname\\Two Words\\' || fail "hashed rcon with a quoted value failed"
oob --bind 127.0.0.4 --hash-rcon $port "rcon guess status" | grep -q "^reply: nBad rcon_password" ||
    fail "a hashed wrong password was not refused"
old=$(( $(date +%s) - 3600 ))
oob --bind 127.0.0.4 --hash-rcon --rcon-time $old $port "rcon s3cret status" |
    grep -q "^reply: nBad rcon_password" || fail "an hour-old hashed rcon was accepted"
grep -q "Bad rcon from 127.0.0.4:[0-9]*: status (time stamp too far" "$tmp/server.log" ||
    fail "the old time stamp is not named in the log"
oob --bind 127.0.0.4 $port "rcon s3cret status" | grep -q "^reply: nBad rcon_password" ||
    fail "a plain password was accepted with sv_crypt_rcon 1"
grep -q "Bad rcon from 127.0.0.4:[0-9]*: status (not a hashed password" "$tmp/server.log" ||
    fail "the plain password is not explained in the log"
stop_server

# the plain form, and the rate limit
start_server $port +set rcon_password s3cret +set sv_rcon_maxfails 3 +set sv_rcon_window 3600 \
    +set sv_crypt_rcon 0
client_in_game carol $port
oob $port "rcon s3cret status" >"$tmp/status" || fail "no answer to rcon status"
cat "$tmp/status"
grep -q "^reply: nhostname : qwsv Atomic Quake" "$tmp/status" || fail "rcon status: no hostname"
grep -Eq "\\\\n +[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+:[0-9]{2} carol +127\.0\.0\.1:" "$tmp/status" ||
    fail "rcon status does not list carol"
grep -q "\] rcon from 127.0.0.1:[0-9]*: status$" "$tmp/server.log" || fail "rcon is not logged"
oob $port 'rcon s3cret hostname "Over Rcon"; fraglimit 9; serverinfo' >"$tmp/set" || fail "no answer"
grep -q 'hostname *Over Rcon\\n' "$tmp/set" || fail "rcon did not set the hostname: $(cat "$tmp/set")"
oob $port status | grep -q '\\fraglimit\\9\\' || fail "fraglimit 9 is not in the serverinfo"
oob $port "rcon s3cret say from afar" >/dev/null
wait_log "chat: console: from afar"
oob $port "rcon s3cret map $map" | grep -q "changing to map $map" || fail "rcon map did not answer"
wait_log "map changed to $map: 1 client"

# three wrong passwords: three replies, three log lines with the address
oob $port "rcon guess1 status" "rcon guess2 status" "rcon guess3 status" >"$tmp/wrong" ||
    fail "no answer"
cat "$tmp/wrong"
[ "$(grep -c '^reply: nBad rcon_password\.\\n$' "$tmp/wrong")" = 3 ] || fail "wrong passwords were not refused"
[ "$(grep -c "Bad rcon from 127.0.0.1:[0-9]*: status (wrong password" "$tmp/server.log")" = 3 ] ||
    fail "wrong passwords are not logged with the address"
# the limit is reached: this address is ignored, even with the right password
oob $port "rcon guess4 status" "rcon s3cret status" >"$tmp/limited" || fail "no answer to the ping"
[ -s "$tmp/limited" ] && fail "rcon answered an address over the limit: $(cat "$tmp/limited")"
grep -q "rcon from 127.0.0.1:[0-9]* ignored: 3 wrong passwords within 3600 s" "$tmp/server.log" ||
    fail "the rate limit is not logged"
[ "$(grep -c "Bad rcon from 127.0.0.1" "$tmp/server.log")" = 3 ] || fail "ignored packets still log one line each"
# another address still gets in
oob --bind 127.0.0.2 $port "rcon s3cret kick carol" >"$tmp/kick" || fail "no answer"
grep -q "carol was kicked" "$tmp/kick" || fail "rcon kick: $(cat "$tmp/kick")"
wait_log "carol dropped: kicked by rcon from 127.0.0.2"
# (the server may stop before answering oob.py's closing ping)
oob --bind 127.0.0.2 --timeout 2 $port "rcon s3cret quit" >/dev/null 2>&1
wait "$server_pid"
rc=$?
server_pid=
[ $rc = 0 ] || fail "qwsv exited with $rc after rcon quit"
grep -q "quit requested by rcon from 127.0.0.2" "$tmp/server.log" || fail "rcon quit is not logged"
echo "ok"
