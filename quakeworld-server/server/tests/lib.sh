# Shared helpers of the qwsv behaviour tests (sourced). Environment from tests.mk:
# QWSV, QWCLIENT, QW_SHARED, QW_BIN, QW_TMPDIR, QW_CORPUS.
set -u
test_name=$(basename "$0" .sh)
tmp=$QW_TMPDIR/$test_name
rm -rf "$tmp"
mkdir -p "$tmp"
server_pid=
client_pids=()

cleanup() {
    for p in "${client_pids[@]}"; do kill "$p" 2>/dev/null; done
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; [ -f "$tmp/server.log" ] && tail -n 30 "$tmp/server.log"; exit 1; }
skip() { echo "$*"; exit 77; }

# The sequence checksum table, when the shared Quake data is there.
chktbl=$QW_SHARED/quake/protocol/chktbl.bin
[ -f "$chktbl" ] || chktbl=

# Chooses the map: one made by qwmapgen when it is built, else crateprefab_dm.
pick_map() {
    if [ -x "$QW_BIN/qwmapgen" ]; then
        basedir=$tmp/base
        map=arena
        "$QW_BIN/qwmapgen" -o "$basedir/id1/maps/$map.bsp" "$@" >"$tmp/mapgen.log" 2>&1 ||
            fail "qwmapgen failed: $(cat "$tmp/mapgen.log")"
    elif [ -f "$QW_SHARED/quake/id1/maps/crateprefab_dm.bsp" ]; then
        echo "note: qwmapgen not built; using shared crateprefab_dm"
        basedir=$QW_SHARED/quake
        map=crateprefab_dm
    else
        skip "skipped: neither build/bin/qwmapgen nor $QW_SHARED/quake/id1/maps/crateprefab_dm.bsp exists"
    fi
    mapfile=$basedir/id1/maps/$map.bsp
}

# start_server PORT [qwsv options...]: starts qwsv and waits until it listens. Its stdin is
# $server_stdin (default /dev/null: no console); the test's fd 3 (a console pipe's writer
# end, test-console.sh) is not passed on. The game is the C deathmatch (-progs none: a
# basedir of ../shared holds QuakeWorld's qwprogs.dat) unless $server_game gives other
# options (the QuakeC tests: "-progs FILE").
start_server() {
    local port=$1; shift
    # shellcheck disable=SC2086
    QW_CHKTBL=$chktbl "$QWSV" -ip 127.0.0.1 -port "$port" -basedir "$basedir" -map "$map" \
        ${server_game:--progs none} "$@" \
        <"${server_stdin:-/dev/null}" >"$tmp/server.log" 2>&1 3>&- &
    server_pid=$!
    for _ in $(seq 1 100); do
        grep -q "listening on" "$tmp/server.log" 2>/dev/null && return 0
        kill -0 "$server_pid" 2>/dev/null || fail "qwsv exited at start-up: $(cat "$tmp/server.log")"
        sleep 0.1
    done
    fail "qwsv did not start listening"
}

# stop_server: asks qwsv to stop (SIGTERM) and waits, so its final statistics are written.
stop_server() {
    kill -TERM "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
    server_pid=
}

# client NAME PORT [qwclient options...]: runs a test client in the foreground.
client() {
    local name=$1 port=$2; shift 2
    "$QWCLIENT" -port "$port" -name "$name" -map "$mapfile" -chktbl "$chktbl" "$@"
}

# client_in_game NAME PORT: a client that stays in the game (in the background, output in
# $tmp/NAME.log); returns once the server logs that it entered, fails if it never does.
client_in_game() {
    local name=$1 port=$2
    client "$name" "$port" -stay 60 -timeout 90 >"$tmp/$name.log" 2>&1 &
    client_pids+=($!)
    for _ in $(seq 1 100); do
        grep -q "$name entered the game" "$tmp/server.log" && return 0
        sleep 0.1
    done
    fail "$name did not enter the game: $(cat "$tmp/$name.log")"
}

# oob PORT PACKET...: connectionless packets to the server, replies on stdout (see oob.py).
oob() { python3 "$(dirname "${BASH_SOURCE[0]}")/oob.py" "$@"; }

# wait_log PATTERN [FILE]: waits (up to 20 s) until the server log has a line matching
# PATTERN (grep -E); fails the test otherwise.
wait_log() {
    local file=${2:-$tmp/server.log}
    for _ in $(seq 1 200); do
        grep -Eq -- "$1" "$file" 2>/dev/null && return 0
        sleep 0.1
    done
    fail "the log never showed: $1"
}

# Scoreboards (test-scoreboard.sh, test-mvdsv-peer.sh): clients that stay until told to leave,
# each writing what the server told it of every player slot to $tmp/NAME.board (qwclient
# -board). They work against any QuakeWorld server on $port.
declare -A board_pid
# board_join NAME [qwclient options]: returns once the client is in the game.
board_join() {
    local name=$1; shift
    : >"$tmp/$name.board"
    # qwclient itself in the background (not `client`: its shell would get board_leave's signal)
    "$QWCLIENT" -port "$port" -name "$name" -map "$mapfile" -chktbl "$chktbl" \
        -board "$tmp/$name.board" -stay 600 -timeout 700 "$@" >"$tmp/$name.log" 2>&1 &
    board_pid[$name]=$!
    client_pids+=($!)
    for _ in $(seq 1 300); do
        grep -Eq "^(spawned in slot|in the game as a spectator)" "$tmp/$name.log" && return 0
        kill -0 "${board_pid[$name]}" 2>/dev/null || break
        sleep 0.1
    done
    fail "$name did not get into the game: $(tail -3 "$tmp/$name.log")"
}
# board_leave NAME: the client says "drop" (qwclient leaves on SIGTERM) and exits.
board_leave() {
    kill -TERM "${board_pid[$1]}"
    wait "${board_pid[$1]}" || fail "$1 failed: $(tail -3 "$tmp/$1.log")"
}
# board_sees VIEWER REGEX: waits until a line of VIEWER's scoreboard matches REGEX (grep -E).
board_sees() {
    for _ in $(seq 1 200); do
        grep -Eq -- "$2" "$tmp/$1.board" && return 0
        sleep 0.1
    done
    fail "$1's scoreboard never showed /$2/: $(cat "$tmp/$1.board")"
}
# board_forgot VIEWER NAME: waits until NAME is gone from VIEWER's scoreboard.
board_forgot() {
    for _ in $(seq 1 200); do
        grep -q -- " name $2 " "$tmp/$1.board" || return 0
        sleep 0.1
    done
    fail "$2 stayed on $1's scoreboard after leaving: $(cat "$tmp/$1.board")"
}
