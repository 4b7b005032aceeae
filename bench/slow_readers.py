#!/usr/bin/env python3
"""Slow readers: N connections ask for large answers (a /simulate listing of
TRIALS battles, about 180 bytes each) and read them one small piece every INTERVAL seconds
for HOLD seconds, then close. Prints the server's VmRSS before, at the peak and after, and how
many connections the server cut (the send deadline) before they closed. combatd must allow the
listing, e.g. with this config:

    {"server": {"per_ip_connection_limit": 0, "worker_share": 1000, "worker_queue": 1000,
                "max_answer_bytes": 33554432},
     "warapp": {"max_listed_battles": 100000}}

    bench/slow_readers.py PORT PID [N=200] [TRIALS=100000] [HOLD=5] [INTERVAL=1] [ROUNDS=2]
"""
import socket
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
trials = int(sys.argv[4]) if len(sys.argv) > 4 else 100000
hold = float(sys.argv[5]) if len(sys.argv) > 5 else 5.0
interval = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0
rounds = int(sys.argv[7]) if len(sys.argv) > 7 else 2
body = (b'{"attackers": 999999999, "defenders": 999999998, "trials": %d, "seed": 3, '
        b'"include_battles": true}' % trials)
request = (b"POST /simulate HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)) + body


def rss_mb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return -1.0


for r in range(rounds):
    before = rss_mb()
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(request)
        s.setblocking(False)
        socks.append(s)
    peak, cut, status = before, 0, {}
    end = time.monotonic() + hold
    while time.monotonic() < end:
        for s in socks:
            try:
                piece = s.recv(64)
                if piece.startswith(b"HTTP/1.1 "):
                    code = piece[9:12].decode()
                    status[code] = status.get(code, 0) + 1
                if piece == b"":
                    cut += 1
            except BlockingIOError:
                pass
            except OSError:
                cut += 1
        peak = max(peak, rss_mb())
        time.sleep(interval)
    for s in socks:
        s.close()
    time.sleep(1.0)
    after = rss_mb()
    print(f"round {r + 1}: {n} slow readers of {trials} listed battles: VmRSS {before:.1f} MB "
          f"before, {peak:.1f} MB at the peak, {after:.1f} MB after they closed "
          f"({after - before:+.1f} MB); status lines {status}; {cut} ended by the server")
