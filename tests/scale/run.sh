#!/usr/bin/env bash
# Restarts behind a proxy lose nothing: 3 combatd replicas on loopback behind HAProxy, with
# deploy/haproxy/haproxy.cfg as the scale profile uses it (only its server-template line is
# swapped for the three loopback servers), under wrk load. Phases, each bounded:
#   direct     wrk straight at one replica (requests/s of one process)
#   proxy      wrk through the proxy, nothing restarted (requests/s through the proxy)
#   sigterm    SIGTERM one replica, start it again
#   sigkill    SIGKILL one replica, start it again
#   rolling    SIGTERM and restart all three, one after the other
#   control    SIGTERM the replica that wrk hits directly, no proxy: not counted, it shows
#              that the harness sees lost requests when nothing retries them
# A restart phase passes with 0 non-2xx answers and 0 socket errors. Prints the figures, the
# requests the proxy retried on another replica, and "N passed, N failed". Traffic goes only
# to 127.0.0.1.
#   SCALE_SECONDS   length of each restart phase (default 10); SCALE_CONNECTIONS (64)
#   COMBATD_BINARY  the binary (default build/combatd, built with scripts/build.sh if missing)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
seconds=${SCALE_SECONDS:-10}
conns=${SCALE_CONNECTIONS:-64}
binary=${COMBATD_BINARY:-$root/build/combatd}
# Not passed on: combatd reads every COMBATD_* variable as a setting and refuses unknown ones.
unset COMBATD_BINARY

need=""
command -v wrk >/dev/null || need="$need wrk"
command -v haproxy >/dev/null || need="$need haproxy"
command -v curl >/dev/null || need="$need curl"
if [ -n "$need" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq >/dev/null
    # RUNLEVEL=1: the haproxy package must not start a system-wide proxy.
    # shellcheck disable=SC2086
    RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        --no-install-recommends $need >/dev/null || { echo "apt-get install$need failed"; exit 1; }
fi
[ -x "$binary" ] || scripts/build.sh >/dev/null || { echo "cannot build $binary"; exit 1; }

run=$(mktemp -d /tmp/combatd-scale.XXXXXX)
pids=(0 0 0 0)
proxy_pid=""
cleanup() {
    for i in 1 2 3; do [ "${pids[i]}" = 0 ] || kill -9 "${pids[i]}" 2>/dev/null; done
    [ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$run"
}
trap cleanup EXIT

# A port below the ephemeral range (no outgoing connection can hold it) that no socket uses
# and that this run has not handed out yet.
given=" "
free_port() {
    local p low
    low=$(awk '{ print $1 - 1 }' /proc/sys/net/ipv4/ip_local_port_range)
    for p in $(shuf -i 20000-"$low" -n 100); do
        [[ $given == *" $p "* ]] && continue
        grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp /proc/net/tcp6 2>/dev/null && continue
        echo "$p"
        return
    done
}
ports=(0)
for _ in 1 2 3 4; do
    p=$(free_port)
    [ -n "$p" ] || { echo "scale: no free loopback port"; exit 1; }
    ports+=("$p")
    given="$given$p "
done
proxy_port=${ports[4]}

# Settings a replica gets when this combatd knows them (the drain and proxy settings are
# newer than some builds): each one is tried with --check-config first.
extra_env=()
for setting in COMBATD_TRUSTED_PROXIES=127.0.0.1 COMBATD_DRAIN_DELAY=2; do
    if env "$setting" "$binary" --check-config >/dev/null 2>&1; then
        extra_env+=("$setting")
    else
        echo "scale: this combatd does not know ${setting%%=*}: running without it"
    fi
done
echo "scale: replicas with ${extra_env[*]:-no extra settings}, 1 thread each, access log off"

start_replica() {
    local i=$1
    env COMBATD_BIND=127.0.0.1 COMBATD_PORT="${ports[i]}" COMBATD_THREADS=1 \
        COMBATD_ACCESS_LOG=false "${extra_env[@]}" "$binary" --config config/combatd.json \
        >>"$run/replica$i.log" 2>&1 &
    pids[i]=$!
}
wait_ready() {
    local url=$1
    for _ in $(seq 1 100); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 200 ] && return 0
        sleep 0.05
    done
    echo "scale: $url/readyz never answered 200"
    return 1
}
stop_replica() { # SIGNAL INDEX: waits until the process has exited
    kill "-$1" "${pids[$2]}" 2>/dev/null
    wait "${pids[$2]}" 2>/dev/null
    pids[$2]=0
}
restart() { # SIGNAL INDEX
    stop_replica "$1" "$2"
    start_replica "$2"
    wait_ready "http://127.0.0.1:${ports[$2]}"
}

for i in 1 2 3; do start_replica "$i"; done
for i in 1 2 3; do wait_ready "http://127.0.0.1:${ports[i]}" || exit 1; done

# The shipped proxy config, with the three loopback replicas instead of DNS slots and no
# resolvers section (nothing here is resolved).
servers=""
for i in 1 2 3; do servers="$servers    server replica$i 127.0.0.1:${ports[i]}\n"; done
sed -e "s|^    server-template .*|$servers|" -e "s|^    bind :8080|    bind 127.0.0.1:$proxy_port|" \
    -e '/^resolvers /,/^$/d' deploy/haproxy/haproxy.cfg >"$run/haproxy.cfg"
haproxy -W -db -f "$run/haproxy.cfg" >"$run/haproxy.log" 2>&1 &
proxy_pid=$!
wait_ready "http://127.0.0.1:$proxy_port" || { cat "$run/haproxy.log"; exit 1; }
sleep 1.5 # the first health checks

cat >"$run/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body = '{"attackers":10,"defenders":5}'
wrk.headers["Content-Type"] = "application/json"
EOF
passed=0
failed=0
# phase NAME URL SECONDS [ACTION...]: wrk for SECONDS while ACTION runs from the 3rd second.
# A NAME starting with "control" is reported but not counted.
phase() {
    local name=$1 url=$2 secs=$3 out rps non2xx sock reqs log_before retried
    shift 3
    log_before=$(wc -l <"$run/haproxy.log")
    wrk -t1 -c"$conns" -d"${secs}s" -s "$run/post.lua" "$url/analyze-attack" >"$run/wrk-$name.txt" 2>&1 &
    local wrk_pid=$!
    if [ $# -gt 0 ]; then
        sleep 3
        "$@"
    fi
    wait "$wrk_pid"
    out=$(cat "$run/wrk-$name.txt")
    reqs=$(echo "$out" | awk '/requests in/ { print $1 }')
    rps=$(echo "$out" | awk '/^Requests\/sec:/ { print $2 }')
    non2xx=$(echo "$out" | awk '/Non-2xx or 3xx responses:/ { print $5 }')
    sock=$(echo "$out" | sed -n 's/^ *Socket errors: //p')
    # HAProxy logs only abnormal requests; its retries field (5th of "a/b/c/d/+r") counts
    # the attempts it sent again, "+" when it went to another replica.
    retried=$(tail -n +"$((log_before + 1))" "$run/haproxy.log" |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+\/[0-9]+\/[0-9]+\/\+?[0-9]+$/) {
                 split($i, a, "/"); if (a[5] != "0") n++ } } END { print n + 0 }')
    printf 'scale: %-8s %8s requests, %9s req/s, non-2xx %s, socket errors %s, retried by the proxy %s\n' \
        "$name" "${reqs:-?}" "${rps:-?}" "${non2xx:-0}" "${sock:-none}" "$retried"
    case $name in control*) return ;; esac
    if [ -n "$reqs" ] && [ -z "$non2xx" ] && [ -z "$sock" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: requests were lost"
    fi
}
rolling() {
    for i in 1 2 3; do
        restart TERM "$i"
        sleep 1
    done
}

phase direct "http://127.0.0.1:${ports[1]}" 5
phase proxy "http://127.0.0.1:$proxy_port" 5
phase sigterm "http://127.0.0.1:$proxy_port" "$seconds" restart TERM 2
phase sigkill "http://127.0.0.1:$proxy_port" "$seconds" restart KILL 3
phase rolling "http://127.0.0.1:$proxy_port" $((seconds + 5)) rolling
phase control "http://127.0.0.1:${ports[1]}" 6 restart TERM 1

echo "scale: what the proxy logged as abnormal, other than retried 200s (first lines):"
grep -v '^\[NOTICE\]' "$run/haproxy.log" | grep -v '" 200 \| 200 [0-9]* - - ----' | head -n 8
echo "scale: replica drain lines:"
grep -h '"event":"\(draining\|stopped\)"' "$run"/replica*.log | sort | uniq -c
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
