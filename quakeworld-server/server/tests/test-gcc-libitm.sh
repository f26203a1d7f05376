#!/usr/bin/env bash
# qwsv, built against libtm, runs its transactions on GCC's libitm too (quake-bench's stm-gcc
# mode): the loader must not refuse it for libtm's symbol versions (libtm's own entries are
# found at run time, stats/libtm_extensions.c). On GCC's libitm it serves the replayed
# clients at 2 threads under -sync stm and leaves libtm's counters out of its statistics; on
# libtm the same run reports them. Usage: test-gcc-libitm.sh PORT
. "$(dirname "$0")/lib.sh"
port=${1:-27547}
gcc_libitm=$(gcc -print-file-name=libitm.so.1)
[ -f "$gcc_libitm" ] || skip "GCC's libitm.so.1 is not installed (Debian package libitm1)"
gcc_dir=$(cd "$(dirname "$gcc_libitm")" && pwd)
traces=$(cd "$(dirname "$0")/../../../clients/qwbot/traces" && pwd)
trace=$traces/fight-8x2000.trace
[ -f "$trace" ] || fail "the shipped trace $trace is missing"
pick_map --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1

stat() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

# run LABEL: a 2-thread stm replay that stops by itself; its final statistics in $final
run() {
    start_server "$port" -threads 2 -sync stm -replay "$trace" -quitafter 2
    wait "$server_pid" || fail "$1: qwsv failed: $(tail -5 "$tmp/server.log")"
    server_pid=
    final=$(grep "qwsv-stats scope=final thread=all" "$tmp/server.log")
    [ -n "$final" ] || fail "$1: no final statistics: $(tail -5 "$tmp/server.log")"
    [ "$(stat commands "$final")" -gt 1000 ] || fail "$1: few commands ran: $final"
    [ "$(stat bad_packets "$final")" = 0 ] || fail "$1: packets were rejected: $final"
}

resolved=$(LD_LIBRARY_PATH=$gcc_dir ldd "$QWSV" | sed -n 's/^\s*libitm.so.1 => \(\S*\).*/\1/p')
[ "$(readlink -f "$resolved")" = "$(readlink -f "$gcc_libitm")" ] ||
    fail "with LD_LIBRARY_PATH=$gcc_dir, libitm.so.1 resolves to '$resolved', not GCC's"
LD_LIBRARY_PATH=$gcc_dir run "GCC's libitm"
[ -z "$(stat tm_commits "$final")" ] ||
    fail "libtm's counters reported on GCC's libitm: $final"
run libtm
[ "$(stat tm_commits "$final")" -gt 0 ] || fail "libtm's counters missing on libtm: $final"
echo "qwsv runs on GCC's libitm and on libtm"
