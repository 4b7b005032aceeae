#!/usr/bin/env bash
# Soak: DURATION seconds (default 300) of mixed load on one combatd process, all at once:
#   - valid requests, quick ones of the battle endpoints and the health and metrics routes (wrk,
#     bench/wrk/mixed_valid.lua; every endpoint's answers are the other tests' business): every
#     one must answer 2xx, with no socket error;
#   - malformed requests (wrk, bench/wrk/malformed.lua): every one must answer 4xx, never 5xx;
#   - oversized bodies (curl, 100 KiB, one every 0.2 s): each must answer 413;
#   - slow clients trickling a request one byte every 2 s (bench/slow_clients.py): each must be
#     cut near server.request_deadline.
# Prints resident memory (VmRSS) at start, after a warm-up, and at the end; the goal is growth
# below 5 MB (measured from after the warm-up, when thread arenas and caches are in place;
# the growth from start is printed too).
#
#   bench/soak.sh                 # 5 minutes
#   DURATION=30 bench/soak.sh     # a short run for CI (about 45 s of wall time)
#
# Environment: BUILD (default build), DURATION, WARMUP (s, default 10), PORT (default 18082).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DURATION=${DURATION:-300}
WARMUP=${WARMUP:-10}
PORT=${PORT:-18082}
OUT=$(mktemp -d)
[ -x "$BUILD/combatd" ] || cmake --build "$BUILD" -j2 --target combatd >/dev/null || exit 2

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

COMBATD_ACCESS_LOG=false "$BUILD/combatd" --port "$PORT" --bind 127.0.0.1 2>"$OUT/combatd.log" &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$OUT"' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.05; done
RSS_START=$(rss_kb $PID)
URL=http://127.0.0.1:$PORT

# Warm-up: the same valid traffic, so thread arenas and caches are in place.
WRK_BODIES=$ROOT/bench/wrk/bodies wrk -t1 -c16 -d"${WARMUP}s" \
    -s "$ROOT/bench/wrk/mixed_valid.lua" "$URL" >/dev/null 2>&1
RSS_WARM=$(rss_kb $PID)
echo "soak: combatd pid $PID, ${DURATION}s of mixed load; RSS at start ${RSS_START} kB," \
    "after ${WARMUP}s warm-up ${RSS_WARM} kB"

WRK_BODIES=$ROOT/bench/wrk/bodies wrk -t1 -c32 -d"${DURATION}s" --timeout 5s \
    -s "$ROOT/bench/wrk/mixed_valid.lua" "$URL" >"$OUT/valid.txt" 2>&1 &
W1=$!
wrk -t1 -c8 -d"${DURATION}s" --timeout 5s -s "$ROOT/bench/wrk/malformed.lua" "$URL" \
    >"$OUT/malformed.txt" 2>&1 &
W2=$!
python3 "$ROOT/bench/slow_clients.py" "$PORT" "$DURATION" 20 2 >"$OUT/slow.txt" 2>&1 &
W3=$!
head -c 102400 /dev/zero | tr '\0' ' ' >"$OUT/big.json"
end=$((SECONDS + DURATION))
big_ok=0 big_bad=0
while [ $SECONDS -lt $end ]; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
        -H 'Expect:' --data-binary @"$OUT/big.json" "$URL/simulate")
    if [ "$code" = 413 ]; then big_ok=$((big_ok + 1)); else big_bad=$((big_bad + 1)); fi
    sleep 0.2
done
wait $W1 $W2 $W3
RSS_END=$(rss_kb $PID)
alive=$(curl -s -o /dev/null -w '%{http_code}' "$URL/livez")

echo "--- valid traffic (wrk -c32, mixed_valid.lua)"
grep -E 'requests in|Requests/sec|Non-2xx|Socket errors|^status' "$OUT/valid.txt"
echo "--- malformed traffic (wrk -c8, malformed.lua)"
grep -E 'requests in|Socket errors|^status' "$OUT/malformed.txt"
echo "--- oversized bodies: $big_ok answered 413, $big_bad otherwise"
echo "--- $(cat "$OUT/slow.txt")"
echo "--- /livez after the soak: $alive"

# wrk's own count of non-2xx answers, and the per-status counts from mixed_valid.lua's done().
valid_failed=$(sed -n 's/^ *Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' "$OUT/valid.txt")
valid_failed=${valid_failed:-0}
listed=$(awk '/^status/ { s = $2 + 0; if (s < 200 || s > 299) n += $3 } END { print n + 0 }' "$OUT/valid.txt")
[ "$listed" -le "$valid_failed" ] || valid_failed=$listed
valid_sock=$(sed -n 's/.*Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\).*/\1 \2 \3 \4/p' "$OUT/valid.txt" | awk '{print $1+$2+$3+$4}')
bad_5xx=$(awk '/^status 5/ { n += $3 } END { print n + 0 }' "$OUT/malformed.txt")
bad_listed=$(awk '/^status/ { n += $3 } END { print n + 0 }' "$OUT/malformed.txt")
[ "$bad_listed" -gt 0 ] || { echo "FAIL: malformed.lua listed no statuses"; bad_5xx=1; }
growth_warm=$((RSS_END - RSS_WARM))
growth_start=$((RSS_END - RSS_START))
echo "RSS: start ${RSS_START} kB, after warm-up ${RSS_WARM} kB, end ${RSS_END} kB;" \
    "growth ${growth_warm} kB since the warm-up (${growth_start} kB since start); goal < 5120 kB"
fail=0
[ "$valid_failed" -eq 0 ] || { echo "FAIL: $valid_failed valid requests did not answer 2xx"; fail=1; }
[ "${valid_sock:-0}" -eq 0 ] || { echo "FAIL: $valid_sock socket errors on valid traffic"; fail=1; }
[ "$bad_5xx" -eq 0 ] || { echo "FAIL: $bad_5xx malformed requests answered 5xx"; fail=1; }
[ "$big_bad" -eq 0 ] || { echo "FAIL: $big_bad oversized bodies not answered 413"; fail=1; }
[ "$alive" = 200 ] || { echo "FAIL: /livez answered $alive after the soak"; fail=1; }
[ "$growth_warm" -lt 5120 ] || { echo "FAIL: RSS grew by ${growth_warm} kB"; fail=1; }
[ $fail -eq 0 ] && echo "soak: PASS" || echo "soak: FAIL"
exit $fail
