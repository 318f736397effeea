#!/bin/sh
# Makes the clips the live (microphone and kiosk) tests play through a file-backed ALSA microphone.
# Reproducible: espeak-ng's US voice at 140 words per minute, and sox -R (fixed random seed) for the room noise.
# Each clip: 1 s of faint room noise, the words, 1.5 s of room noise; 16 kHz mono 16-bit headerless (what an ALSA
# "file" PCM's infile holds). Needs espeak-ng and sox. Run from this folder: sh make-live-fixtures.sh
set -eu
rate=16000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# speak NAME TEXT: the words in room noise.
speak() {
    espeak-ng -v en-us -s 140 -w "$work/$1.wav" "$2"
    sox -R "$work/$1.wav" -r $rate -c 1 -b 16 "$work/$1.words.wav"
    words=$(soxi -D "$work/$1.words.wav")
    sox -R "$work/$1.words.wav" "$work/$1.padded.wav" pad 1 1.5
    total=$(awk "BEGIN { print $words + 2.5 }")
    sox -R -n -r $rate -c 1 -b 16 "$work/$1.room.wav" synth "$total" pinknoise vol 0.002
    sox -R -m "$work/$1.padded.wav" "$work/$1.room.wav" -t raw -e signed -b 16 "$1.raw"
}

speak swiss-forty "Swiss forty"                               # LX 40, gate E34
speak gate-for-ba287 "what's the gate for B A two eight seven" # BA 287, gate A52
speak lx-forty-banana "L X forty banana"                        # doubtful: "did you mean LX 1411 or LX 41?"
speak yes "yes"

# A cough or a door: 0.15 s of loud brown noise in room noise, no words.
sox -R -n -r $rate -c 1 -b 16 "$work/burst.wav" synth 0.15 brownnoise vol 0.5 fade 0.01 0.15 0.05
sox -R "$work/burst.wav" "$work/burst.padded.wav" pad 1 1.5
sox -R -n -r $rate -c 1 -b 16 "$work/burst.room.wav" synth 2.65 pinknoise vol 0.002
sox -R -m "$work/burst.padded.wav" "$work/burst.room.wav" -t raw -e signed -b 16 cough.raw
