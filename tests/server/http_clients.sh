#!/usr/bin/env bash
# Real clients, unmodified, against `granary server`'s HTTP interface: curl (with and without
# Expect: 100-continue), ClickHouse's own frame codec (clickhouse-compressor) both ways, and
# the npm package @clickhouse/client.
# Usage: http_clients.sh <granary binary> <source root>
set -euo pipefail

granary="$1"
root="$2"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "http_clients: FAIL: $*" >&2
    exit 1
}

source "$(dirname "${BASH_SOURCE[0]}")/http_server_lib.sh"
start_http_server "$granary" "$work/data" "$work/server.log"
url="http://127.0.0.1:$port"

query() { curl -sS --fail-with-body "$url/?query=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1")" "${@:2}"; }

[[ "$(curl -sS "$url/ping")" == "Ok." ]] || fail "ping"
query "CREATE TABLE t (id UInt64, name String) ORDER BY id" --data-binary ''

# TSV rows: a small body, then one above 1 MiB (curl adds Expect: 100-continue, and here
# waits up to 30 s for the answer before it sends the body anyway: a server that never
# answers 100 makes that insert take 30 s, whatever the machine's load), then the same size
# with the header suppressed and a small one with it forced.
python3 -c 'import sys; sys.stdout.write("".join(f"{i}\tname {i % 11}\n" for i in range(1000)))' >"$work/small.tsv"
python3 -c 'import sys; sys.stdout.write("".join(f"{i}\tname {i % 11}\n" for i in range(1000, 151000)))' >"$work/large.tsv"
[[ $(stat -c %s "$work/large.tsv") -gt 1048576 ]] || fail "large body is not above 1 MiB"
query "INSERT INTO t FORMAT TSV" --data-binary @"$work/small.tsv"
start=$(date +%s%N)
query "INSERT INTO t FORMAT TSV" --data-binary @"$work/large.tsv" --expect100-timeout 30 -v 2>"$work/curl.log"
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q "Expect: 100-continue" "$work/curl.log" || fail "curl did not send Expect: 100-continue"
grep -q "HTTP/1.1 100 Continue" "$work/curl.log" || fail "no 100 Continue answered"
(( elapsed_ms < 20000 )) || fail "large insert took ${elapsed_ms} ms: curl waited for its expect timeout"
query "INSERT INTO t FORMAT TSV" -H 'Expect:' --data-binary @"$work/small.tsv"
query "INSERT INTO t FORMAT TSV" -H 'Expect: 100-continue' --data-binary @"$work/small.tsv"
[[ "$(query "SELECT count() FROM t")" == "153000" ]] || fail "count after curl inserts"

# LZ4 frames written by clickhouse-compressor, inserted with decompress=1.
query "SELECT id + 1000000, name FROM t WHERE id < 5000 ORDER BY id FORMAT RowBinary" >"$work/rows.bin"
clickhouse-compressor <"$work/rows.bin" >"$work/rows.lz4"
curl -sS --fail-with-body "$url/?query=INSERT%20INTO%20t%20FORMAT%20RowBinary&decompress=1" --data-binary @"$work/rows.lz4"
[[ "$(query "SELECT count() FROM t WHERE id >= 1000000")" == "$(query "SELECT count() FROM t WHERE id < 5000")" ]] ||
    fail "frames from clickhouse-compressor"
# Frames written by Granary (compress=1), decoded by clickhouse-compressor with its checksums.
curl -sS --fail-with-body "$url/?query=SELECT%20id%20%2B%201000000%2C%20name%20FROM%20t%20WHERE%20id%20%3C%205000%20ORDER%20BY%20id%20FORMAT%20RowBinary&compress=1" --data-binary '' >"$work/answer.lz4"
clickhouse-compressor -d <"$work/answer.lz4" >"$work/answer.bin"
cmp "$work/answer.bin" "$work/rows.bin" || fail "compress=1 frames differ from the plain answer"

# A malformed body answers 400 with ClickHouse's error shape, and inserts nothing.
status=$(curl -sS -o "$work/error.txt" -w '%{http_code}' "$url/?query=INSERT%20INTO%20t%20FORMAT%20RowBinary" --data-binary $'\x01\x02\x03')
[[ "$status" == "400" ]] || fail "malformed body answered $status"
grep -q "^Code: 33. DB::Exception: .*(CANNOT_READ_ALL_DATA) (version" "$work/error.txt" || fail "error body: $(cat "$work/error.txt")"
[[ "$(query "SELECT count() FROM t")" == "160000" ]] || fail "count after the malformed insert"

js_dir="${GRANARY_CLICKHOUSE_JS:-$("$root/tools/install_clickhouse_js.sh")}"
NODE_PATH="$js_dir/node_modules" node "$root/tests/server/http_js_client.mjs" "$url"
echo "http_clients: ok"
