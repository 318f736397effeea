#!/usr/bin/env bash
# Flight lookups per second against SQLite and against PostgreSQL (a throw-away local cluster), release build:
#   scripts/benchmark-lookups.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
swift build -c release --product lookup-benchmark >&2
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
scripts/with-test-postgres.sh sh -c \
    '.build/release/lookup-benchmark --seconds "$1" "$2" "$FLIGHTVOICE_TEST_DATABASE"' benchmark "$seconds" "$folder/flights.sqlite"
