#!/usr/bin/env python3
"""Caches what fine-tuning the decoder needs of a manifest's clips: each clip's encoder output (the stock encoder,
frozen, over the clip plus 1 s as the product encodes it, in float16) and its target tokens (the product's prompt, the
clip's text as written_targets writes it, <|endoftext|>). Clips whose text cannot be written are left out.

  prepare.py MODEL_DIR MANIFEST.tsv OUT.pkl

MODEL_DIR is models/whisper-tiny.en (model.bin, tokenizer.json). The manifest's paths are relative to it, as the
training-set generators write them; its `speaker` column is kept for splitting by speaker (train.py --fold)."""
import csv
import os
import pickle
import subprocess
import sys
import wave

import jax
import jax.numpy as jnp
import numpy as np
from tokenizers import Tokenizer

import whisper_jax
import written_targets
from faster_whisper_log_mel import feature_extractor  # (whisper_jax puts scripts/neural-model on the path)

# DecisionModel.NeuralCheck.prompt of the stock decision: the decoder learns to score our queries after it.
PROMPT = " Flight number, spelled letter by letter and digit by digit."
START_OF_PREVIOUS, START_OF_TRANSCRIPT, NO_TIMESTAMPS, END_OF_TEXT = 50360, 50257, 50362, 50256
MARGIN_SECONDS = 1.0


def samples(path):
    """16 kHz float samples of a WAV (others resampled by sox, as the product resamples telephone audio)."""
    with wave.open(path) as clip:
        rate = clip.getframerate()
        raw = clip.readframes(clip.getnframes()) if rate == 16000 else None
    if raw is None:
        raw = subprocess.run(["sox", "-R", path, "-t", "raw", "-e", "signed", "-b", "16", "-r", "16000", "-c", "1", "-"],
                             capture_output=True, check=True).stdout
    return np.frombuffer(raw, "<i2").astype(np.float32) / 32768


def frame_count(sample_count):
    """LogMelSpectrogram.frameCount(forSampleCount:marginSeconds:) with a margin of MARGIN_SECONDS."""
    frames = (sample_count + 159) // 160 + int(np.ceil(MARGIN_SECONDS * 100))
    return min(3000, (frames + 19) // 20 * 20)


def main():
    if len(sys.argv) != 4: sys.exit(__doc__)
    model_dir, manifest, destination = sys.argv[1:]
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    prefix = [START_OF_PREVIOUS] + tokenizer.encode(PROMPT).ids + [START_OF_TRANSCRIPT, NO_TIMESTAMPS]
    extractor = feature_extractor()
    _, p = whisper_jax.load(os.path.join(model_dir, "model.bin"))
    encode = jax.jit(whisper_jax.encode)
    root = os.path.dirname(os.path.abspath(manifest))
    clips = []
    for row in csv.DictReader(open(manifest), delimiter="\t"):
        text = written_targets.write(row["text"], row["kind"], row["flight"]) if row["text"] else ""
        if text is None: continue
        audio = samples(os.path.join(root, row["path"]))
        mel = extractor(audio, padding=480000)[:, :frame_count(len(audio))].astype(np.float32)
        clips.append({"path": row["path"], "speaker": row["speaker"], "condition": row["condition"], "kind": row["kind"],
                      "flight": row["flight"], "text": text, "encoding": np.asarray(encode(p, jnp.asarray(mel)), dtype=np.float16),
                      "tokens": prefix + (tokenizer.encode(text).ids if text else []) + [END_OF_TEXT], "prefix": len(prefix)})
        if len(clips) % 200 == 0: print(destination, len(clips), flush=True)
    with open(destination, "wb") as out:
        pickle.dump(clips, out)
    print(destination, len(clips), "clips")


if __name__ == "__main__":
    main()
