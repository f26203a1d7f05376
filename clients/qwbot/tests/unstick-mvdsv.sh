#!/usr/bin/env bash
# Why qwbot-vs-mvdsv once saw two bots that never moved, made to happen every time: when every
# spawn spot has a player within 84 units, KTX (prewar) spawns the newcomer on a random spot
# and moves whoever stands there 160 units ahead -- onto anyone it moved there before. Two
# players inside each other cannot move. On a map with a single spawn spot, four bots: the
# first is moved off by the second, the second onto the first by the third, and so on. Each
# stuck bot must get out as a player would ("kill", respawn), so that every bot moves.
. "$(dirname "$0")/lib.sh"
[ -x "$QWBOT" ] || fail "$QWBOT is not built"
[ -x "$QW_BIN/qwmapgen" ] || skip "build/bin/qwmapgen is not built yet"
"$QW_BIN/qwmapgen" -o "$work/gen/onespawn.bsp" --size 1024 --pillars 0 --crates 0 --spawns 1 \
    --items "" >"$work/qwmapgen.log" 2>&1 || { cat "$work/qwmapgen.log"; fail "qwmapgen failed"; }
export MVDSV_EXTRA_MAP="$work/gen/onespawn.bsp"
start_mvdsv 27612 onespawn
"$QWBOT" -server 127.0.0.1:27612 -basedir "$basedir" -map onespawn -bots 4 -interactions 400 \
    -seed 3 -noprogress -v >"$work/out" 2>"$work/err"
rc=$?
grep -v 'print\|stufftext\|->' "$work/err" | tail -20
cat "$work/out"
[ $rc -eq 0 ] || fail "qwbot exited with $rc"
grep -q "stuck inside another player" "$work/err" ||
    fail "no bot was stuck inside another: KTX no longer stacks players, this test needs a new setup"
[ "$(stats_value "$work/out" moved)" = 4 ] || fail "a stuck bot never got out"
echo "stuck bots got out with kill, and all 4 moved"
