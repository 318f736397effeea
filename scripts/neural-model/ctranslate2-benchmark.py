#!/usr/bin/env python3
"""CTranslate2's own speed on one thread, float32 against int8, beside Benchmarks/whisper-benchmark's Swift figures.

  ctranslate2-benchmark.py MODEL_DIR CLIP.wav [--repeat 5]

Run with the reference environment the tests make (.build/whisper-reference-venv/bin/python: ctranslate2 4.8.5,
numpy, faster-whisper's feature extractor). Prints, per compute type: model load, encoder on the 30 s window (the only
window CTranslate2 accepts), greedy decoding, and teacher-forced scoring of 64 six-token candidates with align
(one batch). Times are process CPU seconds, best of --repeat.
"""
import argparse
import importlib.util
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
reference = importlib.import_module("whisper-reference")

import ctranslate2  # noqa: E402
import numpy as np  # noqa: E402


def best(repeats, work):
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("clip")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    samples = reference.read_wav(args.clip)
    mel = reference.feature_extractor()(samples, padding=reference.WINDOW_SAMPLES)[:, :reference.WINDOW_FRAMES]
    features = ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None]).astype(np.float32))
    candidates = [[token + (index % 3 if index else 0) for token in [41578, 1395, 12, 2433, 2319, 13]] for index in range(64)]
    print(f"clip: {args.clip}, {len(samples) / reference.SAMPLE_RATE:.2f} s; CTranslate2 {ctranslate2.__version__}, 1 thread")
    for compute_type in ["float32", "int8"]:
        start = time.process_time()
        model = ctranslate2.models.Whisper(args.model, device="cpu", compute_type=compute_type, intra_threads=1)
        load = (time.process_time() - start) * 1000
        encoded = model.encode(features)
        encode = best(args.repeat, lambda: model.encode(features))
        greedy = best(args.repeat, lambda: model.generate(encoded, [reference.START_SEQUENCE], beam_size=1,
                                                          suppress_blank=False, suppress_tokens=[]))
        # align takes one encoder output per candidate (and recomputes its cross-attention keys and values).
        batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(np.asarray(encoded), len(candidates), axis=0)))
        scoring = best(args.repeat, lambda: model.align(batch, [reference.START_OF_TRANSCRIPT], candidates, reference.WINDOW_FRAMES))
        print(f"{compute_type}: load {load:.0f} ms CPU; encoder 3000 frames {encode:.1f} ms; greedy decode {greedy:.1f} ms; "
              f"align 64 candidates x 6 tokens {scoring:.1f} ms ({scoring / 64:.2f} ms per candidate)")


if __name__ == "__main__":
    main()
