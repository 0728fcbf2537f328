#!/usr/bin/env bash
# The ingest benchmark (not a test): generated ClickBench `hits` rows, pre-encoded as request
# bodies (RowBinary raw and in LZ4 frames, TSV, JSONEachRow), POSTed over N keep-alive
# connections into Granary's HTTP interface and into ClickHouse 18.16 (Debian) on the same
# machine, one server after the other, both into durable MergeTree-like tables. Prints rows/s
# and rows per server CPU-second per (server, format, connections) and Granary's ratio to
# ClickHouse, and writes results.csv and ingest.svg to OUT.
#   bench/ingest/run.sh [path/to/build]
#   ROWS (source rows, default 1000000), BODY_ROWS (rows per request, default 100000),
#   SECONDS_PER_POINT (measured per point, default 10), CONNECTIONS (default "1 2"),
#   FORMATS (default "RowBinary RowBinary+lz4 TSV JSONEachRow"), WORK (default /tmp/granary-ingest),
#   OUT (default $WORK/results)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
rows="${ROWS:-1000000}"
body_rows="${BODY_ROWS:-100000}"
formats="${FORMATS:-RowBinary RowBinary+lz4 TSV JSONEachRow}"
work="${WORK:-/tmp/granary-ingest}"
source "$root/bench/ingest/servers.sh"

# 1. Source rows and the bodies, written by a Granary server over the generated table.
[[ -d "$work/source" ]] || "$granary" gen-hits --rows "$rows" --out "$work/source"
"$granary" server --data "$work/source" --port 0 --http-port 18200 2>"$work/source.log" &
pids+=($!)
wait_http 18200
for format in RowBinary TSV JSONEachRow; do
    [[ -s "$work/body.$format" ]] ||
        post 18200 "SELECT * FROM hits ORDER BY WatchID LIMIT $body_rows FORMAT $format" >"$work/body.$format"
done
[[ -s "$work/body.RowBinary+lz4" ]] || clickhouse-compressor <"$work/body.RowBinary" >"$work/body.RowBinary+lz4"
columns="$(post 18200 "DESCRIBE hits" | awk -F'\t' '{printf "%s%s %s", sep, $1, $2; sep=", "}')"
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
key="ORDER BY (CounterID, EventDate, UserID, EventTime, WatchID)"

# 2. Gate, then the sweep: each point into a fresh table, so part counts do not carry over.
gate_query="SELECT count(), sum(RegionID), sum(length(URL)), sum(ResolutionWidth) FROM gate"
start_results
for server in granary clickhouse; do
    "start_$server"
    post $port "CREATE TABLE gate ($columns) ENGINE = MergeTree $key" >/dev/null
    curl -sS --fail-with-body "http://127.0.0.1:$port/?query=$(urlencode "INSERT INTO gate FORMAT RowBinary")" --data-binary @"$work/body.RowBinary"
    post $port "$gate_query" >"$work/gate.$server"
    post $port "SELECT * FROM gate ORDER BY WatchID FORMAT RowBinary" | cmp -s - "$work/body.RowBinary" ||
        { echo "gate: $server does not return the inserted RowBinary bytes" >&2; exit 1; }
    for format in $formats; do
        for n in $connections; do
            measure_point hits "CREATE TABLE hits ($columns) ENGINE = MergeTree $key" "$server" \
                "$format" "$work/body.$format" "$body_rows" "$n"
        done
    done
    stop_server
done
finish_report
