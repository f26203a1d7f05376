#!/usr/bin/env bash
# 8 scripted bots against the real mvdsv + ktx on crateprefab_dm: all spawn, all move.
. "$(dirname "$0")/lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
start_mvdsv 27610
"$QWBOT" -server 127.0.0.1:27610 -basedir "$basedir" -map crateprefab_dm -bots 8 \
    -interactions 300 -seed 3 -noprogress -v >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out"
grep -v 'print\|stufftext\|->' "$work/err" | tail -20
[ $rc -eq 0 ] || fail "qwbot exited with $rc"
[ "$(stats_value "$work/out" spawned)" = 8 ] || fail "not all 8 bots spawned"
[ "$(stats_value "$work/out" completed)" = 8 ] || fail "not all 8 bots completed"
[ "$(stats_value "$work/out" interactions)" = 2400 ] || fail "expected 2400 interactions"
[ "$(stats_value "$work/out" moved)" = 8 ] || fail "not every bot's origin changed (moves ignored?)"
[ "$(stats_value "$work/out" acked)" -gt 0 ] || fail "no move was acknowledged"
[ "$(stats_value "$work/out" bad_messages)" = 0 ] || fail "some server messages could not be parsed"
for i in 1 2 3 4 5 6 7 8; do
    grep -q "qwbot$i entered the game" "$server_log" || fail "mvdsv never saw qwbot$i enter the game"
done
# a clean disconnect: mvdsv logs "NAME dropped" for each "drop" it received
for _ in $(seq 20); do [ "$(grep -c 'qwbot[0-9] dropped' "$server_log")" -ge 8 ] && break; sleep 0.1; done
[ "$(grep -c 'qwbot[0-9] dropped' "$server_log")" -ge 8 ] || fail "mvdsv did not log 8 drops"
echo "8 bots spawned, moved and dropped on mvdsv"
