#!/usr/bin/env bash
# Builds every libFuzzer harness (tests/fuzz/build.sh) and runs each for DURATION seconds, one
# after the other, then prints a table of executions per harness. Exits non-zero if any
# harness found a crash, a leak, an UB report or a failed check (the reproducer is left in
# build-fuzz/artifacts/).
#
#   tests/fuzz/run.sh DURATION [HARNESS...]       e.g. tests/fuzz/run.sh 60
#
# Environment: FUZZ_OUT (default build-fuzz), FUZZ_ARGS (extra libFuzzer flags).
# The working corpus (build-fuzz/corpus/<harness>) is kept between runs and grows; it starts
# from seeds extracted from the tests (tests/fuzz/make_corpus.py).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DURATION=${1:?usage: tests/fuzz/run.sh DURATION_SECONDS [HARNESS...]}
shift
OUT=${FUZZ_OUT:-$ROOT/build-fuzz}
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(fuzz_analyze_attack fuzz_simulate fuzz_analyze_turn fuzz_simulate_turn
    fuzz_duper_battle fuzz_duper_board_battle fuzz_duper_board_options fuzz_mcp fuzz_config)

"$ROOT/tests/fuzz/build.sh" "$OUT" || exit 2
python3 "$ROOT/tests/fuzz/make_corpus.py" "$OUT/seeds" || exit 2
mkdir -p "$OUT/artifacts" "$OUT/logs"

# Leaks are checked after every input; UBSan reports abort (built with -fno-sanitize-recover).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
declare -A EXECS RATE RESULT COV
for h in "${HARNESSES[@]}"; do
    corpus=$OUT/corpus/$h
    mkdir -p "$corpus"
    log=$OUT/logs/$h.log
    echo "fuzz: $h for ${DURATION}s (log $log)"
    # shellcheck disable=SC2086 # a list of flags: split on purpose
    "$OUT/$h" "$corpus" "$OUT/seeds/$h" -max_total_time="$DURATION" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -dict="$OUT/seeds/json.dict" -print_final_stats=1 \
        -artifact_prefix="$OUT/artifacts/$h-" ${FUZZ_ARGS:-} >"$log" 2>&1
    rc=$?
    EXECS[$h]=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    RATE[$h]=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    COV[$h]=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    if [ $rc -eq 0 ]; then
        RESULT[$h]=ok
    else
        RESULT[$h]="FAILED (exit $rc)"
        status=1
        grep -E 'ERROR|SUMMARY|runtime error|fuzz check failed' "$log" | head -5
    fi
done

printf '\n%-22s %14s %10s %8s  %s\n' harness executions exec/s edges result
for h in "${HARNESSES[@]}"; do
    printf '%-22s %14s %10s %8s  %s\n' "$h" "${EXECS[$h]:-?}" "${RATE[$h]:-?}" "${COV[$h]:-?}" \
        "${RESULT[$h]}"
done
exit $status
