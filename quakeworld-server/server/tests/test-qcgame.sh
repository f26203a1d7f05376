#!/usr/bin/env bash
# QuakeWorld's own game (id's qwprogs.dat from ../shared) in qwsv, as a server admin runs it:
#   - the game is chosen as on QuakeWorld servers (-progs FILE; qwprogs.dat of -game DIR, qw/,
#     id1/; the C deathmatch without any, said at start-up; -progs none);
#   - four clients fight on it (they sign on, move, shoot; two obituaries go round) in every
#     -sync mode and with -sched lpt, and no QuakeC error is logged;
#   - hostile datagrams (the corpus) against it: dropped, the server goes on;
#   - 100 damaged copies of qwprogs.dat: each refused at start-up with a message naming it,
#     or run (the damage was harmless, or its QuakeC errors are reported): never a crash.
# Usage: test-qcgame.sh [UNITS]: UNITS is test_qcgame (the engine calls in-process); without
# it the server tests run. Skips (77) without ../shared/quake.
. "$(dirname "$0")/lib.sh"
progs=$QW_SHARED/quake/qw/qwprogs.dat
basedir=$QW_SHARED/quake map=crateprefab_dm mapfile=$basedir/id1/maps/$map.bsp
[ -f "$progs" ] && [ -f "$mapfile" ] && [ -f "$basedir/id1/maps/lqdm2.bsp" ] ||
    skip "skipped: $progs or the free maps (../shared/quake, see ../shared/quake/README.md) are missing"

if [ $# -gt 0 ]; then
    "$1" "$basedir" "$progs" || fail "the QuakeC game's engine calls"
    exit 0
fi

# -- which game runs -----------------------------------------------------------------------
choice() { # choice EXPECTED-LOG-TEXT QWSV-ARGS...
    local want=$1; shift
    "$QWSV" -ip 127.0.0.1 -port 27538 -map "$map" -quitafter 0.2 "$@" </dev/null \
        >"$tmp/choice.log" 2>&1 || fail "qwsv $* failed: $(cat "$tmp/choice.log")"
    grep -q -- "$want" "$tmp/choice.log" || fail "qwsv $*: no \"$want\" in: $(head -5 "$tmp/choice.log")"
}
choice "game: QuakeC, $progs" -basedir "$basedir"
choice "game: the C deathmatch (-progs none)" -basedir "$basedir" -progs none
# a copy of the data without qw/: the C deathmatch, said so
mkdir -p "$tmp/noqw/id1/maps"
ln -sf "$mapfile" "$tmp/noqw/id1/maps/$map.bsp"
choice "no qwprogs.dat in $tmp/noqw" -basedir "$tmp/noqw"
# -game DIR before qw/: a damaged copy there is what runs (and is refused)
mkdir -p "$tmp/noqw/mod"
head -c 1000 "$progs" >"$tmp/noqw/mod/qwprogs.dat"
"$QWSV" -basedir "$tmp/noqw" -game mod -ip 127.0.0.1 -port 27538 -map "$map" -quitafter 0.2 \
    </dev/null >"$tmp/choice.log" 2>&1 && fail "a truncated -game mod/qwprogs.dat was accepted"
grep -q "qwsv: $tmp/noqw/mod/qwprogs.dat: " "$tmp/choice.log" ||
    fail "the refusal does not name the file: $(cat "$tmp/choice.log")"
echo "ok: the game is chosen as on QuakeWorld servers"

# -- four clients fight, in each synchronisation -------------------------------------------
server_game="-progs $progs"
port=27538
for mode in "1 lock static" "2 stm static" "2 stmlock static" "2 region static" "2 none lpt" "2 stm lpt"; do
    read -r threads sync sched <<<"$mode"
    start_server $port -threads "$threads" -sync "$sync" -sched "$sched"
    grep -q "game QuakeC" "$tmp/server.log" || fail "qwsv $mode did not run the QuakeC game"
    for i in 1 2 3 4; do
        # QuakeC prints an obituary in up to 4 pieces, each counted: 8 pieces are 2 deaths or more
        client "fighter$i" $port -shoot -stay 1 -timeout 60 -expect-obituaries 8 \
            >"$tmp/client$i.log" 2>&1 &
        client_pids+=($!)
    done
    rc=0
    for i in 1 2 3 4; do
        wait "${client_pids[$((i - 1))]}" || { echo "fighter$i failed:"; tail -5 "$tmp/client$i.log"; rc=1; }
    done
    client_pids=()
    [ $rc = 0 ] || fail "qwsv $mode: some clients failed"
    stop_server
    grep -q "QuakeC error" "$tmp/server.log" && fail "qwsv $mode: $(grep -A3 "QuakeC error" "$tmp/server.log" | head -8)"
    kills=$(grep -c "fraglog: " "$tmp/server.log")
    [ "$kills" -ge 2 ] || fail "qwsv $mode: only $kills frags were logged"
    commands=$(grep "qwsv-stats scope=final thread=all " "$tmp/server.log" | tr ' ' '\n' | sed -n 's/^commands=//p')
    echo "ok: -threads $threads -sync $sync -sched $sched: 4 clients fought, $kills frags, $commands commands"
done

# -- hostile datagrams ----------------------------------------------------------------------
start_server $port -threads 2 -sync stm
client fuzzer $port -garbage "$QW_CORPUS" -stay 2 -timeout 20 >"$tmp/fuzzer.log" 2>&1 ||
    fail "the garbage-sending client was disturbed: $(tail -3 "$tmp/fuzzer.log")"
kill -0 "$server_pid" || fail "qwsv died under the corpus"
client after $port -timeout 15 >"$tmp/after.log" 2>&1 || fail "a new client failed afterwards"
stop_server
echo "ok: the corpus of bad packets was dropped; the QuakeC game went on"
# 100,000 random datagrams from clients in the game (moves with any impulse, button and angle
# run as QuakeC commands: the server is given no valid checksum table, QW_CHKTBL=/dev/null);
# the server answers status throughout
chktbl_saved=$chktbl chktbl=/dev/null
start_server $port -threads 2 -sync stm
chktbl=$chktbl_saved
python3 "$(dirname "$0")/hostile.py" $port 100000 5 >"$tmp/hostile.log" 2>&1 ||
    fail "hostile datagrams: $(tail -3 "$tmp/hostile.log")"
kill -0 "$server_pid" || fail "qwsv died under hostile datagrams"
stop_server
tail -1 "$tmp/hostile.log"
echo "ok: 100,000 hostile datagrams; QuakeC errors reported: $(grep -c "QuakeC error in" "$tmp/server.log")"

# -- damaged progs files ----------------------------------------------------------------------
mkdir -p "$tmp/bad"
python3 - "$progs" "$tmp/bad" <<'PY'
import random, sys
data = open(sys.argv[1], "rb").read()
rng = random.Random(17)
for i in range(100):
    b = bytearray(data)
    kind = i % 4
    if kind == 0:                      # cut short
        b = b[:rng.randrange(0, len(b))]
    elif kind == 1:                    # a header word
        at = 4 * rng.randrange(0, 15)
        b[at:at + 4] = rng.getrandbits(32).to_bytes(4, "little")
    elif kind == 2:                    # bytes anywhere
        for _ in range(rng.randrange(1, 40)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    else:                              # the code: statements' operands and opcodes
        for _ in range(rng.randrange(1, 20)):
            b[rng.randrange(60, len(b) // 3)] = rng.randrange(256)
    open("%s/bad%03d.dat" % (sys.argv[2], i), "wb").write(b)
PY
refused=0 ran=0
for f in "$tmp"/bad/bad*.dat; do
    "$QWSV" -basedir "$basedir" -progs "$f" -ip 127.0.0.1 -port $port -map lqdm2 -quitafter 0.3 \
        </dev/null >"$tmp/bad.log" 2>&1
    rc=$?
    if [ $rc = 1 ]; then
        grep -q "^qwsv: $f: " "$tmp/bad.log" || fail "$f refused without naming it: $(cat "$tmp/bad.log")"
        refused=$((refused + 1))
    elif [ $rc = 0 ]; then
        ran=$((ran + 1))
    else
        fail "qwsv exited with $rc on $f: $(tail -5 "$tmp/bad.log")"
    fi
done
echo "ok: 100 damaged qwprogs.dat: $refused refused with a message naming the file, $ran ran, 0 crashes"
