# Shared set-up for ./run and ./test: install missing Debian packages, configure and build.
# Sourced, not executed; BUILD_DIR and BUILD_TYPE may be set by the caller.
set -euo pipefail

GRANARY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$GRANARY_ROOT/build}"
BUILD_TYPE="${BUILD_TYPE:-Release}"

# Each line: a Debian package the build or the tests need.
GRANARY_PACKAGES=(
    cmake ninja-build g++ pkg-config
    libjemalloc-dev libabsl-dev libtbb-dev libgtest-dev libgmock-dev libbenchmark-dev libhyperscan-dev
    libcli11-dev libfmt-dev nlohmann-json3-dev libre2-dev liblz4-dev libzstd-dev libhwloc-dev libedit-dev
    libcpp-httplib-dev libsimdjson-dev
    libopenmpi-dev openmpi-bin
    clickhouse-client python3-clickhouse-driver clickhouse-tools curl clang libclang-rt-14-dev
    valgrind  # tools/work_inflation.sh: instruction counts (run beside Granary, never linked)
)

# Installs the given Debian packages (default: GRANARY_PACKAGES) that are missing.
granary_install_missing_packages() {
    local wanted=("$@")
    if ((${#wanted[@]} == 0)); then
        wanted=("${GRANARY_PACKAGES[@]}")
    fi
    local missing=()
    for package in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]} == 0)); then
        return
    fi
    echo "granary: installing missing Debian packages: ${missing[*]}"
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# DuckDB's shared library (from npm), the independent engine the interop tests compare with:
# installed once, its path exported for the tests so that they run rather than skip.
granary_install_duckdb() {
    # npm may come with a Node.js that is not Debian's (whose npm package then conflicts):
    # Debian's is installed only where there is no npm at all.
    if ! command -v npm >/dev/null; then
        granary_install_missing_packages npm
    fi
    GRANARY_DUCKDB_LIB="$("$GRANARY_ROOT/tools/install_duckdb.sh")"
    export GRANARY_DUCKDB_LIB
}

# @clickhouse/client (from npm), the HTTP client the HTTP interface's client test runs
# unmodified: installed once, its folder exported for the test.
granary_install_clickhouse_js() {
    if ! command -v npm >/dev/null; then
        granary_install_missing_packages npm
    fi
    GRANARY_CLICKHOUSE_JS="$("$GRANARY_ROOT/tools/install_clickhouse_js.sh")"
    export GRANARY_CLICKHOUSE_JS
}

granary_build() {
    cmake -S "$GRANARY_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "$@" >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}
