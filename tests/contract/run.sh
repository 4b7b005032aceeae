#!/usr/bin/env bash
# The contract stage: lint openapi.yaml (Redocly, recommended rules), the YAML files
# (yamllint), docker-compose.yml (docker-compose config), the Dockerfile (dockerfile-utils),
# the C formatting (clang-format), the docs (scripts/check-docs.sh), the shell scripts
# (shellcheck), that src/ calls no non-reentrant libc function (scripts/check-reentrant.py), that
# no two .c files' modules use each other (scripts/check-includes.py, on
# build/'s objects), that each header declares only what its own file or the files it names
# define (scripts/check-declarations.py, likewise) and that the MCP tool schemas are
# openapi.yaml's (mcp-schemas.mjs), that the contract's types compile (tests/types/run.sh); then
# check live responses against openapi.yaml, and every curl example of the docs against a live
# combatd (check-examples.mjs).
# Expects build/combatd (scripts/test.sh builds it first). Prints "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here" || exit 1
npm ci --no-audit --no-fund --loglevel=error >/dev/null || { echo "npm ci failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
lint() {
    local name=$1
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
# dockerfile-utils prints its findings and exits 0: any output is a finding.
dockerfile_lint() {
    local out
    out=$(npx --no-install dockerfile-utils lint "$root/Dockerfile" 2>&1)
    [ -z "$out" ] || { echo "$out"; return 1; }
}
lint "redocly lint openapi.yaml" npx --no-install redocly lint --config "$here/redocly.yaml" \
    --max-problems 50 "$root/openapi.yaml"
lint "yamllint" yamllint -c "$root/.yamllint" "$root/openapi.yaml" "$root/docker-compose.yml"
lint "docker-compose config" docker-compose -f "$root/docker-compose.yml" config -q
lint "dockerfile-utils lint" dockerfile_lint
clang_format_check() {
    (cd "$root" && git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror)
}
lint "clang-format (.clang-format)" clang_format_check
lint "docs name what exists; rulings table; layers" "$root/scripts/check-docs.sh"
lint "shellcheck" shellcheck "$root"/scripts/*.sh "$root"/.ci/run "$root"/tests/*/run.sh
lint "no circle between the .c files of src/" python3 "$root/scripts/check-includes.py" \
    "${COMBATD_BUILD_DIR:-$root/build}"
# Worker threads share libc's statics: strtok, strerror, localtime, rand and the like in src/ fail
# here (the checker's self-test plants two and must find exactly them).
lint "no non-reentrant libc call in src/" python3 "$root/scripts/check-reentrant.py" "$root/src"
lint "check-reentrant.py finds a planted call" python3 "$root/scripts/check-reentrant.py" --self-test
lint "every declaration in the header of the file that defines it" \
    python3 "$root/scripts/check-declarations.py" "${COMBATD_BUILD_DIR:-$root/build}"
# The MCP tool schemas are generated from openapi.yaml into a file the C build embeds; a change
# of the contract without regenerating it fails here.
lint "src/api/mcp/mcp_tool_schemas.json is openapi.yaml's" node "$here/mcp-schemas.mjs" --check
# Types that compile: openapi-typescript (default options) and tsc --strict accept the simplest
# request of every endpoint; every schema is described; oneOfs carry their discriminators.
lint "openapi-typescript + tsc --strict; schema descriptions and discriminators" "$root/tests/types/run.sh"

# A checker that prints "N passed, N failed" adds its cases to the stage's.
counted() {
    local log rc line f
    log=$(mktemp)
    COMBATD_BINARY="${COMBATD_BINARY:-$root/build/combatd}" node "$@" | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    rm -f "$log"
    if [ -n "$line" ]; then
        passed=$((passed + ${line%% passed*}))
        f=${line#*, }
        failed=$((failed + ${f%% failed}))
    fi
    [ "$rc" = 0 ] || [ -n "$line" ] || failed=$((failed + 1))
}
counted "$here/check-responses.mjs"
# Every curl example of README.md, CONTRIBUTING.md and docs/ against a live combatd.
counted "$here/check-examples.mjs"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
