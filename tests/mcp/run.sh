#!/usr/bin/env bash
# The MCP stage: installs the official MCP TypeScript SDK (tests/mcp/package-lock.json) and
# drives build/combatd's POST /mcp with its client (test.mjs starts the server on a free port
# and stops it). Closes with "N passed, N failed"; exits non-zero when a check failed.
# Environment: COMBATD_BINARY (default build/combatd).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

fail() {
    echo "mcp test: $*" >&2
    echo "0 passed, 1 failed"
    exit 1
}

bin=${COMBATD_BINARY:-$root/build/combatd}
[ -x "$bin" ] || fail "no executable $bin: build first"
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
    fail "node and npm are needed"
fi
cd "$here" || fail "no tests/mcp"
npm ci --no-audit --no-fund --loglevel=error >&2 || fail "npm ci failed"

COMBATD_BINARY=$bin timeout 300 node test.mjs
rc=$?
if [ "$rc" -eq 124 ]; then
    echo "mcp test: timed out" >&2
    echo "0 passed, 1 failed"
fi
exit "$rc"
