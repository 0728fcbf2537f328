#!/usr/bin/env bash
# On-disk size of the same ClickBench `hits` table in Granary, ClickHouse 18.16 (MergeTree,
# LZ4) and DuckDB (file database), side by side: per column and in total.
#
#   bench/storage/compare_sizes.sh --data DIR --csv OUT.csv [options]
#
#   --granary BIN        the granary binary (default: build/programs/granary of this checkout)
#   --data DIR           Granary data directory holding the table (its folder DIR/TABLE)
#   --table NAME         table name (default hits)
#   --gen ROWS           make DIR with `granary gen-hits --rows ROWS` first if it has no table
#   --csv PATH           write the per-column table as CSV (required)
#   --svg PATH           bar chart of the totals and the largest columns (default: CSV's .svg)
#   --threads N          threads for each engine (default 1: the machine is shared)
#   --workdir DIR        where the temporary folder goes (TSV, ClickHouse data, DuckDB file;
#                        default ${TMPDIR:-/tmp}): a new compare_sizes.XXXXXX inside it
#   --keep               keep the work directory (TSV, ClickHouse data dir, DuckDB file)
#   --ch-port PORT       TCP port of the private ClickHouse server (default: a free one)
#   --no-clickhouse, --no-duckdb     leave an engine out
#   --duckdb-lib PATH    libduckdb.so (default: the last line of tools/install_duckdb.sh)
#   --duckdb-storage-version V       ATTACH the DuckDB file with STORAGE_VERSION V (e.g. v1.5.0;
#                        default: DuckDB's default for new files, v0.10.2 compatibility)
#   --strict             exit 3 when the engines' check aggregates differ
#
# Steps (progress on stderr): Granary's sizes from the part files (column i = every c<i>.*
# file of every part; total = du -sb of the table folder) and its check aggregates; one TSV
# export with `granary local ... --format TSV`; an escaping probe (tabs, newlines, backslashes,
# quotes, NUL, UTF-8 through Granary's TSV writer, read back by ClickHouse and DuckDB and
# compared byte for byte); ClickHouse: a private clickhouse-server (config and data under the
# work directory, its own port, no systemd), CREATE TABLE ... MergeTree() ORDER BY (sort key
# from schema.json), INSERT FORMAT TabSeparated, OPTIMIZE TABLE FINAL, sum(bytes_on_disk) of
# the active parts and system.columns.data_compressed_bytes; DuckDB through its C API (ctypes):
# read_csv of the TSV (or of a CSV conversion when the TSV holds escapes), CHECKPOINT, the
# file's size, per column from pragma_storage_info. The same check aggregates (count, min/max
# of every column, bit-xor of integers, byte length and empties of strings, a few
# count(DISTINCT)) run in all three engines and are compared in the report.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="${GRANARY_REPO:-$(cd "$here/../.." && pwd)}"
helper="$here/sizes.py"

granary="$repo/build/programs/granary"
data=""
table="hits"
gen_rows=""
csv=""
svg=""
threads=1
workdir=""
keep=0
ch_port=""
use_ch=1
use_duck=1
duck_lib=""
duck_storage=""
strict=0

usage() { sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --granary) granary="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --table) table="$2"; shift 2 ;;
        --gen) gen_rows="$2"; shift 2 ;;
        --csv) csv="$2"; shift 2 ;;
        --svg) svg="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --workdir) workdir="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --ch-port) ch_port="$2"; shift 2 ;;
        --no-clickhouse) use_ch=0; shift ;;
        --no-duckdb) use_duck=0; shift ;;
        --duckdb-lib) duck_lib="$2"; shift 2 ;;
        --duckdb-storage-version) duck_storage="$2"; shift 2 ;;
        --strict) strict=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "compare_sizes.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ -n "$data" && -n "$csv" ]] || { usage >&2; exit 2; }
[[ -n "$svg" ]] || svg="${csv%.csv}.svg"
[[ -x "$granary" ]] || { echo "compare_sizes.sh: $granary is not executable" >&2; exit 2; }

start_all=$SECONDS
step_start=$SECONDS
step_name=""
log() { echo "[compare_sizes $(date +%T)] $*" >&2; }
step() {  # ends the running step (with its time) and starts the next
    if [[ -n "$step_name" ]]; then
        log "  done in $((SECONDS - step_start)) s: $step_name"
    fi
    step_name="$*"
    step_start=$SECONDS
    log "$*"
}
warn() { echo "[compare_sizes] WARNING: $*" >&2; }

# ---- work directory and cleanup -------------------------------------------------------------
# Always a fresh folder of our own (inside --workdir when given), so cleanup removes only it.
if [[ -n "$workdir" ]]; then
    mkdir -p "$workdir"
fi
workdir="$(mktemp -d "${workdir:-${TMPDIR:-/tmp}}/compare_sizes.XXXXXX")"
workdir="$(cd "$workdir" && pwd)"
ch_pid=""
stop_clickhouse() {
    if [[ -n "$ch_pid" ]] && kill -0 "$ch_pid" 2>/dev/null; then
        log "stopping clickhouse-server (pid $ch_pid)"
        kill -TERM "$ch_pid" 2>/dev/null || true
        for _ in $(seq 1 60); do
            kill -0 "$ch_pid" 2>/dev/null || break
            sleep 0.5
        done
        if kill -0 "$ch_pid" 2>/dev/null; then
            kill -KILL "$ch_pid" 2>/dev/null || true
        fi
        wait "$ch_pid" 2>/dev/null || true
    fi
    ch_pid=""
}
cleanup() {
    local rc=$?
    stop_clickhouse
    if [[ $keep -eq 1 ]]; then
        log "kept the work directory $workdir"
    else
        rm -rf "$workdir"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- Granary ---------------------------------------------------------------------------------
# A private copy of the binary: a rebuild of build/ during the run cannot swap it midway.
granary_src="$granary"
granary_built="$(date -r "$granary" '+%F %T')"
cp "$granary" "$workdir/granary"
granary="$workdir/granary"
tdir="$data/$table"
if [[ ! -f "$tdir/schema.json" ]]; then
    if [[ -n "$gen_rows" ]]; then
        step "Granary: gen-hits --rows $gen_rows --out $data"
        "$granary" gen-hits --rows "$gen_rows" --out "$data" --threads "$threads" >&2
    else
        echo "compare_sizes.sh: no table $tdir/schema.json (use --gen ROWS to make one)" >&2
        exit 2
    fi
fi
schema="$tdir/schema.json"
log "work directory $workdir; threads $threads"

step "Granary: sizes of $tdir"
python3 "$helper" granary-sizes "$tdir" "$workdir/granary.json" \
    --version "$granary_src (built $granary_built)"
rows="$("$granary" local --data "$data" --threads "$threads" -q "SELECT count(*) FROM $table" --format TSV)"
log "Granary: $rows rows, $(du -sb "$tdir" | cut -f1) bytes (du -sb)"

step "Granary: check aggregates"
python3 "$helper" check-sql "$schema" granary --table "$table" > "$workdir/check.granary.sql"
"$granary" local --data "$data" --threads "$threads" --query-file "$workdir/check.granary.sql" \
    --format TSV > "$workdir/checks.granary.tsv"

need_tsv=0
[[ $use_ch -eq 1 || $use_duck -eq 1 ]] && need_tsv=1
tsv="$workdir/$table.tsv"
if [[ $need_tsv -eq 1 ]]; then
    # `granary local` holds the whole result in memory before writing it (about 2 KB a row of
    # hits: 10M rows took >20 GB and were OOM-killed), so export one part at a time, in the
    # manifest's order (the row order of SELECT * at one thread): each through a data
    # directory of its own whose table lists that part alone (a symlink to it).
    step "Granary: exporting SELECT * as TSV, part by part"
    : > "$tsv"
    tdir_abs="$(cd "$tdir" && pwd)"
    partview="$workdir/partview"
    while IFS= read -r part; do
        rm -rf "$partview"
        mkdir -p "$partview/$table"
        cp "$tdir_abs/schema.json" "$partview/$table/schema.json"
        python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); m["parts"] = [sys.argv[2]]; json.dump(m, open(sys.argv[3], "w"), indent=1)' \
            "$tdir_abs/manifest.json" "$part" "$partview/$table/manifest.json"
        ln -s "$tdir_abs/$part" "$partview/$table/$part"
        "$granary" local --data "$partview" --threads "$threads" -q "SELECT * FROM $table" \
            --format TSV >> "$tsv"
    done < <(python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["parts"]))' \
                 "$tdir_abs/manifest.json")
    rm -rf "$partview"
    tsv_lines="$(wc -l < "$tsv")"
    log "TSV: $(du -b "$tsv" | cut -f1) bytes, $tsv_lines lines"
    if [[ "$tsv_lines" != "$rows" ]]; then
        warn "the TSV has $tsv_lines lines for $rows rows"
    fi
    python3 "$helper" probe granary-sql > "$workdir/probe.sql"
    "$granary" local --query-file "$workdir/probe.sql" --format TSV > "$workdir/probe.tsv"
fi

# ---- ClickHouse ------------------------------------------------------------------------------
ch_json="$workdir/clickhouse.json"
ch_client=()
ch_query() { "${ch_client[@]}" "$@"; }

clickhouse_run() {
    if ! command -v clickhouse-server >/dev/null && [[ ! -x /usr/sbin/clickhouse-server ]] ||
       ! command -v clickhouse-client >/dev/null; then
        step "ClickHouse: installing clickhouse-server clickhouse-client (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y clickhouse-server clickhouse-client >&2 ||
            { warn "apt-get install clickhouse-server failed"; return 1; }
    fi
    local server
    server="$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)"
    local d="$workdir/clickhouse"
    mkdir -p "$d"/{data,tmp,user_files,format_schemas,log}
    if [[ -z "$ch_port" ]]; then
        ch_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    fi
    cat > "$d/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/server.err.log</errorlog><size>100M</size><count>1</count></logger>
  <tcp_port>$ch_port</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <user_files_path>$d/user_files/</user_files_path>
  <format_schema_path>$d/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>16</max_concurrent_queries>
  <mlock_executable>false</mlock_executable>
</yandex>
EOF
    cat > "$d/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles><default>
    <max_threads>$threads</max_threads>
    <max_memory_usage>16000000000</max_memory_usage>
    <background_pool_size>$(( threads > 2 ? threads : 2 ))</background_pool_size>
  </default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
EOF
    step "ClickHouse: starting a private clickhouse-server on 127.0.0.1:$ch_port ($d)"
    (cd "$d" && exec "$server" --config-file="$d/config.xml") > "$d/log/stdout.log" 2>&1 &
    ch_pid=$!
    ch_client=(clickhouse-client --host 127.0.0.1 --port "$ch_port")
    local ok=0
    for _ in $(seq 1 120); do
        if ! kill -0 "$ch_pid" 2>/dev/null; then break; fi
        if ch_query -q "SELECT 1" >/dev/null 2>&1; then ok=1; break; fi
        sleep 0.5
    done
    if [[ $ok -ne 1 ]]; then
        warn "clickhouse-server did not start; its logs:"
        tail -n 20 "$d/log/stdout.log" "$d/log/server.err.log" >&2 2>/dev/null || true
        return 1
    fi
    local version
    version="$(ch_query -q "SELECT version()")" || return 1
    log "ClickHouse $version, timezone $(ch_query -q 'SELECT timezone()')"

    step "ClickHouse: escaping probe"
    ch_query -q "$(python3 "$helper" probe ch-ddl)" || return 1
    ch_query -q "INSERT INTO probe FORMAT TabSeparated" < "$workdir/probe.tsv" || return 1
    ch_query -q "$(python3 "$helper" probe ch-sql)" > "$workdir/probe.clickhouse.hex" || return 1
    ch_query -q "DROP TABLE probe" || return 1

    step "ClickHouse: CREATE TABLE $table, INSERT FORMAT TabSeparated"
    ch_query -q "$(python3 "$helper" ch-ddl "$schema" --table "$table")" || return 1
    ch_query --max_threads "$threads" -q "INSERT INTO $table FORMAT TabSeparated" < "$tsv" || return 1
    step "ClickHouse: OPTIMIZE TABLE $table FINAL"
    ch_query -q "OPTIMIZE TABLE $table FINAL" || return 1
    step "ClickHouse: sizes and check aggregates"
    ch_query -q "SELECT name, bytes_on_disk, rows FROM system.parts
                 WHERE active AND database = currentDatabase() AND table = '$table'" \
        > "$workdir/ch.parts.tsv" || return 1
    ch_query -q "SELECT name, data_compressed_bytes FROM system.columns
                 WHERE database = currentDatabase() AND table = '$table'" \
        > "$workdir/ch.columns.tsv" || return 1
    python3 "$helper" check-sql "$schema" clickhouse --table "$table" > "$workdir/check.clickhouse.sql"
    ch_query --max_threads "$threads" < "$workdir/check.clickhouse.sql" > "$workdir/checks.clickhouse.tsv" || return 1
    local du_all
    du_all="$(du -sb "$d/data/data/default/$table" | cut -f1)"
    python3 "$helper" clickhouse-sizes --parts "$workdir/ch.parts.tsv" \
        --columns "$workdir/ch.columns.tsv" --checks "$workdir/checks.clickhouse.tsv" \
        --version "$version (MergeTree, LZ4, index_granularity 8192)" --du "$du_all" "$ch_json" || return 1
    stop_clickhouse
}

if [[ $use_ch -eq 1 ]]; then
    if ! clickhouse_run; then
        warn "ClickHouse step failed; the report leaves it out"
        rm -f "$ch_json"
        stop_clickhouse
    fi
    if [[ $keep -eq 0 ]]; then
        rm -rf "$workdir/clickhouse/data" "$workdir/clickhouse/tmp"
    fi
fi

# ---- DuckDB ----------------------------------------------------------------------------------
duck_json="$workdir/duckdb.json"
duckdb_run() {
    if [[ -z "$duck_lib" ]]; then
        step "DuckDB: tools/install_duckdb.sh"
        duck_lib="$("$repo/tools/install_duckdb.sh" | tail -n 1)" || return 1
    fi
    [[ -f "$duck_lib" ]] || { warn "no DuckDB library at $duck_lib"; return 1; }
    log "DuckDB library $duck_lib"
    step "DuckDB: escaping probe"
    local probe_ch=()
    if [[ -f "$workdir/probe.clickhouse.hex" ]]; then
        probe_ch=(--ch-hex "$workdir/probe.clickhouse.hex")
    fi
    python3 "$helper" probe-check --granary-tsv "$workdir/probe.tsv" "${probe_ch[@]}" \
        --duck-lib "$duck_lib" --workdir "$workdir" ||
        warn "the escaping probe found differences (above)"
    local input="$tsv" format=tsv
    if LC_ALL=C grep -qF "\\" "$tsv"; then
        step "DuckDB: the TSV holds backslash escapes, which read_csv does not decode: converting to CSV"
        python3 "$helper" tsv-to-csv "$schema" "$tsv" "$workdir/$table.csv" || return 1
        input="$workdir/$table.csv"
        format=csv
    else
        log "DuckDB: the TSV has no backslash (no escapes): read_csv reads it as it is"
    fi
    python3 "$helper" check-sql "$schema" duckdb --table "$table" > "$workdir/check.duckdb.sql"
    step "DuckDB: CREATE TABLE, INSERT ... read_csv, CHECKPOINT"
    local sv=()
    if [[ -n "$duck_storage" ]]; then
        sv=(--storage-version "$duck_storage")
    fi
    python3 "$helper" duckdb-load --lib "$duck_lib" --db "$workdir/$table.duckdb" \
        --schema "$schema" --input "$input" --format "$format" --threads "$threads" \
        --table "$table" --check-sql "$workdir/check.duckdb.sql" "${sv[@]}" --out "$duck_json" ||
        return 1
    if [[ $keep -eq 0 ]]; then
        rm -f "$workdir/$table.csv"
    fi
}
if [[ $use_duck -eq 1 ]]; then
    if ! duckdb_run; then
        warn "DuckDB step failed; the report leaves it out"
        rm -f "$duck_json"
    fi
elif [[ $use_ch -eq 1 && -f "$workdir/probe.clickhouse.hex" ]]; then
    python3 "$helper" probe-check --granary-tsv "$workdir/probe.tsv" \
        --ch-hex "$workdir/probe.clickhouse.hex" --workdir "$workdir" ||
        warn "the escaping probe found differences (above)"
fi
if [[ $keep -eq 0 ]]; then
    rm -f "$tsv"
fi

# ---- report ----------------------------------------------------------------------------------
step "report"
report_args=(--schema "$schema" --rows "$rows" --granary "$workdir/granary.json"
             --granary-checks "$workdir/checks.granary.tsv" --csv "$csv" --svg "$svg")
if [[ -f "$ch_json" ]]; then report_args+=(--clickhouse "$ch_json"); fi
if [[ -f "$duck_json" ]]; then report_args+=(--duckdb "$duck_json"); fi
if [[ $strict -eq 1 ]]; then report_args+=(--fail-on-mismatch); fi
python3 "$helper" report "${report_args[@]}"
log "wrote $csv and $svg; total $((SECONDS - start_all)) s"
