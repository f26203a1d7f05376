#!/usr/bin/python3
"""spoof.py PORT: a player on 127.0.0.1:PORT and an attacker on the same address.

The player enters the game and keeps sending netchan packets, each acknowledging the last
sequence the server sent it. Meanwhile the attacker sends, from other ports, packets with the
player's qport: one with the next sequence and the exact acknowledgement (all a NAT-moved
client would send), one far ahead (65,000), one just inside the netchan's window. Then:
  - the player must go on being answered (50 more replies) and the attacker must get none;
  - a move as a NAT makes one: the player falls silent, then sends from a new port until the
    server answers there (its old port gets nothing afterwards).
Exit 0 with "ok" when all holds; 1 with what went wrong."""
import socket
import struct
import sys
import time


def oob(sock, addr, text, want):
    sock.settimeout(2.0)
    sock.sendto(b"\xff\xff\xff\xff" + text, addr)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            data, _ = sock.recvfrom(8192)
        except socket.timeout:
            sock.sendto(b"\xff\xff\xff\xff" + text, addr)
            continue
        if data[4:5] == want:
            return data
    raise SystemExit("spoof.py: no %r reply to %r" % (want, text))


class Player:
    def __init__(self, addr, qport):
        self.addr, self.qport, self.seq, self.ack = addr, qport, 1, 0
        self.sock = self.new_socket()

    @staticmethod
    def new_socket():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        return s

    def send(self, payload=b"", sock=None, seq=None, ack=None):
        seq = self.seq if seq is None else seq
        if sock is None or sock is self.sock:
            self.seq += 1
        header = struct.pack("<IIH", seq & 0x7FFFFFFF, self.ack if ack is None else ack,
                             self.qport)
        (sock or self.sock).sendto(header + payload, self.addr)

    def replies(self, sock, wait):
        """Reads what arrived on sock within `wait` seconds; remembers the newest sequence."""
        got = 0
        sock.settimeout(wait)
        try:
            while True:
                data, _ = sock.recvfrom(65536)
                if len(data) >= 8 and data[:4] != b"\xff\xff\xff\xff":
                    seq = struct.unpack_from("<I", data)[0]
                    if sock is self.sock and (seq & 0x7FFFFFFF) > (self.ack & 0x7FFFFFFF):
                        toggle = self.ack & 0x80000000
                        if seq & 0x80000000:   # a reliable block: flip our toggle
                            toggle ^= 0x80000000
                        self.ack = (seq & 0x7FFFFFFF) | toggle
                    got += 1
                sock.settimeout(0.0)
        except (socket.timeout, BlockingIOError):
            return got

    def play(self, answers, limit=20.0):
        """Sends until `answers` replies came back (or fails after `limit` seconds)."""
        got, deadline = 0, time.time() + limit
        while got < answers:
            if time.time() > deadline:
                raise SystemExit("spoof.py: FAIL: the player got %d of %d answers" % (got, answers))
            self.send()
            got += self.replies(self.sock, 0.013)
        return got


def main():
    addr = ("127.0.0.1", int(sys.argv[1]))
    qport = 4242
    p = Player(addr, qport)
    challenge = int(oob(p.sock, addr, b"getchallenge\n", b"c")[5:].split(b"\0")[0])
    oob(p.sock, addr, b'connect 28 %d %d "\\name\\victim"\n' % (qport, challenge), b"j")
    for spawncount in range(1, 4):
        p.send(b"\x04begin %d\0" % spawncount)
    p.play(30)

    attacker = Player.new_socket()
    # next sequence, the player's own acknowledgement: only the port tells it apart
    p.send(sock=attacker, seq=p.seq)
    p.send(sock=attacker, seq=p.seq + 65000)
    p.send(sock=attacker, seq=p.seq + 40, ack=0)
    p.play(50)
    if p.replies(attacker, 0.2):
        raise SystemExit("spoof.py: FAIL: the server answered the attacker's port")
    print("the player kept its connection; the attacker got nothing")

    # a NAT maps the player anew: silent, then the same connection from another port
    old = p.sock
    time.sleep(1.2)
    p.sock = Player.new_socket()
    p.play(20)
    p.replies(old, 0.05)
    if p.replies(old, 0.2):
        raise SystemExit("spoof.py: FAIL: the old port is still answered after the move")
    print("the player moved to a new port after a silence and is answered there")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
