#!/usr/bin/env bash
# The real-peer check of libqwproto: the test client (netchan, usercmd deltas, the clc_move
# sequence checksum, entity deltas, playerinfo) signs on to Debian's mvdsv + KTX and walks.
# KTX ignores moves with a wrong checksum and then reports "is timing out".
. "$(dirname "$0")/lib.sh"
[ -x /usr/games/mvdsv ] || skip "skipped: mvdsv is not installed"
[ -f /usr/lib/quakeworld/ktx/qwprogs.so ] || skip "skipped: ktx is not installed"
[ -f "$QW_SHARED/quake/id1/maps/crateprefab_dm.bsp" ] || skip "skipped: $QW_SHARED/quake is missing"
[ -n "$chktbl" ] || skip "skipped: $QW_SHARED/quake/protocol/chktbl.bin is missing"
command -v quakestat >/dev/null || skip "skipped: quakestat (qstat) is needed to see mvdsv ready"
base=$tmp/mvdsv
mkdir -p "$base"
ln -s "$QW_SHARED/quake/id1" "$base/id1"
cp -r /usr/share/games/quake/ktx "$base/ktx"
rm -f "$base/ktx/qwprogs.so"
ln -s /usr/lib/quakeworld/ktx/qwprogs.so "$base/ktx/qwprogs.so"
printf 'set k_defmap crateprefab_dm\ndeathmatch 3\nteamplay 0\nsv_getrealip 0\nmap crateprefab_dm\n' \
    >"$base/ktx/local.cfg"
port=27529
(cd "$base" && exec /usr/games/mvdsv -basedir "$base" -game ktx -progtype 1 -ip 127.0.0.1 \
    -port $port +exec server.cfg +exec local.cfg) >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    quakestat -qws 127.0.0.1:$port -raw , 2>/dev/null | grep -q crateprefab_dm && break
    sleep 0.2
done
quakestat -qws 127.0.0.1:$port -raw , | grep -q crateprefab_dm || fail "mvdsv did not come up on crateprefab_dm"
mapfile=$QW_SHARED/quake/id1/maps/crateprefab_dm.bsp
client realpeer $port -stay 4 -timeout 20 >"$tmp/client.log" 2>&1 ||
    fail "the client failed against mvdsv: $(tr -cd '[:print:]\n' <"$tmp/client.log" | tail -5)"
grep -a "moved from" "$tmp/client.log" | tr -cd '[:print:]\n'
grep -aq "realpeer entered the game" "$tmp/server.log" || fail "mvdsv did not log the client entering"
if grep -aq "realpeer is timing out" "$tmp/server.log" && ! grep -aq "realpeer is back" "$tmp/server.log"; then
    fail "KTX ignored our moves (sequence checksum?)"
fi
echo "ok"
