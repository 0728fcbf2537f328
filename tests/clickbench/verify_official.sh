#!/usr/bin/env bash
# End-to-end check of Granary against DuckDB on the official ClickBench queries: generates a
# synthetic `hits` table with `granary gen-hits`, then runs
# `granary clickbench --compare duckdb --verify` over it with ClickBench's query files (read from
# the shared folder, never copied: they are CC BY-NC-SA). Exits non-zero when any result differs
# or fails; 77 (ctest's SKIP_RETURN_CODE) when the query files are absent.
#   tests/clickbench/verify_official.sh [path/to/granary]
#   ROWS (default 200000), THREADS (default 0: all), SEED (default 1),
#   GRANARY_CLICKBENCH_DIR (default ../shared/clickbench next to the checkout),
#   GRANARY_DUCKDB_LIB (default: installed by tools/install_duckdb.sh)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="${1:-$root/build/programs/granary}"
shared="${GRANARY_CLICKBENCH_DIR:-$root/../shared/clickbench}"
rows="${ROWS:-200000}"

if [[ ! -f "$shared/clickhouse-queries.sql" || ! -f "$shared/duckdb-queries.sql" ]]; then
    echo "verify_official.sh: ClickBench query files not found in $shared; skipping" >&2
    exit 77
fi
script=verify_official.sh
source "$root/tests/clickbench/verify_setup.sh"

"$granary" gen-hits --rows "$rows" --seed "${SEED:-1}" --out "$work/data"
"$granary" clickbench --data "$work/data" \
    --queries "$shared/clickhouse-queries.sql" --duckdb-queries "$shared/duckdb-queries.sql" \
    --threads "${THREADS:-0}" --runs 1 --verify --json "$work/granary.json"
