#!/usr/bin/env bash
# The scoreboard facts test-scoreboard.sh holds qwsv to, checked against the real thing:
# Debian's mvdsv running QuakeWorld's own game (qwprogs.dat). The first player learns of a
# newcomer (name, colours, frags), a player who leaves is cleared from the others'
# scoreboards, a newcomer is seen with its own name and no frags (mvdsv frees a slot 2 s
# after its player left, qwsv at once: the slot number is not checked), "pings"
# is answered with every ping and the loss each client reports, and "status" lists players
# only until asked for spectators.
. "$(dirname "$0")/lib.sh"
[ -x /usr/games/mvdsv ] || skip "skipped: mvdsv is not installed"
[ -f "$QW_SHARED/quake/qw/qwprogs.dat" ] || skip "skipped: $QW_SHARED/quake/qw/qwprogs.dat is missing"
[ -f "$QW_SHARED/quake/id1/maps/crateprefab_dm.bsp" ] || skip "skipped: $QW_SHARED/quake is missing"
[ -n "$chktbl" ] || skip "skipped: $QW_SHARED/quake/protocol/chktbl.bin is missing"
base=$tmp/mvdsv
mkdir -p "$base/qw"
ln -s "$QW_SHARED/quake/id1" "$base/id1"
ln -s "$QW_SHARED/quake/qw/qwprogs.dat" "$base/qw/qwprogs.dat"
port=27540
(cd "$base" && exec /usr/games/mvdsv -basedir "$base" -progtype 0 -ip 127.0.0.1 -port $port \
    +sv_getrealip 0 +maxclients 3 +maxspectators 1 +deathmatch 1 +map crateprefab_dm) \
    >"$tmp/server.log" 2>&1 &
server_pid=$!
mapfile=$QW_SHARED/quake/id1/maps/crateprefab_dm.bsp
for _ in $(seq 1 100); do
    oob $port "status" 2>/dev/null | grep -q crateprefab_dm && break
    sleep 0.2
done
oob $port "status" | grep -q crateprefab_dm || fail "mvdsv did not come up on crateprefab_dm"

board_join alice
board_join bob -info '\team\blue' -cmd kill
board_sees alice "^slot 1 userid [0-9]+ name bob top 4 bottom 12 frags -[0-9]+ ping [0-9]+ pl 0 spectator 0 "
board_sees bob "^slot 0 userid [0-9]+ name alice top 4 bottom 12 "
oob $port "status" | grep -q '"bob"' || fail "mvdsv's status does not list bob"
board_leave bob
board_forgot alice bob
board_join carol -pings 0.3 -loss 5
board_sees alice "^slot [0-9]+ userid [0-9]+ name carol top 4 bottom 12 frags 0 "
board_sees carol "^slot [0-9]+ userid [0-9]+ name carol .* pl 5 .* pings [1-9]"
board_sees carol "^slot 0 userid [0-9]+ name alice .* pings [1-9]"
grep -q "FAIL" "$tmp/alice.log" && fail "alice failed: $(grep FAIL "$tmp/alice.log")"
echo "ok"
