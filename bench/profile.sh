#!/usr/bin/env bash
# Where one request's instructions go: each request kind sent REQUESTS times on one keep-alive
# connection to a server under callgrind (one HTTP thread), after WARMUP requests uninstrumented,
# then instructions per request by stage (bench/callgrind_stages.py): libmicrohttpd (and of it
# the memset that clears its memory pool), the guards, the request path, parse, the api layer,
# the core, render, the access log, the metrics. Instruction counts do not move with the load of
# a shared machine, so two trees can be compared one after the other.
#
#   bench/profile.sh                    # every row below
#   ROWS="bare analyze-det" bench/profile.sh
#   MEMORY_LIMIT=16384 bench/profile.sh # both servers at that connection_memory_limit
#
# Rows: bare (bench/bare_server.c at combatd's settings), bare-mhd-defaults (libmicrohttpd's
# own memory limit), analyze-det (/analyze-attack 10 v 5, luck 0), analyze-luck (10 v 6, 16 %
# luck), duper (/duper/battle, docs/api/duper.md's example), simulate (/simulate, 100 trials).
# callgrind counts a `rep stosb` one instruction per byte: its memset figure is the bytes
# cleared, which real CPUs clear 32 or 64 at a time.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
REQUESTS=${REQUESTS:-1000}
WARMUP=${WARMUP:-100}
ROWS=${ROWS:-bare bare-mhd-defaults analyze-det analyze-luck duper simulate}
MEMORY_LIMIT=${MEMORY_LIMIT:-}
PORT=${PORT:-18190}
OUT=${OUT:-$(mktemp -d /tmp/combatd-profile-XXXXXX)}
BODIES=$ROOT/bench/wrk/bodies

command -v valgrind >/dev/null || { echo "profile: valgrind is not installed"; exit 2; }
[ -x "$BUILD/combatd" ] && [ -x "$BUILD/bench/bare_server" ] || { echo "profile: build first"; exit 2; }

wait_port() {
    for _ in $(seq 300); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

profile() { # row path body command...
    local row=$1 path=$2 body=$3
    shift 3
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/$row.out" "$@" \
        2>"$OUT/$row.err" &
    local pid=$!
    wait_port "$PORT" || { echo "profile: $row did not start"; kill $pid; return 1; }
    python3 "$ROOT/bench/keepalive_client.py" "$PORT" "$path" "$body" "$WARMUP" || return 1
    callgrind_control -i on $pid >/dev/null 2>&1
    python3 "$ROOT/bench/keepalive_client.py" "$PORT" "$path" "$body" "$REQUESTS" || return 1
    callgrind_control -d $pid >/dev/null 2>&1
    kill $pid
    wait $pid 2>/dev/null
    echo "== $row: $path $(basename "$body"), $REQUESTS requests" \
        "(memory limit ${MEMORY_LIMIT:-as configured})"
    python3 "$ROOT/bench/callgrind_stages.py" "$OUT/$row.out.1" "$REQUESTS"
}

combatd() { # row path body
    if [ -n "$MEMORY_LIMIT" ]; then
        export COMBATD_CONNECTION_MEMORY_LIMIT=$MEMORY_LIMIT
    fi
    profile "$1" "$2" "$3" "$BUILD/combatd" --port "$PORT" --bind 127.0.0.1 --threads 1
}

for row in $ROWS; do
    case $row in
    bare) profile bare / "$BODIES/analyze_det.json" "$BUILD/bench/bare_server" --port "$PORT" \
        --threads 1 ${MEMORY_LIMIT:+--memory-limit $MEMORY_LIMIT} ;;
    bare-mhd-defaults) profile bare-mhd-defaults / "$BODIES/analyze_det.json" \
        "$BUILD/bench/bare_server" --port "$PORT" --threads 1 --memory-limit 0 ;;
    analyze-det) combatd analyze-det /analyze-attack "$BODIES/analyze_det.json" ;;
    analyze-luck) combatd analyze-luck /analyze-attack "$BODIES/analyze_small.json" ;;
    duper) combatd duper /duper/battle "$BODIES/duper_small.json" ;;
    simulate) combatd simulate /simulate "$BODIES/simulate_small.json" ;;
    *) echo "profile: no row $row"; exit 2 ;;
    esac
done
echo "(callgrind files in $OUT)"
