#!/usr/bin/env bash
# The sanitizer stage: builds the suites that parse what hosts hand over (the Arrow importer's
# fuzz test, the partial-state fuzz test) and what disks hand back (the compressed-block
# decoder's round trips and damaged-block fuzz) with AddressSanitizer and UBSan in a build of
# their own, which compiles granary_core and those modules alone (no SQL, no tables) without
# optimization (the quickest build; the tests are small), and runs them.
# Usage: tests/sanitized_fuzz.sh BUILD_DIR SOURCE_DIR TARGET...
set -euo pipefail
build="$1"
source="$2"
shift 2
cmake -S "$source" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DGRANARY_SANITIZE=address+undefined -DGRANARY_BUILD_BENCHMARKS=OFF \
    -DGRANARY_BUILD_SERVER=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "$@"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for target in "$@"; do
    binary="$(find "$build/tests" -type f -name "$target" -perm -u+x | head -n 1)"
    echo "== $target (AddressSanitizer, UBSan)"
    "$binary"
done
