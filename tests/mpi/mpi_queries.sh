#!/usr/bin/env bash
# End to end over MPI: `granary mpi-query` under mpirun with 1, 2, 3 and 4 ranks on generated
# `hits` split with `gen-hits --shards N`, every result compared by rank 0 with the same query
# on one process over the unsharded table (--verify-against: the clickbench verify machinery;
# rows tied at a LIMIT may differ). Runs Granary's suite and, when ../shared holds them,
# ClickBench's 43 official queries (CC BY-NC-SA: read in place, never copied). Checks the
# exchange's bytes from the JSON report, then the failures: a rank that exits mid-exchange, a
# rank that hangs (the others' timeout), a missing shard, a shard of another schema, a query
# that fails on every rank; each must stop every rank with the error and leave no process.
#   tests/mpi/mpi_queries.sh path/to/granary
#   ROWS (default 200000), GRANARY_CLICKBENCH_DIR (default ../shared/clickbench)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
granary="$1"
rows="${ROWS:-200000}"
shared="${GRANARY_CLICKBENCH_DIR:-$root/../shared/clickbench}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

source "$root/tools/mpirun_local.sh"

fail() {
    echo "mpi_queries.sh: $*" >&2
    exit 1
}

# No granary process of this test may outlive its job.
expect_no_leftovers() {
    if pgrep -f "mpi-query --data $work" >/dev/null; then
        pgrep -af "mpi-query --data $work" >&2
        fail "granary processes left behind after: $1"
    fi
}

# Each bytes figure of a JSON report: at most one copy of the states and each rank's own
# result rows cross between ranks, and what is sent is what is received.
check_exchange_bytes() {
    python3 - "$1" <<'PY'
import json, sys
for record in json.load(open(sys.argv[1])):
    if "exchange" not in record:
        continue
    ranks = record["exchange"]["per_rank"]
    sent = sum(r["bytes_sent"] for r in ranks)
    received = sum(r["bytes_received"] for r in ranks)
    states = sum(r["state_bytes"] for r in ranks)
    results = sum(r["result_bytes"] for r in ranks)
    assert sent == received, (record["query"], sent, received)
    assert sent <= states + results, (record["query"], sent, states, results)
    if len(ranks) == 1:
        assert sent == 0, (record["query"], sent)
print(f"{sys.argv[1]}: exchange bytes bounded by the states and result rows")
PY
}

"$granary" gen-hits --rows "$rows" --out "$work/one" >/dev/null
for ranks in 1 2 3 4; do
    "$granary" gen-hits --rows "$rows" --out "$work/shards-$ranks" --shards "$ranks" >/dev/null
    echo "== $ranks ranks: Granary's suite"
    "${GRANARY_MPIRUN[@]}" -np "$ranks" "$granary" mpi-query --data "$work/shards-$ranks" --threads 2 \
        --verify-against "$work/one" --out "$work/results" --json "$work/suite-$ranks.json"
    check_exchange_bytes "$work/suite-$ranks.json"
    if [[ -f "$shared/clickhouse-queries.sql" ]]; then
        echo "== $ranks ranks: ClickBench's official queries"
        "${GRANARY_MPIRUN[@]}" -np "$ranks" "$granary" mpi-query --data "$work/shards-$ranks" --threads 1 \
            --query-file "$shared/clickhouse-queries.sql" --verify-against "$work/one" \
            --out "$work/results" --json "$work/official-$ranks.json"
        check_exchange_bytes "$work/official-$ranks.json"
    else
        echo "== ClickBench's query files are not in $shared: Granary's suite only"
    fi
done

# The rank sweep of `granary scale` over the same shards: every shape of every query reported.
printf '%s;\n' "SELECT count(*) FROM hits" \
    "SELECT RegionID, count(*) AS c FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 5" \
    >"$work/sweep.sql"
"$granary" scale --ranks 1,2,4 --threads 1,2 --sharded "$work" --queries "$work/sweep.sql" \
    --runs 1 --mpirun "${GRANARY_MPIRUN[*]}" --out "$work/sweep" >"$work/sweep.txt"
rows_in_csv=$(($(wc -l <"$work/sweep/rank_scaling.csv") - 1))
((rows_in_csv == 12)) || fail "rank sweep: $rows_in_csv rows in rank_scaling.csv, 12 expected"
grep -q ',"rank\|failed' "$work/sweep/rank_scaling.csv" "$work/sweep.txt" &&
    fail "rank sweep: a query failed"
[[ -f "$work/sweep/ranks_Q1.svg" ]] || fail "rank sweep: no ranks_Q1.svg"
echo "== granary scale --ranks 1,2,4 --threads 1,2: 12 shapes reported"

# Runs a job that must fail within `limit` seconds with `expected` in its output.
expect_failure() {
    local what="$1" limit="$2" expected="$3"
    shift 3
    local start=$SECONDS
    if timeout 120 "$@" >"$work/out.txt" 2>&1; then
        fail "$what: the job succeeded"
    fi
    local took=$((SECONDS - start))
    ((took <= limit)) || fail "$what: took $took s (limit $limit s)"
    grep -q -- "$expected" "$work/out.txt" || {
        cat "$work/out.txt" >&2
        fail "$what: no '$expected' in the output"
    }
    expect_no_leftovers "$what"
    echo "== $what: stopped in $took s with '$expected'"
}

query=(-q "SELECT RegionID, count(*) AS c FROM hits GROUP BY RegionID ORDER BY c DESC LIMIT 5")
expect_failure "a rank exits mid-exchange" 60 "exited" \
    env GRANARY_MPI_FAULT=exit:1 "${GRANARY_MPIRUN[@]}" -np 3 "$granary" mpi-query \
    --data "$work/shards-3" --exchange-timeout 20 "${query[@]}"
expect_failure "a rank stops answering" 60 "no answer from every rank within 3" \
    env GRANARY_MPI_FAULT=hang:2 "${GRANARY_MPIRUN[@]}" -np 3 "$granary" mpi-query \
    --data "$work/shards-3" --exchange-timeout 3 "${query[@]}"
expect_failure "a shard missing" 60 "holds 4 shards" \
    "${GRANARY_MPIRUN[@]}" -np 3 "$granary" mpi-query --data "$work/shards-4" "${query[@]}"
"$granary" local --data "$work/shards-2/shard-1" -q "CREATE TABLE extra (a UInt8)"
expect_failure "a shard of another schema" 60 "shard-1 holds other tables" \
    "${GRANARY_MPIRUN[@]}" -np 2 "$granary" mpi-query --data "$work/shards-2" "${query[@]}"
expect_failure "a query failing on every rank" 60 "rank 0: " \
    "${GRANARY_MPIRUN[@]}" -np 3 "$granary" mpi-query --data "$work/shards-3" -q "SELECT nosuch FROM hits"
echo "mpi_queries.sh: passed"
