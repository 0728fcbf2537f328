#!/usr/bin/env bash
# Installs Granary into a temporary prefix, then builds and runs the examples (C++, and C over
# the C API) as a separate project that finds it with find_package(Granary).
set -euo pipefail
build_dir="$1"
source_dir="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/examples" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null
"$work/example/aggregate_own_arrays" | tee "$work/output.txt"
grep -q "^groups 7, rows 1000000$" "$work/output.txt"
"$work/example/c_aggregate" | tee "$work/c_output.txt"
grep -q "^groups 3, rows 12$" "$work/c_output.txt"
"$work/example/arrow_group_by" | tee "$work/arrow_output.txt"
grep -q "^region 1: hits 2000 total 24250.00$" "$work/arrow_output.txt"
grep -q "^groups 5$" "$work/arrow_output.txt"
echo "installed Granary found by find_package: examples built and ran"
