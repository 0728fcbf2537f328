#!/usr/bin/env bash
# The distributed benchmark (not a test): the same generated `hits` as 4 shards queried by
# 4 ranks × 1 thread, and as 1 shard by 1 rank × 2 threads, in one run; then report.py prints
# per query both times, the exchange's share and bytes, and the model's prediction for more
# nodes, and writes an SVG.
#   bench/distributed/run.sh [path/to/granary]
#   ROWS (default 10000000), RUNS (default 3), WORK (default /tmp/granary-distributed),
#   QUERIES (default ../shared/clickbench/clickhouse-queries.sql, else the built-in suite),
#   BANDWIDTH_GBPS (default 10: the network the model assumes, in Gbit/s per node)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="${1:-$root/build/programs/granary}"
rows="${ROWS:-10000000}"
work="${WORK:-/tmp/granary-distributed}"
queries="${QUERIES:-$root/../shared/clickbench/clickhouse-queries.sql}"
query_args=()
if [[ -f "$queries" ]]; then
    query_args=(--query-file "$queries")
fi
source "$root/tools/mpirun_local.sh"

mkdir -p "$work"
for shards in 1 4; do
    if [[ ! -d "$work/shards-$shards-$rows" ]]; then
        "$granary" gen-hits --rows "$rows" --out "$work/shards-$shards-$rows" --shards "$shards"
    fi
done
echo "== 1 rank × 2 threads"
"${GRANARY_MPIRUN[@]}" -np 1 "$granary" mpi-query --data "$work/shards-1-$rows" --threads 2 \
    --runs "${RUNS:-3}" "${query_args[@]}" --out "$work/results-1" --json "$work/one-rank.json"
echo "== 4 ranks × 1 thread"
"${GRANARY_MPIRUN[@]}" -np 4 "$granary" mpi-query --data "$work/shards-4-$rows" --threads 1 \
    --runs "${RUNS:-3}" "${query_args[@]}" --out "$work/results-4" --json "$work/four-ranks.json"
python3 "$root/bench/distributed/report.py" "$work/one-rank.json" "$work/four-ranks.json" \
    --bandwidth-gbps "${BANDWIDTH_GBPS:-10}" --nodes 16 64 --svg "$work/distributed.svg"
