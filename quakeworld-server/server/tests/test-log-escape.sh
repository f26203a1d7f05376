#!/usr/bin/env bash
# Text from the network cannot forge log lines (tests/log_escape.py sends it): a name, chat, a
# name change (userinfo), a download name, an unknown string command and a bad rcon, each
# carrying a newline, a forged line, a carriage return and an escape character, reach the log
# (stdout and -logfile) with those characters escaped (\n, \r, \x1b) or cleaned away: no
# line of either starts with FORGED or a forged time stamp, and each source's line is there.
. "$(dirname "$0")/lib.sh"
pick_map
port=27547
start_server $port -threads 2 -sync lock -logfile "$tmp/qwsv.log" +set rcon_password s3cret
python3 "$(dirname "$0")/log_escape.py" $port >"$tmp/sent.log" 2>&1 ||
    fail "log_escape.py failed: $(cat "$tmp/sent.log")"
wait_log "Bad rcon from" || fail "the bad rcon was not logged"
stop_server
for f in "$tmp/server.log" "$tmp/qwsv.log"; do
    grep -a -n '^FORGED\|^\[ *1.000\] x\|^[0-9-]* [0-9:.]* [-+][0-9]* FORGED' "$f" &&
        fail "a forged line in $f"
    grep -a -q $'\r\|\x1b' "$f" && fail "a carriage return or escape character in $f"
    # a name keeps no control characters (the userinfo's name is cleaned), the rest escaped
    for what in 'nFORGED .* connected from' 'chat: .*hello\\nFORGED' \
                'changed name to mFORGED' 'download of maps/x\\nFORGED .*\\r\\x1b\[2K.bsp refused' \
                'unknown string command' 'Bad rcon from 127.0.0.1:[0-9]*: status\\nFORGED'; do
        grep -a -q "$what" "$f" || fail "no line matching '$what' in $f"
    done
done
echo "forged lines: 0 (stdout and -logfile)"
echo "ok"
