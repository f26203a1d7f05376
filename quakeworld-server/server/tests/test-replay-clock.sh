#!/usr/bin/env bash
# The closed-loop replay keeps the game's clock with the players' moves (net/replay.h,
# sv_replay_game_seconds): its virtual clients send moves as fast as the server answers, many
# times the recorded pace, and the game's time must follow those moves, or rockets, thinks,
# respawns and the reuse of freed entities fall behind the players (id's game then ran out of
# its 768 edicts: "spawn: no free edict"). With id's qwprogs.dat on the one-room map and the
# fight recorded on it, 1 thread, -sync lock: the closed loop and the trace's own pace do the
# same game work per 1,000 commands (kills and deaths: |z| <= 4 as Poisson counts, rates within
# 1.5 of each other), and the closed loop has no QuakeC error. Counts, not speed.
# Usage: test-replay-clock.sh PORT. Skips (77) without ../shared/quake.
. "$(dirname "$0")/lib.sh"
port=${1:-27545}
progs=$QW_SHARED/quake/qw/qwprogs.dat
[ -f "$progs" ] || skip "skipped: $progs is missing (../shared/quake, see its README.md)"
trace=$(cd "$(dirname "$0")/../../../clients/qwbot/traces" && pwd)/qc-oneroom-24x2000.trace
[ -f "$trace" ] || fail "the shipped trace $trace is missing"
pick_map --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1
server_game="-progs $progs"

# replay SPEED SECONDS: runs the replay until the server stops itself; prints the final
# totals line's "commands kills deaths qc_errors"
replay() {
    start_server "$port" -threads 1 -sync lock -maxclients 24 -replay "$trace" \
        -replayspeed "$1" -quitafter "$2"
    wait "$server_pid" || fail "qwsv -replay $trace -replayspeed $1 exited with $?"
    server_pid=
    awk '/^qwsv-stats scope=final thread=all / {
             for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
             printf "%d %d %d %d", v["commands"], v["kills"], v["deaths"], v["qc_errors"] }' \
        "$tmp/server.log"
}

read -r -a closed <<<"$(replay 0 5)"
cp "$tmp/server.log" "$tmp/closed.log"
read -r -a paced <<<"$(replay 1 16)"
printf "%-10s %10s %10s\n" "" "closed" "paced"
names=(commands kills deaths qc_errors)
for i in "${!names[@]}"; do printf "%-10s %10s %10s\n" "${names[$i]}" "${closed[$i]}" "${paced[$i]}"; done

[ "${paced[0]}" -gt 10000 ] || fail "the paced replay ran ${paced[0]} commands (expected > 10,000)"
[ "${closed[0]}" -gt "${paced[0]}" ] ||
    fail "the closed loop ran ${closed[0]} commands, no more than the paced replay's ${paced[0]}"
[ "${paced[1]}" -gt 30 ] || fail "the paced replay killed ${paced[1]} times: no fight"
[ "${closed[3]}" -eq 0 ] ||
    fail "the closed loop raised ${closed[3]} QuakeC errors: $(grep -m1 'QuakeC error' "$tmp/closed.log")"

# same_rate NAME A NA B NB: A per NA commands against B per NB agree
same_rate() {
    awk -v what="$1" -v a="$2" -v na="$3" -v b="$4" -v nb="$5" 'BEGIN {
        ra = a / na; rb = b / nb; err = sqrt(a / na^2 + b / nb^2)
        z = err > 0 ? (ra - rb) / err : 0
        printf "%-10s closed %7.3f  paced %7.3f per 1,000 commands  z %6.2f\n", what,
               1000 * ra, 1000 * rb, z
        if (z > 4 || z < -4 || ra > 1.5 * rb || rb > 1.5 * ra) exit 1 }' ||
        fail "$1: the closed loop's game work differs from the trace's pace"
}
same_rate kills "${closed[1]}" "${closed[0]}" "${paced[1]}" "${paced[0]}"
same_rate deaths "${closed[2]}" "${closed[0]}" "${paced[2]}" "${paced[0]}"
echo "ok"
