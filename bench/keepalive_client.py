#!/usr/bin/env python3
"""POSTs one body N times on one keep-alive connection and checks every answer is a 200.

    keepalive_client.py PORT PATH BODY_FILE N

bench/profile.sh uses it to send an exact number of requests to a server under callgrind (a
load generator counts what it managed to send in a time; this sends what it is told).
"""
import http.client
import sys

port, path, body_file, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(body_file, "rb") as f:
    body = f.read()
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
bad = 0
for _ in range(n):
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    answer = conn.getresponse()
    answer.read()
    bad += answer.status != 200
conn.close()
if bad:
    print(f"keepalive_client: {bad} of {n} answers were not 200", file=sys.stderr)
    sys.exit(1)
