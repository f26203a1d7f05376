#!/usr/bin/env bash
# qwsv --help, and clear errors for bad command lines.
. "$(dirname "$0")/lib.sh"
"$QWSV" --help >"$tmp/help.txt" || fail "--help exited non-zero"
for opt in -port -basedir -map -threads -sync -maxclients -stats -waitall -timelimit -ip \
           -quitafter -fraglimit -logfile -sched -jobweight -framecsv --version +set +map +exec; do
    grep -q -- "$opt" "$tmp/help.txt" || fail "--help does not mention $opt"
done
"$QWSV" -basedir /nonexistent -map nomap >"$tmp/out" 2>&1 && fail "a missing map was accepted"
grep -q "/nonexistent/id1/maps/nomap.bsp" "$tmp/out" || fail "the error does not name the map file: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -sync bogus >"$tmp/out" 2>&1 && fail "-sync bogus accepted"
grep -q "lock, region, stm, stmlock or none" "$tmp/out" || fail "bad -sync error: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -threads 2 -sync none >"$tmp/out" 2>&1 && fail "-sync none with 2 threads accepted"
grep -q "threads 1 or -sched lpt" "$tmp/out" || fail "bad -sync none error: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -sched bogus >"$tmp/out" 2>&1 && fail "-sched bogus accepted"
grep -q "sched must be static or lpt (got bogus)" "$tmp/out" || fail "bad -sched error: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -jobweight 3 >"$tmp/out" 2>&1 && fail "-jobweight 3 accepted"
grep -q "jobweight must be clients or cost (got 3)" "$tmp/out" || fail "bad -jobweight error: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -maxclients 193 >"$tmp/out" 2>&1 && fail "-maxclients 193 accepted"
grep -q "maxclients needs a whole number from 1 to 192" "$tmp/out" || fail "bad -maxclients error: $(cat "$tmp/out")"
"$QWSV" -basedir . -map x -threads 0 >"$tmp/out" 2>&1 && fail "-threads 0 accepted"
"$QWSV" -bogus >"$tmp/out" 2>&1 && fail "an unknown option was accepted"
grep -q "unknown option -bogus" "$tmp/out" || fail "unknown option error: $(cat "$tmp/out")"
echo "ok"
