#!/usr/bin/env bash
# Types that compile: openapi.yaml through openapi-typescript with its default options, then
# `tsc --strict` over requests.ts, the simplest request of every endpoint as the docs write it
# (and a few the contract refuses, which must not compile); and check-schemas.mjs (every schema
# described, a discriminator wherever a member's property tells the members apart). The
# packages are pinned in package-lock.json. Prints "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
npm ci --no-audit --no-fund --loglevel=error >/dev/null || { echo "npm ci failed"; echo "0 passed, 1 failed"; exit 1; }
passed=0
failed=0
step() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        echo "$out" | tail -n 40
    fi
}
mkdir -p build
step "openapi-typescript openapi.yaml (default options)" \
    npx --no-install openapi-typescript ../../openapi.yaml -o build/openapi.ts
step "tsc --strict: the simplest request of every endpoint compiles" npx --no-install tsc --strict -p tsconfig.json
step "every schema described; discriminators where a member tells them apart" node check-schemas.mjs
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
