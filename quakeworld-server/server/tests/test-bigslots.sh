#!/usr/bin/env bash
# Player slots beyond QuakeWorld's 32: with -maxclients 34 a client whose userinfo says
# "bigslots 1" may take slots 32 and 33, one without it (every QuakeWorld client) only slots
# 0-31 -- the 33rd such client hears "server is full" while big slots are free. Fake clients
# (one UDP socket each) do getchallenge + connect and read the answer; no timing involved.
. "$(dirname "$0")/lib.sh"
pick_map
port=27537
start_server $port -maxclients 34
python3 - "$port" >"$tmp/connects.log" 2>&1 <<'PY' || fail "connects: $(cat "$tmp/connects.log")"
import socket, sys
port = int(sys.argv[1])
socks = []

def connect(name, bigslots):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(10)
    s.bind(("127.0.0.1", 0))
    socks.append(s)  # stays open: the slot stays taken
    s.sendto(b"\xff\xff\xff\xffgetchallenge\n", ("127.0.0.1", port))
    reply = s.recv(2048)[4:]
    assert reply[:1] == b"c", reply
    challenge = int(reply[1:].split(b"\0")[0])
    info = "\\name\\%s%s" % (name, "\\bigslots\\1" if bigslots else "")
    s.sendto(b"\xff\xff\xff\xffconnect 28 %d %d \"%s\"\n" % (len(socks), challenge, info.encode()),
             ("127.0.0.1", port))
    return s.recv(2048)[4:]

for i in range(32):
    assert connect("plain%d" % i, False)[:1] == b"j", "plain client %d refused" % i
full = connect("plain32", False)
assert full[:1] == b"n" and b"server is full" in full, full
assert connect("big1", True)[:1] == b"j", "a bigslots client was refused"
assert connect("big2", True)[:1] == b"j", "the second bigslots client was refused"
full = connect("big3", True)
assert full[:1] == b"n" and b"server is full" in full, full
print("connects as expected")
PY
cat "$tmp/connects.log"
grep -q "big1 connected from .*(slot 32," "$tmp/server.log" || fail "big1 did not get slot 32"
grep -q "big2 connected from .*(slot 33," "$tmp/server.log" || fail "big2 did not get slot 33"
grep -q "plain32 connected" "$tmp/server.log" && fail "a plain client got a big slot"
echo "ok"
