#!/usr/bin/env bash
# Jobs per second through the shared PostgreSQL job queue with 1, 2 and 3 worker processes (a throw-away local
# cluster, release build):  scripts/benchmark-queue.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-2000}
swift build -c release --product queue-benchmark >&2
scripts/with-test-postgres.sh sh -c '.build/release/queue-benchmark --jobs "$1" "$FLIGHTVOICE_TEST_DATABASE"' benchmark "$jobs"
