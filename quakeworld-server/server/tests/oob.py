#!/usr/bin/env python3
"""Sends QuakeWorld connectionless packets (0xFFFFFFFF + text) to a server on 127.0.0.1 and
prints the replies, one "reply: TEXT" line per packet (newlines shown as \\n). After the
given packets it sends "ping"; its answer (a bare 'l') arrives after every reply to the
packets before it, so the replies seen are all there are (no waiting on a clock).
--hash-rcon sends each "rcon PASSWORD COMMAND" in mvdsv's hashed form (sv_crypt_rcon 1, as
ezQuake does): SHA-1 of "rcon " + PASSWORD + T + " " + each word of COMMAND + " ", then T,
the time as 8 bytes in hex, lowest first (--rcon-time SECONDS: that time instead of now).
Usage: oob.py [--bind ADDR] [--timeout S] [--hash-rcon [--rcon-time T]] PORT PACKET..."""
import hashlib
import socket
import struct
import sys
import time


def words(text):
    """Console words: blanks separate, double quotes group, // ends the line."""
    out, i = [], 0
    while True:
        while i < len(text) and text[i] <= " ":
            i += 1
        if i >= len(text) or text.startswith("//", i):
            return out
        if text[i] == '"':
            end = text.find('"', i + 1)
            end = len(text) if end < 0 else end
            out.append(text[i + 1:end])
            i = end + 1
        else:
            start = i
            while i < len(text) and text[i] > " ":
                i += 1
            out.append(text[start:i])


def hashed_rcon(packet, when):
    _, password, command = (packet.split(" ", 2) + [""])[:3]
    stamp = struct.pack("<q", int(when)).hex().upper()
    text = "rcon " + password + stamp + " " + "".join(w + " " for w in words(command))
    digest = hashlib.sha1(text.encode("latin-1")).hexdigest().upper()
    return "rcon " + digest + stamp + " " + command


def main(argv):
    bind, timeout, hash_rcon, when = "127.0.0.1", 10.0, False, None
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    while args and args[0].startswith("--"):
        if args[0] == "--bind" and len(args) > 1:
            bind, args = args[1], args[2:]
        elif args[0] == "--timeout" and len(args) > 1:
            timeout, args = float(args[1]), args[2:]
        elif args[0] == "--hash-rcon":
            hash_rcon, args = True, args[1:]
        elif args[0] == "--rcon-time" and len(args) > 1:
            when, args = float(args[1]), args[2:]
        else:
            print("oob.py: unknown option " + args[0], file=sys.stderr)
            return 2
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    port = int(args[0])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((bind, 0))
    s.settimeout(timeout)
    for text in args[1:]:
        if hash_rcon and text.startswith("rcon "):
            text = hashed_rcon(text, time.time() if when is None else when)
        s.sendto(b"\xff\xff\xff\xff" + text.encode("latin-1"), ("127.0.0.1", port))
    s.sendto(b"\xff\xff\xff\xffping", ("127.0.0.1", port))
    while True:
        try:
            data, _ = s.recvfrom(65536)
        except socket.timeout:
            print("oob.py: no answer to the closing ping", file=sys.stderr)
            return 1
        if data == b"l":
            return 0
        if data.startswith(b"\xff\xff\xff\xff"):
            data = data[4:]
        text = data.decode("latin-1").replace("\n", "\\n")
        print("reply: " + text)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
