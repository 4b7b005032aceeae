#!/usr/bin/env bash
# README: "scripts/run.sh passes its arguments on to combatd: bash scripts/run.sh --port 9090
# serves on port 9090". Runs a copy of scripts/run.sh whose install, build and binary are stubs
# (the binary prints the arguments it got), so that the test neither installs nor rebuilds.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/build"
cp "$src/scripts/run.sh" "$tmp/scripts/run.sh"
printf '#!/bin/sh\nexit 0\n' > "$tmp/scripts/install-deps.sh"
printf '#!/bin/sh\nexit 0\n' > "$tmp/scripts/build.sh"
printf '#!/bin/sh\necho "$@"\n' > "$tmp/build/combatd"
chmod +x "$tmp/scripts/install-deps.sh" "$tmp/scripts/build.sh" "$tmp/build/combatd"
got=$(bash "$tmp/scripts/run.sh" --port 9090)
want="--config config/combatd.json --port 9090"
if [ "$got" != "$want" ]; then
    echo "run.sh ran combatd with '$got', not '$want'" >&2
    exit 1
fi
echo "run.sh passes its arguments on: $got"
