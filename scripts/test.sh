#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit and integration tests (plain and
# under ASan+UBSan), the OpenAPI contract checks, the browser test of the playground page, the
# MCP endpoint driven by the official MCP SDK's client, a bounded fuzzing run and the
# ThreadSanitizer concurrency test.
# Ends with one line "N passed, N failed" (test cases over all stages); exits non-zero on any
# failure. FUZZ_SECONDS (default 20) bounds each fuzzer.
#   scripts/test.sh --quick   the loop for people: the plain build's unit and integration tests
#                             only (under two minutes on 2 cores), the same closing line
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
quick=false
[ "${1:-}" = --quick ] && quick=true
scripts/install-deps.sh "$($quick && echo unit || echo test)" || exit 1

jobs=$(nproc)
passed=0
failed=0
failed_stages=""

# Adds a stage's counts from its "N passed, N failed" line, or counts the stage as one case.
record() {
    local name=$1 rc=$2 log=$3 secs=$4 line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | cut -d' ' -f1)
        f=$(echo "$line" | cut -d' ' -f3)
    elif [ "$rc" = 0 ]; then p=${count_as:-1} f=0; else p=0 f=1; fi
    [ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" = 0 ] || failed_stages="$failed_stages $name"
    echo "== $name: $p passed, $f failed (${secs} s)"
}

# Each stage's closing line says how long it took, so that the slowest stage is plain to see.
stage() {
    local name=$1 log start
    shift
    log=$(mktemp)
    start=$SECONDS
    echo "== $name: $*"
    "$@" 2>&1 | tee "$log"
    record "$name" "${PIPESTATUS[0]}" "$log" "$((SECONDS - start))"
    rm -f "$log"
}

# Criterion prints "Synthesis: Tested: N | Passing: N | Failing: N | Crashing: N" per binary;
# ctest -V shows them all, and this sums them into the closing line's format.
ctest_stage() {
    local dir=$1 rc
    ctest --test-dir "$dir" -V -j "$jobs" --timeout 600 >"$dir/ctest.log" 2>&1
    rc=$?
    grep -E 'Synthesis|tests passed|tests failed|\*\*\*Failed|Failed  ' "$dir/ctest.log" || true
    awk '/Synthesis:/ { for (i = 1; i <= NF; i++) {
            if ($i == "Passing:") p += $(i + 1);
            if ($i == "Failing:" || $i == "Crashing:") f += $(i + 1) } }
         END { printf "%d passed, %d failed\n", p, f }' "$dir/ctest.log"
    [ "$rc" = 0 ] || { echo "ctest failed; the full log is $dir/ctest.log"; tail -n 60 "$dir/ctest.log"; }
    return "$rc"
}

build() {
    local dir=$1
    shift
    # Every option is explicit: scripts/build.sh (the run command) shares build/ with other values.
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOMBATD_WERROR=ON -DCOMBATD_TESTS=ON \
        -DCOMBATD_BENCH=ON -DCOMBATD_SANITIZE=OFF "$@" >/dev/null && cmake --build "$dir" -j "$jobs"
}

asan_tests() {
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest_stage build-asan
}

# A build is not a test case: it counts only when it fails.
count_as=0 stage build build build
stage tests ctest_stage build
if $quick; then
    echo
    [ -z "$failed_stages" ] || echo "failed stages:$failed_stages"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
fi
count_as=0 stage build-asan build build-asan -DCOMBATD_SANITIZE=ON -DCOMBATD_BENCH=OFF
stage tests-asan asan_tests
[ -x tests/contract/run.sh ] && stage contract tests/contract/run.sh
[ -x tests/browser/run.sh ] && stage browser tests/browser/run.sh
[ -x tests/mcp/run.sh ] && stage mcp tests/mcp/run.sh
[ -x tests/tsan/run.sh ] && stage tsan tests/tsan/run.sh
# Restarts behind a proxy lose nothing: 3 replicas behind HAProxy under wrk, SIGTERM, SIGKILL and
# a rolling restart (about a minute).
[ -x tests/scale/run.sh ] && stage scale tests/scale/run.sh
# The deployment files: the image built and run with a real engine, the Kubernetes manifests.
stage image scripts/ci-image.sh
stage kubernetes scripts/ci-kubernetes.sh
[ -x tests/fuzz/run.sh ] && stage fuzz tests/fuzz/run.sh "${FUZZ_SECONDS:-20}"

echo
[ -z "$failed_stages" ] || echo "failed stages:$failed_stages"
echo "all stages: ${SECONDS} s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
