#!/usr/bin/env bash
# -waitall: frames start request processing only when every client sent something; two
# clients on two threads still sign on, move and leave.
. "$(dirname "$0")/lib.sh"
pick_map
port=27528
start_server $port -threads 2 -sync lock -waitall
for i in 1 2; do
    client "wait$i" $port -stay 1 -timeout 20 >"$tmp/client$i.log" 2>&1 &
    client_pids+=($!)
done
for i in 1 2; do
    wait "${client_pids[$((i - 1))]}" || fail "wait$i: $(cat "$tmp/client$i.log")"
done
client_pids=()
stop_server
grep -q "waitall" "$tmp/server.log" || fail "the server did not announce -waitall"
grep "qwsv-stats scope=final thread=all" "$tmp/server.log"
echo "ok"
