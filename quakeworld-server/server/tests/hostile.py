#!/usr/bin/python3
"""hostile.py PORT COUNT [SEED]: COUNT hostile datagrams at the QuakeWorld server on
127.0.0.1:PORT, from clients that first enter the game, so that most of them reach the
parser and the game (a QuakeC game: random impulses, buttons, angles and moves):
  - random bytes, connectionless (FF FF FF FF + junk) or not;
  - netchan packets of a client in the game with random payloads;
  - well-formed clc_move messages with random usercmds (any impulse, button, angle, msec),
    and string commands with random words (the server verifies moves only with a checksum
    table: give it none, QW_CHKTBL=/dev/null, so that these moves run);
Every 10,000 datagrams the server must still answer a status query within 5 s (else exit
1, "the server stopped answering"). Prints how many were sent; exit 0 when the server answered to
the end."""
import random
import socket
import struct
import sys
import time


def oob(sock, addr, text, want=None, timeout=1.0):
    sock.settimeout(timeout)
    sock.sendto(b"\xff\xff\xff\xff" + text, addr)
    while True:
        try:
            data, _ = sock.recvfrom(4096)
        except socket.timeout:
            return None
        if want is None or data[4:5] == want:
            return data


def enter(addr, name, rng):
    """A client in the game (connect, then begin without the sign-on: the server lets a
    client with the right spawncount in)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    reply = oob(s, addr, b"getchallenge\n", b"c")
    if not reply:
        raise SystemExit("hostile.py: no challenge from the server")
    challenge = int(reply[5:].split(b"\0")[0])
    qport = rng.randrange(1, 65535)
    info = b'"\\name\\%s\\spectator\\0"' % name.encode()
    if not oob(s, addr, b"connect 28 %d %d %s\n" % (qport, challenge, info), b"j"):
        raise SystemExit("hostile.py: the server refused the connect")
    client = {"sock": s, "qport": qport, "seq": 1}
    for spawncount in range(1, 4):
        send(addr, client, b"\x04begin %d\0" % spawncount)
    return client


def send(addr, client, payload):
    header = struct.pack("<IIH", client["seq"] & 0x7FFFFFFF, 0, client["qport"])
    client["seq"] += 1
    client["sock"].sendto(header + payload, addr)


def random_move(rng):
    """clc_move: checksum, loss, three usercmds with every field present."""
    out = bytearray([3, rng.randrange(256), rng.randrange(256)])
    for _ in range(3):
        out.append(0xFF & (1 | 2 | 4 | 8 | 16 | 32 | 64 | 128))
        out += struct.pack("<hhhhhhBBB", rng.randrange(-32768, 32768), rng.randrange(-32768, 32768),
                           rng.randrange(-32768, 32768), rng.randrange(-500, 500),
                           rng.randrange(-500, 500), rng.randrange(-500, 500),
                           rng.randrange(8), rng.choice([0, 0, 0] + list(range(1, 256))),
                           rng.randrange(256))
    return bytes(out)


WORDS = [b"kill", b"say", b"setinfo", b"name", b"team", b"new", b"spawn", b"begin", b"drop2",
         b"impulse", b"download", b"prespawn", b"modellist", b"soundlist", b"\xff", b"ptrack"]


def random_stringcmd(rng):
    words = [rng.choice(WORDS) if rng.random() < 0.7 else bytes(rng.randrange(32, 127)
             for _ in range(rng.randrange(1, 20))) for _ in range(rng.randrange(1, 5))]
    return b"\x04" + b" ".join(words) + b"\0"


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    addr = ("127.0.0.1", port)
    clients = [enter(addr, "hostile%d" % i, rng) for i in range(4)]
    raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    started = time.time()
    for n in range(1, count + 1):
        kind = rng.random()
        c = rng.choice(clients)
        if kind < 0.15:
            raw.sendto(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 1500))), addr)
        elif kind < 0.25:
            raw.sendto(b"\xff\xff\xff\xff" + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200))), addr)
        elif kind < 0.45:
            send(addr, c, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 1400))))
        elif kind < 0.9:
            send(addr, c, random_move(rng))
        else:
            send(addr, c, random_stringcmd(rng))
        if n % 10000 == 0:
            # asked again every 0.25 s: the flood from this address spent its budget for
            # packets outside play (100 a second), which the pause gives back
            if not any(oob(probe, addr, b"status\n", b"n", timeout=0.25) for _ in range(20)):
                print("hostile.py: after %d datagrams the server stopped answering" % n)
                return 1
            for c in clients:   # drain what the server sent them
                c["sock"].setblocking(False)
                try:
                    while c["sock"].recv(65536):
                        pass
                except (BlockingIOError, OSError):
                    pass
            if n % 100000 == 0:
                print("%d datagrams, %.0f s, the server answers" % (n, time.time() - started),
                      flush=True)
    print("sent %d hostile datagrams in %.0f s; the server answered to the end"
          % (count, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
