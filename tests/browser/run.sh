#!/usr/bin/env bash
# Browser test of the playground page: installs Debian's chromium when it is missing, installs
# playwright-core (no browser download), starts build/combatd on a free port, drives the page
# in headless chromium against the live service (and GET /docs, after checking that the
# vendored Redoc bundle is the pinned release's), saves build/playground.png and stops the
# server. Closes with "N passed, N failed, N skipped"; exits non-zero when a check failed.
# Environment: COMBATD_BINARY (default build/combatd), PLAYGROUND_SCREENSHOT.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${COMBATD_BINARY:-$ROOT/build/combatd}
SHOT=${PLAYGROUND_SCREENSHOT:-$ROOT/build/playground.png}

fail() {
    echo "browser test: $*" >&2
    echo "0 passed, 1 failed"
    exit 1
}

if [ ! -x /usr/bin/chromium ]; then
    echo "browser test: installing chromium with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; } >&2 ||
        fail "could not install chromium"
fi
[ -x "$BIN" ] || fail "no executable $BIN: build first"
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
    fail "node and npm are needed"
fi

cd "$ROOT/tests/browser" || fail "no tests/browser"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2 ||
    fail "npm ci failed"
# GET /docs serves the Redoc bundle vendored in web/vendor/: it must be the pinned release's.
"$ROOT/scripts/vendor-redoc.sh" --check >&2 || fail "web/vendor/ is not the pinned Redoc release"

LOG=$(mktemp)
# From the repository root, so the service reads the same config/ as in the other tests.
(cd "$ROOT" && exec "$BIN" --port 0 --bind 127.0.0.1 > /dev/null 2> "$LOG") &
PID=$!
# shellcheck disable=SC2317 # called by the EXIT trap
stop() {
    kill "$PID" 2> /dev/null && wait "$PID" 2> /dev/null
    rm -f "$LOG"
}
trap stop EXIT

PORT=
for _ in $(seq 1 100); do
    PORT=$(grep -m1 '"event":"listening"' "$LOG" | grep -o '"port":[0-9]*' | cut -d: -f2)
    [ -n "$PORT" ] && break
    kill -0 "$PID" 2> /dev/null || fail "combatd exited: $(cat "$LOG")"
    sleep 0.1
done
[ -n "$PORT" ] || fail "combatd did not report its port"

mkdir -p "$(dirname "$SHOT")"
timeout 300 node test.mjs "http://127.0.0.1:$PORT/" "$SHOT"
rc=$?
if [ "$rc" -eq 124 ]; then
    echo "browser test: timed out" >&2
    echo "0 passed, 1 failed"
fi
exit "$rc"
