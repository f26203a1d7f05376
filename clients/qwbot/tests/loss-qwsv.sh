#!/usr/bin/env bash
# Packet loss as a QuakeWorld client counts it (ezQuake's "pl"): a move without a reply that
# acknowledges it, unless the reply's svc_chokecount says it was answered together with a
# later one. 1) eight bots at the real pace: no move lost. 2) -waitall, a bot sending every
# 15 ms beside one sending every 60 ms: the server waits for both, so the fast bot's moves
# arrive about four to a frame and get one reply: none counted lost, the rest "answered
# with a later one" (without svc_chokecount a QuakeWorld client counted them all lost).
# Four a frame leave the 16-slot inbox room for a slow bot's packet 180 ms late (a loaded
# machine); twelve a frame overflowed it after a 20 ms stall.
# Usage: loss-qwsv.sh PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
port=${1:-27645}

start_qwsv "$port" 2 stm
run -bots 8 -interactions 400
[ "$(stats_value "$work/out" unacked)" = 0 ] || fail "8 bots: $(stats_value "$work/out" unacked) moves lost"
stop_server
echo "8 bots at the real pace: 0 moves lost"

start_qwsv "$port" 2 stm -waitall
"$QWBOT" -server 127.0.0.1:$port -basedir "$basedir" -map "$qwsv_map" -noprogress -name slow \
    -bots 1 -interval 60 -interactions 90 >"$work/slow.out" 2>"$work/slow.err" &
slow=$!
run -name fast -bots 1 -interval 15 -interactions 300
wait "$slow" || fail "the slow bot failed: $(tail -3 "$work/slow.err")"
stop_server
lost=$(stats_value "$work/out" unacked)
choked=$(stats_value "$work/out" choked)
[ "$lost" = 0 ] || fail "the fast bot lost $lost moves"
[ "$choked" -gt 100 ] || fail "only $choked of 300 moves were answered together: the frames did not batch"
echo "-waitall, moves every 15 ms: 0 lost, $choked answered with a later one (svc_chokecount)"
echo "ok"
