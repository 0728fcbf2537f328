#!/usr/bin/env bash
# SIGKILL during ingest: 8 connections keep inserting 2,000-row bodies over HTTP into a table on
# disk; the server is killed with SIGKILL mid-stream and restarted on the same directory. Every
# acknowledged insert must be there, no insert may be there in part (the count is a multiple of
# 2,000), and at most the 8 unacknowledged ones in flight may have landed. Three rounds.
# Usage: http_sigkill.sh <granary binary>
set -euo pipefail

granary="$1"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -9 "$server_pid" 2>/dev/null
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "http_sigkill: FAIL: $*" >&2
    exit 1
}

source "$(dirname "${BASH_SOURCE[0]}")/http_server_lib.sh"
start_server() { start_http_server "$granary" "$work/data" "$work/server.log"; }
query() { curl -sS --fail-with-body "http://127.0.0.1:$port/" --data-binary "$1"; }

body_rows=2000
python3 -c "import sys; sys.stdout.write(''.join(f'{i}\tpayload {i % 97}\n' for i in range($body_rows)))" >"$work/body.tsv"
start_server
query "CREATE TABLE t (id UInt64, name String) ORDER BY id"
acknowledged=0
for round in 1 2 3; do
    : >"$work/acks"
    for connection in $(seq 8); do
        (
            while curl -sS -o /dev/null -w '%{http_code}\n' \
                "http://127.0.0.1:$port/?query=INSERT%20INTO%20t%20FORMAT%20TSV" \
                --data-binary @"$work/body.tsv" 2>/dev/null | grep -q '^200$'; do
                echo ok >>"$work/acks"
            done
        ) &
    done
    sleep "1.$((RANDOM % 10))"
    kill -9 "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    sleep 0.5  # the loops end on their first failed request
    acknowledged=$((acknowledged + $(wc -l <"$work/acks")))
    start_server
    count="$(query "SELECT count() FROM t")"
    (( count % body_rows == 0 )) || fail "round $round: $count rows: an insert landed in part"
    (( count >= acknowledged * body_rows )) ||
        fail "round $round: $count rows, $acknowledged inserts acknowledged: acknowledged rows lost"
    (( count <= (acknowledged + 8) * body_rows )) ||
        fail "round $round: $count rows, more than acknowledged plus in flight"
    echo "round $round: $acknowledged inserts acknowledged, $((count / body_rows)) present"
    acknowledged=$((count / body_rows))
done
echo "http_sigkill: ok"
