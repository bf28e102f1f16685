"""Golden cases for the movement and indexing families, computed by NumPy.

Run with Debian's /usr/bin/python3: writes tests/golden/data/movement.json.
Clamping rules follow Nx/XLA: gather/take indices clamp into range, slice starts clamp so the
slice fits, indexed_add/put skip rows with an out-of-range index.
"""
import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(7)
INT_DTYPES = ["u8", "s16", "s32", "s64"]
FLOAT_DTYPES = ["f16", "f32", "f64"]
NP = {"u8": np.uint8, "s16": np.int16, "s32": np.int32, "s64": np.int64, "f16": np.float16,
      "f32": np.float32, "f64": np.float64, "bf16": np.float32}
cases = []


def values(shape, dtype, special=False):
    """Small integers (exact in every dtype, bf16 included), some negative for signed types."""
    lo = 0 if dtype == "u8" else -50
    a = rng.integers(lo, 100, size=shape).astype(NP[dtype])
    if special and dtype in FLOAT_DTYPES and a.size >= 3:
        flat = a.reshape(-1)
        flat[0], flat[1], flat[2] = np.nan, np.inf, -np.inf
    return a


def add(name, op, params, inputs, expected, dtypes=None):
    dtypes = dtypes or [None] * len(inputs)
    ins = [tensor(x, d) for x, d in zip(inputs, dtypes)]
    out_dtype = dtypes[0] if expected.dtype == inputs[0].dtype else None
    cases.append({"name": name, "op": op, "params": params, "inputs": ins,
                  "expected": tensor(expected, out_dtype)})


def np_pad(a, value, config):
    """lax.pad semantics: interior first, then lo/hi (negative crops)."""
    shape = [d + max(d - 1, 0) * it for d, (_, _, it) in zip(a.shape, config)]
    out = np.full(shape, value, dtype=a.dtype)
    out[tuple(slice(None, None, it + 1) for (_, _, it) in config)] = a
    out = np.pad(out, [(max(lo, 0), max(hi, 0)) for lo, hi, _ in config],
                 constant_values=np.array(value).astype(a.dtype))
    idx = tuple(slice(-min(lo, 0), out.shape[i] + min(hi, 0)) for i, (lo, hi, _) in
                enumerate(config))
    return out[idx]


for d in INT_DTYPES + FLOAT_DTYPES + ["bf16"]:
    dt = None if d != "bf16" else "bf16"
    tag = [dt]
    a = values((3, 4, 5), d, special=True)
    add("transpose_3d_" + d, "transpose", {"perm": [2, 0, 1]}, [a],
        np.ascontiguousarray(a.transpose(2, 0, 1)), tag)
    b = values((2, 3, 1, 2, 3), d)
    add("transpose_5d_" + d, "transpose", {"perm": [4, 1, 3, 0, 2]}, [b],
        np.ascontiguousarray(b.transpose(4, 1, 3, 0, 2)), tag)
    c = values((3, 4), d)
    cfg = [[2, -1, 1], [-1, 3, 2]]
    add("pad_" + d, "pad", {"value": 7, "config": cfg}, [c], np_pad(c, 7, cfg), tag)
    add("reverse_" + d, "reverse", {"axes": [0, 2]}, [a], np.ascontiguousarray(a[::-1, :, ::-1]), tag)
    add("slice_strided_" + d, "slice", {"start": [1, 0, 3], "lengths": [2, 2, 2],
                                         "strides": [1, 3, 2]}, [a], a[1:3, 0:4:3, 2:5:2], tag)  # start 3 clamps to 2
    u = values((2, 2, 3), d)
    out = a.copy()
    out[1:3, 2:4, 2:5] = u  # start {5, 2, 4} clamps to {1, 2, 2}
    add("put_slice_clamped_" + d, "put_slice", {"start": [5, 2, 4]}, [a, u], out, [dt, dt])
    e = values((3, 2, 5), d)
    add("concatenate_axis1_" + d, "concatenate", {"axis": 1}, [a, e],
        np.concatenate([a, e], axis=1), [dt, dt])
    row = values((1, 5), d)
    add("broadcast_" + d, "broadcast", {"shape": [2, 3, 4, 5], "axes": [1, 3]}, [row],
        np.broadcast_to(row[None, :, None, :], (2, 3, 4, 5)).copy(), tag)
    idx = rng.integers(-2, 7, size=(2, 3)).astype(np.int64)
    add("take_axis1_" + d, "take", {"axis": 1}, [a, idx], np.take(a, np.clip(idx, 0, 3), axis=1),
        [dt, None])
    ia = rng.integers(-1, 6, size=(3, 4, 2)).astype(np.int32)
    add("take_along_axis2_" + d, "take_along_axis", {"axis": 2}, [a, ia],
        np.take_along_axis(a, np.clip(ia, 0, 4), axis=2), [dt, None])
    gi = rng.integers(-1, 5, size=(2, 2, 2)).astype(np.int16)
    gc = np.clip(gi.astype(np.int64), 0, [2, 4])  # axes {0, 2}: dims 3 and 5
    add("gather_axes02_" + d, "gather", {"axes": [0, 2]}, [a, gi], a[gc[..., 0], :, gc[..., 1]],
        [dt, None])

for d in INT_DTYPES + FLOAT_DTYPES:
    t = values((4, 3), d, special=True)
    f = values((3,), d)
    p = rng.integers(0, 2, size=(4, 1)).astype(np.float32)
    add("select_" + d, "select", {}, [p, t, f], np.where(p != 0, t, f))
    lo, hi = values((3,), d), values((4, 1), d)
    lo = np.minimum(lo, hi.min()).astype(lo.dtype)
    add("clip_" + d, "clip", {}, [t, lo, hi], np.minimum(np.maximum(t, lo), hi))
    base = values((5, 2, 3), d)
    ind = np.array([[1, 0], [4, 1], [1, 0], [5, 0], [-1, 1], [0, 1]], dtype=np.int64)
    upd = values((6, 2), d)  # updates {m} ++ dims not in axes {0, 2}
    ok = (ind[:, 0] >= 0) & (ind[:, 0] < 5) & (ind[:, 1] >= 0) & (ind[:, 1] < 3)
    added = base.copy()
    np.add.at(added, (ind[ok, 0], slice(None), ind[ok, 1]), upd[ok])
    add("indexed_add_" + d, "indexed_add", {"axes": [0, 2]}, [base, ind, upd], added)
    put = base.copy()
    for row, u in zip(ind[ok], upd[ok]):
        put[row[0], :, row[1]] = u
    add("indexed_put_" + d, "indexed_put", {"axes": [0, 2]}, [base, ind, upd], put)

# Edge shapes: rank 0, size 0 and size 1.
z = np.zeros((0, 3), np.float32)
add("concatenate_empty_part", "concatenate", {"axis": 0}, [z, np.ones((2, 3), np.float32)],
    np.ones((2, 3), np.float32))
add("pad_rank0", "pad", {"value": 1, "config": []}, [np.array(3.5, np.float32)],
    np.array(3.5, np.float32))
add("pad_empty", "pad", {"value": 2, "config": [[1, 1, 2], [0, 0, 0]]}, [z],
    np.full((2, 3), 2, np.float32))
add("transpose_size1", "transpose", {"perm": [1, 0]}, [np.array([[5]], np.int16)],
    np.array([[5]], np.int16))
add("broadcast_rank0", "broadcast", {"shape": [2, 2], "axes": []}, [np.array(-4, np.int32)],
    np.full((2, 2), -4, np.int32))
add("take_empty_indices", "take", {"axis": 0}, [np.arange(4, dtype=np.int32),
                                                np.zeros((0,), np.int64)], np.zeros((0,), np.int32))
mixed = [np.array([1, 2], np.uint8), np.array([-3], np.int8)]
add("concatenate_promote", "concatenate", {"axis": 0}, mixed, np.array([1, 2, -3], np.int16))

write("movement", cases)
