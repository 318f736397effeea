#!/usr/bin/env python3
"""Reference numbers for the Swift Whisper module, from CTranslate2 itself (Tests/WhisperTests runs this).

  whisper-reference.py MODEL_DIR OUTPUT_DIR --clip NAME=WAV [--clip ...] [--sequence NAME=[PROMPT:]ID,ID,... ...]

For each clip (16 kHz mono 16-bit WAV, samples / 32768):
  NAME.mel.f32      log-mel of Whisper's 30 s window, (80, 3000) float32 little-endian, by faster-whisper's own
                    FeatureExtractor (audio + 30 s of zeros, the first 3000 frames: OpenAI whisper's padding);
  NAME.encoder.f32  ctranslate2 Whisper.encode of that window, (1500, 384) float32;
  per --sequence of text token ids for that clip, NAME.sequenceK.f32: the decoder's log-softmax over the whole
                    vocabulary at each position of start sequence + tokens + <|endoftext|> (teacher-forced), one row
                    per token of tokens + <|endoftext|>, (n + 1, 51864) float32. With PROMPT (ids, comma-separated,
                    then a colon), <|startofprev|> + PROMPT comes before the start sequence, as Whisper's prompt.
With --adaptation FILE (a WhisperDecoderAdaptation, models/whisper-tiny.en-flightvoice/decoder-adaptation.bin), the
model is the base with that decoder change merged into its weights (ctranslate2_file.adapted, written to
OUTPUT_DIR/merged-model): the reference for the Swift model's `adapted(by:)`, which adds the change at run time.
reference.json lists the clips, sample counts, files, each sequence's per-token log-probabilities and CTranslate2's
greedy transcript (beam 1, nothing suppressed).

How the teacher-forced log-probabilities are had: Whisper.generate with the whole sequence as the prompt,
beam_size=1, return_logits_vocab=True and no suppression returns the raw logits of every forced prompt step
(ctranslate2 4.8.5); they are log-softmaxed here. Whisper.align gives the same numbers as probabilities but
normalised over text tokens only (ids below <|endoftext|>), so it serves as a cross-check (asserted below), not the
reference. CTranslate2 runs on the CPU in float32 (compute_type="float32").
"""
import argparse
import json
import os
import shutil
import sys
import wave

import ctranslate2
import numpy as np

from faster_whisper_log_mel import feature_extractor

END_OF_TEXT, START_OF_TRANSCRIPT, START_OF_PREVIOUS, NO_TIMESTAMPS = 50256, 50257, 50360, 50362
START_SEQUENCE = [START_OF_TRANSCRIPT, NO_TIMESTAMPS]
SAMPLE_RATE = 16000
WINDOW_SAMPLES = 30 * SAMPLE_RATE
WINDOW_FRAMES = 3000


def read_wav(path):
    with wave.open(path) as clip:
        if clip.getframerate() != SAMPLE_RATE or clip.getnchannels() != 1 or clip.getsampwidth() != 2:
            sys.exit(f"whisper-reference: {path} is not 16 kHz mono 16-bit")
        return np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2").astype(np.float32) / 32768


def log_softmax(x):
    x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def merged_model(folder, adaptation, destination):
    """A copy of the model `folder` in `destination` with `adaptation` merged into its model.bin."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ctranslate2_file
    os.makedirs(destination, exist_ok=True)
    for name in os.listdir(folder):
        if name != "model.bin":
            shutil.copyfile(os.path.join(folder, name), os.path.join(destination, name))
    base = ctranslate2_file.read(os.path.join(folder, "model.bin"))
    ctranslate2_file.write(ctranslate2_file.adapted(base, ctranslate2_file.read(adaptation)), os.path.join(destination, "model.bin"))
    return destination


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("output")
    parser.add_argument("--clip", action="append", default=[], help="NAME=WAV")
    parser.add_argument("--sequence", action="append", default=[], help="NAME=[PROMPT:]ID,ID,... (text tokens only)")
    parser.add_argument("--adaptation", help="a decoder adaptation merged into the model's weights first")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    model_folder = merged_model(args.model, args.adaptation, os.path.join(args.output, "merged-model")) if args.adaptation else args.model

    clips = dict(item.split("=", 1) for item in args.clip)
    sequences = {name: [] for name in clips}
    for item in args.sequence:
        name, ids = item.split("=", 1)
        prompt, _, ids = ids.rpartition(":")
        sequences[name].append(([int(token) for token in prompt.split(",")] if prompt else [],
                                [int(token) for token in ids.split(",")]))

    extractor = feature_extractor()
    model = ctranslate2.models.Whisper(model_folder, device="cpu", compute_type="float32", intra_threads=1)
    report = {"clips": []}
    for name, path in clips.items():
        samples = read_wav(path)
        mel = extractor(samples, padding=WINDOW_SAMPLES)[:, :WINDOW_FRAMES].astype("<f4")
        mel.tofile(os.path.join(args.output, f"{name}.mel.f32"))
        features = ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None]))
        encoded = model.encode(features)
        np.asarray(encoded)[0].astype("<f4").tofile(os.path.join(args.output, f"{name}.encoder.f32"))

        greedy = model.generate(encoded, [START_SEQUENCE], beam_size=1, max_length=64,
                                suppress_blank=False, suppress_tokens=[])[0].sequences_ids[0]
        scored = []
        for number, (prompt, tokens) in enumerate(sequences[name]):
            forced = tokens + [END_OF_TEXT]
            before = [START_OF_PREVIOUS] + prompt + START_SEQUENCE if prompt else START_SEQUENCE
            result = model.generate(encoded, [before + forced], beam_size=1, return_logits_vocab=True,
                                    suppress_blank=False, suppress_tokens=[])[0]
            rows = log_softmax(np.asarray(result.logits[0])[:len(forced)])
            file = f"{name}.sequence{number}.f32"
            rows.astype("<f4").tofile(os.path.join(args.output, file))
            log_probs = [float(rows[i, token]) for i, token in enumerate(forced)]
            # Cross-check against align (which takes no prompt), whose probabilities are normalised over text tokens only.
            if not prompt:
                aligned = model.align(encoded, [START_OF_TRANSCRIPT], [tokens], WINDOW_FRAMES)[0].text_token_probs
                text_only = log_softmax(np.asarray(result.logits[0])[:len(tokens), :END_OF_TEXT])
                for i, token in enumerate(tokens):
                    if abs(np.exp(text_only[i, token]) - aligned[i]) > 1e-4:
                        sys.exit(f"whisper-reference: generate's logits and align disagree for {name} token {i}")
            scored.append({"prompt": prompt, "tokens": tokens, "logProbabilities": log_probs, "file": file})
        report["clips"].append({"name": name, "sampleCount": int(len(samples)), "mel": f"{name}.mel.f32",
                                "encoder": f"{name}.encoder.f32", "greedy": greedy, "sequences": scored})
    with open(os.path.join(args.output, "reference.json"), "w") as out:
        json.dump(report, out, indent=1)


if __name__ == "__main__":
    main()
