# Sourced by the HTTP end-to-end tests: starts `granary server` on free ports.
# start_http_server <granary> <data dir> <log file>: sets server_pid and port (HTTP), or
# calls fail (which the test defines) when the server does not come up.
start_http_server() {
    : >"$3"
    "$1" server --data "$2" --port 0 --http-port 0 2>"$3" &
    server_pid=$!
    for _ in $(seq 100); do
        grep -q "HTTP on" "$3" && break
        sleep 0.1
    done
    port="$(sed -n 's/.*HTTP on .*:\([0-9]*\)$/\1/p' "$3")"
    [[ -n "$port" ]] || fail "server did not start: $(cat "$3")"
}
