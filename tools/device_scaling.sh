#!/usr/bin/env bash
# One prepared many-core run from a bundle made by `tools/device_bundle.sh` (the lent machine has
# no package mirror, so it runs programs built here): the contention benchmarks, the aggregation
# benchmark at several thread counts, then `granary gen-hits` and `granary scale` on the default
# suite. Each step has its own time limit so a slow one cannot cost the others; everything lands
# in $OUT/device-results.tar.gz, with the console output also in $OUT/summary.txt.
# Knobs (environment): STEPS (contention aggregation gen-hits scale; hash-tables is also known),
# THREADS (1,2,4,8,16), OVERSUBSCRIBE (64,256; empty: none), ROWS (10000000), GEN_THREADS (list; all cores),
# RUNS (3), CONTENTION_TIMEOUT (90), AGGREGATION_FILTER (all) and AGGREGATION_TIMEOUT (180),
# HASH_TABLES_FILTER, HASH_TABLES_ROWS (10000000) and HASH_TABLES_TIMEOUT (60), SCALE_TIMEOUT (240).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/scaling-out}"
STEPS="${STEPS:-contention aggregation gen-hits scale}"
GEN_THREADS="${GEN_THREADS:-$(nproc)}"
THREADS="${THREADS:-1,2,4,8,16}"
OVERSUBSCRIBE="${OVERSUBSCRIBE-64,256}"
ROWS="${ROWS:-10000000}"
RUNS="${RUNS:-3}"
RESULTS="$(mktemp -d)/device-results"
DATA_DIR="${DATA_DIR:-/tmp/granary-hits-$ROWS}"
mkdir -p "$RESULTS"
source "$ROOT/tools/device_common.sh"

wants() { [[ " $STEPS " == *" $1 "* ]]; }
finish() {
    tar -czf "$OUT/device-results.tar.gz" -C "$(dirname "$RESULTS")" device-results
    echo "results: $OUT/device-results.tar.gz ($(du -h "$OUT/device-results.tar.gz" | cut -f1))"
}
trap finish EXIT

step "machine"
{ lscpu; nproc; free -g; uname -a; } >"$RESULTS/machine.txt" 2>&1
grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|L3' "$RESULTS/machine.txt"
"$BIN/granary" --help >/dev/null || { echo "the bundle does not run here"; exit 1; }

if wants contention; then
    step "contention benchmarks"
    timeout "${CONTENTION_TIMEOUT:-90}" "$BIN/contention" --benchmark_out="$RESULTS/contention.json" \
        --benchmark_out_format=json 2>&1 | tee "$RESULTS/contention.txt" | grep -E '^BM_' | cut -c1-150
fi

if wants aggregation; then
    step "aggregation benchmark, threads $THREADS and 256"
    GRANARY_BENCH_THREADS="$THREADS" timeout "${AGGREGATION_TIMEOUT:-180}" "$BIN/aggregation" \
        --benchmark_filter="${AGGREGATION_FILTER:-.}" \
        --benchmark_out="$RESULTS/aggregation.json" --benchmark_out_format=json \
        >"$RESULTS/aggregation.txt" 2>&1
    grep -E '^BM_' "$RESULTS/aggregation.txt" |
        sed -E 's/^(BM_[^ ]*) .*rows\/s=([^ ]*).*/\1 rows\/s=\2/' | head -60
fi

if wants hash-tables; then
    step "hash-table benchmark"
    GRANARY_BENCH_ROWS="${HASH_TABLES_ROWS:-10000000}" timeout "${HASH_TABLES_TIMEOUT:-60}" \
        "$BIN/hash_tables" \
        --benchmark_filter="${HASH_TABLES_FILTER:-BM_CountByKey/(granary|absl)/}" \
        --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_color=false \
        >"$RESULTS/hash_tables.txt" 2>&1
    sed -E 's/\x1b\[[0-9;]*m//g' "$RESULTS/hash_tables.txt" | grep -E '_median' | tr -s ' ' | cut -c1-120
fi

if wants gen-hits || wants scale; then
    TIMEFORMAT="%R s wall, %U s user, %S s sys"
    # The last count listed makes the table that `scale` reads.
    for gen_threads in ${GEN_THREADS//,/ }; do
        step "gen-hits $ROWS rows, $gen_threads threads"
        rm -rf "$DATA_DIR"
        { time "$BIN/granary" gen-hits --rows "$ROWS" --out "$DATA_DIR" --threads "$gen_threads" \
            2>&1 | tr '\r' '\n' | tail -2; } 2>&1
    done
fi
wants scale || { step "done"; exit 0; }

step "scale: threads $THREADS, oversubscribed '$OVERSUBSCRIBE', $RUNS runs"
scale_args=(scale --data "$DATA_DIR" --queries "$ROOT/bench/clickbench/default-queries.sql"
    --threads "$THREADS" --runs "$RUNS" --out "$RESULTS/scaling")
[[ -n "$OVERSUBSCRIBE" ]] && scale_args+=(--oversubscribe "$OVERSUBSCRIBE")
timeout "${SCALE_TIMEOUT:-240}" "$BIN/granary" "${scale_args[@]}" >"$RESULTS/scale.txt" 2>&1
echo "scale exit status $?"
if [[ -f "$RESULTS/scaling/scaling.csv" ]]; then
    # Re-plots whatever finished, so a run cut short still has its plots.
    "$BIN/granary" scale --from-csv "$RESULTS/scaling/scaling.csv" --out "$RESULTS/scaling" \
        >"$RESULTS/scale-report.txt" 2>&1
    tail -40 "$RESULTS/scale-report.txt"
fi
step "done"
