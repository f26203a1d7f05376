#!/usr/bin/env bash
# Error messages point at the real cause: -ip with an address this machine does not have
# blames the address (not the port), a port in use blames the port, the checksum-table
# warning names only options and variables that exist, and a truncated map is reported as
# truncated, not as a checksum problem.
. "$(dirname "$0")/lib.sh"
pick_map
port=27561

# 192.0.2.1 (TEST-NET-1) is nobody's address
"$QWSV" -basedir "$basedir" -map "$map" -ip 192.0.2.1 -port $port </dev/null >"$tmp/out" 2>&1 &&
    fail "-ip 192.0.2.1 was accepted"
cat "$tmp/out"
grep -q "\-ip 192.0.2.1 is not an address of this machine" "$tmp/out" ||
    fail "a foreign -ip is not blamed on the address"
grep -qi "another server\|port is in use" "$tmp/out" && fail "a foreign -ip is blamed on the port"

start_server $port
"$QWSV" -basedir "$basedir" -map "$map" -ip 127.0.0.1 -port $port </dev/null >"$tmp/out" 2>&1 &&
    fail "a second server on port $port was accepted"
grep -q "the port is in use" "$tmp/out" || fail "a taken port is not named: $(cat "$tmp/out")"

stop_server

# without a table (no QW_CHKTBL, none under -basedir) the warning says how to give one;
# every -option and variable it names must exist
QW_CHKTBL= "$QWSV" -basedir "$basedir" -map "$map" -ip 127.0.0.1 -port $port -quitafter 0.2 \
    </dev/null >"$tmp/out" 2>&1 || fail "qwsv without a table: $(cat "$tmp/out")"
grep "not verifying clc_move checksums" "$tmp/out" >"$tmp/warning" ||
    fail "no warning about the missing checksum table"
cat "$tmp/warning"
"$QWSV" --help >"$tmp/help"
for opt in $(grep -o -- ' -[a-z][a-z]*' "$tmp/warning"); do
    grep -q -- "^ *$opt " "$tmp/help" || fail "the warning names $opt, which qwsv does not have"
done
grep -q "QW_CHKTBL=FILE" "$tmp/warning" || fail "the warning does not name QW_CHKTBL"
grep -q "$basedir/protocol/chktbl.bin" "$tmp/warning" || fail "the warning does not say where"
grep -q "README.md, \"The free maps and the checksum table\"" "$tmp/warning" ||
    fail "the warning does not say how to get the table"
! grep -q "\.\./shared" "$tmp/warning" || fail "the warning points outside the repository"
echo "garbage" >"$tmp/bad-table"
QW_CHKTBL=$tmp/bad-table "$QWSV" -basedir "$basedir" -map "$map" -ip 127.0.0.1 -port $port \
    -quitafter 0.2 </dev/null >"$tmp/out" 2>&1 || fail "qwsv with a bad table: $(cat "$tmp/out")"
grep -q "$tmp/bad-table is not a valid table" "$tmp/out" ||
    fail "a bad table is not named: $(grep chktbl "$tmp/out")"

# a map cut in half
size=$(stat -c %s "$mapfile")
head -c $((size / 2)) "$mapfile" >"$basedir/id1/maps/cut.bsp"
"$QWSV" -basedir "$basedir" -map cut -ip 127.0.0.1 -port $port </dev/null >"$tmp/out" 2>&1 &&
    fail "a truncated map was accepted"
cat "$tmp/out"
grep -q "cut.bsp.*truncated or corrupt" "$tmp/out" || fail "the truncated map is not called truncated"
grep -qi "checksum" "$tmp/out" && fail "the truncated map is blamed on a checksum"
echo "ok"
