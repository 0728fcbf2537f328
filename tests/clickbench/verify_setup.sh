# Sourced by the end-to-end checks against DuckDB (verify_official.sh, verify_otel_dashboard.sh):
# checks that $granary is a program, installs DuckDB (tools/install_duckdb.sh) unless
# GRANARY_DUCKDB_LIB names it, and makes $work, a folder removed on exit. Exits 1 without the
# program; 77 (ctest's SKIP_RETURN_CODE) when DuckDB cannot be installed. $script names the
# caller in messages; $root is the checkout.
if [[ ! -x "$granary" ]]; then
    echo "$script: no granary program at $granary" >&2
    exit 1
fi
if [[ -z "${GRANARY_DUCKDB_LIB:-}" ]]; then
    if ! GRANARY_DUCKDB_LIB="$("$root/tools/install_duckdb.sh")"; then
        echo "$script: DuckDB could not be installed (npm missing or offline); skipping" >&2
        exit 77
    fi
fi
export GRANARY_DUCKDB_LIB

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
