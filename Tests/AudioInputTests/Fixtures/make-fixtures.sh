#!/bin/sh
# Regenerates the AudioInput test fixtures: one spoken utterance in every supported format, plus broken files.
# Needs espeak-ng, sox and the ffmpeg CLI (only to create fixtures; the product and tests use the libraries).
# Usage: make-fixtures.sh [output-dir] [utterance]
# Writes expected.tsv: file name, expected decoded duration in seconds (of the utterance, or of the file itself).
set -eu
out=${1:-$(dirname "$0")}
text=${2:-"L X forty"}
mkdir -p "$out"
cd "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The reference utterance: espeak-ng's en-us voice at 140 words per minute (22050 Hz mono 16-bit).
espeak-ng -v en-us -s 140 -w "$work/speech.wav" "$text"
sox="sox -D"   # -D: no dither, so the output is reproducible (and silence is true zeros)
ffq="ffmpeg -nostdin -hide_banner -loglevel error -y"
exact="-fflags +bitexact -flags:a +bitexact -map_metadata -1"   # reproducible output (no random stream serials)
$sox "$work/speech.wav" -r 16000 -b 16 -c 1 "$work/speech16k.wav"

$sox "$work/speech16k.wav" speech-16k-s16-mono.wav
$sox "$work/speech.wav" -r 44100 -b 16 -c 2 speech-44k1-s16-stereo.wav          # same speech in both channels
$sox "$work/speech.wav" -r 8000 -b 16 -c 1 speech-8k-s16.wav
$sox "$work/speech.wav" -r 8000 -e u-law -b 8 -c 1 speech-8k-ulaw.wav           # telephone µ-law
$sox "$work/speech.wav" -r 48000 -b 24 -c 1 speech-48k-s24.wav
$sox "$work/speech.wav" -r 22050 -e floating-point -b 32 -c 1 speech-22k-f32.wav
$sox "$work/speech.wav" -r 11025 -e unsigned-integer -b 8 -c 1 speech-11k-u8.wav
$sox "$work/speech16k.wav" speech-16k.flac
$ffq -i "$work/speech.wav" -c:a libvorbis -q:a 1 $exact speech.ogg
$ffq -i "$work/speech.wav" -ar 48000 -c:a libopus -b:a 24k $exact speech.opus
$ffq -i "$work/speech.wav" -c:a libmp3lame -b:a 32k $exact speech.mp3
$ffq -i "$work/speech.wav" -c:a aac -b:a 32k -movflags +faststart $exact speech.m4a
$sox "$work/speech16k.wav" -t raw -e signed-integer -b 16 -L speech-16k-s16le.raw

# Broken or unsuitable inputs.
$sox -n -r 16000 -b 16 -c 1 silent-16k.wav trim 0 1.0
$sox "$work/speech.wav" -r 4000 -b 16 -c 1 rate-4000.wav
$ffq -f lavfi -i color=c=blue:s=8x8 -frames:v 1 -f image2 -c:v png $exact png-image.wav
: > empty.wav
head -c 20000 speech-16k-s16-mono.wav > truncated.wav                            # header promises more data
LC_ALL=C awk 'BEGIN { srand(42); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' /dev/null > random-bytes.wav

utterance=$(soxi -D "$work/speech.wav")
{
    printf 'file\tseconds\n'
    for f in speech-16k-s16-mono.wav speech-44k1-s16-stereo.wav speech-8k-s16.wav speech-8k-ulaw.wav speech-48k-s24.wav \
        speech-22k-f32.wav speech-11k-u8.wav speech-16k.flac speech.ogg speech.opus speech.mp3 speech.m4a speech-16k-s16le.raw; do
        printf '%s\t%s\n' "$f" "$utterance"
    done
    printf 'silent-16k.wav\t%s\n' "$(soxi -D silent-16k.wav)"
} > expected.tsv
