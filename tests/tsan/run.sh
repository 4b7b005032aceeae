#!/usr/bin/env bash
# Builds combatd's libraries and tests/tsan/concurrency.c with -fsanitize=thread into
# build-tsan/ and runs it. Exits non-zero on any TSan report or failed request.
#
#   tests/tsan/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${TSAN_OUT:-$ROOT/build-tsan}
FLAGS="-fsanitize=thread -g -O1 -fno-omit-frame-pointer"
cmake -S "$ROOT" -B "$OUT" -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="$FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCOMBATD_TESTS=OFF -DCOMBATD_BENCH=OFF \
    -DCOMBATD_WERROR=ON >/dev/null
cmake --build "$OUT" -j2 --target combatd_config >/dev/null
# The include directories of the libraries it links (CMakeLists.txt).
INCS=(-I"$ROOT/include" -I"$ROOT/src")
# shellcheck disable=SC2046
# shellcheck disable=SC2086 # a list of flags: split on purpose
cc $FLAGS -std=c17 -D_GNU_SOURCE "${INCS[@]}" \
    -I"$ROOT/tests/support" "$ROOT/tests/tsan/concurrency.c" \
    "$OUT/libcombatd_config.a" "$OUT/libcombatd_http.a" "$OUT/libcombatd_api.a" \
    "$OUT/libcombatd_json.a" \
    "$OUT/libcombatd_core.a" \
    $(pkg-config --libs libmicrohttpd jansson) -lpthread -lm -o "$OUT/tsan_concurrency"
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
# The access log goes to stderr: keep TSan's reports, drop the log lines.
"$OUT/tsan_concurrency" 2> >(grep -v '^{"' >&2)
