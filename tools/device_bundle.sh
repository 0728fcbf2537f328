#!/usr/bin/env bash
# Packs a Release build for a machine without Granary's Debian packages (a lent many-core
# machine that cannot reach a package mirror): the programs `tools/device_scaling.sh` runs and
# every shared library they load, except the C library itself, which the host provides.
# Usage: tools/device_bundle.sh [BUILD_DIR (build)] [BUNDLE_DIR (.device)]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
BUNDLE="${2:-$ROOT/.device}"
programs=(programs/granary bench/contention/contention bench/aggregation/aggregation
    bench/hash_tables/hash_tables)

rm -rf "$BUNDLE"
mkdir -p "$BUNDLE/bin" "$BUNDLE/lib"
for program in "${programs[@]}"; do
    [[ -x "$BUILD_DIR/$program" ]] || { echo "missing $BUILD_DIR/$program: build Release first" >&2; exit 1; }
    strip -o "$BUNDLE/bin/$(basename "$program")" "$BUILD_DIR/$program"
    # glibc's own libraries must match the host's loader, so they stay behind.
    ldd "$BUILD_DIR/$program" | awk '$3 ~ /^\// {print $3}' |
        grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
        xargs -r cp -Lu -t "$BUNDLE/lib"
done
du -sh "$BUNDLE"
