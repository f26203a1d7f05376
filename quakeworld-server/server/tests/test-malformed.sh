#!/usr/bin/env bash
# Replays the regression corpus (tests/corpus) at a running server from a signed-on client:
# raw, inside correctly sequenced packets (reaching the message parser) and as
# connectionless commands. The server drops them, keeps serving that client (it still
# moves) and answers a fresh client and quakestat afterwards.
. "$(dirname "$0")/lib.sh"
pick_map
port=27525
start_server $port -threads 2 -sync lock
[ -d "$QW_CORPUS" ] && [ -n "$(ls "$QW_CORPUS")" ] || fail "empty corpus $QW_CORPUS"
client fuzzer $port -garbage "$QW_CORPUS" -stay 2 -timeout 20 >"$tmp/fuzzer.log" 2>&1 ||
    fail "the garbage-sending client was disturbed: $(cat "$tmp/fuzzer.log")"
cat "$tmp/fuzzer.log"
grep -q "sent [1-9][0-9]* garbage files" "$tmp/fuzzer.log" || fail "no garbage was sent"
kill -0 "$server_pid" || fail "qwsv died"
grep -q "dropped a bad packet" "$tmp/server.log" || fail "the server logged no dropped packet"
client after $port -timeout 15 >"$tmp/after.log" 2>&1 || fail "a new client failed afterwards: $(cat "$tmp/after.log")"
if command -v quakestat >/dev/null; then
    quakestat -qws 127.0.0.1:$port -raw , | grep -q "^QWS,.*,$map," || fail "quakestat got no answer"
fi
lines=$(grep -c "dropped a bad packet" "$tmp/server.log")
echo "bad-packet log lines: $lines (rate-limited)"
stop_server
total=$(grep "qwsv-stats scope=final thread=all " "$tmp/server.log")
echo "$total"
bad=$(echo "$total" | tr ' ' '\n' | sed -n 's/^bad_packets=//p')
# every sequenced corpus message that is malformed must have been counted as rejected
[ "${bad:-0}" -ge 10 ] || fail "only ${bad:-0} client packets were rejected"
[ "$lines" -lt "$bad" ] || fail "bad-packet logging is not rate-limited ($lines lines for $bad packets)"
echo "ok"
