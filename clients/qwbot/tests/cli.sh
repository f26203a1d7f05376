#!/usr/bin/env bash
# qwbot's command line: --help, usage errors that name the problem, and a run against a port
# where nobody listens (every bot fails to spawn, the exit status says so).
. "$(dirname "$0")/lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"

expect() {   # expect STATUS PATTERN -- ARGS...
    local want=$1 pattern=$2
    shift 3
    "$QWBOT" "$@" >"$work/out" 2>&1
    local rc=$?
    [ $rc -eq "$want" ] || { cat "$work/out"; fail "qwbot $* exited $rc, expected $want"; }
    grep -q -- "$pattern" "$work/out" || { cat "$work/out"; fail "qwbot $*: no \"$pattern\""; }
}

# a minimal valid BSP29 file: header only, every lump empty (enough for the checksum)
mkdir -p "$work/base/id1/maps"
{ printf '\x1d\x00\x00\x00'; for _ in $(seq 15); do printf '\x7c\x00\x00\x00\x00\x00\x00\x00'; done; } \
    >"$work/base/id1/maps/tiny.bsp"
echo "not a trace" >"$work/junk.trace"

expect 0 "usage: qwbot" -- --help
expect 0 "-record FILE" -- -help
expect 2 "-server HOST:PORT is required" -- -basedir "$work/base"
expect 2 "-basedir DIR is required" -- -server 127.0.0.1:27699
expect 2 "scripted mode needs" -- -server 127.0.0.1:27699 -basedir "$work/base" -map tiny
expect 2 "unknown option" -- -server 127.0.0.1:27699 -frobnicate
expect 2 "-bots needs a whole number from 1 to 1024 (got 0)" -- -server x -basedir y -bots 0
expect 2 "-interactions needs a whole number from 1 to 10000000 (got 12abc)" -- -server x -basedir y -interactions 12abc
expect 2 "-interval needs a whole number of ms from 5 to 250" -- -server x -basedir y -interval 1
expect 2 "bare map name" -- -server x -basedir y -map maps/tiny.bsp -bots 1 -interactions 1
expect 2 "map nothere not found" -- -server 127.0.0.1:27699 -basedir "$work/base" -map nothere -bots 1 -interactions 1
expect 2 "not a qwbot trace" -- -server 127.0.0.1:27699 -basedir "$work/base" -replay "$work/junk.trace"
expect 2 "cannot open" -- -server 127.0.0.1:27699 -basedir "$work/base" -replay "$work/none.trace"
expect 2 "same file" -- -server 127.0.0.1:27699 -basedir "$work/base" -replay a -record a
expect 2 "expected HOST:PORT" -- -server :27699 -basedir "$work/base" -map tiny -bots 1 -interactions 1
expect 2 "exclude each other" -- -server x -basedir y -closedloop -speed 2
expect 2 "-speed needs a number from 0.1 to 100 (got 0.01)" -- -server x -basedir y -speed 0.01
expect 2 "-duration needs seconds, more than 0 (got -1)" -- -server x -basedir y -duration -1
expect 2 "-loops needs a whole number from 1" -- -server x -basedir y -loops 0
expect 2 "only applies to scripted mode" -- -server x -basedir y -replay t -interval 20
expect 2 "-fight only applies to scripted mode" -- -server x -basedir y -replay t -fight
expect 2 "-aim applies to -replay" -- -server x -basedir y -map m -bots 1 -interactions 1 -aim
# nobody on the port: the bots retry, then report that they never spawned
expect 1 "not spawned after 2 s" -- -server 127.0.0.1:27699 -basedir "$work/base" -map tiny \
    -bots 3 -interactions 10 -timeout 2 -noprogress
grep -q "qwbot-stats bots=3 spawned=0 completed=0" "$work/out" || fail "summary missing"
echo "command line checks passed"
