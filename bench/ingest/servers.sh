# Shared by the ingest benchmarks (run.sh: hits, spans.sh: OpenTelemetry spans): the two
# servers on this machine, one at a time, HTTP helpers and one measured point. Sourced after
# `build` and `work` are set; reads SECONDS_PER_POINT, CONNECTIONS and OUT.
granary="$build/programs/granary"
driver="$build/bench/ingest/ingest_driver"
seconds="${SECONDS_PER_POINT:-10}"  # Not SECONDS: bash counts elapsed time in it.
connections="${CONNECTIONS:-1 2}"
out="${OUT:-$work/results}"
mkdir -p "$work" "$out"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

wait_http() { for _ in $(seq 200); do curl -sf "http://127.0.0.1:$1/ping" >/dev/null && return; sleep 0.1; done; echo "no server on $1" >&2; exit 1; }
# post PORT SQL [&URL_PARAMETERS]
post() { local parameters="${3:-}"; curl -sS --fail-with-body "http://127.0.0.1:$1/?${parameters#&}" --data-binary "$2"; }
urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }


# The servers: Granary, then ClickHouse 18.16 with a config of its own under WORK. Each sets
# server_pid and port.
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


start_results() {
    echo "server,format,connections,requests,rows,wall_s,rows_per_s,server_cpu_s,rows_per_server_cpu_s,p50_ms,p99_ms,wire_mb_per_s,failures" >"$out/results.csv"
}

# One point into a fresh table (so part counts do not carry over): N keep-alive connections
# POST BODY (FORMAT, "+lz4" for frames) for `seconds`; the driver's line goes to results.csv.
#   measure_point TABLE CREATE_SQL SERVER FORMAT BODY ROWS_PER_BODY N [EXTRA_URL_PARAMETERS]
measure_point() {
    local table=$1 create=$2 server=$3 format=$4 body=$5 rows_per_body=$6 n=$7 extra=${8:-}
    post $port "DROP TABLE IF EXISTS $table" >/dev/null
    post $port "$create" "$extra" >/dev/null
    local wire_format="${format%%+*}"  # RowBinary+json+lz4: RowBinary, of JSON attributes, framed.
    [[ "$format" == *+lz4 ]] && extra="$extra&decompress=1"
    printf '%-10s %-14s %s connection(s)... ' "$server" "$format" "$n" >&2
    local line
    line="$("$driver" --port $port --path "/?query=$(urlencode "INSERT INTO $table FORMAT $wire_format")$extra" \
        --body "$body" --rows-per-body "$rows_per_body" --connections "$n" \
        --seconds "$seconds" --warmup 2 --server-pid "$server_pid" --label "$server,$format")"
    echo "$line" >>"$out/results.csv"
    echo "$line" | awk -F, '{printf "%.0f rows/s, %.0f rows per server CPU-second\n", $7, $9}' >&2
}

# Both servers' gate answers must agree; then the table and the chart.
finish_report() {
    cmp "$work/gate.granary" "$work/gate.clickhouse" ||
        { echo "gate: count/sums differ: granary $(cat "$work/gate.granary") vs clickhouse $(cat "$work/gate.clickhouse")" >&2; exit 1; }
    echo "gate: both servers hold the same rows ($(tr '\t' ' ' <"$work/gate.granary"))"
    python3 "$root/bench/ingest/report.py" "$out/results.csv" "$out/ingest.svg"
}
