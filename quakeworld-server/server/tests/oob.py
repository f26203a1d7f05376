#!/usr/bin/env python3
"""Sends QuakeWorld connectionless packets (0xFFFFFFFF + text) to a server on 127.0.0.1 and
prints the replies, one "reply: TEXT" line per packet (newlines shown as \\n). After the
given packets it sends "ping"; its answer (a bare 'l') arrives after every reply to the
packets before it, so the replies seen are all there are (no waiting on a clock).
Usage: oob.py [--bind ADDR] [--timeout S] PORT PACKET..."""
import socket
import sys


def main(argv):
    bind, timeout = "127.0.0.1", 10.0
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    while args and args[0].startswith("--"):
        if args[0] == "--bind" and len(args) > 1:
            bind, args = args[1], args[2:]
        elif args[0] == "--timeout" and len(args) > 1:
            timeout, args = float(args[1]), args[2:]
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
