#!/usr/bin/env bash
# The OpenTelemetry ingest benchmark (not a test): `granary gen-spans` bodies of BODY_ROWS
# spans (RowBinary raw and in Rotel's 254 KiB LZ4 frames) POSTed over N keep-alive connections
# into Granary's `otel_traces` (the collector's own DDL) and into ClickHouse 18.16 through a
# wire-identical schema (DateTime64(9) as Int64, Map(K, V) as Tuple(Array(Tuple(K, V))),
# Array(Map) as Array(Array(Tuple)): 18.16 has neither type), one server after the other, both
# into durable MergeTree tables; then Granary alone takes Rotel's JSON mode (attributes as JSON,
# values Dynamic-tagged: RowBinary+json+lz4), which 18.16 cannot read. Prints spans/s and spans per server CPU-second, and writes
# results.csv and ingest.svg to OUT.
#   bench/ingest/spans.sh [path/to/build]
#   BODY_ROWS (spans per request, default 102400, Rotel's disk batch), SECONDS_PER_POINT (per
#   point, default 10), CONNECTIONS (default "1 2"), WORK (default /tmp/granary-spans),
#   OUT (default $WORK/results)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
body_rows="${BODY_ROWS:-102400}"
work="${WORK:-/tmp/granary-spans}"
source "$root/bench/ingest/servers.sh"

# 1. The bodies, and each server's table.
[[ -s "$work/body.RowBinary" ]] || "$granary" gen-spans --rows "$body_rows" --out "$work/body.RowBinary"
[[ -s "$work/body.RowBinary+lz4" ]] ||
    "$granary" gen-spans --rows "$body_rows" --out "$work/body.RowBinary+lz4" --lz4-frames
[[ -s "$work/body.RowBinary+json+lz4" ]] ||
    "$granary" gen-spans --rows "$body_rows" --out "$work/body.RowBinary+json+lz4" --lz4-frames --json
granary_create="$("$granary" gen-spans --print-ddl)"
json_create="$("$granary" gen-spans --print-ddl --json)"
json_create="${json_create/otel_traces/otel_traces_json}"
attributes='Tuple(Array(Tuple(String, String)))'
clickhouse_create="CREATE TABLE otel_traces (Timestamp Int64, TraceId String, SpanId String,
 ParentSpanId String, TraceState String, SpanName LowCardinality(String),
 SpanKind LowCardinality(String), ServiceName LowCardinality(String),
 ResourceAttributes $attributes, ScopeName String, ScopeVersion String,
 SpanAttributes $attributes, Duration UInt64, StatusCode LowCardinality(String),
 StatusMessage String, \`Events.Timestamp\` Array(Int64), \`Events.Name\` Array(String),
 \`Events.Attributes\` Array(Array(Tuple(String, String))), \`Links.TraceId\` Array(String),
 \`Links.SpanId\` Array(String), \`Links.TraceState\` Array(String),
 \`Links.Attributes\` Array(Array(Tuple(String, String))))
 ENGINE = MergeTree ORDER BY (ServiceName, SpanName, intDiv(Timestamp, 1000000000))"
clickhouse_settings="&allow_experimental_low_cardinality_type=1"

# 2. Gate (the same counts and sums on both servers; Granary's unsorted copy returns the posted
# bytes exactly), then the sweep.
start_results
gate_query="SELECT count(), sum(Duration), sum(length(\`Events.Name\`)), sum(length(\`Links.SpanId\`)) FROM otel_traces"
insert_url() { echo "http://127.0.0.1:$port/?query=$(urlencode "INSERT INTO $1 FORMAT RowBinary")$2"; }
for server in granary clickhouse; do
    "start_$server"
    if [[ $server == granary ]]; then create="$granary_create" extra=""
    else create="$clickhouse_create" extra="$clickhouse_settings"; fi
    post $port "$create" "$extra" >/dev/null
    curl -sS --fail-with-body "$(insert_url otel_traces "$extra&decompress=1")" \
        --data-binary @"$work/body.RowBinary+lz4"
    post $port "$gate_query" >"$work/gate.$server"
    if [[ $server == granary ]]; then
        unsorted="${granary_create/otel_traces/otel_unsorted}"
        post $port "${unsorted/ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))/ORDER BY tuple()}" >/dev/null
        curl -sS --fail-with-body "$(insert_url otel_unsorted "")" --data-binary @"$work/body.RowBinary"
        post $port "SELECT * FROM otel_unsorted FORMAT RowBinary" | cmp -s - "$work/body.RowBinary" ||
            { echo "gate: Granary does not return the posted RowBinary bytes" >&2; exit 1; }
        post $port "$json_create" >/dev/null
        curl -sS --fail-with-body "$(insert_url otel_traces_json "&decompress=1")" \
            --data-binary @"$work/body.RowBinary+json+lz4"
        post $port "${gate_query/otel_traces/otel_traces_json}" | cmp -s - "$work/gate.granary" ||
            { echo "gate: the JSON-mode spans differ from the Map-mode ones" >&2; exit 1; }
    fi
    for format in RowBinary RowBinary+lz4; do
        for n in $connections; do
            measure_point otel_traces "$create" "$server" "$format" "$work/body.$format" \
                "$body_rows" "$n" "$extra"
        done
    done
    if [[ $server == granary ]]; then
        for n in $connections; do
            measure_point otel_traces_json "$json_create" granary RowBinary+json+lz4 \
                "$work/body.RowBinary+json+lz4" "$body_rows" "$n"
        done
    fi
    stop_server
done
finish_report
