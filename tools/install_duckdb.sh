#!/usr/bin/env bash
# Installs DuckDB's shared library (libduckdb.so, with DuckDB's C API) once, from the npm package
# @duckdb/node-api (its dependency @duckdb/node-bindings-linux-x64 ships the library), into a
# cache folder, and prints the library's path. `granary clickbench --compare duckdb` and the
# clickbench tests load it with dlopen.
#   GRANARY_DUCKDB_VERSION  npm version to install (default below)
#   GRANARY_DUCKDB_CACHE    install folder (default ${XDG_CACHE_HOME:-~/.cache}/granary/duckdb)
set -euo pipefail

version="${GRANARY_DUCKDB_VERSION:-1.5.6-r.1}"
cache="${GRANARY_DUCKDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/granary/duckdb}"
prefix="$cache/$version"

find_library() {
    find "$prefix/node_modules" -name libduckdb.so -type f 2>/dev/null | head -n 1
}

library="$(find_library || true)"
if [[ -z "$library" ]]; then
    if ! command -v npm >/dev/null; then
        echo "install_duckdb.sh: npm is missing (Debian package: npm)" >&2
        exit 1
    fi
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
        "@duckdb/node-api@$version" >&2
    library="$(find_library || true)"
    if [[ -z "$library" ]]; then
        echo "install_duckdb.sh: npm installed @duckdb/node-api@$version but no libduckdb.so" \
             "under $prefix/node_modules (is there a binding for $(uname -m)?)" >&2
        exit 1
    fi
fi
echo "$library"
