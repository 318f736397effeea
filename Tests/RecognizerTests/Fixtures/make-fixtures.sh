#!/bin/sh
# Regenerates the recognizer's audio fixtures (16 kHz mono 16-bit WAV) and fixtures.tsv. Needs espeak-ng and sox.
# The expected answers assume the test's flight list (RecognizerTests/TestFlights.swift): LX40, LX1234, BA287,
# LH400, U2812. Run from this folder: ./make-fixtures.sh
set -eu
say() { # name, expected flight (empty for none), text, voice (default en-us)
    espeak-ng -v "${4:-en-us}" -s 140 "$3" -w "_$1.wav"
    sox -R "_$1.wav" -r 16000 -c 1 -b 16 "$1.wav" pad 0.2 0.3
    rm "_$1.wav"
    printf '%s.wav\t%s\t%s\n' "$1" "$2" "$3" >> fixtures.tsv
}
printf 'path\tflight\ttext\n' > fixtures.tsv
say lx40 LX40 "L X forty"
say ba287 BA287 "what's the gate for B A two eight seven"
say lima-xray-1234 LX1234 "lima x-ray twelve thirty four"
say speedbird287 BA287 "Speedbird two eighty seven please"
say lh400 LH400 "L H four hundred"
say where-exit "" "where is the exit"
say ezy812-zed U2812 "E Z Y eight one two" en-gb
sox -R -n -r 16000 -c 1 -b 16 silence.wav trim 0 2
printf 'silence.wav\t\t(silence)\n' >> fixtures.tsv
sox -R -n -r 16000 -c 1 -b 16 pink-noise.wav synth 2 pinknoise vol 0.1
printf 'pink-noise.wav\t\t(pink noise)\n' >> fixtures.tsv
