#!/usr/bin/env bash
# The distributed benchmark (not a test): the same generated `hits` sharded for 1 and 4 ranks,
# swept by `granary scale --ranks 1,4 --threads 1,2` in one run (4 ranks x 1 thread against
# 1 rank x 2 threads among the shapes); prints per query and shape the time, its ratio to
# 1 rank x 1 thread, the exchange's share and bytes, and the node model's predictions, and
# writes rank_scaling.csv and an SVG per query (docs/distributed.md).
#   bench/distributed/run.sh [path/to/granary]
#   ROWS (default 10000000), RUNS (default 3), WORK (default /tmp/granary-distributed),
#   QUERIES (default ../shared/clickbench/clickhouse-queries.sql, else the built-in suite),
#   BANDWIDTH_GBPS (default 10: the network the model assumes, in Gbit/s per node)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="${1:-$root/build/programs/granary}"
rows="${ROWS:-10000000}"
work="${WORK:-/tmp/granary-distributed}/$rows"
queries="${QUERIES:-$root/../shared/clickbench/clickhouse-queries.sql}"
query_args=()
if [[ -f "$queries" ]]; then
    query_args=(--queries "$queries")
fi
source "$root/tools/mpirun_local.sh"

mkdir -p "$work"
for shards in 1 4; do
    if [[ ! -d "$work/shards-$shards" ]]; then
        "$granary" gen-hits --rows "$rows" --out "$work/shards-$shards" --shards "$shards"
    fi
done
"$granary" scale --ranks 1,4 --threads 1,2 --sharded "$work" "${query_args[@]}" \
    --runs "${RUNS:-3}" --mpirun "${GRANARY_MPIRUN[*]}" \
    --network-gbps "${BANDWIDTH_GBPS:-10}" --predict-nodes 16,64 --out "$work/sweep"
