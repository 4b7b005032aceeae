#!/usr/bin/env python3
"""Slow clients for bench/soak.sh: keeps N connections that trickle a request one byte every
INTERVAL seconds (never idle long enough for the inactivity timeout), each reopened when the
server cuts it, for DURATION seconds. Prints how many were cut, and after how long (they should
be cut near server.request_deadline, 15 s by default).

    bench/slow_clients.py PORT DURATION [N=20] [INTERVAL=2]
"""
import socket
import sys
import time

port, duration = int(sys.argv[1]), float(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
interval = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
request = (b"POST /analyze-attack HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
           b"X-Slow: " + b"a" * 100000)


def connect():
    s = socket.create_connection(("127.0.0.1", port))
    s.setblocking(False)
    return {"sock": s, "opened": time.monotonic(), "sent": 0}


clients = [connect() for _ in range(n)]
cut_after = []
end = time.monotonic() + duration
while time.monotonic() < end:
    for c in clients:
        try:
            try:
                if c["sock"].recv(4096) == b"":
                    raise ConnectionResetError  # the server closed it
            except BlockingIOError:
                pass  # still open, nothing to read
            c["sock"].send(request[c["sent"]:c["sent"] + 1])
            c["sent"] += 1
        except OSError:
            cut_after.append(time.monotonic() - c["opened"])
            c["sock"].close()
            c.update(connect())
    time.sleep(interval)
for c in clients:
    c["sock"].close()
if cut_after:
    cut_after.sort()
    print(f"slow clients: {n} trickling 1 byte/{interval:g}s: {len(cut_after)} cut, after "
          f"{cut_after[0]:.1f}..{cut_after[-1]:.1f} s (median {cut_after[len(cut_after)//2]:.1f} s)")
else:
    print(f"slow clients: {n} trickling 1 byte/{interval:g}s: none cut in {duration:g} s")
