#!/usr/bin/env bash
# Fuzzes the service's request parsers with libFuzzer for a bounded time each:
#   json       job-creation JSON bodies (decoding, validation) and JSON read back into values
#   multipart  multipart/form-data bodies and their boundary parameter
#   query      request targets: path and query-string decoding, AWS URI encoding
#   sigv4      SigV4 Authorization headers and canonical requests
# usage: scripts/fuzz-parsers.sh [SECONDS_PER_TARGET (default 30)] [TARGET...]
# Each target is built with `swiftc -sanitize=fuzzer,address` from the parser sources themselves (imports of our own
# modules stripped, since they are compiled together). Seeds live in fuzz/corpus/TARGET; new inputs libFuzzer finds go
# to .build/fuzz/corpus-TARGET, crashes to .build/fuzz/crash-*. Exits non-zero when a target crashes.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("${@:-json multipart query sigv4}")
targets=(${targets[*]})
work=.build/fuzz
mkdir -p "$work"

sources_for() {
    case "$1" in
        json) echo "fuzz/FuzzJSONBody.swift Sources/Presenter/JSONValue.swift Sources/HTTPServer/HTTPMessage.swift Sources/HTTPServer/QueryString.swift Sources/HTTPServer/Multipart.swift Sources/FlightVoiceServer/APIResponses.swift Sources/FlightVoiceServer/JobRequestParsing.swift Sources/FlightVoiceServer/DataFolder.swift Sources/FlightVoiceServer/MediaFormats.swift" ;;
        multipart) echo "fuzz/FuzzMultipart.swift Sources/HTTPServer/Multipart.swift" ;;
        query) echo "fuzz/FuzzQueryString.swift Sources/HTTPServer/HTTPMessage.swift Sources/HTTPServer/QueryString.swift" ;;
        sigv4) echo "fuzz/FuzzSigV4.swift Sources/HTTPServer/QueryString.swift Sources/FlightVoiceServer/SigV4Canonical.swift" ;;
        *) echo "unknown fuzz target '$1' (json, multipart, query, sigv4)" >&2; exit 64 ;;
    esac
}

status=0
for target in "${targets[@]}"; do
    build="$work/src-$target"
    rm -rf "$build" && mkdir -p "$build"
    for file in $(sources_for "$target"); do
        sed -E '/^import (HTTPServer|Presenter|FlightCore|TranscriptionJobs|CMicroHTTPD|CCrypto)$/d' "$file" > "$build/$(basename "$file")"
    done
    echo "== $target: building"
    rm -f "$work/fuzz-$target"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzTarget "$build"/*.swift -o "$work/fuzz-$target" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    [ -x "$work/fuzz-$target" ] || { echo "== $target: build failed"; exit 70; }
    mkdir -p "$work/corpus-$target"
    echo "== $target: fuzzing for $seconds s"
    if ! "$work/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/crash-$target-" "$work/corpus-$target" "fuzz/corpus/$target" 2>"$work/log-$target"; then
        echo "== $target: FAILED — see $work/log-$target and $work/crash-$target-*"
        tail -30 "$work/log-$target"
        status=1
    else
        grep -E "stat::number_of_executed_units|cov:" "$work/log-$target" | tail -2
    fi
done
exit $status
