"""Shared writer for golden files: tests/golden/data/<family>.json (see tests/golden/golden.h)."""
import json
import math
import os

import numpy as np

DTYPES = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
          "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
          "f16": np.float16, "f32": np.float32, "f64": np.float64,
          "c64": np.complex64, "c128": np.complex128}
NAMES = {np.dtype(v): k for k, v in DTYPES.items()}


def _value(v):
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return float(v)
    return int(v)


def tensor(arr, dtype=None):
    """JSON form of an array; dtype names the vktensor dtype (needed for bf16). Complex
    data is interleaved: real, imaginary, real, ... (the memory layout)."""
    arr = np.asarray(arr)
    name = dtype or NAMES[arr.dtype]
    flat = arr.reshape(-1)
    if np.iscomplexobj(flat):
        flat = np.stack([flat.real, flat.imag], axis=-1).reshape(-1)
    if name == "bf16":
        flat = flat.astype(np.float32)
    return {"dtype": name, "shape": list(arr.shape), "data": [_value(x) for x in flat.tolist()]}


def write(family, cases):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "tests", "golden", "data", family + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"generator": "scripts/golden/gen_%s.py" % family, "numpy": np.__version__,
                   "cases": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d cases to %s" % (len(cases), path))
