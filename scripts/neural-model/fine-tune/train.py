#!/usr/bin/env python3
"""Fine-tunes Whisper tiny.en's decoder on clips prepare.py cached, and writes the tuned model.bin (export it with
../export-decoder-adaptation.py). The encoder, token embeddings (which are the output projection) and positions stay
frozen; the decoder's layers and final norm learn. AdamW, a warm-up over the first 5% of steps, cosine decay.

  train.py MODEL_DIR --train A.pkl [B.pkl ...] --out TUNED/model.bin [--fold K] [--epochs 2] [--learning-rate 1e-5]
           [--batch 16] [--seed 0] [--dev C.pkl ...]

--fold K trains on the speakers of the other fold only (speakers split in two by a stable hash of their name, crc32
mod 2): the model that reads fold K's clips for the decision model's training readings, so that they are readings of
voices it never learned from, as the dev sets' and the users' are. --dev prints the loss per target token on other
clips after each epoch."""
import argparse
import os
import pickle
import random
import time
import zlib

import jax
import jax.numpy as jnp
import numpy as np
import optax

import whisper_jax
from whisper_jax import ctranslate2_file

TRAINED = ("decoder/layer_",)  # the four layers and decoder/layer_norm


def fold(clip):
    return zlib.crc32(clip["speaker"].encode()) % 2


def batch(clips):
    """Padded arrays: encodings and their mask, input tokens, target tokens, and the mask of targets after the prompt."""
    positions = (max(c["encoding"].shape[0] for c in clips) + 31) // 32 * 32
    length = (max(len(c["tokens"]) for c in clips) - 1 + 7) // 8 * 8
    count = len(clips)
    encoding = np.zeros((count, positions, 384), np.float32)
    encoding_mask = np.zeros((count, positions), bool)
    inputs, targets = np.zeros((count, length), np.int32), np.zeros((count, length), np.int32)
    target_mask = np.zeros((count, length), np.float32)
    for i, clip in enumerate(clips):
        n, tokens = clip["encoding"].shape[0], clip["tokens"]
        encoding[i, :n], encoding_mask[i, :n] = clip["encoding"], True
        inputs[i, :len(tokens) - 1], targets[i, :len(tokens) - 1] = tokens[:-1], tokens[1:]
        target_mask[i, clip["prefix"] - 1:len(tokens) - 1] = 1
    return tuple(map(jnp.asarray, (encoding, encoding_mask, inputs, targets, target_mask)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model_dir")
    parser.add_argument("--train", nargs="+", required=True)
    parser.add_argument("--dev", nargs="*", default=[])
    parser.add_argument("--out", required=True)
    parser.add_argument("--fold", type=int, choices=(0, 1))
    parser.add_argument("--epochs", type=float, default=2)
    parser.add_argument("--learning-rate", type=float, default=1e-5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    model, p = whisper_jax.load(os.path.join(args.model_dir, "model.bin"))
    train = [c for path in args.train for c in pickle.load(open(path, "rb")) if args.fold is None or fold(c) != args.fold]
    dev = [c for path in args.dev for c in pickle.load(open(path, "rb"))]
    trainable = {k: v for k, v in p.items() if k.startswith(TRAINED)}
    frozen = {k: v for k, v in p.items() if k not in trainable}
    print("trainable parameters", sum(v.size for v in trainable.values()), "training clips", len(train),
          "speakers", len({c["speaker"] for c in train}), flush=True)

    def loss(weights, encoding, encoding_mask, inputs, targets, target_mask):
        log_probabilities = whisper_jax.decode({**frozen, **weights}, encoding, encoding_mask, inputs)
        nll = (-jnp.take_along_axis(log_probabilities, targets[..., None], -1)[..., 0] * target_mask).sum()
        return nll / target_mask.sum(), (nll, target_mask.sum())

    steps = max(2, int((len(train) + args.batch - 1) // args.batch * args.epochs))  # (a warm-up step and a decay step at least)
    optimizer = optax.adamw(optax.warmup_cosine_decay_schedule(0, args.learning_rate, max(1, steps // 20), steps), weight_decay=0.0)
    state = optimizer.init(trainable)

    @jax.jit
    def step(weights, state, *arrays):
        (value, _), gradient = jax.value_and_grad(loss, has_aux=True)(weights, *arrays)
        updates, state = optimizer.update(gradient, state, weights)
        return optax.apply_updates(weights, updates), state, value

    @jax.jit
    def summed(weights, *arrays):
        return loss(weights, *arrays)[1]

    def dev_loss(weights):
        total, tokens = 0.0, 0.0
        ordered = sorted(dev, key=lambda c: c["encoding"].shape[0])
        for i in range(0, len(ordered), 32):
            nll, count = summed(weights, *batch(ordered[i:i + 32]))
            total, tokens = total + float(nll), tokens + float(count)
        return total / max(tokens, 1)

    rng = random.Random(args.seed)
    if dev: print("dev loss per token before", round(dev_loss(trainable), 4), flush=True)
    started, done = time.time(), 0
    while done < steps:
        # Batches of clips of about one length (less padding), in random order.
        ordered = sorted(train, key=lambda c: c["encoding"].shape[0] + rng.random() * 60)
        batches = [ordered[i:i + args.batch] for i in range(0, len(ordered), args.batch)]
        rng.shuffle(batches)
        running = 0.0
        for clips in batches:
            if done >= steps: break
            trainable, state, value = step(trainable, state, *batch(clips))
            done, running = done + 1, running + float(value)
            if done % 50 == 0:
                print(f"step {done}/{steps} loss {running / 50:.4f} {time.time() - started:.0f} s", flush=True)
                running = 0.0
        if dev: print("dev loss per token", round(dev_loss(trainable), 4), "after step", done, flush=True)
    tuned = {**frozen, **trainable}
    variables = {name: (np.asarray(tuned[name]).astype(np.float16) if name in trainable else array)
                 for name, array in model["variables"].items()}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    ctranslate2_file.write(dict(model, variables=variables), args.out)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
