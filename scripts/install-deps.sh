#!/usr/bin/env bash
# Installs what combatd needs on Debian 12 (bookworm), and only what is missing.
#   scripts/install-deps.sh build   compiler, CMake and the -dev libraries
#   scripts/install-deps.sh unit    the above plus Criterion, libcurl and Python 3 (unit and
#                                   integration tests, the example client's and the checks:
#                                   scripts/test.sh --quick)
#   scripts/install-deps.sh test    the above plus clang (fuzzing), Node.js/npm (contract lint,
#                                   the MCP SDK test, and tests/types: openapi-typescript and
#                                   TypeScript, pinned in its package-lock.json and installed by
#                                   npm ci there) and Chromium (browser test)
# Runs apt-get as root (or through sudo when not root). The Dockerfile uses it too.
set -euo pipefail
what=${1:-build}

packages="build-essential cmake pkg-config libmicrohttpd-dev libjansson-dev"
if [ "$what" = unit ]; then
    # python3: the example client's test and the reentrancy check are ctests too
    packages="$packages libcriterion-dev libcurl4-openssl-dev python3"
fi
if [ "$what" = test ]; then
    packages="$packages libcriterion-dev libcurl4-openssl-dev curl clang libclang-rt-14-dev \
        procps ca-certificates python3 xz-utils git clang-format yamllint shellcheck universal-ctags \
        docker-compose"
fi

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done
# Node.js and Chromium are looked for as commands: a machine may have them from elsewhere
# (e.g. NodeSource), and Debian's npm package would conflict with that.
if [ "$what" = test ]; then
    command -v node >/dev/null || missing="$missing nodejs"
    command -v npm >/dev/null || missing="$missing npm"
    [ -x /usr/bin/chromium ] || missing="$missing chromium"
fi

if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "install-deps: installing$missing"
    $sudo apt-get update -qq
    # $missing is a list of package names: split it on purpose.
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing \
        >/dev/null
fi
