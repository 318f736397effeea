#!/usr/bin/env python3
"""Writes the change a fine-tuning made to Whisper's decoder as a WhisperDecoderAdaptation, the file the recognizer
applies to the stock weights at run time (Sources/Whisper/WhisperModel+Adaptation.swift):

  export-decoder-adaptation.py BASE/model.bin TUNED/model.bin RANK OUT.bin

Each matrix of a decoder layer that changed becomes its change's RANK largest directions (an SVD, in float32):
`…/weight_up` (outputs x RANK, the left vectors times their singular values) and `…/weight_down` (RANK x inputs), in
float16; each vector of a decoder layer that changed (biases, layer norms) is written whole, in its own data type.
Nothing outside the decoder's layers and its final layer norm may differ (the encoder, embeddings and positions are
shared with the base)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ctranslate2_file  # noqa: E402


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    base, tuned = ctranslate2_file.read(sys.argv[1]), ctranslate2_file.read(sys.argv[2])
    rank = int(sys.argv[3])
    variables, parameters = {}, 0
    for name, before in base["variables"].items():
        after = tuned["variables"][name]
        if np.array_equal(before, after):
            continue
        if not name.startswith("decoder/layer_"):
            sys.exit(f"{sys.argv[2]}: {name} differs from the base model's; only the decoder's layers and final norm may be tuned")
        delta = after.astype(np.float32) - before.astype(np.float32)
        if delta.ndim == 2:
            left, singular, right = np.linalg.svd(delta, full_matrices=False)
            variables[name + "_down"] = right[:rank].astype(np.float16)
            variables[name + "_up"] = (left[:, :rank] * singular[:rank]).astype(np.float16)
            parameters += rank * sum(delta.shape)
        else:
            variables[name] = after
            parameters += after.size
    ctranslate2_file.write({"version": 6, "specification": "WhisperDecoderAdaptation", "revision": 1, "variables": variables}, sys.argv[4])
    print(f"{sys.argv[4]}: {len(variables)} variables, {parameters} parameters")


if __name__ == "__main__":
    main()
