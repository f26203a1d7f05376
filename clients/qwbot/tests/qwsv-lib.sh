# Starting our server for qwbot's tests (sourced after lib.sh).
# start_qwsv PORT THREADS SYNC [QWSV-ARGS...]: generates the one-room map with qwmapgen into
# $work/qwsv and runs build/bin/qwsv on it; sets basedir, qwsv_map, server_pid, server_log.
start_qwsv() {
    local port=$1 threads=$2 sync=$3
    shift 3
    [ -x "$QW_BIN/qwsv" ] || skip "build/bin/qwsv is not built yet"
    [ -x "$QW_BIN/qwmapgen" ] || skip "build/bin/qwmapgen is not built yet"
    basedir="$work/qwsv"
    qwsv_map=oneroom
    "$QW_BIN/qwmapgen" -o "$basedir/id1/maps/$qwsv_map.bsp" --size 1536 --spawns 32 \
        >"$work/qwmapgen.log" 2>&1 || { cat "$work/qwmapgen.log"; fail "qwmapgen failed"; }
    fail_if_port_taken "$port"
    server_log="$work/qwsv.log"
    QW_CHKTBL=${QW_CHKTBL:-} "$QW_BIN/qwsv" -basedir "$basedir" -map "$qwsv_map" -ip 127.0.0.1 \
        -port "$port" -threads "$threads" -sync "$sync" -maxclients 32 "$@" >"$server_log" 2>&1 &
    server_pid=$!
    wait_for_server "$port" 20 || { tail -20 "$server_log"; fail "qwsv did not start on port $port"; }
}

# run QWBOT-OPTIONS...: qwbot against the server of start_qwsv; its summary in $work/out,
# shown; fails the test when qwbot fails
run() {
    "$QWBOT" -server 127.0.0.1:$port -basedir "$basedir" -map "$qwsv_map" -noprogress "$@" \
        >"$work/out" 2>"$work/err"
    local rc=$?
    cat "$work/out"; tail -5 "$work/err"
    [ $rc -eq 0 ] || fail "qwbot $* exited with $rc"
}

# stop_server: SIGTERM, wait (qwsv prints its final statistics on the way out)
stop_server() {
    [ -n "$server_pid" ] || return 0
    kill "$server_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
    server_pid=""
}
