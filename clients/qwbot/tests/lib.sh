# Helpers for qwbot's behaviour tests (sourced). The Makefile passes QWBOT, QW_BIN, QW_SHARED,
# QW_CHKTBL, QWBOT_TRACES and QWBOT_TMP. Every server a test starts is killed on exit.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
qwbot_dir=$(cd "$here/.." && pwd)
top=$(cd "$qwbot_dir/../.." && pwd)
QWBOT=${QWBOT:-$top/build/bin/qwbot}
QW_BIN=${QW_BIN:-$top/build/bin}
QW_SHARED=${QW_SHARED:-$(cd "$top/.." && pwd)/shared}
QWBOT_TRACES=${QWBOT_TRACES:-$qwbot_dir/traces}
QWBOT_TMP=${QWBOT_TMP:-$top/build/tmp}
export QW_SHARED

mkdir -p "$QWBOT_TMP"
work=$(mktemp -d "$QWBOT_TMP/qwbot-test.XXXXXX")
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$server_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }

# wait_for_server PORT SECONDS: until the server answers a status query (quakestat), or the
# server process died.
wait_for_server() {
    local port=$1 limit=$2 i
    for ((i = 0; i < limit * 5; i++)); do
        [ -n "$server_pid" ] && ! kill -0 "$server_pid" 2>/dev/null && return 1
        if command -v quakestat >/dev/null; then
            quakestat -qws "127.0.0.1:$port" -raw , 2>/dev/null | grep -q ",[0-9]*,[0-9]*," && return 0
        else
            [ "$i" -ge 10 ] && return 0
        fi
        sleep 0.2
    done
    return 1
}

# fail_if_port_taken PORT: another server there would be tested instead of ours
fail_if_port_taken() {
    if command -v quakestat >/dev/null &&
        quakestat -qws "127.0.0.1:$1" -raw , 2>/dev/null | grep -q ",[0-9]*,[0-9]*,"; then
        fail "another server already answers on 127.0.0.1:$1"
    fi
}

# start_mvdsv PORT [MAP]: mvdsv + ktx on the shared data (skips the test if unavailable)
start_mvdsv() {
    local port=$1 map=${2:-crateprefab_dm}
    [ -d "$QW_SHARED/quake/id1/maps" ] || skip "$QW_SHARED/quake (free Quake data) is missing"
    [ -x /usr/games/mvdsv ] || skip "mvdsv is not installed (Debian package mvdsv)"
    [ -f /usr/lib/quakeworld/ktx/qwprogs.so ] || skip "ktx is not installed (Debian package ktx)"
    fail_if_port_taken "$port"
    server_log="$work/mvdsv.log"
    "$qwbot_dir/mvdsv-server.sh" "$work/mvdsv" "$port" "$map" >"$server_log" 2>&1 &
    server_pid=$!
    basedir="$work/mvdsv"
    wait_for_server "$port" 20 || { tail -20 "$server_log"; fail "mvdsv did not start on port $port"; }
}

# stats_value FILE KEY: a value from qwbot's "qwbot-stats" line
stats_value() {
    grep '^qwbot-stats ' "$1" | tail -1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}
