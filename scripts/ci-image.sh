#!/usr/bin/env bash
# The image stage: builds the Dockerfile with a real engine and checks the running image.
# Starts Debian's Docker daemon (docker.io) on its own socket, makes the debian:bookworm-slim
# base with debootstrap when no registry can be reached, builds, runs the image locked down
# (read-only root, no capabilities, no-new-privileges) and checks what a deployment needs:
# /analyze-attack answers, the image's HEALTHCHECK passes, UID 10001, read-only root, no
# capabilities, SIGTERM drains and exits 0; prints the image size and the timings. Also builds
# the scale profile's HAProxy image (deploy/haproxy) and checks its config inside it.
# Prints "N passed, N failed". Never skips by itself: when it cannot run it fails and says why.
#   CBD_SKIP_IMAGE_TEST=1   skip on purpose (e.g. in a chroot where no engine can run);
#                               the run then says the image was NOT tested. CI never sets it.
#   CBD_CI_CACHE            where the base tarball and the engine's layers are kept
#                               (default /var/cache/combatd-ci), so re-runs are fast.
# (Not COMBATD_*: that prefix is combatd's own settings, and combatd refuses unknown ones.)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

if [ "${CBD_SKIP_IMAGE_TEST:-}" = 1 ]; then
    echo "ci-image: CBD_SKIP_IMAGE_TEST=1 is set: the image was NOT built and NOT tested"
    echo "0 passed, 0 failed"
    exit 0
fi

passed=0
failed=0
ok() {
    passed=$((passed + 1))
    echo "ok   $*"
}
bad() {
    failed=$((failed + 1))
    echo "FAIL $*"
}
# judge OK_TEXT BAD_TEXT COMMAND...: one check, passed when COMMAND succeeds.
judge() {
    local good=$1 wrong=$2
    shift 2
    if "$@"; then ok "$good"; else bad "$wrong"; fi
}
# Cannot go on: say why, how to skip on purpose, and close with the counts so far.
give_up() {
    echo "ci-image: $*"
    echo "ci-image: the image stage cannot run here. To skip it on purpose (the image is then"
    echo "ci-image: NOT tested), set CBD_SKIP_IMAGE_TEST=1; CI never sets it."
    failed=$((failed + 1))
    echo "$passed passed, $failed failed"
    exit 1
}
now() { date +%s; }
t_start=$(now)

cache=${CBD_CI_CACHE:-/var/cache/combatd-ci}
mkdir -p "$cache" || give_up "cannot create the cache directory $cache"
# One run at a time uses the cached engine state.
exec 9>"$cache/lock"
flock -w 900 9 || give_up "another image stage holds $cache/lock"

# --- What the stage needs: Debian's engine and debootstrap, installed only when missing. -----
need=""
for p in docker.io debootstrap; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "ci-image: installing$need"
    $sudo apt-get update -qq >/dev/null || give_up "apt-get update failed"
    # RUNLEVEL=1: the package's init script must not start a system-wide daemon.
    # $need is a list of package names: split it on purpose.
    # shellcheck disable=SC2086
    RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        -o DPkg::Lock::Timeout=300 --no-install-recommends $need >/dev/null ||
        give_up "apt-get install$need failed"
fi
[ "$(id -u)" = 0 ] || give_up "dockerd must run as root (this is uid $(id -u))"

# --- The engine: dockerd on its own socket; its layers stay in the cache between runs. --------
run=$(mktemp -d /tmp/combatd-ci-image.XXXXXX)
sock="$run/docker.sock"
docker_() { /usr/bin/docker -H "unix://$sock" "$@"; }
name="combatd-ci-$$"
dockerd_pid=""
cleanup() {
    if [ -n "$dockerd_pid" ]; then
        docker_ rm -f "$name" >/dev/null 2>&1
        kill "$dockerd_pid" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$dockerd_pid" 2>/dev/null
    fi
    # dockerd leaves its default network namespace bind-mounted under the exec root.
    umount "$run/exec/netns/default" 2>/dev/null
    rm -rf "$run"
}
trap cleanup EXIT
# No bridge and no iptables: the stage changes nothing in the host's network; the build and the
# container use the host's network (the container binds only 127.0.0.1 on a free port).
/usr/sbin/dockerd --host "unix://$sock" --data-root "$cache/docker" --exec-root "$run/exec" \
    --pidfile "$run/docker.pid" --bridge none --iptables=false --ip6tables=false \
    --default-runtime runc >"$run/dockerd.log" 2>&1 &
dockerd_pid=$!
for _ in $(seq 1 150); do
    docker_ info >/dev/null 2>&1 && break
    kill -0 "$dockerd_pid" 2>/dev/null || break
    sleep 0.2
done
if ! docker_ info >/dev/null 2>&1; then
    tail -n 20 "$run/dockerd.log"
    give_up "dockerd did not start (log above)"
fi
echo "ci-image: engine $(docker_ version -f 'docker {{.Server.Version}}, {{.Server.Os}}/{{.Server.Arch}}')," \
    "storage $(docker_ info -f '{{.Driver}}')"

# --- The base image: pulled when a registry answers, else made with debootstrap and imported. -
t_base=$(now)
base=debian:bookworm-slim
tarball="$cache/debian-bookworm-minbase.tar.gz"
make_base_tarball() {
    local fs="$run/rootfs"
    echo "ci-image: no registry answered; making $base with debootstrap --variant=minbase"
    debootstrap --variant=minbase bookworm "$fs" http://deb.debian.org/debian >"$run/debootstrap.log" 2>&1 ||
        { tail -n 20 "$run/debootstrap.log"; return 1; }
    # As the official image: the three suites, no documentation, no package caches.
    rm -f "$fs/etc/apt/sources.list"
    cat >"$fs/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/man/*' 'path-exclude /usr/share/locale/*' \
        'path-exclude /usr/share/info/*' >"$fs/etc/dpkg/dpkg.cfg.d/excludes"
    find "$fs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$fs"/usr/share/man/* "$fs"/usr/share/locale/* "$fs"/usr/share/info/* \
        "$fs"/var/cache/apt/*.bin "$fs"/var/cache/apt/archives/*.deb "$fs"/var/lib/apt/lists/* \
        "$fs"/var/log/* "$fs"/tmp/*
    tar -C "$fs" --numeric-owner -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$fs"
}
if ! docker_ image inspect "$base" >/dev/null 2>&1; then
    if ! timeout 120 /usr/bin/docker -H "unix://$sock" pull -q "$base" >/dev/null 2>&1; then
        if [ ! -s "$tarball" ]; then
            make_base_tarball || give_up "debootstrap failed (log above); Debian's mirror is needed"
        fi
        docker_ import "$tarball" "$base" >/dev/null || give_up "docker import $tarball failed"
    fi
fi
echo "ci-image: base $base ready in $(($(now) - t_base)) s"

# --- Build. BuildKit is off: its frontend and cache importers look for registries. ------------
t_build=$(now)
image="combatd:ci"
if ! DOCKER_BUILDKIT=0 docker_ build --network host -q -t "$image" . >"$run/build.log" 2>&1; then
    tail -n 40 "$run/build.log"
    give_up "docker build failed (log above)"
fi
build_s=$(($(now) - t_build))
size=$(docker_ image inspect -f '{{.Size}}' "$image")
echo "ci-image: built $image in $build_s s; image size $((size / 1000000)) MB ($size bytes)"
docker_ image prune -f >/dev/null 2>&1 # the previous run's image, now untagged

health=$(docker_ image inspect -f '{{json .Config.Healthcheck}}' "$image")
case $health in
*--healthcheck*) ok "the image keeps its HEALTHCHECK: $health" ;;
*) bad "the image has no HEALTHCHECK with --healthcheck (got $health)" ;;
esac
user=$(docker_ image inspect -f '{{.Config.User}}' "$image")
judge "the image runs as USER 10001:10001" "image USER is '$user'" [ "$user" = 10001:10001 ]

# --- Run it locked down, on a free loopback port of the host's network. ------------------------
# A port below the ephemeral range (no outgoing connection can hold it) that no socket uses.
port=""
low=$(awk '{ print $1 - 1 }' /proc/sys/net/ipv4/ip_local_port_range)
for p in $(shuf -i 20000-"$low" -n 50); do
    grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp /proc/net/tcp6 2>/dev/null || { port=$p; break; }
done
[ -n "$port" ] || give_up "no free loopback port found"
# The sandbox cannot raise nofile/nproc past its own limits: runc is given them explicitly.
if ! docker_ run -d --name "$name" --network host --read-only --cap-drop ALL \
    --security-opt no-new-privileges --ulimit nofile=20000:20000 --ulimit nproc=32768:32768 \
    --health-interval 1s --health-start-period 10s \
    -e COMBATD_BIND=127.0.0.1 -e COMBATD_PORT="$port" "$image" >"$run/run.log" 2>&1; then
    cat "$run/run.log"
    give_up "docker run failed (above)"
fi
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "$url/livez" 2>/dev/null && break
    sleep 0.1
done

answer=$(curl -sS -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d '{"attackers":10,"defenders":5}' "$url/analyze-attack" 2>&1)
code=${answer##*$'\n'}
# 5 defenders at kill rate 0.7 kill 3.5 -> 4 attackers (straight rounding): 6 of 10 are left.
if [ "$code" = 200 ] && [[ $answer == *'"captured":true'* ]] && [[ $answer == *'"attackers_left":6,'* ]]; then
    ok "POST /analyze-attack {attackers:10,defenders:5}: 200, captured, 6 attackers left"
else
    bad "POST /analyze-attack: $answer"
fi

status=""
for _ in $(seq 1 30); do
    status=$(docker_ inspect -f '{{.State.Health.Status}}' "$name" 2>/dev/null)
    [ "$status" = healthy ] && break
    sleep 0.5
done
judge "the engine reports the container healthy (the image's HEALTHCHECK)" \
    "health status is '$status': $(docker_ inspect -f '{{json .State.Health}}' "$name" | tail -c 400)" \
    [ "$status" = healthy ]
if docker_ exec "$name" /usr/local/bin/combatd --healthcheck; then
    ok "combatd --healthcheck exits 0 inside the container"
else
    bad "combatd --healthcheck exited $? inside the container"
fi

pid=$(docker_ inspect -f '{{.State.Pid}}' "$name")
st="/proc/$pid/status"
if [ "$(awk '/^Uid:/ { print $2 $3 $4 $5 }' "$st")" = 10001100011000110001 ] &&
    [ "$(awk '/^Gid:/ { print $2 }' "$st")" = 10001 ]; then
    ok "the process runs as uid/gid 10001"
else
    bad "process ids: $(grep -E '^(Uid|Gid):' "$st" | tr '\n\t' '  ')"
fi
caps=$(grep -E '^Cap(Prm|Eff|Bnd|Amb):' "$st" | awk '{ print $2 }' | sort -u)
judge "no capabilities (CapPrm, CapEff, CapBnd, CapAmb all 0)" \
    "capabilities: $(grep -E '^Cap' "$st" | tr '\n\t' '  ')" [ "$caps" = 0000000000000000 ]
judge "no_new_privs is set" "$(grep NoNewPrivs "$st")" \
    [ "$(awk '/^NoNewPrivs:/ { print $2 }' "$st")" = 1 ]
root_opts=$(awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo")
write=$(docker_ exec "$name" touch /tmp/probe 2>&1)
if [[ $root_opts == ro,* ]] && [[ $write == *"Read-only file system"* ]]; then
    ok "the root filesystem is read-only (mounted $root_opts; writing /tmp fails: EROFS)"
else
    bad "root filesystem: mounted '$root_opts', write attempt: '$write'"
fi

t_stop=$(now)
docker_ stop -t 30 "$name" >/dev/null
stop_s=$(($(now) - t_stop))
exit_code=$(docker_ inspect -f '{{.State.ExitCode}}' "$name")
logs=$(docker_ logs "$name" 2>&1)
if [ "$exit_code" = 0 ] && [[ $logs == *'"event":"draining","signal":15'* ]] &&
    [[ $logs == *'"event":"stopped","drained":true'* ]]; then
    ok "docker stop (SIGTERM): drained, exit code 0, in $stop_s s"
else
    bad "docker stop: exit code $exit_code after $stop_s s; log tail: $(echo "$logs" | tail -n 3)"
fi

# The scale profile's proxy image: built on the same base, and its config valid inside it.
t_proxy=$(now)
if DOCKER_BUILDKIT=0 docker_ build --network host -q -t combatd-haproxy:ci deploy/haproxy \
    >"$run/proxy-build.log" 2>&1; then
    check_out=$(docker_ run --rm --network none --read-only --cap-drop ALL \
        --security-opt no-new-privileges --ulimit nofile=20000:20000 combatd-haproxy:ci -c 2>&1)
    judge "the scale profile's HAProxy image builds and its config is valid ($(($(now) - t_proxy)) s)" \
        "haproxy -c in the proxy image: $check_out" grep -q 'Configuration file is valid' <<<"$check_out"
else
    bad "docker build deploy/haproxy failed: $(tail -n 5 "$run/proxy-build.log")"
fi

echo "ci-image: figures: build $build_s s, image $((size / 1000000)) MB, stage $(($(now) - t_start)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
