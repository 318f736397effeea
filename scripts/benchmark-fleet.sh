#!/usr/bin/env bash
# Real servers on one PostgreSQL (a throw-away local cluster, release build):
#  1. transcription jobs per second with 1, 2 and 3 `flightvoice serve` processes (one recognition worker each)
#     draining JOBS jobs of a real spoken clip, submitted round-robin over HTTP, timed from the first submission
#     until the database counts every job COMPLETED;
#  2. flight lookups per second over HTTP (wrk, GET /v1/flights/LX40) from a server on PostgreSQL and one on SQLite.
#
#   scripts/benchmark-fleet.sh [JOBS (default 60)] [CLIP (default Samples/lx40.wav)] [LOOKUP_SECONDS (default 10)]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FLIGHTVOICE_TEST_DATABASE:-}" ]; then
    swift build -c release >&2
    exec scripts/with-test-postgres.sh "$0" "$@"
fi
jobs=${1:-60}
clip=$(realpath "${2:-Samples/lx40.wav}")
lookup_seconds=${3:-10}
binary=$(realpath .build/release/flightvoice)
command -v wrk >/dev/null || { echo "wrk is missing: make deps" >&2; exit 69; }
psql_bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/psql | head -1)")/psql
admin=$FLIGHTVOICE_TEST_DATABASE
work=$(mktemp -d "${TMPDIR:-/tmp}/flightvoice-bench.XXXXXX")
servers=()
stop_servers() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
    servers=()
}
trap 'stop_servers; rm -rf "$work"' EXIT

new_database() {
    local name="bench_$1_$$"
    "$psql_bin" -q "$admin" -c "CREATE DATABASE $name" >/dev/null
    echo "${admin%/*}/$name"
}
# start NAME DATABASE-ARGUMENTS...: starts a server, waits until healthy, prints its URL.
start() {
    local name=$1
    shift
    FLIGHTVOICE_NOW=2026-11-30T12:00:00+01:00 "$binary" serve --port 0 --workers 1 --data "$work/$name" "$@" >"$work/$name.log" 2>&1 &
    servers+=($!)
    local url=""
    for _ in $(seq 300); do
        url=$(grep -o 'listening on http://[0-9.:]*' "$work/$name.log" 2>/dev/null | cut -d' ' -f3 || true)
        [ -n "$url" ] && curl -sf "$url/healthz" >/dev/null && break
        sleep 0.2
    done
    echo "$url"
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

echo "$(nproc) cores; clip $(basename "$clip"); $jobs jobs per run; one recognition worker per server"
for count in 1 2 3; do
    database=$(new_database "jobs$count")
    urls=()
    for index in $(seq 1 "$count"); do urls+=("$(start "jobs$count-server$index" --database "$database")"); done
    started=$(now_ms)
    for job in $(seq 1 "$jobs"); do
        url=${urls[$(( job % count ))]}
        curl -sf -o /dev/null -X POST "$url/v1/transcription-jobs?name=bench-$job&languageCode=en-US" -H 'Content-Type: audio/wav' --data-binary "@$clip"
    done
    while [ "$("$psql_bin" -tA "$database" -c "SELECT count(*) FROM transcription_jobs WHERE status IN ('COMPLETED', 'FAILED')")" -lt "$jobs" ]; do sleep 0.1; done
    elapsed=$(( $(now_ms) - started ))
    failed=$("$psql_bin" -tA "$database" -c "SELECT count(*) FROM transcription_jobs WHERE status = 'FAILED'")
    twice=$("$psql_bin" -tA "$database" -c "SELECT count(*) FROM transcription_jobs WHERE attempts <> 1")
    awk -v n="$jobs" -v ms="$elapsed" -v c="$count" -v f="$failed" -v t="$twice" \
        'BEGIN { printf "%d server(s): %5.2f jobs/s  (%d jobs in %.1f s, %d failed, %d claimed more than once)\n", c, n * 1000 / ms, n, ms / 1000, f, t }'
    stop_servers
done

lookups() {
    local name=$1 url=$2 output
    output=$(wrk -t2 -c20 -d"${lookup_seconds}s" "$url/v1/flights/LX40")
    printf '%-11s %10s lookups/s over HTTP  %s\n' "$name" "$(echo "$output" | awk '/Requests\/sec/ {print $2}')" \
        "$(echo "$output" | awk '/Non-2xx|Socket errors/' | tr '\n' ' ')"
}
lookups "PostgreSQL" "$(start lookups-postgres --database "$(new_database lookups)")"
stop_servers
lookups "SQLite" "$(start lookups-sqlite)"
