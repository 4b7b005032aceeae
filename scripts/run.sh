#!/usr/bin/env bash
# Installs what is missing, builds, and runs combatd in the foreground on its default config
# (config/combatd.json: port 8080). Extra arguments go to combatd, e.g. --port 9090.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
scripts/build.sh
exec build/combatd --config config/combatd.json "$@"
