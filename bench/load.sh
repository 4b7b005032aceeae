#!/usr/bin/env bash
# Load: combatd against the speed limit of its own HTTP stack (bench/bare_server.c), one run
# after the other with the same wrk settings. For each run prints requests/s, p50 and p99
# latency, non-2xx and socket-error counts, and the server's CPU time per request (utime +
# stime from /proc/PID/stat over the measured run, divided by the requests wrk counted). The
# summary gives each combatd run's CPU per request as a multiple of the bare server's at the
# same libmicrohttpd settings ("bare MHD POST", combatd's connection_memory_limit) and of the
# bare server at libmicrohttpd's defaults ("bare MHD defaults"), against the goals: at most
# 1.3x for a deterministic /analyze-attack (10 v 5, luck 0), 1.5x for 10 v 6 at 16 % luck,
# 1.6x for /duper/battle (docs/api/duper.md's example) and 2x for /simulate of 100 trials.
# jansson stays on the request path, so its parse is the floor of every request: each round
# also measures jansson's parse of each body as the service makes it (bench/parse_floor.c, CPU
# time in-process), and the goals are read as combatd's share above it: (CPU per request −
# that parse) / the bare server's. The raw ratio is printed beside it.
#
#   bench/load.sh                       # 3 rounds of 10 s runs, 64 connections, 2 wrk threads
#   DURATION=30 CONNECTIONS=128 bench/load.sh
#   WORK_NS="2500 5000" bench/load.sh   # also the bare server with that much busy work per answer
#
# On a small machine wrk and the server share the CPUs and one run's req/s can move by 20 %, so
# the servers take turns for ROUNDS rounds and the summary uses each run's median.
#
# Environment: BUILD (build dir, default build), DURATION (s), CONNECTIONS, WRK_THREADS,
# SERVER_THREADS (0 = one per CPU, combatd's default; both servers get the same), WARMUP (s),
# ACCESS_LOG (true/false, combatd's access log, default true, written to /dev/null),
# BARE_BODY_BYTES (pad the bare server's answer to this many bytes; default: its 55-byte body),
# ROUNDS (default 3), WORK_NS (space-separated ns of busy work for extra bare runs; see
# bench/bare_server.c --work-ns: what share of the stack's req/s a per-request cost leaves).
# MEMORY_LIMIT (bytes of libmicrohttpd memory per connection for combatd and "bare MHD POST";
# default: combatd's configured connection_memory_limit).
# Goals: the CPU ratios above, with zero non-2xx and zero socket errors; the last lines say
# whether each is met.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-2}
SERVER_THREADS=${SERVER_THREADS:-0}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
WORK_NS=${WORK_NS:-}
ACCESS_LOG=${ACCESS_LOG:-true}
PORT_BARE=${PORT_BARE:-18081}
PORT_COMBATD=${PORT_COMBATD:-18080}
BODIES=$ROOT/bench/wrk/bodies
TICK=$(getconf CLK_TCK)

if [ ! -x "$BUILD/combatd" ] || [ ! -x "$BUILD/bench/bare_server" ] ||
    [ ! -x "$BUILD/bench/parse_floor" ]; then
    cmake --build "$BUILD" -j2 --target combatd bare_server parse_floor >/dev/null || exit 2
fi
command -v wrk >/dev/null || { echo "load: wrk is not installed (apt-get install wrk)"; exit 2; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

wait_port() {
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}

# Every run's req/s and CPU µs per request, by label, one value per round; FLOOR: jansson's
# parse of the label's body, µs, one value per round.
declare -A RPS CPU FLOOR
LABELS=()
run() { # label pid port path body
    local label=$1 pid=$2 port=$3 path=$4 body=$5 out
    WRK_BODY=$body wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" \
        -s "$ROOT/bench/wrk/post.lua" "http://127.0.0.1:$port$path" >/dev/null 2>&1
    local c0 c1
    c0=$(cpu_ticks "$pid")
    out=$(WRK_BODY=$body wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency \
        -s "$ROOT/bench/wrk/post.lua" "http://127.0.0.1:$port$path" 2>&1)
    c1=$(cpu_ticks "$pid")
    local reqs rps p50 p99 non2xx sockerr cpu_us
    reqs=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' <<<"$out")
    rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(sed -n 's/^ *Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' <<<"$out")
    sockerr=$(sed -n 's/^ *Socket errors: *\(.*\)/\1/p' <<<"$out")
    cpu_us=$(awk -v t=$((c1 - c0)) -v hz="$TICK" -v n="${reqs:-0}" \
        'BEGIN { if (n > 0) printf "%.1f", t / hz * 1e6 / n; else print "?" }')
    [ -n "${RPS[$label]+set}" ] || LABELS+=("$label")
    RPS[$label]="${RPS[$label]:-} ${rps:-0}"
    CPU[$label]="${CPU[$label]:-} $cpu_us"
    printf '%-28s %10s %9s %9s %8s %12s  %s\n' "$label" "${rps:-?}" "${p50:-?}" "${p99:-?}" \
        "${non2xx:-0}" "$cpu_us" "${sockerr:-none}"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load: $ROUNDS rounds of wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s (after ${WARMUP}s" \
    "warm-up), server threads $SERVER_THREADS (0 = one per CPU = $(nproc)), $(nproc) CPUs," \
    "combatd access log $ACCESS_LOG"
printf '%-28s %10s %9s %9s %8s %12s  %s\n' run "req/s" p50 p99 non-2xx "CPU us/req" \
    "socket errors"

BARE=
COMBATD=
trap 'kill $BARE $COMBATD 2>/dev/null' EXIT
MEMORY_LIMIT=${MEMORY_LIMIT:-}
bare_run() { # label work_ns [memory limit: 0 = libmicrohttpd's default]
    local memory=${3:-$MEMORY_LIMIT}
    "$BUILD/bench/bare_server" --port "$PORT_BARE" --threads "$SERVER_THREADS" \
        --body-bytes "${BARE_BODY_BYTES:-0}" --work-ns "$2" ${memory:+--memory-limit $memory} \
        2>/dev/null &
    BARE=$!
    wait_port "$PORT_BARE" || { echo "load: bare_server did not start"; exit 2; }
    run "$1" $BARE "$PORT_BARE" / "$BODIES/analyze_det.json"
    kill $BARE; wait $BARE 2>/dev/null; BARE=
}

for _ in $(seq "$ROUNDS"); do
    bare_run "bare MHD POST" 0
    bare_run "bare MHD defaults" 0 0
    for ns in $WORK_NS; do
        bare_run "bare + ${ns} ns work" "$ns"
    done
    env COMBATD_ACCESS_LOG="$ACCESS_LOG" ${MEMORY_LIMIT:+COMBATD_CONNECTION_MEMORY_LIMIT=$MEMORY_LIMIT} \
        "$BUILD/combatd" --port "$PORT_COMBATD" --bind 127.0.0.1 --threads "$SERVER_THREADS" \
        2>/dev/null &
    COMBATD=$!
    wait_port "$PORT_COMBATD" || { echo "load: combatd did not start"; exit 2; }
    run "combatd /analyze-attack 10v5" $COMBATD "$PORT_COMBATD" /analyze-attack \
        "$BODIES/analyze_det.json"
    run "combatd /analyze-attack 16%" $COMBATD "$PORT_COMBATD" /analyze-attack \
        "$BODIES/analyze_small.json"
    run "combatd /duper/battle" $COMBATD "$PORT_COMBATD" /duper/battle "$BODIES/duper_small.json"
    run "combatd /simulate (100)" $COMBATD "$PORT_COMBATD" /simulate "$BODIES/simulate_small.json"
    kill $COMBATD; wait $COMBATD 2>/dev/null; COMBATD=
    for pair in "combatd /analyze-attack 10v5=analyze_det" "combatd /analyze-attack 16%=analyze_small" \
        "combatd /duper/battle=duper_small" "combatd /simulate (100)=simulate_small"; do
        FLOOR[${pair%%=*}]="${FLOOR[${pair%%=*}]:-} $("$BUILD/bench/parse_floor" \
            "$BODIES/${pair#*=}.json" 100000)"
    done
done

echo
echo "medians over $ROUNDS rounds:"
printf '%-28s %10s %12s %10s %10s %10s %10s\n' run "req/s" "CPU us/req" "rps of bare" \
    "CPU x bare" "x defaults" "parse us"
BARE_RPS=$(median <<<"${RPS[bare MHD POST]}")
BARE_CPU=$(median <<<"${CPU[bare MHD POST]}")
DEF_CPU=$(median <<<"${CPU[bare MHD defaults]}")
for label in "${LABELS[@]}"; do
    rps=$(median <<<"${RPS[$label]}")
    floor=-
    [ -z "${FLOOR[$label]+set}" ] || floor=$(median <<<"${FLOOR[$label]}")
    awk -v l="$label" -v r="$rps" -v c="$(median <<<"${CPU[$label]}")" -v b="$BARE_RPS" \
        -v bc="$BARE_CPU" -v dc="$DEF_CPU" -v f="$floor" \
        'BEGIN { printf "%-28s %10.0f %12s %10.2f %10.2f %10.2f %10s\n", l, r, c,
                 (b > 0 ? r / b : 0), (bc > 0 ? c / bc : 0), (dc > 0 ? c / dc : 0), f }'
done
echo
# Server CPU per request as a multiple of the bare server's (docs/performance.md "Load").
goal() { # label limit
    local c f
    c=$(median <<<"${CPU[$1]}")
    f=$(median <<<"${FLOOR[$1]}")
    for base in "bare MHD POST" "bare MHD defaults"; do
        awk -v l="$1" -v c="$c" -v f="$f" -v b="$(median <<<"${CPU[$base]}")" -v g="$2" \
            -v n="$base" \
            'BEGIN { r = b > 0 ? c / b : 0; a = b > 0 ? (c - f) / b : 0
                     printf "%s: %.2fx the CPU per request of %s above jansson'"'"'s parse " \
                            "(%.2f us), %.2fx in all (goal <= %.1fx): %s\n", l, a, n, f, r, g,
                            (a > 0 && a <= g ? "met" : "NOT met") }'
    done
}
goal "combatd /analyze-attack 10v5" 1.3
goal "combatd /analyze-attack 16%" 1.5
goal "combatd /duper/battle" 1.6
goal "combatd /simulate (100)" 2.0
