"""CTranslate2's model.bin (format version 6), read and written keeping every variable's name, order and data type:
uint32 version; uint16-length NUL-terminated specification name; uint32 revision; uint32 variable count; per variable a
uint16-length name, uint8 rank, rank x uint32 dimensions, uint8 data type, uint32 byte count, the bytes; then the
aliases, kept as bytes. Little-endian throughout (Sources/Whisper/CTranslate2ModelFile.swift reads the same)."""
import struct

import numpy as np

DATA_TYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
CODES = {np.dtype(t): code for code, t in DATA_TYPES.items()}


def _string(f):
    (length,) = struct.unpack("<H", f.read(2))
    return f.read(length).rstrip(b"\0").decode()


def read(path):
    """{"version", "specification", "revision", "variables": {name: array} in file order, "aliases": bytes}."""
    with open(path, "rb") as f:
        (version,) = struct.unpack("<I", f.read(4))
        if version != 6:
            raise SystemExit(f"{path}: CTranslate2 format version {version}, not 6")
        specification = _string(f)
        revision, count = struct.unpack("<II", f.read(8))
        variables = {}
        for _ in range(count):
            name = _string(f)
            rank = f.read(1)[0]
            shape = struct.unpack(f"<{rank}I", f.read(4 * rank))
            code = f.read(1)[0]
            (size,) = struct.unpack("<I", f.read(4))
            if code not in DATA_TYPES:
                raise SystemExit(f"{path}: variable {name} has data type {code}, which this script does not read")
            variables[name] = np.frombuffer(f.read(size), dtype=DATA_TYPES[code]).reshape(shape)
        aliases = f.read()
    return {"version": version, "specification": specification, "revision": revision, "variables": variables, "aliases": aliases}


def write(model, path):
    """Writes `model` (as `read` returns it; aliases as bytes, b"\\0\\0\\0\\0" for none)."""
    def string(f, text):
        data = text.encode() + b"\0"
        f.write(struct.pack("<H", len(data)) + data)
    with open(path, "wb") as f:
        f.write(struct.pack("<I", model["version"]))
        string(f, model["specification"])
        f.write(struct.pack("<II", model["revision"], len(model["variables"])))
        for name, array in model["variables"].items():
            array = np.array(array, order="C", copy=True)  # (ascontiguousarray would make a scalar 1-d)
            string(f, name)
            f.write(bytes([array.ndim]) + struct.pack(f"<{array.ndim}I", *array.shape))
            f.write(bytes([CODES[array.dtype]]) + struct.pack("<I", array.nbytes) + array.tobytes())
        f.write(model.get("aliases", b"\0\0\0\0"))


def adapted(base, adaptation):
    """`base` (a Whisper model as `read` returns it) with `adaptation` (a WhisperDecoderAdaptation) merged in: each
    `…/weight` plus `…/weight_up` · `…/weight_down`, each vector the adaptation holds in place of the base's, in the base's
    data type (as Sources/Whisper/WhisperModel+Adaptation.swift applies it at run time)."""
    if adaptation["specification"] != "WhisperDecoderAdaptation":
        raise SystemExit(f"not a decoder adaptation: {adaptation['specification']}")
    changes = adaptation["variables"]
    variables = dict(base["variables"])
    for name, array in changes.items():
        if name.endswith("/weight_up"):
            continue
        if name.endswith("/weight_down"):
            weight = name[: -len("_down")]
            delta = changes[weight + "_up"].astype(np.float32) @ array.astype(np.float32)
            variables[weight] = (variables[weight].astype(np.float32) + delta).astype(variables[weight].dtype)
        else:
            if name not in variables or variables[name].shape != array.shape:
                raise SystemExit(f"the adaptation's {name} changes nothing of the model's")
            variables[name] = array.astype(variables[name].dtype)
    return dict(base, variables=variables)
