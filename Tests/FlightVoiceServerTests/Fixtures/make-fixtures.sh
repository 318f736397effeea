#!/usr/bin/env bash
# Regenerates this folder's clips (synthetic speech as in Samples/make-samples.sh): espeak-ng + sox, 16 kHz mono 16-bit.
# lx777.wav names a flight the seed day does not have: the service must hear it only after it is added.
set -euo pipefail
cd "$(dirname "$0")"
espeak-ng -v en-us -s 140 -w /tmp/lx777.raw.wav "L X seven seven seven"
sox -R /tmp/lx777.raw.wav -r 16000 -c 1 -b 16 lx777.wav
rm /tmp/lx777.raw.wav
