#!/usr/bin/env bash
# Bots that fight, against our server in the given sync mode: six -fight bots in closed loop
# on the one-room map shoot each other (kills, deaths, respawns) until most have scored; the
# recording replays byte for byte, and replayed with -aim (turned to whoever is in view) it
# is a fight again.
# Usage: fight.sh SYNC PORT
. "$(dirname "$0")/lib.sh"
. "$here/qwsv-lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
sync=${1:-stm} port=${2:-27621}
start_qwsv "$port" 2 "$sync"
v() { stats_value "$work/out" "$1"; }
run -bots 6 -interactions 3000 -fight -seed 7 -closedloop -record "$work/fight.trace"
[ "$(v completed)" = 6 ] || fail "not all 6 fighting bots completed"
[ "$(v kills)" -gt 0 ] || fail "nobody was killed"
[ "$(v deaths)" -gt 0 ] || fail "nobody died"
[ "$(v scorers)" -ge 4 ] || fail "only $(v scorers) of 6 bots scored a frag"
grep -q "frags .*above 0" "$work/out" || fail "the summary does not report frags per bot"
grep -q "kills / deaths" "$work/out" || fail "the summary does not report kills and deaths"
run -replay "$work/fight.trace" -closedloop -record "$work/again.trace"
cmp "$work/fight.trace" "$work/again.trace" || fail "the replay of a fight sent a different stream"
run -replay "$work/fight.trace" -aim -closedloop
[ "$(v kills)" -gt 0 ] || fail "the -aim replay killed nobody"
stop_server
grep -q "frag: .* rides .*'s rocket\|frag: .* chewed on" "$server_log" ||
    fail "qwsv logged no frag"
echo "the bots fight on qwsv -sync $sync"
