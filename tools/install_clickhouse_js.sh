#!/usr/bin/env bash
# Installs the npm package @clickhouse/client (ClickHouse's official HTTP client for Node.js,
# no dependencies) once into a cache folder and prints the folder whose node_modules holds it.
# The HTTP interface's client test runs it unmodified against `granary server`.
#   GRANARY_CLICKHOUSE_JS_VERSION  npm version to install (default below)
#   GRANARY_CLICKHOUSE_JS_CACHE    install folder (default ${XDG_CACHE_HOME:-~/.cache}/granary/clickhouse-js)
set -euo pipefail

version="${GRANARY_CLICKHOUSE_JS_VERSION:-1.23.1}"
cache="${GRANARY_CLICKHOUSE_JS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/granary/clickhouse-js}"
prefix="$cache/$version"

if [[ ! -f "$prefix/node_modules/@clickhouse/client/package.json" ]]; then
    if ! command -v npm >/dev/null; then
        echo "install_clickhouse_js.sh: npm is missing (Debian package: npm)" >&2
        exit 1
    fi
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
        "@clickhouse/client@$version" >&2
fi
echo "$prefix"
