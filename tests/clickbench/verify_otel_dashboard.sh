#!/usr/bin/env bash
# End-to-end check of the six otel_traces dashboard queries (bench/otel/dashboard.sql) against
# DuckDB: writes spans with `granary gen-spans --data-dir`, then runs `granary clickbench
# --table otel_traces --verify` with the DuckDB twin of the query file. Exits non-zero when any
# result differs or fails; 77 (ctest's SKIP_RETURN_CODE) when DuckDB cannot be installed.
#   tests/clickbench/verify_otel_dashboard.sh [path/to/granary]
#   ROWS (default 500000: the queried trace, 4242, starts at span 424200), THREADS (default 0)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="${1:-$root/build/programs/granary}"
script=verify_otel_dashboard.sh
source "$root/tests/clickbench/verify_setup.sh"

"$granary" gen-spans --rows "${ROWS:-500000}" --data-dir "$work/data"
"$granary" clickbench --data "$work/data" --table otel_traces \
    --queries "$root/bench/otel/dashboard.sql" --threads "${THREADS:-0}" --runs 1 --verify
