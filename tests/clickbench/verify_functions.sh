#!/usr/bin/env bash
# End-to-end check of the aggregate function library (bench/clickbench/functions.sql) against
# DuckDB's spelling of each query (functions.duckdb.sql): generates `hits` with `granary
# gen-hits`, then runs `granary clickbench --verify`, which compares exact functions exactly and
# approximate ones within each query's tolerance. Exits non-zero when any result differs or
# fails; 77 (ctest's SKIP_RETURN_CODE) when DuckDB cannot be installed.
#   tests/clickbench/verify_functions.sh [path/to/granary]
#   ROWS (default 200000), THREADS (default 0: all), SEED (default 1)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="${1:-$root/build/programs/granary}"
script=verify_functions.sh
source "$root/tests/clickbench/verify_setup.sh"

"$granary" gen-hits --rows "${ROWS:-200000}" --seed "${SEED:-1}" --out "$work/data"
"$granary" clickbench --data "$work/data" --queries "$root/bench/clickbench/functions.sql" \
    --threads "${THREADS:-0}" --runs 1 --verify
