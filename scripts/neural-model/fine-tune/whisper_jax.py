"""Whisper tiny.en in JAX, its weights read from CTranslate2's model.bin (float32 arithmetic), computed as the Swift
Whisper module computes it: pre-norm layers, exact GELU, the encoder over any even number of frames. For fine-tuning
the decoder; pinned in the probe of 2026-12-07 against Tests/WhisperTests' reference (encoder within 5.4e-4,
teacher-forced log-probabilities within 2e-5 nats)."""
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctranslate2_file  # noqa: E402

HEADS = 6
LAYERS = 4


def load(path):
    """(the file as ctranslate2_file.read gives it, its float16 variables as float32 JAX arrays by name)."""
    model = ctranslate2_file.read(path)
    return model, {name: jnp.asarray(array.astype(np.float32)) for name, array in model["variables"].items() if array.dtype == np.float16}


def layer_norm(x, p, name):
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(variance + 1e-5) * p[name + "/gamma"] + p[name + "/beta"]


def linear(x, p, name):
    return x @ p[name + "/weight"].T + p[name + "/bias"]


def gelu(x):
    return jax.nn.gelu(x, approximate=False)


def attend(q, k, v, mask):
    """Multi-head attention of q (..., Lq, D) over k, v (..., Lk, D); `mask` (broadcast to (..., heads, Lq, Lk)) or None."""
    *batch, query_length, width = q.shape
    key_length, head_width = k.shape[-2], width // HEADS
    def heads(x, length):
        return x.reshape(*batch, length, HEADS, head_width).swapaxes(-2, -3)
    scores = heads(q, query_length) @ heads(k, key_length).swapaxes(-1, -2) / np.sqrt(head_width)
    if mask is not None:
        scores = jnp.where(mask, scores, -1e9)
    mixed = jax.nn.softmax(scores, -1) @ heads(v, key_length)
    return mixed.swapaxes(-2, -3).reshape(*batch, query_length, width)


def encode(p, mel):
    """The encoder over a log-mel (80, T), T even: (T/2, 384)."""
    x = mel.T
    def convolution(x, name, stride):
        weight = p[name + "/weight"]  # (outputs, inputs, 3)
        padded = jnp.pad(x, ((1, 1), (0, 0)))
        frames = x.shape[0]
        y = sum(padded[tap:tap + frames] @ weight[:, :, tap].T for tap in range(3)) + p[name + "/bias"]
        return y[::stride]
    x = gelu(convolution(x, "encoder/conv1", 1))
    x = gelu(convolution(x, "encoder/conv2", 2))
    x = x + p["encoder/position_encodings/encodings"][:x.shape[0]]
    for layer in range(LAYERS):
        prefix = f"encoder/layer_{layer}"
        q, k, v = jnp.split(linear(layer_norm(x, p, prefix + "/self_attention/layer_norm"), p, prefix + "/self_attention/linear_0"), 3, -1)
        x = x + linear(attend(q, k, v, None), p, prefix + "/self_attention/linear_1")
        x = x + linear(gelu(linear(layer_norm(x, p, prefix + "/ffn/layer_norm"), p, prefix + "/ffn/linear_0")), p, prefix + "/ffn/linear_1")
    return layer_norm(x, p, "encoder/layer_norm")


def decode(p, encoding, encoding_mask, tokens):
    """Teacher-forced: encoding (B, P, 384) with its mask (B, P) of real positions, tokens (B, L): the log-softmax over
    the vocabulary after each token (B, L, V)."""
    length = tokens.shape[1]
    x = p["decoder/embeddings/weight"][tokens] + p["decoder/position_encodings/encodings"][:length]
    causal = jnp.tril(jnp.ones((length, length), bool))[None, None]
    cross_mask = encoding_mask[:, None, None, :]
    for layer in range(LAYERS):
        prefix = f"decoder/layer_{layer}"
        q, k, v = jnp.split(linear(layer_norm(x, p, prefix + "/self_attention/layer_norm"), p, prefix + "/self_attention/linear_0"), 3, -1)
        x = x + linear(attend(q, k, v, causal), p, prefix + "/self_attention/linear_1")
        q = linear(layer_norm(x, p, prefix + "/attention/layer_norm"), p, prefix + "/attention/linear_0")
        k, v = jnp.split(linear(encoding, p, prefix + "/attention/linear_1"), 2, -1)
        x = x + linear(attend(q, k, v, cross_mask), p, prefix + "/attention/linear_2")
        x = x + linear(gelu(linear(layer_norm(x, p, prefix + "/ffn/layer_norm"), p, prefix + "/ffn/linear_0")), p, prefix + "/ffn/linear_1")
    x = layer_norm(x, p, "decoder/layer_norm")
    return jax.nn.log_softmax(x @ p["decoder/embeddings/weight"].T, -1)
