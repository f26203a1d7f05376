#!/usr/bin/env python3
"""A flood beside real players (flood-qwsv.sh): until SIGTERM, as fast as the server reads,
- from 32 ports of 127.0.0.1, the players' own address: garbage sequenced packets carrying
  the players' qports (read from qwbot -v's "connected (qport N)" lines), which a server
  that looks clients up by address + qport queues in the players' inboxes, and garbage
  with random qports;
- from 32 ports of 127.0.0.2: connectionless junk, getchallenge, status, and garbage.
From 127.0.0.3 a server browser asks for the status every 0.2 s and must be answered.

Paced by the server socket's receive queue (/proc/net/udp): it sends only while fewer than
QUEUE_LIMIT bytes wait there, so the kernel never drops a datagram for lack of room, however
slow the machine; the server reads the flood as fast as it can, which is the most a flood
can cost it. At the end prints "flood sent=N status_asked=A status_answered=B".

Usage: flood.py PORT QWBOT_STDERR"""
import os
import re
import signal
import socket
import sys
import time

QUEUE_LIMIT = 128 * 1024  # bytes; the smallest buffer qwsv gets is 416 KiB
BURST = 32                # datagrams between two looks at the queue (each < 1 KiB in it)
PLAYERS = 8

port = int(sys.argv[1])
qwbot_err = sys.argv[2]
server = ("127.0.0.1", port)
stop = False


def on_term(_sig, _frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)


def queued_bytes():
    """The server socket's receive queue, or None when /proc/net/udp does not list it."""
    want = "0100007F:%04X" % port
    with open("/proc/net/udp") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 4 and fields[1] == want:
                return int(fields[4].split(":")[1], 16)
    return None


deadline = time.time() + 60
qports = []
while len(qports) < PLAYERS:
    try:
        qports = sorted({int(q) for q in re.findall(r"connected \(qport (\d+)\)", open(qwbot_err).read())})
    except FileNotFoundError:
        pass
    if time.time() > deadline or stop:
        sys.exit("flood.py: qwbot never said its bots' qports (%d of %d)" % (len(qports), PLAYERS))
    time.sleep(0.05)
if queued_bytes() is None:
    sys.exit("flood.py: /proc/net/udp does not list the server's socket on port %d" % port)


def sockets(address, count):
    out = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((address, 0))
        s.setblocking(False)
        out.append(s)
    return out


same_ip = sockets("127.0.0.1", 32)
other_ip = sockets("127.0.0.2", 32)
browser = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
browser.bind(("127.0.0.3", 0))
browser.setblocking(False)


def garbage(qport):
    return os.urandom(8) + bytes([qport & 255, qport >> 8]) + os.urandom(24)


junk = [b"\xff\xff\xff\xffgetchallenge\n", b"\xff\xff\xff\xffstatus\n",
        b"\xff\xff\xff\xff" + b"x" * 40, b"\xff\xff\xff\xffconnect 28 1 2 \"\\name\\f\"\n"]
sent = asked = answered = 0
next_ask = 0.0
i = 0
while not stop:
    now = time.time()
    if now >= next_ask:
        browser.sendto(b"\xff\xff\xff\xffstatus\n", server)
        asked += 1
        next_ask = now + 0.2
    try:
        while True:
            data = browser.recv(2048)
            answered += data.startswith(b"\xff\xff\xff\xffn")
    except BlockingIOError:
        pass
    q = queued_bytes()
    if q is not None and q >= QUEUE_LIMIT:
        time.sleep(0.0005)
        continue
    for _ in range(BURST):
        i += 1
        if i % 2:
            s = same_ip[i // 2 % len(same_ip)]
            pkt = garbage(qports[i // 64 % PLAYERS] if i % 4 == 1 else (i * 40503) & 0xffff)
        else:
            s = other_ip[i // 2 % len(other_ip)]
            pkt = junk[i // 2 % len(junk)] if i % 4 == 0 else garbage((i * 40503) & 0xffff)
        try:
            s.sendto(pkt, server)
            sent += 1
        except BlockingIOError:
            pass

# the last answers
end = time.time() + 5
while answered < asked and time.time() < end:
    try:
        data = browser.recv(2048)
        answered += data.startswith(b"\xff\xff\xff\xffn")
    except BlockingIOError:
        time.sleep(0.01)
print("flood sent=%d status_asked=%d status_answered=%d" % (sent, asked, answered))
