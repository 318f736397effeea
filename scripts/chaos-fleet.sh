#!/usr/bin/env bash
# The fleet chaos test at full size: three `flightvoice serve` processes on one throw-away PostgreSQL, 200 jobs of a
# real spoken clip with callbacks to a loopback receiver, servers killed with SIGKILL and restarted at random. Passes
# when every job completed exactly once and every callback arrived, exactly once per FlightVoice-Delivery-Id; it prints
# how many raw duplicates (sends a kill interrupted, resent) the receiver deduplicated
# (see Tests/FlightVoiceServerTests/FleetChaosTests.swift).
#
#   scripts/chaos-fleet.sh [JOBS] [CLIP]      (defaults: 200, Samples/lx40.wav; bounded at 15 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-200}
clip=${2:-Samples/lx40.wav}
# A release build, as a fleet runs it; the test targets use @testable imports, so testing is enabled in it.
release=(-c release -Xswiftc -enable-testing)
swift build "${release[@]}" --build-tests >/dev/null
FLIGHTVOICE_CHAOS_JOBS=$jobs FLIGHTVOICE_CHAOS_CLIP=$(realpath "$clip") FLIGHTVOICE_CHAOS_SECONDS=900 \
    scripts/with-test-postgres.sh swift test "${release[@]}" --skip-build --filter FleetChaosTests 2>&1 | grep -E "fleet chaos|✔|✘|Expectation failed|error"
