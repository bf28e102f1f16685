"""Golden cases for complex (c64/c128) movement, indexing, reductions, scans, windows, dot,
conv and the linear-algebra results that are unique (determinant, solve, triangular_solve),
computed by NumPy.

Run with Debian's /usr/bin/python3: writes tests/golden/data/complex_data.json (complex
data interleaved, as golden_io writes it). Decompositions with a choice of phase (qr, eigh, svd,
cholesky, lu) are checked by reconstruction in tests/unit/complex_linalg_test.cpp instead.
"""
import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(11)
CT = {"c64": np.complex64, "c128": np.complex128}
cases = []


def add(name, op, params, inputs, expected):
    cases.append({"name": name, "op": op, "params": params,
                  "inputs": [tensor(x) for x in inputs], "expected": tensor(expected)})


def cvalues(shape, d, special=False, small=False):
    """Complex values with small integer parts (exact everywhere) or random parts."""
    if small:
        a = rng.integers(-4, 5, size=shape) + 1j * rng.integers(-4, 5, size=shape)
    else:
        # Multiples of 1/1024: short in JSON, exact in both precisions.
        a = (np.round(rng.uniform(-2, 2, size=shape) * 1024) +
             1j * np.round(rng.uniform(-2, 2, size=shape) * 1024)) / 1024
    a = a.astype(CT[d])
    if special and a.size >= 4:
        flat = a.reshape(-1)
        flat[0] = complex(np.nan, 1)
        flat[1] = complex(np.inf, -np.inf)
        flat[2] = complex(-0.0, np.nan)
        flat[3] = complex(5e-39 if d == "c64" else 5e-310, -0.0)  # subnormal, -0
    return a


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


def window(a, dims, strides, padding, reducer, identity):
    padded = np.pad(a, padding, constant_values=identity)
    out_shape = [(padded.shape[i] - dims[i]) // strides[i] + 1 for i in range(a.ndim)]
    out = np.empty(out_shape, dtype=a.dtype)
    for idx in np.ndindex(*out_shape):
        sl = tuple(slice(idx[i] * strides[i], idx[i] * strides[i] + dims[i]) for i in range(a.ndim))
        out[idx] = reducer(padded[sl])
    return out


def conv_nchw(x, k, stride, pad, groups):
    n, c, h, w = x.shape
    o, cg, kh, kw = k.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (w + 2 * pad - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), dtype=np.result_type(x, k))
    og = o // groups
    for b in range(n):
        for oc in range(o):
            g = oc // og
            for i in range(oh):
                for j in range(ow):
                    patch = xp[b, g * cg:(g + 1) * cg, i * stride:i * stride + kh,
                               j * stride:j * stride + kw]
                    out[b, oc, i, j] = np.sum(patch * k[oc])
    return out


for d in ["c64", "c128"]:
    # Movement: exact, special values included (bits move unchanged).
    a = cvalues((3, 4, 5), d, special=True)
    add("transpose_" + d, "transpose", {"perm": [2, 0, 1]}, [a],
        np.ascontiguousarray(a.transpose(2, 0, 1)))
    big = cvalues((20, 70), d)
    add("transpose_tiled_" + d, "transpose", {"perm": [1, 0]}, [big], np.ascontiguousarray(big.T))
    b = cvalues((3, 1), d, special=False)
    add("broadcast_" + d, "broadcast", {"shape": [2, 3, 4], "axes": [1, 2]}, [b],
        np.broadcast_to(b, (2, 3, 4)).copy())
    c = cvalues((3, 4), d, small=True)
    cfg = [[2, -1, 1], [-1, 3, 2]]
    value = complex(1.5, -2.0)
    add("pad_" + d, "pad", {"value": [1.5, -2.0], "config": cfg}, [c], np_pad(c, value, cfg))
    add("reverse_" + d, "reverse", {"axes": [0, 2]}, [a], np.ascontiguousarray(a[::-1, :, ::-1]))
    add("slice_" + d, "slice", {"start": [1, 0, 1], "lengths": [2, 2, 2], "strides": [1, 3, 2]},
        [a], a[1:3, 0:4:3, 1:5:2])
    u = cvalues((2, 3), d, small=True)
    ps = a[0].copy()
    ps[1:3, 2:5] = u
    add("put_slice_" + d, "put_slice", {"start": [1, 2]}, [a[0], u], ps)
    e = cvalues((3, 2, 5), d)
    add("concatenate_inner_" + d, "concatenate", {"axis": 1}, [a, e],
        np.concatenate([a, e], axis=1))
    add("concatenate_outer_" + d, "concatenate", {"axis": 0}, [a, a], np.concatenate([a, a], 0))

    # Indexing.
    idx = np.array([[2, 1], [0, 3], [1, 1]], dtype=np.int64)
    add("gather_" + d, "gather", {"axes": [0, 1]}, [a, idx], a[idx[:, 0], idx[:, 1]])
    ti = np.array([3, 0, 3, 1], dtype=np.int64)
    add("take_" + d, "take", {"axis": 1}, [a, ti], np.take(a, ti, axis=1))
    ta = rng.integers(0, 4, size=(3, 4, 5)).astype(np.int64)
    add("take_along_axis_" + d, "take_along_axis", {"axis": 1}, [a, ta],
        np.take_along_axis(a, ta, axis=1))
    pred = np.array([0, 1j, 1, -0.0 + 0j, complex(np.nan, 0), 2 + 2j], dtype=CT[d])
    x = cvalues((6,), d)
    y = cvalues((6,), d)
    add("select_complex_pred_" + d, "select", {}, [pred, x, y], np.where(pred != 0, x, y))
    pu8 = np.array([1, 0, 0, 1, 1, 0], dtype=np.uint8)
    add("select_" + d, "select", {}, [pu8, x, y], np.where(pu8 != 0, x, y))
    base = cvalues((4, 3), d, small=True)
    rows = np.array([[1], [3], [1], [7]], dtype=np.int64)  # row 7 is out of range: skipped
    upd = cvalues((4, 3), d, small=True)
    added = base.copy()
    put = base.copy()
    for r, v in zip(rows[:, 0], upd):
        if r < 4:
            added[r] += v
            put[r] = v
    add("indexed_add_" + d, "indexed_add", {"axes": [0]}, [base, rows, upd], added)
    add("indexed_put_" + d, "indexed_put", {"axes": [0]}, [base, rows, upd], put)

    # Reductions (sum and product keep the complex type; all/any give u8).
    r = cvalues((4, 6, 5), d)
    for axes in ([], [0], [1], [2], [0, 2]):
        ax = tuple(axes) if axes else None
        tag = "_".join(map(str, axes)) or "all"
        add("sum_%s_%s" % (tag, d), "sum", {"axes": axes}, [r], np.asarray(np.sum(r, axis=ax)))
        add("product_%s_%s" % (tag, d), "product", {"axes": axes}, [r * 0.6],
            np.asarray(np.prod(r * 0.6, axis=ax)))
    long = cvalues((3000,), d)
    add("sum_long_" + d, "sum", {"axes": []}, [long], np.asarray(np.sum(long.astype(np.complex128)).astype(CT[d])))
    z = np.array([[0, 1j, 1], [0, 0, -0.0j], [complex(np.nan, 0), 2, 3j]], dtype=CT[d])
    for axes in ([], [1]):
        ax = tuple(axes) if axes else None
        tag = "_".join(map(str, axes)) or "all"
        add("all_%s_%s" % (tag, d), "all", {"axes": axes}, [z],
            np.asarray(np.all(z != 0, axis=ax)).astype(np.uint8))
        add("any_%s_%s" % (tag, d), "any", {"axes": axes}, [z],
            np.asarray(np.any(z != 0, axis=ax)).astype(np.uint8))

    # Scans and windows.
    s = cvalues((3, 7, 4), d)
    for axis in (1, 2):
        for rev in (False, True):
            src = np.flip(s, axis) if rev else s
            tag = "%d%s_%s" % (axis, "_rev" if rev else "", d)
            cs = np.cumsum(src, axis=axis)
            cp = np.cumprod(src * 0.7, axis=axis)
            add("cumulative_sum_" + tag, "cumulative_sum", {"axis": axis, "reverse": rev}, [s],
                np.flip(cs, axis) if rev else cs)
            add("cumulative_product_" + tag, "cumulative_product", {"axis": axis, "reverse": rev},
                [s * 0.7], np.flip(cp, axis) if rev else cp)
    w = cvalues((4, 6), d)
    pads = [(1, 0), (0, 2)]
    add("window_sum_" + d, "window_sum", {"dims": [2, 3], "strides": [1, 2], "padding": pads}, [w],
        window(w, [2, 3], [1, 2], pads, np.sum, 0))
    add("window_product_" + d, "window_product",
        {"dims": [2, 3], "strides": [1, 2], "padding": pads}, [w],
        window(w, [2, 3], [1, 2], pads, np.prod, 1))

    # dot: matrix product, batched with contracting axes in odd places, mixed with real.
    m1 = cvalues((5, 7), d)
    m2 = cvalues((7, 3), d)
    add("dot_matmul_" + d, "dot", {"contract_a": [1], "batch_a": [], "contract_b": [0],
                                   "batch_b": []}, [m1, m2], m1 @ m2)
    ba = cvalues((2, 4, 3, 5), d)  # batch 0, contract 1 and 3
    bb = cvalues((4, 2, 5, 6), d)  # batch 1, contract 0 and 2
    add("dot_batched_" + d, "dot", {"contract_a": [1, 3], "batch_a": [0], "contract_b": [0, 2],
                                    "batch_b": [1]}, [ba, bb],
        np.einsum("bkim,kbmj->bij", ba, bb))
    real = rng.uniform(-2, 2, size=(7, 3)).astype(np.float64 if d == "c128" else np.float32)
    add("dot_mixed_real_" + d, "dot", {"contract_a": [1], "batch_a": [], "contract_b": [0],
                                       "batch_b": []}, [m1, real], (m1 @ real).astype(CT[d]))

    # conv, NCHW, with padding, stride and feature groups.
    x = cvalues((2, 4, 5, 6), d)
    k = cvalues((6, 2, 3, 3), d)
    add("conv_" + d, "conv", {"strides": [1, 2], "padding": [[1, 1], [1, 1]], "groups": 2}, [x, k],
        conv_nchw(x, k, 1, 1, 2)[:, :, :, ::2])

    # Linear algebra with unique answers.
    n = 4
    sq = (cvalues((2, n, n), d) + 4 * np.eye(n)).astype(CT[d])
    add("determinant_" + d, "determinant", {}, [sq], np.linalg.det(sq).astype(CT[d]))
    rhs = cvalues((2, n, 3), d)
    add("solve_" + d, "solve", {}, [sq, rhs], np.linalg.solve(sq, rhs).astype(CT[d]))
    lower = np.tril(sq)
    add("triangular_solve_lower_" + d, "triangular_solve",
        {"left_side": True, "lower": True, "transform": "none"}, [lower, rhs],
        np.linalg.solve(lower, rhs).astype(CT[d]))
    upper = np.triu(sq)
    # conjugate_transpose of the upper triangle: solve (Uᴴ) x = b.
    uh = np.conj(np.swapaxes(upper, -1, -2))
    add("triangular_solve_upper_conj_" + d, "triangular_solve",
        {"left_side": True, "lower": False, "transform": "conjugate_transpose"}, [upper, rhs],
        np.linalg.solve(uh, rhs).astype(CT[d]))
    ut = np.swapaxes(upper, -1, -2)
    rrhs = cvalues((2, 3, n), d)
    # right side, transpose: x (Uᵀ) = b, so x = b (Uᵀ)⁻¹.
    add("triangular_solve_right_transpose_" + d, "triangular_solve",
        {"left_side": False, "lower": False, "transform": "transpose"}, [upper, rrhs],
        (rrhs @ np.linalg.inv(ut)).astype(CT[d]))

write("complex_data", cases)
