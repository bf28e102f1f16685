"""Golden cases for sort, argsort, top_k (indices), dot, matmul: tests/golden/data/sortlinalg.json.

Sorts are NumPy's stable sorts; a stable descending order (equal keys keep their original
order, NaN first) is derived from a stable ascending argsort of the reversed array. Dots are
computed in float64 / int64 (np.tensordot, np.einsum, np.matmul) and cast to the dtype, so
integers wrap as vktensor's do. Inputs are multiples of 1/4 so float results are exact.
Run with Debian's /usr/bin/python3 (it has numpy).
"""
import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(20261129)
cases = []


def values(shape, dtype, lo=-6, hi=6):
    """Small quarters (few distinct values: duplicates); unsigned dtypes get no negatives."""
    if dtype in ("u8", "u16", "u32", "u64"):
        lo = 0
    v = rng.integers(lo * 4, hi * 4 + 1, size=shape).astype(np.float64) / 4.0
    if not dtype.startswith("f") and dtype != "bf16":
        v = np.round(v)
    return v


def np_dtype(name):
    return np.float32 if name == "bf16" else np.dtype(
        {"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "s8": "int8",
         "s16": "int16", "s32": "int32", "s64": "int64", "f16": "float16", "f32": "float32",
         "f64": "float64"}[name])


def stable_argsort(x, axis, descending):
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    rev = np.flip(x, axis=axis)
    return n - 1 - np.flip(np.argsort(rev, axis=axis, kind="stable"), axis=axis)


def add_sort(name, x, dtype, axis, descending):
    idx = stable_argsort(x, axis, descending) if x.ndim else np.zeros((), np.int64)
    srt = np.take_along_axis(x, idx, axis=axis) if x.ndim else x
    params = {"axis": axis, "descending": descending}
    cases.append({"name": name + "_sort", "op": "sort", "params": params,
                  "inputs": [tensor(x, dtype)], "expected": tensor(srt, dtype)})
    cases.append({"name": name + "_argsort", "op": "argsort", "params": params,
                  "inputs": [tensor(x, dtype)], "expected": tensor(idx.astype(np.int64))})


for dtype in ("u8", "s8", "s32", "s64", "u64", "f16", "bf16", "f32", "f64"):
    x = values((3, 4, 5), dtype).astype(np_dtype(dtype))
    for axis in (0, 1, -1):
        for desc in (False, True):
            add_sort("%s_345_axis%d_%s" % (dtype, axis, "desc" if desc else "asc"), x, dtype,
                     axis, desc)
for dtype in ("f16", "bf16", "f32", "f64"):
    x = np.array([[np.nan, 1, -np.inf, -0.0, np.inf, 0.0, np.nan, -1],
                  [0.0, -0.0, 2, 2, np.nan, -np.inf, 0.5, -0.0]]).astype(np_dtype(dtype))
    for desc in (False, True):
        add_sort("%s_nan_inf_zeros_%s" % (dtype, "desc" if desc else "asc"), x, dtype, -1, desc)
add_sort("f32_rank4_axis2", values((2, 3, 4, 3), "f32").astype(np.float32), "f32", 2, True)
add_sort("s16_rank4_axis0", values((3, 2, 2, 3), "s16").astype(np.int16), "s16", 0, False)
add_sort("f32_zero_size", np.zeros((0, 3), np.float32), "f32", 0, False)
add_sort("s32_zero_size_last", np.zeros((3, 0), np.int32), "s32", -1, True)
add_sort("f64_size1", np.array([2.5]), "f64", 0, True)
add_sort("s32_rank0", np.array(7, np.int32), "s32", -1, False)
add_sort("f32_long_row", values((2, 700), "f32").astype(np.float32), "f32", -1, False)

for dtype, shape, k in (("f32", (2, 6), 3), ("s32", (4, 5), 5), ("u8", (7,), 2),
                        ("f64", (2, 3, 4), 0), ("bf16", (3, 4), 1), ("f16", (600,), 9)):
    x = values(shape, dtype).astype(np_dtype(dtype))
    idx = stable_argsort(x, -1, True)[..., :k]
    cases.append({"name": "top_k_%s_k%d" % (dtype, k), "op": "top_k", "params": {"k": k},
                  "inputs": [tensor(x, dtype)], "expected": tensor(idx.astype(np.int64))})
x = np.array([[1, np.nan, np.inf, 3, np.nan, -np.inf]], np.float32)
cases.append({"name": "top_k_nan_largest", "op": "top_k", "params": {"k": 4},
              "inputs": [tensor(x)], "expected": tensor(stable_argsort(x, -1, True)[..., :4])})


def cast(r, dtype):
    if dtype in ("f16", "bf16", "f32", "f64"):
        return r.astype(np_dtype(dtype))
    # Integers: exact in int64 (inputs are small); wrap by the int64 -> narrower cast.
    return r.astype(np.int64).astype(np_dtype(dtype))


def dot6(a, ca, ba, b, cb, bb):
    """Nx.dot/6 via einsum on float64 or int64 inputs."""
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [next(letters) for _ in range(a.ndim)]
    lb = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(ca, cb):
        lb[j] = la[i]
    for i, j in zip(ba, bb):
        lb[j] = la[i]
    out = [la[i] for i in ba]
    out += [la[i] for i in range(a.ndim) if i not in ca and i not in ba]
    out += [lb[j] for j in range(b.ndim) if j not in cb and j not in bb]
    return np.einsum("%s,%s->%s" % ("".join(la), "".join(lb), "".join(out)), a, b)


def add_dot(name, dtype, sa, ca, ba, sb, cb, bb, a=None, b=None):
    a = values(sa, dtype) if a is None else a
    b = values(sb, dtype) if b is None else b
    wide = np.float64 if dtype.startswith("f") or dtype == "bf16" else np.int64
    a_t, b_t = cast(a.astype(wide), dtype), cast(b.astype(wide), dtype)
    r = dot6(a_t.astype(wide), ca, ba, b_t.astype(wide), cb, bb)
    cases.append({"name": name, "op": "dot",
                  "params": {"contract_a": ca, "batch_a": ba, "contract_b": cb, "batch_b": bb},
                  "inputs": [tensor(a_t, dtype), tensor(b_t, dtype)],
                  "expected": tensor(cast(np.asarray(r), dtype), dtype)})


for dtype in ("f32", "f64", "f16", "bf16", "s32", "s64", "u8"):
    add_dot("dot_%s_matmul" % dtype, dtype, (3, 4), [1], [], (4, 5), [0], [])
    add_dot("dot_%s_contract_first" % dtype, dtype, (4, 3), [0], [], (5, 4), [1], [])
    add_dot("dot_%s_batched" % dtype, dtype, (2, 3, 4), [2], [0], (2, 4, 5), [1], [0])
add_dot("dot_f32_rank4_batch_not_leading", "f32", (3, 2, 4, 2), [2], [1, 3], (2, 4, 2, 5),
        [1], [2, 0])
add_dot("dot_f64_two_contract", "f64", (2, 3, 4, 5), [3, 1], [], (5, 6, 3), [0, 2], [])
add_dot("dot_f32_outer", "f32", (3,), [], [], (2, 2), [], [])
add_dot("dot_s32_zero_contract", "s32", (2, 0), [1], [], (0, 3), [0], [])
add_dot("dot_f32_zero_free", "f32", (0, 4), [1], [], (4, 3), [0], [])
add_dot("dot_f64_rank0", "f64", (), [], [], (2, 3), [], [])
add_dot("dot_u8_wraps", "u8", (2, 3), [1], [], (3, 2), [0], [],
        a=np.array([[200, 100, 255], [1, 2, 3]], np.float64),
        b=np.array([[2, 255], [1, 255], [7, 1]], np.float64))
add_dot("dot_s32_wraps", "s32", (2,), [0], [], (2,), [0], [],
        a=np.array([2**31 - 1, 2**31 - 1], np.float64), b=np.array([3, 2], np.float64))
add_dot("dot_f32_nan_inf", "f32", (2, 3), [1], [], (3, 2), [0], [],
        a=np.array([[np.inf, 1, 0], [np.nan, 1, 2]]), b=np.array([[1, 2], [3, 4], [5, 6]]))

for dtype, sa, sb in (("f32", (3, 4), (4,)), ("f64", (4,), (2, 4, 3)), ("s32", (2, 3), (3, 2)),
                      ("f32", (2, 2, 3, 4), (4, 5)), ("f64", (4,), (4,))):
    a, b = values(sa, dtype).astype(np_dtype(dtype)), values(sb, dtype).astype(np_dtype(dtype))
    cases.append({"name": "dot2_%s_%s_%s" % (dtype, "x".join(map(str, sa)), "x".join(map(str, sb))),
                  "op": "dot2", "inputs": [tensor(a), tensor(b)],
                  "expected": tensor(np.asarray(np.dot(a, b)).astype(np_dtype(dtype)))})
for dtype, sa, sb in (("f32", (2, 3, 4), (2, 4, 5)), ("f64", (1, 2, 3, 4), (2, 4, 2)),
                      ("s64", (3, 2, 4), (4, 3)), ("f32", (4,), (3, 4, 2)),
                      ("f32", (2, 3, 4), (4,)), ("f16", (2, 2, 3), (2, 3, 2))):
    a, b = values(sa, dtype).astype(np_dtype(dtype)), values(sb, dtype).astype(np_dtype(dtype))
    cases.append({"name": "matmul_%s_%s_%s" % (dtype, "x".join(map(str, sa)), "x".join(map(str, sb))),
                  "op": "matmul", "inputs": [tensor(a), tensor(b)],
                  "expected": tensor(np.asarray(np.matmul(a.astype(np.float64), b.astype(np.float64))).astype(np_dtype(dtype)))})

write("sortlinalg", cases)
