#!/usr/bin/env python3
"""Converts a PocketSphinx `sendump` (8-bit quantized mixture weights) to a SphinxTrain `mixture_weights` file.

    sendump.py MODEL_DIR/sendump OUT/mixture_weights

Debian's en-us model ships only `sendump`, but `bw` and `map_adapt` need `mixture_weights`. SphinxTrain's own
reader (python/cmusphinx/sendump.py) is Python 2; this is a port for Python 3 and numpy.

sendump: int32 length + string (title), then header strings (length 0 ends them), then, when the header has no
cluster_count, int32 #codewords and int32 #senones; then, for each feature stream and each codeword, one byte per
senone: the weight's negated log (base 1.0001), shifted right by mixw_shift. mixture_weights (SphinxTrain's s3
format): "s3\\n", "key value" lines, "endhdr\\n" padded to 4 bytes, byte-order mark 0x11223344, int32
#senones, #streams, #codewords, their product, then float32 weights senone-major.
"""
import struct
import sys

import numpy as np

LOG_BASE = 1.0001
BYTE_ORDER_MARK = 0x11223344


def read_sendump(path):
    """Mixture weights, shape (senones, streams, codewords), each senone's weights summing to one per stream."""
    data = open(path, "rb").read()
    position, order = 0, "<"

    def integer():
        nonlocal position, order
        value = struct.unpack_from(order + "i", data, position)[0]
        if position == 0 and not 0 <= value < 65536:         # the first length tells the byte order
            order = ">"
            value = struct.unpack_from(order + "i", data, position)[0]
        position += 4
        return value

    def string():
        nonlocal position
        length = integer()
        text = data[position:position + length].rstrip(b"\0").decode("ascii")
        position += length
        return text if length else None

    string()                                                  # the title
    header = {}
    while (line := string()) is not None:
        key, _, value = line.partition(" ")
        header[key] = value.strip()
    shift = int(header.get("mixw_shift", 10))
    streams = int(header.get("feature_count", 0))
    senones = int(header.get("mixture_count", 0))
    codewords = int(header.get("model_count", 0))
    if int(header.get("cluster_count", 0)) == 0:
        codewords, senones = integer(), integer()
    if int(header.get("cluster_bits", 8)) != 8:
        raise SystemExit(f"{path}: clustered sendump (cluster_bits {header['cluster_bits']}) is not supported")
    expected = streams * codewords * senones
    if len(data) - position != expected:
        raise SystemExit(f"{path}: {len(data) - position} bytes of weights where {streams} x {codewords} x {senones} "
                         f"= {expected} were expected")
    quantized = np.frombuffer(data, dtype=np.uint8, count=expected, offset=position).reshape(streams, codewords, senones)
    weights = np.power(LOG_BASE, -(quantized.astype(np.float64) * (1 << shift)))
    weights = weights.transpose(2, 0, 1)                    # (senones, streams, codewords)
    return weights / weights.sum(axis=2, keepdims=True)


def write_mixture_weights(path, weights):
    senones, streams, codewords = weights.shape
    with open(path, "wb") as out:
        text = "s3\nversion 1.0\n"
        padding = (4 - (len(text) + len("endhdr\n")) % 4) % 4
        out.write((text + " " * padding + "endhdr\n").encode("ascii"))
        out.write(struct.pack("<i", BYTE_ORDER_MARK))
        out.write(struct.pack("<4I", senones, streams, codewords, weights.size))
        out.write(weights.astype("<f4").tobytes())


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("\n\n")[1])
    weights = read_sendump(sys.argv[1])
    write_mixture_weights(sys.argv[2], weights)
    print(f"{weights.shape[0]} senones, {weights.shape[1]} streams, {weights.shape[2]} codewords", file=sys.stderr)


if __name__ == "__main__":
    main()
