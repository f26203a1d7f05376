#!/usr/bin/env bash
# What every player's scoreboard shows, checked from the wire as mvdsv sends it: clients join,
# leave and rejoin in every order (the first one leaving and coming back, a newcomer taking a
# freed slot, a spectator before and after players), and each client's own scoreboard -- what
# the server told it of every slot -- must show who is there, with names, colours, frags,
# spectators marked, and nobody who left. "pings" is answered with every ping and packet
# loss; spectators count against maxspectators, players against maxclients; the status
# replies list spectators only when asked, as mvdsv's do.
# Usage: test-scoreboard.sh SYNC PORT [SCHED]
. "$(dirname "$0")/lib.sh"
sync=${1:-stm}
port=${2:-27538}
sched=${3:-static}
pick_map --size 768 --pillars 0 --crates 0
start_server "$port" -threads 2 -sync "$sync" -sched "$sched" +maxclients 3 +maxspectators 1 \
    +sv_crypt_rcon 0 +rcon_password boards

# rejected NAME [qwclient options]: the connect is refused as "server is full".
rejected() {
    local name=$1; shift
    client "$name" "$port" -expect-reject -timeout 10 "$@" >"$tmp/$name.log" 2>&1 ||
        fail "$name was not refused: $(cat "$tmp/$name.log")"
}

# the first player, then a second: each knows the other (the first one learns of the
# newcomer's name, colours and entry), and a suicide's frag reaches both
board_join alice
board_sees alice "^slot 0 userid [0-9]+ name alice top 4 bottom 12 frags 0 "
board_join bob -info '\team\blue\skin\base' -cmd kill
board_sees alice "^slot 1 userid [0-9]+ name bob top 4 bottom 12 frags -1 ping [0-9]+ pl 0 spectator 0 "
board_sees bob "^slot 0 userid [0-9]+ name alice top 4 bottom 12 "
grep -aq 'board: slot 1 userid [0-9]* info ".*\\team\\blue' "$tmp/alice.log" ||
    fail "bob's team was not on alice's scoreboard: $(grep -a 'slot 1 userid' "$tmp/alice.log")"

# a spectator: on everybody's scoreboard as one, counted apart from the players
board_join sam -spectator
board_sees alice " name sam .* spectator 1 "
board_sees bob " name sam .* spectator 1 "
board_sees sam " name alice .* spectator 0 "
rejected sue -spectator
wait_log "rejected .*: server is full \(1 of 1 spectators\)"
board_join carol -cmd "setinfo name caroline" -cmd "setinfo topcolor 11"
board_sees alice " name caroline top 11 "
board_sees bob " name caroline top 11 "
wait_log "carol changed name to caroline"
rejected dave
wait_log "rejected .*: server is full \(3 of 3 players\)"

# status as mvdsv answers it: players only, spectators on request (quakestat asks "status 23")
oob "$port" "status" >"$tmp/status0"
grep -q '"alice"' "$tmp/status0" && grep -q '"bob"' "$tmp/status0" ||
    fail "status does not list the players: $(cat "$tmp/status0")"
grep -q 'sam' "$tmp/status0" && fail "status lists the spectator as a player: $(cat "$tmp/status0")"
oob "$port" "status 23" >"$tmp/status23"
grep -q '[0-9] -9999 [0-9]* -[0-9]* "\\s\\sam" "" 4 12 ""' "$tmp/status23" ||
    fail "status 23 does not show sam as a spectator: $(cat "$tmp/status23")"
grep -q '[0-9] -1 [0-9]* [0-9]* "bob" "base" 4 12 "blue"' "$tmp/status23" ||
    fail "status 23 does not show bob's frags, skin and team: $(cat "$tmp/status23")"
oob "$port" "status 31" | grep -q '[0-9] S [0-9]* [0-9]* "sam"' ||
    fail "status 31 does not show sam as a player marked S"
oob "$port" "rcon boards status" >"$tmp/console"
grep -q "players  : 3 of 3, spectators 1 of 1" "$tmp/console" ||
    fail "the console's status counts wrongly: $(cat "$tmp/console")"
if command -v quakestat >/dev/null; then
    quakestat -qws 127.0.0.1:$port -raw , >"$tmp/qs"
    IFS=, read -r _ _ _ _ _ players _ <"$tmp/qs"
    [ "$players" = 3 ] || fail "quakestat counted '$players' players, not 3: $(cat "$tmp/qs")"
fi

# a player leaves: gone from every scoreboard; a newcomer takes the freed slot and is seen
# there with its own name and no frags of the one before
board_leave bob
board_forgot alice bob
board_forgot carol bob
board_forgot sam bob
wait_log "bob dropped: disconnected"
board_join dave -pings 0.3 -loss 5
board_sees alice "^slot 1 userid [0-9]+ name dave top 4 bottom 12 frags 0 "
board_sees dave "^slot 1 userid [0-9]+ name dave .* pl 5 .* pings [1-9]"
board_sees dave "^slot 0 userid [0-9]+ name alice .* pings [1-9]"
board_sees dave " name caroline .* pings [1-9]"

# the first one leaves and comes back: it takes the first free slot, and everybody,
# itself included, sees the room as it is
board_leave alice
board_forgot dave alice
board_forgot sam alice
board_join alice
board_sees alice "^slot 0 userid [0-9]+ name alice "
board_sees alice "^slot 1 userid [0-9]+ name dave "
board_sees alice " name caroline "
board_sees alice " name sam .* spectator 1 "
board_sees dave "^slot 0 userid [0-9]+ name alice "

# the spectator leaves; another one may come
board_leave sam
board_forgot alice sam
board_forgot dave sam
board_join sue -spectator
board_sees dave " name sue .* spectator 1 "

for who in alice dave carol sue; do
    grep -q "FAIL" "$tmp/$who.log" && fail "$who failed: $(grep FAIL "$tmp/$who.log")"
done
stop_server
echo "ok"
