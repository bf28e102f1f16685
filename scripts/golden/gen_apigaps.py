"""Golden cases for all_close (np.allclose), reduce / window_reduce with a caller's function
(np.sum / np.maximum.reduce over NumPy windows of an array padded with acc) and
window_scatter_max/min (a direct loop over NumPy windows: NumPy has no such op).

Run with Debian's NumPy: /usr/bin/python3 scripts/golden/gen_apigaps.py
Writes tests/golden/data/apigaps.json (read by tests/golden/apigaps_golden_test.cpp).
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from golden_io import tensor, write

rng = np.random.default_rng(20261201)
cases = []


def ints(shape, dtype, lo=-9, hi=9):
    return rng.integers(lo, hi, size=shape).astype(dtype)


# ---- all_close: |a - b| <= atol + rtol * |b|, infinities equal only to themselves ----
def add_close(name, a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    expected = np.uint8(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
    cases.append({"name": name, "op": "all_close",
                  "params": {"rtol": rtol, "atol": atol, "equal_nan": equal_nan},
                  "inputs": [tensor(a), tensor(b)], "expected": tensor(expected)})


for dt in (np.float32, np.float64):
    dn = np.dtype(dt).name
    a = rng.uniform(-4, 4, size=(3, 5)).astype(dt)
    add_close("close_%s_equal" % dn, a, a.copy())
    add_close("close_%s_within_rtol" % dn, a, (a * (1 + 3e-6)).astype(dt))
    add_close("close_%s_outside_rtol" % dn, a, (a * (1 + 1e-3)).astype(dt))
    add_close("close_%s_loose_atol" % dn, a, (a + 0.05).astype(dt), atol=0.1)
    add_close("close_%s_broadcast" % dn, a, a[1:2, :].copy())
    inf = np.array([1.0, np.inf, -np.inf], dtype=dt)
    add_close("close_%s_inf_same" % dn, inf, inf.copy())
    add_close("close_%s_inf_sign" % dn, inf, np.array([1.0, np.inf, np.inf], dtype=dt))
    add_close("close_%s_big_vs_inf" % dn, np.array([1e30], dtype=dt), np.array([np.inf], dtype=dt))
    nan = np.array([1.0, np.nan], dtype=dt)
    add_close("close_%s_nan" % dn, nan, nan.copy())
    add_close("close_%s_nan_equal" % dn, nan, nan.copy(), equal_nan=True)
for dt in (np.int32, np.uint8, np.int64):
    dn = np.dtype(dt).name
    a = ints((4, 3), dt, 0, 50)
    add_close("close_%s_equal" % dn, a, a.copy())
    b = a.copy()
    b[1, 1] += 1
    add_close("close_%s_off_by_one" % dn, a, b)
    add_close("close_%s_atol" % dn, a, b, atol=1.0)


# ---- reduce with a function: acc + sum, and max with acc as the start ----
def add_reduce(name, fn, a, acc, axes, keep=False):
    ax = tuple(axes) if axes else None
    if fn == "add":
        out = np.sum(a, axis=ax, keepdims=keep, dtype=a.dtype) + a.dtype.type(acc)
    else:
        out = np.maximum.reduce(a, axis=ax, keepdims=keep, initial=a.dtype.type(acc))
    cases.append({"name": name, "op": "reduce",
                  "params": {"fn": fn, "acc": acc, "axes": list(axes), "keep_axes": keep},
                  "inputs": [tensor(a)], "expected": tensor(np.asarray(out, dtype=a.dtype))})


for dt in (np.int32, np.int64, np.float64):
    dn = np.dtype(dt).name
    a = ints((2, 3, 4), dt)
    add_reduce("reduce_add_%s_all" % dn, "add", a, 10, [])
    add_reduce("reduce_add_%s_ax1" % dn, "add", a, 10, [1])
    add_reduce("reduce_add_%s_ax0_2_keep" % dn, "add", a, -3, [0, 2], True)
    add_reduce("reduce_max_%s_ax2" % dn, "max", a, -100, [2])
    add_reduce("reduce_max_%s_acc_wins" % dn, "max", a, 5, [0, 1])
    add_reduce("reduce_add_%s_empty" % dn, "add", ints((0, 3), dt), 7, [0])


# ---- window_reduce: windows of the array padded with acc ----
def add_window_reduce(name, fn, a, acc, window, strides, padding, dilations):
    p = np.pad(a, padding, constant_values=acc)
    spans = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    v = sliding_window_view(p, spans)
    v = v[tuple(slice(None, None, s) for s in strides)]
    v = v[(Ellipsis,) + tuple(slice(None, None, d) for d in dilations)]
    axes = tuple(range(a.ndim, 2 * a.ndim))
    if fn == "add":
        out = np.sum(v, axis=axes, dtype=a.dtype) + a.dtype.type(acc)
    else:
        out = np.maximum.reduce(v, axis=axes, initial=a.dtype.type(acc))
    cases.append({"name": name, "op": "window_reduce",
                  "params": {"fn": fn, "acc": acc, "window": list(window),
                             "strides": list(strides), "padding": [list(q) for q in padding],
                             "dilations": list(dilations)},
                  "inputs": [tensor(a)], "expected": tensor(np.asarray(out, dtype=a.dtype))})


for dt in (np.int32, np.float32):
    dn = np.dtype(dt).name
    a = ints((5, 6), dt)
    add_window_reduce("wreduce_add_%s_valid" % dn, "add", a, 0, [2, 3], [1, 1], [(0, 0)] * 2,
                      [1, 1])
    add_window_reduce("wreduce_add_%s_pad_acc" % dn, "add", a, 2, [3, 2], [2, 3],
                      [(1, 2), (2, 1)], [1, 1])
    add_window_reduce("wreduce_max_%s_dilated" % dn, "max", a, -5, [2, 2], [1, 2],
                      [(1, 0), (2, 2)], [2, 2])
    add_window_reduce("wreduce_max_%s_pad_wins" % dn, "max", a, 100, [2, 2], [1, 1],
                      [(1, 1), (0, 0)], [1, 1])


# ---- window_scatter_max/min: per window the last extreme position (>= / <=), padding
# never chosen, source values summed onto init_value ----
def scatter_ref(op, t, source, init, window, strides, padding):
    out = np.full(t.shape, init, dtype=source.dtype)
    for w in itertools.product(*[range(n) for n in source.shape]):
        best, best_at = None, None
        for k in itertools.product(*[range(n) for n in window]):
            pos = tuple(w[i] * strides[i] - padding[i][0] + k[i] for i in range(t.ndim))
            if any(p < 0 or p >= t.shape[i] for i, p in enumerate(pos)):
                continue
            x = t[pos]
            if best_at is None or (x >= best if op == "window_scatter_max" else x <= best):
                best, best_at = x, pos
        if best_at is not None:
            out[best_at] = out[best_at] + source[w]
    return out


def add_scatter(name, op, t, source_dtype, init, window, strides, padding, source=None):
    padded = [n + lo + hi for n, (lo, hi) in zip(t.shape, padding)]
    windows = [(p - w) // s + 1 for p, w, s in zip(padded, window, strides)]
    if source is None:
        source = ints(windows, source_dtype, 1, 9)
    out = scatter_ref(op, t, source, source.dtype.type(init), window, strides, padding)
    cases.append({"name": name, "op": op,
                  "params": {"init": init, "window": list(window), "strides": list(strides),
                             "padding": [list(q) for q in padding]},
                  "inputs": [tensor(t), tensor(source)], "expected": tensor(out)})


for op in ("window_scatter_max", "window_scatter_min"):
    short = op[len("window_scatter_"):]
    # Nx's doc examples, with their source (ties in the second).
    doc_source = np.array([[2, 6], [3, 1]], dtype=np.int32)
    nx1 = np.array([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1],
                    [0, 6, 2, 7, 2, 8]], dtype=np.int32)
    add_scatter("scatter_%s_nx_doc1" % short, op, nx1, np.int32, 0, [2, 3], [2, 3], [(0, 0)] * 2,
                doc_source)
    nx2 = np.array([[7, 2, 5, 3, 8], [3, 8, 9, 3, 4], [1, 5, 7, 5, 6], [0, 6, 2, 10, 2]],
                   dtype=np.int32)
    add_scatter("scatter_%s_nx_doc2" % short, op, nx2, np.int32, 0, [2, 3], [2, 2], [(0, 0)] * 2,
                doc_source)
    for dt in (np.int32, np.float32, np.float64, np.uint8):
        dn = np.dtype(dt).name
        t = ints((5, 6), dt, 0, 4)  # few values: many ties
        add_scatter("scatter_%s_%s_overlap" % (short, dn), op, t, dt, 1, [2, 2], [1, 1],
                    [(0, 0)] * 2)
        add_scatter("scatter_%s_%s_padded" % (short, dn), op, t, dt, 0, [3, 3], [2, 2],
                    [(1, 1), (2, 0)])
        add_scatter("scatter_%s_%s_rank3" % (short, dn), op, ints((3, 4, 4), dt, 0, 5), dt, 0,
                    [1, 2, 3], [1, 2, 1], [(0, 0), (0, 1), (1, 1)])
    add_scatter("scatter_%s_pad_only_windows" % short, op, ints((2, 3), np.int32), np.int32, -1,
                [1, 2], [1, 1], [(2, 0), (0, 0)])

write("apigaps", cases)
