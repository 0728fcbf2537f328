#!/usr/bin/env bash
# The issues' measured targets on a lent many-core machine, from a bundle made by
# `tools/device_bundle.sh` (plus, optionally, the previous build's programs as
# bin/<name>-old for A/B rounds): the aggregation benchmark's 1->2 thread speedups pinned to
# pairs of vCPUs (a VM's vCPU pairs may share a physical core: docs/aggregation.md), work/span
# with 256 partials, the 1-thread GROUP BY against the bare table, the hash tables at 10^3
# keys, and gen-hits on two pinned vCPUs. Console output also goes to $OUT/summary.txt, raw
# outputs to $OUT/*.txt.
# Knobs (environment): PAIRS ("0,15 4,12 0,8"), SINGLE_CPU (4), GEN_ROUNDS (3).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/targets-out}"
PAIRS="${PAIRS:-0,15 4,12 0,8}"
SINGLE_CPU="${SINGLE_CPU:-4}"
GEN_ROUNDS="${GEN_ROUNDS:-3}"
source "$ROOT/tools/device_common.sh"

# Benchmark name and the named counters of each result line of a Google Benchmark console log.
counters() {
    local log="$1"
    shift
    sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^BM_' | while read -r line; do
        local fields="${line%% *}"
        for counter in "$@"; do
            fields+=" $(grep -oE "(^| )$counter=[^ ]*" <<<"$line" | tr -d ' ')"
        done
        echo "$fields"
    done
}

step "machine"
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|L2|L3'
lscpu -e >"$OUT/lscpu-e.txt" 2>&1

step "1->2 threads, pinned to vCPU pairs: $PAIRS"
for pair in $PAIRS; do
    echo "cpus $pair"
    GRANARY_BENCH_THREADS=1,2 timeout 150 taskset -c "$pair" "$BIN/aggregation" \
        --benchmark_filter='^BM_(BareTable/count/[0-9]+|GroupBy/count_sum_avg/[0-9]+|CountDistinct/10000000|RegionDistinctUsers(/per_key_sets)?)/threads:(1|2)/' \
        >"$OUT/pair-$pair.txt" 2>&1
    counters "$OUT/pair-$pair.txt" rows/s work_ms speedup_vs_1 | sed 's/^/  /'
done

step "work/span: 256 partials on all vCPUs, 256 oversubscribed threads"
timeout 150 "$BIN/aggregation" --benchmark_filter='(partials|threads):256/|BM_IdenticalTasks' >"$OUT/work-span.txt" 2>&1
counters "$OUT/work-span.txt" work/span work_ms span_ms partial_span_ms merge_span_ms \
    finalize_span_ms convert_span_ms

step "1 thread (vCPU $SINGLE_CPU): GROUP BY key count(*) against the bare table"
for program in aggregation aggregation-old; do
    [[ -x "$BIN/$program" ]] || continue
    echo "$program"
    timeout 120 taskset -c "$SINGLE_CPU" "$BIN/$program" \
        --benchmark_filter='^BM_((BareTable|GroupBy)/count/[0-9]+/threads:1|VsBareTable/count/[0-9]+)/' \
        >"$OUT/single-$program.txt" 2>&1
    counters "$OUT/single-$program.txt" rows/s vs_bare_table partial_ms merge_ms | sed 's/^/  /'
done

step "hash tables at 10^3 keys (vCPU $SINGLE_CPU)"
GRANARY_BENCH_ROWS=10000000 timeout 90 taskset -c "$SINGLE_CPU" "$BIN/hash_tables" \
    --benchmark_filter='BM_CountByKey/(granary|absl)/(uniform|zipf)/1000/' \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_color=false \
    >"$OUT/hash-tables.txt" 2>&1
sed -E 's/\x1b\[[0-9;]*m//g' "$OUT/hash-tables.txt" | grep -E '_median' | tr -s ' ' | cut -c1-120

first_pair="${PAIRS%% *}"
step "gen-hits 1M rows, --threads 2 on vCPUs $first_pair, $GEN_ROUNDS rounds"
TIMEFORMAT="%R s wall, %U s user, %S s sys"
for round in $(seq "$GEN_ROUNDS"); do
    for program in granary-old granary; do
        [[ -x "$BIN/$program" ]] || continue
        rm -rf /tmp/granary-gen
        echo -n "round $round $program: "
        { time taskset -c "$first_pair" "$BIN/$program" gen-hits --rows 1000000 \
            --out /tmp/granary-gen --threads 2 >"$OUT/gen-$program-$round.txt" 2>&1; } 2>&1
    done
done
step "gen-hits 10M rows, --threads 2 on vCPUs $first_pair"
rm -rf /tmp/granary-gen
{ time taskset -c "$first_pair" "$BIN/granary" gen-hits --rows 10000000 --out /tmp/granary-gen \
    --threads 2 >"$OUT/gen-10M.txt" 2>&1; } 2>&1
tail -1 "$OUT/gen-10M.txt"
rm -rf /tmp/granary-gen
step "done"
