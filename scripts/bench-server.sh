#!/usr/bin/env bash
# Load benchmark of `flightvoice serve` on loopback with wrk: flight lookups/s and recognitions/s at 50 connections,
# p99 latency, server CPU time per request, and whether anything failed.
# usage: scripts/bench-server.sh [LOOKUP_SECONDS (default 15)] [RECOGNIZE_SECONDS (default 30)]
# Needs wrk (make deps installs it) and a release build (built here if missing). Binds 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
lookup_seconds="${1:-15}"
recognize_seconds="${2:-30}"
connections=50
binary=.build/release/flightvoice
[ -x "$binary" ] || swift build -c release
command -v wrk >/dev/null || { echo "wrk is missing: make deps" >&2; exit 69; }

data=$(mktemp -d)
log="$data/server.log"
script="$data/recognize.lua"
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT
FLIGHTVOICE_NOW=2026-11-30T12:00:00+01:00 "$binary" serve --host 127.0.0.1 --port 0 --data "$data/service" >"$log" 2>&1 &
server=$!
for _ in $(seq 200); do grep -q "listening on" "$log" && break; sleep 0.1; done
port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$')
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.2; done
workers=$(curl -s "http://127.0.0.1:$port/healthz" | grep -o '"workers":[0-9]*' | grep -o '[0-9]*$')

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
ticks_per_second=$(getconf CLK_TCK)

# run NAME SECONDS WRK-ARGUMENTS...: prints requests/s, p99, server CPU ms per request, failures.
run() {
    local name=$1 seconds=$2
    shift 2
    local before after output requests rate p99 failures
    before=$(cpu_ticks)
    output=$(wrk -t2 -c$connections -d"${seconds}s" --timeout 120s --latency "$@")
    after=$(cpu_ticks)
    requests=$(echo "$output" | awk '/requests in/ {print $1}')
    rate=$(echo "$output" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$output" | awk '$1 == "99%" {print $2}')
    failures=$(echo "$output" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
    local cpu_ms
    cpu_ms=$(awk -v t="$((after - before))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.3f", (n > 0 ? t * 1000 / hz / n : 0) }')
    printf '%-13s %9s req/s  p99 %8s  server CPU %8s ms/request  %s requests  %s\n' "$name" "$rate" "$p99" "$cpu_ms" "$requests" "${failures:-nothing failed}"
    [ -z "$failures" ]
}

cat >"$script" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "audio/wav"
local file = io.open("$PWD/Samples/lx40.wav", "rb")
wrk.body = file:read("*all")
file:close()
LUA

echo "flightvoice serve on 127.0.0.1:$port, $workers recognition workers, $(nproc) cores, wrk -t2 -c$connections"
status=0
run "lookups" "$lookup_seconds" "http://127.0.0.1:$port/v1/flights/LX40" || status=1
run "recognitions" "$recognize_seconds" -s "$script" "http://127.0.0.1:$port/v1/recognize" || status=1
exit $status
