#!/usr/bin/env bash
# The release build of the service, as the README's run command and the Dockerfile do it.
set -euo pipefail
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOMBATD_TESTS=OFF -DCOMBATD_BENCH=OFF
cmake --build build -j "$(nproc)"
