#!/usr/bin/env bash
# Builds the native-protocol fuzzer with clang (libFuzzer, ASan, UBSan) and runs it for a bounded
# time (default 60 s). Exit status 0: no crash. Usage: tests/server/run_fuzz.sh [seconds]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECONDS_TO_RUN="${1:-60}"
BUILD="${GRANARY_FUZZ_BUILD:-$ROOT/build-fuzz}"
if ! command -v clang++ >/dev/null; then
    echo "run_fuzz.sh: clang++ is not installed (Debian package clang); skipping"
    exit 0
fi
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DGRANARY_FUZZ=ON -DGRANARY_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$BUILD" --target server_packet_fuzzer -j"${GRANARY_JOBS:-2}"
CORPUS="$BUILD/fuzz-corpus"
mkdir -p "$CORPUS"
"$BUILD/tests/server/server_packet_fuzzer" "$CORPUS" -max_total_time="$SECONDS_TO_RUN" \
    -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1
