#!/usr/bin/env bash
# On a machine shared with other work, a multi-threaded benchmark run only measures contention
# when its threads really ran in parallel. This runs the contention benchmarks ROUNDS times and,
# per benchmark, reports the median throughput over the runs whose CPU time was at least
# MIN_PARALLELISM times their real time (2 threads on 2 free cores give 2.0).
# Usage: parallel_runs.sh BUILD_DIR ROUNDS MIN_PARALLELISM [benchmark flags...]
set -euo pipefail

build_dir="${1:?usage: $0 BUILD_DIR ROUNDS MIN_PARALLELISM [benchmark flags...]}"
rounds="${2:?rounds}"
min_parallelism="${3:?minimum CPU time / real time}"
shift 3

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for ((round = 0; round < rounds; round++)); do
    "$build_dir/bench/contention/contention" --benchmark_format=csv "$@" 2>/dev/null |
        grep '^"BM' >>"$results"
done

# CSV columns: name, iterations, real_time, cpu_time, time_unit, bytes/s, items/s, ...
printf '%-56s %6s %8s %16s\n' benchmark runs parallel "median items/s"
awk -F, -v min="$min_parallelism" '
    { gsub(/"/, "", $1); runs[$1]++
      if ($4 >= min * $3) { kept[$1]++; values[$1, kept[$1]] = $7 } }
    END {
        for (name in runs) {
            n = kept[name] + 0
            if (n == 0) { printf "%-56s %6d %8d %16s\n", name, runs[name], 0, "-"; continue }
            for (i = 1; i <= n; i++) sorted[i] = values[name, i]
            for (i = 2; i <= n; i++)
                for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
                    t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t }
            median = n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
            printf "%-56s %6d %8d %16.4g\n", name, runs[name], n, median
        }
    }' "$results" | sort
