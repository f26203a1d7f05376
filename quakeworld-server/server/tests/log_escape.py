#!/usr/bin/python3
"""log_escape.py PORT: sends text with control characters from every network source that
qwsv logs, on 127.0.0.1:PORT: a connect whose name holds them, then as that player chat, a
name change (setinfo), a download, an unknown string command, and a bad rcon. Each text is
EVIL: a newline, a forged log line, a carriage return and a terminal escape. Waits until the
server answered the player's packets (so they were processed); exit 0."""
import sys

from spoof import Player, oob

EVIL = b"\nFORGED [ 1.000] x\r\x1b[2K"


def main():
    addr = ("127.0.0.1", int(sys.argv[1]))
    p = Player(addr, 777)
    challenge = int(oob(p.sock, addr, b"getchallenge\n", b"c")[5:].split(b"\0")[0])
    oob(p.sock, addr, b'connect 28 777 %d "\\name\\n%s"\n' % (challenge, EVIL), b"j")
    for spawncount in range(1, 4):
        p.send(b"\x04begin %d\0" % spawncount)
    p.play(10)
    for cmd in (b'say "hello%s"' % EVIL, b'setinfo name "m%s"' % EVIL,
                b'download "maps/x%s.bsp"' % EVIL, b"bogus%s" % EVIL):
        p.send(b"\x04" + cmd + b"\0")
        p.play(5)
    oob(p.sock, addr, b"rcon wrong status%s\n" % EVIL, b"n")
    p.send(b"\x04drop\0")
    print("sent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
