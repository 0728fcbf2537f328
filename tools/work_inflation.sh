#!/usr/bin/env bash
# Work inflation as instructions: every query of the suites runs twice in one `granary local`
# process under Valgrind's callgrind, at each thread count, and the instructions of the second
# (hot) run at p threads are divided by those at 1 thread. Valgrind runs one thread at a time
# and counts exactly, so the figure depends neither on the machine's cores nor on its noise.
#
#   tools/work_inflation.sh [--data DIR] [--threads 1,16,64,256] [--jobs N] [--out FILE]
#                           [--suite NAME=FILE]... [--setting NAME=VALUE]...
#
# Defaults: 1M generated rows in /tmp/granary-hits-1M (made with gen-hits when missing); the
# suites "default" (Granary's own) and "official" (../shared/clickbench/clickhouse-queries.sql
# when it is there); one job per core. The CSV (default work-inflation.csv) has one row per
# query and thread count:
#   suite,query,threads,instructions,scheduler_instructions,inflation,one_thread_ms,sql
# instructions: the hot run's, outside oneTBB's scheduler, less those of `SELECT 1` run the same
# way (the statement's fixed cost and the process's exit). scheduler_instructions: oneTBB's,
# reported apart: under Valgrind its idle workers spin for as long as the serialized schedule
# lets them, which says nothing of the work (it moves run to run; the rest is exact).
# one_thread_ms: the hot run's time at 1 thread without Valgrind (which queries are big enough
# to matter). Morsels are dealt round-robin (deterministic_morsels=1), as p cores would share
# them. `granary scale --inflation FILE --out DIR` plots the CSV.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GRANARY="${GRANARY:-$ROOT/build/programs/granary}"
DATA="/tmp/granary-hits-1M"
THREADS="1,16,64,256"
JOBS="$(nproc)"
OUT="work-inflation.csv"
SUITES=()
# Valgrind runs one thread at a time, so workers taking morsels first come, first served would
# split the input by its schedule: round-robin morsels give p workers their shares as p cores
# would.
SETTINGS=(--setting deterministic_morsels=1)
while [[ $# -gt 0 ]]; do
    case "$1" in
        --data) DATA="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --jobs) JOBS="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --suite) SUITES+=("$2"); shift 2 ;;
        --setting) SETTINGS+=(--setting "$2"); shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
if [[ ${#SUITES[@]} -eq 0 ]]; then
    SUITES=("default=")
    OFFICIAL="$ROOT/../shared/clickbench/clickhouse-queries.sql"
    [[ -f "$OFFICIAL" ]] && SUITES+=("official=$OFFICIAL")
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
[[ -x "$GRANARY" ]] || { echo "no granary program at $GRANARY (build first)" >&2; exit 1; }
if [[ ! -d "$DATA" ]]; then
    echo "generating 1M rows into $DATA"
    "$GRANARY" gen-hits --rows 1000000 --out "$DATA" >/dev/null
fi

WORK="$(mktemp -d)"
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT
export GRANARY DATA WORK
export SETTINGS_TEXT="${SETTINGS[*]:-}"

# One measurement: the query twice at THREADS threads; callgrind's counters are zeroed on entry
# to every statement, so what it writes at exit is the last statement's cost and the exit's.
measure() {
    local key="$1" threads="$2" query="$3"
    # shellcheck disable=SC2086  # the settings are NAME=VALUE words
    valgrind --tool=callgrind --zero-before='granary::Session::execute*' \
        --callgrind-out-file="$WORK/$key.$threads.callgrind" \
        "$GRANARY" local --data "$DATA" --threads "$threads" $SETTINGS_TEXT \
        -q "$query; $query" >/dev/null 2>"$WORK/$key.$threads.log" ||
        { echo "failed: $key at $threads threads (see the log below)" >&2
          tail -5 "$WORK/$key.$threads.log" >&2; return 1; }
    python3 "$ROOT/tools/callgrind_by_object.py" "$WORK/$key.$threads.callgrind" \
        >"$WORK/$key.$threads.counts"
    rm -f "$WORK/$key.$threads.callgrind"
}
export -f measure
export ROOT

# The job list: the baseline statement and every query, at every thread count.
IFS=',' read -r -a THREAD_LIST <<<"$THREADS"
: >"$WORK/jobs"
for threads in "${THREAD_LIST[@]}"; do
    printf 'base\t%s\t%s\n' "$threads" "SELECT 1" >>"$WORK/jobs"
done
for suite in "${SUITES[@]}"; do
    name="${suite%%=*}"
    file="${suite#*=}"
    args=(--data "$DATA" --print-queries)
    [[ -n "$file" ]] && args+=(--queries "$file")
    index=0
    while IFS= read -r -d '' query; do
        query="${query//$'\n'/ }"
        printf '%s\n' "$query" >"$WORK/$name.$index.sql"
        for threads in "${THREAD_LIST[@]}"; do
            printf '%s.%s\t%s\t%s\n' "$name" "$index" "$threads" "$query" >>"$WORK/jobs"
        done
        index=$((index + 1))
    done < <("$GRANARY" clickbench "${args[@]}")
done

total="$(wc -l <"$WORK/jobs")"
echo "$total runs under callgrind, $JOBS at a time"
done_count=0
while IFS=$'\t' read -r key threads query; do
    printf '%s\0%s\0%s\0' "$key" "$threads" "$query"
done <"$WORK/jobs" |
    xargs -0 -n 3 -P "$JOBS" bash -c 'measure "$1" "$2" "$3" && echo ok' _ |
    while read -r _; do
        done_count=$((done_count + 1))
        if [[ -t 2 ]]; then printf '\r%d / %d runs' "$done_count" "$total" >&2; fi
    done || echo "some runs failed: their rows are missing from the CSV" >&2
if [[ -t 2 ]]; then echo >&2; fi

# The one-thread time of each hot run, without Valgrind.
for sql in "$WORK"/*.sql; do
    key="$(basename "$sql" .sql)"
    # shellcheck disable=SC2086
    "$GRANARY" local --data "$DATA" --threads 1 --time $SETTINGS_TEXT \
        -q "$(cat "$sql"); $(cat "$sql")" 2>&1 >/dev/null |
        sed -n 's/^Elapsed: \([0-9.]*\) sec.*/\1/p' | tail -1 >"$WORK/$key.time"
done

python3 - "$WORK" "$OUT" "$THREADS" <<'PY'
import csv, os, sys
work, out, thread_list = sys.argv[1], sys.argv[2], [int(t) for t in sys.argv[3].split(",")]

def counts(key, threads):
    path = os.path.join(work, f"{key}.{threads}.counts")
    if not os.path.exists(path):
        return None
    by_object = dict(line.split("\t") for line in open(path).read().splitlines())
    scheduler = sum(int(v) for k, v in by_object.items() if k.startswith("libtbb."))
    return sum(int(v) for v in by_object.values()) - scheduler, scheduler

rows = []
for name in sorted({f[:-len(".sql")] for f in os.listdir(work) if f.endswith(".sql")},
                   key=lambda key: (key.split(".")[0], int(key.split(".")[1]))):
    suite, index = name.split(".")
    sql = open(os.path.join(work, name + ".sql")).read().strip()
    time_text = open(os.path.join(work, name + ".time")).read().strip()
    one_thread_ms = round(float(time_text) * 1000, 1) if time_text else ""
    measured = {t: (counts(name, t), counts("base", t)) for t in thread_list}
    measured = {t: (q[0] - b[0], q[1]) for t, (q, b) in measured.items() if q and b}
    first = measured.get(thread_list[0], (0, 0))[0]
    for threads, (instructions, scheduler) in measured.items():
        inflation = round(instructions / first, 4) if first > 0 else ""
        rows.append([suite, f"Q{index}", threads, instructions, scheduler, inflation,
                     one_thread_ms, sql])
with open(out, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["suite", "query", "threads", "instructions", "scheduler_instructions",
                     "inflation", "one_thread_ms", "sql"])
    writer.writerows(rows)
print(f"wrote {out}: {len(rows)} rows")
PY
