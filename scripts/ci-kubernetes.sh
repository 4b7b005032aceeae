#!/usr/bin/env bash
# The Kubernetes stage: validates deploy/kubernetes/*.yaml offline against the Kubernetes API
# schemas (kubernetes-models, pinned in tests/kubernetes/package-lock.json), field names too,
# then checks that the manifests agree with each other and with combatd's settings
# (terminationGracePeriodSeconds vs drain_delay + drain_deadline, threads vs the CPU limit,
# probes, securityContext, selectors, PDB vs HPA). Prints "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/tests/kubernetes"
fail() {
    echo "ci-kubernetes: $*"
    echo "0 passed, 1 failed"
    exit 1
}
# Node.js and npm as scripts/install-deps.sh test gets them: looked for as commands.
missing=""
command -v node >/dev/null || missing="$missing nodejs"
command -v npm >/dev/null || missing="$missing npm"
if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq >/dev/null || fail "apt-get update failed"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing \
        >/dev/null || fail "apt-get install$missing failed"
fi
cd "$here" || fail "no $here"
npm ci --no-audit --no-fund --loglevel=error >/dev/null || fail "npm ci failed in $here"
node "$here/validate.mjs" "$root/deploy/kubernetes"
