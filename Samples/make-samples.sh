#!/usr/bin/env bash
# Regenerates the bundled sample clips: synthetic speech (espeak-ng, US English, 140 words/min), 16 kHz mono 16-bit.
# Needs espeak-ng and sox (apt-get install espeak-ng sox). The expected answers are in manifest.tsv.
set -euo pipefail
cd "$(dirname "$0")"
say() { # NAME TEXT
    espeak-ng -v en-us -s 140 -w "/tmp/$1.raw.wav" "$2"
    sox -R "/tmp/$1.raw.wav" -r 16000 -c 1 -b 16 "$1.wav"
    rm "/tmp/$1.raw.wav"
}
say lx40 "L X forty"
say speedbird-287 "Speedbird two eight seven"
say gate-for-lima-xray "what's the gate for lima x-ray four zero"
say no-flight "where is the exit"
