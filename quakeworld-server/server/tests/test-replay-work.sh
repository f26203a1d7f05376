#!/usr/bin/env bash
# The replayed load does the game work of the bots it stands for (issue 18): the shipped
# 24-bot fight trace on the one-room map it was recorded on, played at the trace's pace, 1
# thread, -sync lock, once by qwsv -replay's virtual clients and once by qwbot's bots over the
# network (-aim both). From the server's qwsv-stats lines while every client played, per
# 1,000 commands: the move sections are one per command for both; kills, deaths, pickups and
# the client-message, broadcast and spawn sections agree within the noise of counting (the
# difference over its Poisson standard error, |z| <= 4, and the ratio within 2 where the
# counts are large). Counts,
# not speed: nothing here depends on how fast the machine is. Usage: test-replay-work.sh PORT
. "$(dirname "$0")/lib.sh"
port=${1:-27543}
seconds=12   # of play measured per load: about 22,000 commands, 100-200 kills
trace=$(cd "$(dirname "$0")/../../../clients/qwbot/traces" && pwd)/fight-24x2000.trace
[ -f "$trace" ] || fail "the shipped trace $trace is missing"
[ -x "$QW_BIN/qwbot" ] || skip "skipped: $QW_BIN/qwbot is not built (make)"
pick_map --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1

# work_window LOG: the qwsv-stats interval lines after the one that covers the last entry
# into the game, summed: "commands kills deaths pickups cs_move_command cs_client_message
# cs_broadcast cs_spawn_player"
work_window() {
    awk '/ entered the game$/ { entered = NR }
         /^qwsv-stats scope=interval thread=all / { line[NR] = $0 }
         END { skip = 1
               for (n = entered + 1; n <= NR; n++) {
                   if (!(n in line)) continue
                   if (skip) { skip = 0; continue }
                   split(line[n], f, " ")
                   for (i in f) { split(f[i], kv, "="); sum[kv[1]] += kv[2] } }
               printf "%d %d %d %d %d %d %d %d", sum["commands"], sum["kills"], sum["deaths"],
                      sum["pickups"], sum["cs_move_command"], sum["cs_client_message"],
                      sum["cs_broadcast"], sum["cs_spawn_player"] }' "$1"
}

# the virtual clients: the server stops itself
start_server "$port" -threads 1 -sync lock -maxclients 24 -stats 1 -replay "$trace" -replayspeed 1 \
    -quitafter $((seconds + 3))
wait "$server_pid" || fail "qwsv -replay exited with $?"
server_pid=
cp "$tmp/server.log" "$tmp/replay.log"
read -r -a replay <<<"$(work_window "$tmp/replay.log")"

# the bots over the network, on the same map at the same pace
start_server "$port" -threads 1 -sync lock -maxclients 24 -stats 1
"$QW_BIN/qwbot" -server "127.0.0.1:$port" -basedir "$basedir" -map "$map" -replay "$trace" -aim \
    -duration $((seconds + 2)) -timeout 60 -noprogress >"$tmp/bots.txt" 2>"$tmp/bots.err" ||
    fail "qwbot failed: $(tail -3 "$tmp/bots.err")"
stop_server
cp "$tmp/server.log" "$tmp/bots.log"
read -r -a bots <<<"$(work_window "$tmp/bots.log")"

names=(commands kills deaths pickups move-sections client-message-sections broadcast-sections
       spawn-sections)
printf "%-26s %10s %10s\n" "" "replayed" "bots"
for i in "${!names[@]}"; do printf "%-26s %10s %10s\n" "${names[$i]}" "${replay[$i]}" "${bots[$i]}"; done
[ "${replay[0]}" -gt 10000 ] || fail "the replayed load ran ${replay[0]} commands (expected > 10,000)"
[ "${bots[0]}" -gt 10000 ] || fail "the bots ran ${bots[0]} commands (expected > 10,000)"
[ "${replay[1]}" -gt 20 ] || fail "the replayed clients killed ${replay[1]} times: no fight"

# same_rate NAME A NA B NB LIMIT: A per NA commands against B per NB agree: |z| <= 4, and
# where both counted 50 or more, the rates within LIMIT times of each other
same_rate() {
    awk -v what="$1" -v a="$2" -v na="$3" -v b="$4" -v nb="$5" -v limit="$6" 'BEGIN {
        ra = a / na; rb = b / nb; err = sqrt(a / na^2 + b / nb^2)
        z = err > 0 ? (ra - rb) / err : 0
        printf "%-26s replayed %8.3f  bots %8.3f per 1,000 commands  z %5.2f\n", what,
               1000 * ra, 1000 * rb, z
        if (z > 4 || z < -4) exit 1
        if (a >= 50 && b >= 50 && (ra > limit * rb || rb > limit * ra)) exit 1 }' ||
        fail "$1: the loads do different game work"
}
# one move section per command, for both (not a count to sample: exact up to the window's
# edges)
same_rate move-sections "${replay[4]}" "${replay[0]}" "${bots[4]}" "${bots[0]}" 1.02
for i in 1 2 3 5 6 7; do
    same_rate "${names[$i]}" "${replay[$i]}" "${replay[0]}" "${bots[$i]}" "${bots[0]}" 2
done
echo "ok"
