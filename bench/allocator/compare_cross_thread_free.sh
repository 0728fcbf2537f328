#!/usr/bin/env bash
# Runs the cross-thread free benchmark with glibc malloc and with jemalloc and prints their
# throughput side by side. Usage: compare_cross_thread_free.sh BUILD_DIR [benchmark flags...]
set -euo pipefail

build_dir="${1:?usage: $0 BUILD_DIR [benchmark flags...]}"
shift
bench_dir="$build_dir/bench/allocator"

# Prints "name items_per_second" for each benchmark of one executable.
throughput() {
    local program="$1"
    shift
    "$program" --benchmark_format=csv "$@" 2>/dev/null | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "items_per_second") column = i; next }
        { gsub(/"/, "", $1); print $1, $column }'
}

glibc="$(throughput "$bench_dir/cross_thread_free_glibc" "$@")"
jemalloc="$(throughput "$bench_dir/cross_thread_free" "$@")"

printf '%-44s %14s %14s %10s\n' benchmark "glibc ops/s" "jemalloc ops/s" "je / glibc"
join <(sort <<<"$glibc") <(sort <<<"$jemalloc") | sort -V |
    awk '{ printf "%-44s %14.3e %14.3e %10.2f\n", $1, $2, $3, $3 / $2 }'
