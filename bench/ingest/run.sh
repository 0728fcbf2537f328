#!/usr/bin/env bash
# The ingest benchmark (not a test): generated ClickBench `hits` rows, pre-encoded as request
# bodies (RowBinary raw and in LZ4 frames, TSV, JSONEachRow), POSTed over N keep-alive
# connections into Granary's HTTP interface and into ClickHouse 18.16 (Debian) on the same
# machine, one server after the other, both into durable MergeTree-like tables. Prints rows/s
# and rows per server CPU-second per (server, format, connections) and Granary's ratio to
# ClickHouse, and writes results.csv and ingest.svg to OUT.
#   bench/ingest/run.sh [path/to/build]
#   ROWS (source rows, default 1000000), BODY_ROWS (rows per request, default 100000),
#   SECONDS (measured per point, default 10), CONNECTIONS (default "1 2"),
#   FORMATS (default "RowBinary RowBinary+lz4 TSV JSONEachRow"), WORK (default /tmp/granary-ingest),
#   OUT (default $WORK/results)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
granary="$build/programs/granary"
driver="$build/bench/ingest/ingest_driver"
rows="${ROWS:-1000000}"
body_rows="${BODY_ROWS:-100000}"
seconds="${SECONDS_PER_POINT:-${SECONDS:-10}}"
connections="${CONNECTIONS:-1 2}"
formats="${FORMATS:-RowBinary RowBinary+lz4 TSV JSONEachRow}"
work="${WORK:-/tmp/granary-ingest}"
out="${OUT:-$work/results}"
mkdir -p "$work" "$out"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

wait_http() { for _ in $(seq 200); do curl -sf "http://127.0.0.1:$1/ping" >/dev/null && return; sleep 0.1; done; echo "no server on $1" >&2; exit 1; }
post() { curl -sS --fail-with-body "http://127.0.0.1:$1/" --data-binary "$2"; }
urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }

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

# 2. The servers: Granary, then ClickHouse 18.16 with a config of its own under WORK.
start_granary() {
    rm -rf "$work/granary-data"
    "$granary" server --data "$work/granary-data" --port 0 --http-port 18201 2>"$work/granary.log" &
    server_pid=$!; pids+=($server_pid); port=18201
    wait_http $port
}
start_clickhouse() {
    local ch="$work/clickhouse"
    rm -rf "$ch"; mkdir -p "$ch"/{data,tmp,user_files,format_schemas,log}
    cat >"$ch/config.xml" <<XML
<?xml version="1.0"?><yandex>
 <logger><level>warning</level><log>$ch/log/server.log</log><errorlog>$ch/log/server.err.log</errorlog></logger>
 <listen_host>127.0.0.1</listen_host><tcp_port>19201</tcp_port><http_port>18202</http_port>
 <max_connections>64</max_connections><keep_alive_timeout>30</keep_alive_timeout><mark_cache_size>1073741824</mark_cache_size>
 <path>$ch/data/</path><tmp_path>$ch/tmp/</tmp_path><user_files_path>$ch/user_files/</user_files_path>
 <format_schema_path>$ch/format_schemas/</format_schema_path><users_config>/etc/clickhouse-server/users.xml</users_config>
 <default_profile>default</default_profile><default_database>default</default_database><timezone>UTC</timezone>
 <mlock_executable>false</mlock_executable></yandex>
XML
    /usr/sbin/clickhouse-server --config-file="$ch/config.xml" >"$ch/log/stdout.log" 2>&1 </dev/null &
    server_pid=$!; pids+=($server_pid); port=18202
    wait_http $port
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; unset 'pids[-1]'; }

# 3. Gate, then the sweep: each point into a fresh table, so part counts do not carry over.
gate_query="SELECT count(), sum(RegionID), sum(length(URL)), sum(ResolutionWidth) FROM gate"
echo "server,format,connections,requests,rows,wall_s,rows_per_s,server_cpu_s,rows_per_server_cpu_s,p50_ms,p99_ms,wire_mb_per_s,failures" >"$out/results.csv"
for server in granary clickhouse; do
    "start_$server"
    post $port "CREATE TABLE gate ($columns) ENGINE = MergeTree $key" >/dev/null
    curl -sS --fail-with-body "http://127.0.0.1:$port/?query=$(urlencode "INSERT INTO gate FORMAT RowBinary")" --data-binary @"$work/body.RowBinary"
    post $port "$gate_query" >"$work/gate.$server"
    post $port "SELECT * FROM gate ORDER BY WatchID FORMAT RowBinary" | cmp -s - "$work/body.RowBinary" ||
        { echo "gate: $server does not return the inserted RowBinary bytes" >&2; exit 1; }
    for format in $formats; do
        for n in $connections; do
            post $port "DROP TABLE IF EXISTS hits" >/dev/null
            post $port "CREATE TABLE hits ($columns) ENGINE = MergeTree $key" >/dev/null
            wire_format="${format%+lz4}"
            extra=""; [[ "$format" == *+lz4 ]] && extra="&decompress=1"
            printf '%-10s %-14s %s connection(s)... ' "$server" "$format" "$n" >&2
            line="$("$driver" --port $port --path "/?query=$(urlencode "INSERT INTO hits FORMAT $wire_format")$extra" \
                --body "$work/body.$format" --rows-per-body "$body_rows" --connections "$n" \
                --seconds "$seconds" --warmup 2 --server-pid "$server_pid" --label "$server,$format")"
            echo "$line" >>"$out/results.csv"
            echo "$line" | awk -F, '{printf "%.0f rows/s, %.0f rows per server CPU-second\n", $7, $9}' >&2
        done
    done
    stop_server
done
cmp "$work/gate.granary" "$work/gate.clickhouse" ||
    { echo "gate: count/sums differ: granary $(cat "$work/gate.granary") vs clickhouse $(cat "$work/gate.clickhouse")" >&2; exit 1; }
echo "gate: both servers hold the same rows ($(cat "$work/gate.granary" | tr '\t' ' '))"
python3 "$root/bench/ingest/report.py" "$out/results.csv" "$out/ingest.svg"
