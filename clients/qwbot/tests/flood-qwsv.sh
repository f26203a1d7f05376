#!/usr/bin/env bash
# A flood beside eight real players (flood.py): from 32 ports of the players' own address,
# garbage carrying their qports, and from 32 ports of another, connectionless junk, for as
# long as the players play. Before each source had a budget, this cost the players 46 % of
# their moves (2,234 of 4,896 unanswered: the flood took their inboxes). Asserted from
# counts, never from speed: every move of the players answered (qwbot's unacked), none of
# their packets dropped by the server and none by the kernel (the flood is paced by the
# socket's queue), every packet the server dropped over a budget came from the flooder's
# two addresses, and a server browser on a third address answered throughout.
# Usage: flood-qwsv.sh PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
port=${1:-27646}

start_qwsv "$port" 2 stm
"$QWBOT" -server 127.0.0.1:$port -basedir "$basedir" -map "$qwsv_map" -noprogress -v \
    -bots 8 -interactions 600 >"$work/out" 2>"$work/err" &
bots=$!
python3 "$here/flood.py" "$port" "$work/err" >"$work/flood.out" 2>"$work/flood.err" &
flood=$!
wait "$bots"
rc=$?
kill -TERM "$flood"
wait "$flood" || fail "flood.py failed: $(cat "$work/flood.err")"
stop_server
cat "$work/flood.out"
[ $rc -eq 0 ] || fail "qwbot exited with $rc: $(tail -5 "$work/err")"
grep '^qwbot-stats ' "$work/out"

unacked=$(stats_value "$work/out" unacked)
[ "$unacked" = 0 ] || fail "the players lost $unacked moves during the flood"

line=$(grep -o 'receive: .*' "$server_log" | tail -1)
echo "$line"
[ -n "$line" ] || fail "qwsv logged no receive counters: $(tail -5 "$server_log")"
# receive: clients in play N packets, D dropped; other sources O packets, B over budget,
# F beyond their share of an inbox; kernel dropped K
read -r played dropped other over foreign kernel < <(echo "$line" |
    sed -E 's/.*in play ([0-9]+) packets, ([0-9]+) dropped; other sources ([0-9]+) packets, ([0-9]+) over budget, ([0-9]+) beyond.*kernel dropped ([0-9]+).*/\1 \2 \3 \4 \5 \6/')
[ "$played" -ge 4000 ] || fail "only $played packets of the players were counted"
[ "$dropped" = 0 ] || fail "the server dropped $dropped packets of the players"
[ "$kernel" = 0 ] || fail "the kernel dropped $kernel packets (the flood should be paced)"
sent=$(sed -n 's/.*flood sent=\([0-9]*\).*/\1/p' "$work/flood.out")
[ "$over" -gt 0 ] && [ "$over" -ge $((sent / 2)) ] ||
    fail "only $over of the flood's $sent packets were dropped over budget"

# every packet dropped over a budget is in a "flood from ADDRESS ended: N packets" line,
# and the addresses are the flooder's
sum=0
while read -r addr n; do
    case $addr in 127.0.0.1|127.0.0.2) ;; *) fail "packets of $addr were dropped over budget" ;; esac
    sum=$((sum + n))
done < <(sed -nE 's/.*flood from ([0-9.]+) ended: ([0-9]+) packets dropped.*/\1 \2/p' "$server_log")
[ "$sum" = "$over" ] || fail "the floods' lines count $sum drops, the counter $over"
grep -q 'flood from many addresses' "$server_log" && fail "the shared budget of all sources ran out"

read -r asked answered < <(sed -nE 's/.*status_asked=([0-9]+) status_answered=([0-9]+).*/\1 \2/p' "$work/flood.out")
[ "$asked" -gt 0 ] && [ "$answered" = "$asked" ] ||
    fail "the browser on 127.0.0.3 got $answered answers to $asked status queries"
echo "flood of $sent packets beside 8 players: 0 of their moves lost, $over flood packets dropped over budget, $foreign beyond an inbox's share, $answered/$asked status queries of another address answered"
echo "ok"
