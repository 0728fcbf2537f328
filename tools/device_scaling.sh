#!/usr/bin/env bash
# One prepared scaling run for a many-core machine (written for 16 cores): Release build,
# `granary gen-hits`, then `granary scale` on the default suite; the CSVs, SVG plots and the
# machine description are copied to $OUT (or ./scaling-out). Knobs, as environment variables:
#   ROWS (10000000), THREADS (1,2,4,8,16), OVERSUBSCRIBE (64,256; empty: none), RUNS (3),
#   QUERIES (bench/clickbench/default-queries.sql), SCALE_TIMEOUT seconds (420).
# scaling.csv is rewritten after every query, so a run cut short by SCALE_TIMEOUT still leaves
# the queries it finished; `granary scale --from-csv scaling.csv --out DIR` re-plots them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/scaling-out}"
ROWS="${ROWS:-10000000}"
THREADS="${THREADS:-1,2,4,8,16}"
OVERSUBSCRIBE="${OVERSUBSCRIBE-64,256}"
RUNS="${RUNS:-3}"
QUERIES="${QUERIES:-$ROOT/bench/clickbench/default-queries.sql}"
SCALE_TIMEOUT="${SCALE_TIMEOUT:-420}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-device}"
DATA_DIR="${DATA_DIR:-/tmp/granary-hits-$ROWS}"
mkdir -p "$OUT"

{
    echo "== machine"
    lscpu || true
    nproc
    free -g || true
} >"$OUT/lscpu.txt" 2>&1

echo "== build ($(nproc) cores)"
start=$SECONDS
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGRANARY_BUILD_TESTS=OFF -DGRANARY_BUILD_BENCHMARKS=OFF >"$OUT/build.log" 2>&1
cmake --build "$BUILD_DIR" --target granary_cli --parallel "$(nproc)" >>"$OUT/build.log" 2>&1 ||
    { tail -50 "$OUT/build.log"; exit 1; }
echo "build: $((SECONDS - start)) s"
GRANARY="$BUILD_DIR/programs/granary"

if [[ ! -d "$DATA_DIR" ]]; then
    echo "== gen-hits $ROWS rows"
    start=$SECONDS
    "$GRANARY" gen-hits --rows "$ROWS" --out "$DATA_DIR" --threads "$(nproc)" 2>&1 |
        tail -5 | tee "$OUT/gen_hits.log"
    echo "gen-hits: $((SECONDS - start)) s"
fi

echo "== scale threads $THREADS oversubscribe '${OVERSUBSCRIBE}' runs $RUNS"
start=$SECONDS
scale_args=(scale --data "$DATA_DIR" --queries "$QUERIES" --threads "$THREADS" --runs "$RUNS"
    --out "$OUT/scaling")
if [[ -n "$OVERSUBSCRIBE" ]]; then
    scale_args+=(--oversubscribe "$OVERSUBSCRIBE")
fi
status=0
timeout "$SCALE_TIMEOUT" "$GRANARY" "${scale_args[@]}" >"$OUT/scale.txt" 2>"$OUT/scale.log" ||
    status=$?
echo "scale: $((SECONDS - start)) s, exit status $status"
if [[ $status -ne 0 && -f "$OUT/scaling/scaling.csv" ]]; then
    echo "== cut short: re-plotting the queries that finished"
    "$GRANARY" scale --from-csv "$OUT/scaling/scaling.csv" --out "$OUT/scaling" >"$OUT/scale.txt"
fi
cat "$OUT/scale.txt"
