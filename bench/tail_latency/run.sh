#!/usr/bin/env bash
# Tail-latency reproduction: client and server network namespaces joined by a veth pair,
# initcwnd 8 on the server's route, 32 ms added to every server->client packet (NFQUEUE delay
# line on the client's receive side; this kernel has no netem), cubic congestion control,
# one connection, N queries with 2 s idle between them; batching off, then on, then off with
# tcp_slow_start_after_idle=0. Needs root; cleans up everything it made, even when interrupted.
# Usage: bench/tail_latency/run.sh [build_dir] [queries]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
QUERIES="${2:-5}"
SERVER_BIN="$BUILD/bench/tail_latency/tail_latency_server"
DELAY_BIN="$BUILD/bench/tail_latency/nfq_delay"
CLIENT="$ROOT/bench/tail_latency/client.py"
NS_CLIENT=granary_tl_client
NS_SERVER=granary_tl_server
CLIENT_IP=10.98.0.1
SERVER_IP=10.98.0.2
PORT=9000
DELAY_MS=32

skip() { echo "tail_latency: cannot run: $*"; exit 0; }
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces, iptables, sysctls)"
command -v ip >/dev/null || skip "ip (iproute2) is missing"
command -v iptables-legacy >/dev/null || skip "iptables-legacy is missing (Debian package iptables)"
[[ -x $SERVER_BIN ]] || skip "$SERVER_BIN is not built"
[[ -x $DELAY_BIN ]] || skip "$DELAY_BIN is not built (needs libnetfilter-queue-dev)"
/usr/bin/python3 -c 'import clickhouse_driver' 2>/dev/null ||
    skip "Python clickhouse-driver is missing (python3-clickhouse-driver)"
grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null ||
    modprobe tcp_cubic 2>/dev/null || true
grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control ||
    skip "the kernel has no cubic congestion control"

PIDS=()
ALLOWED_BEFORE="$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    ip netns del "$NS_CLIENT" 2>/dev/null
    ip netns del "$NS_SERVER" 2>/dev/null  # Deleting the namespaces removes the veth and rules.
    echo "$ALLOWED_BEFORE" >/proc/sys/net/ipv4/tcp_allowed_congestion_control
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$NS_CLIENT" || skip "cannot create network namespaces"
ip netns add "$NS_SERVER"
ip link add gr-tl-c netns "$NS_CLIENT" type veth peer name gr-tl-s netns "$NS_SERVER"
ip -n "$NS_CLIENT" addr add "$CLIENT_IP/24" dev gr-tl-c
ip -n "$NS_SERVER" addr add "$SERVER_IP/24" dev gr-tl-s
for ns in "$NS_CLIENT" "$NS_SERVER"; do
    ip -n "$ns" link set lo up
done
ip -n "$NS_CLIENT" link set gr-tl-c up
ip -n "$NS_SERVER" link set gr-tl-s up
ip -n "$NS_SERVER" route change 10.98.0.0/24 dev gr-tl-s proto kernel scope link \
    src "$SERVER_IP" initcwnd 8

# bbr does not reset the window after idle; cubic does, as the customer's kernel did.
grep -qw cubic <<<"$ALLOWED_BEFORE" ||
    echo "$ALLOWED_BEFORE cubic" >/proc/sys/net/ipv4/tcp_allowed_congestion_control
for ns in "$NS_CLIENT" "$NS_SERVER"; do
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_slow_start_after_idle=1
done

# Delay what the client receives from the server (delaying the server's egress instead makes
# TCP pace itself and distorts the result).
ip netns exec "$NS_CLIENT" iptables-legacy -A INPUT -s "$SERVER_IP" -j NFQUEUE --queue-num 0
ip netns exec "$NS_CLIENT" "$DELAY_BIN" "$DELAY_MS" 0 &
PIDS+=($!)
sleep 0.3
if command -v ping >/dev/null; then
    echo "--- ping -U (user-to-user latency shows the NFQUEUE delay; plain ping does not)"
    ip netns exec "$NS_CLIENT" ping -U -c 3 -i 0.3 "$SERVER_IP" | tail -1
fi

ip netns exec "$NS_SERVER" "$SERVER_BIN" --host "$SERVER_IP" --port "$PORT" &
PIDS+=($!)
sleep 0.5

run_client() {
    echo "--- $1"
    ip netns exec "$NS_CLIENT" timeout 120 /usr/bin/python3 "$CLIENT" --host "$SERVER_IP" \
        --port "$PORT" --queries "$QUERIES" --idle 2 --batch "$2"
}
run_client "batching off (every packet its own write)" 0
run_client "batching on (end of query in one write)" 1
ip netns exec "$NS_SERVER" sysctl -qw net.ipv4.tcp_slow_start_after_idle=0
run_client "batching off, server tcp_slow_start_after_idle=0" 0
