"""Golden cases for reductions, arg-reductions, windows and cumulative scans.

Run with Debian's NumPy: /usr/bin/python3 scripts/golden/gen_reduce.py
Writes tests/golden/data/reduce.json (read by tests/golden/reduce_golden_test.cpp).
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from golden_io import tensor, write

rng = np.random.default_rng(20261129)
cases = []

INT_ACC = {True: np.int64, False: np.uint64}


def data(shape, dtype, special=False):
    """Small values (negative where signed); floats optionally with NaN/Inf."""
    dt = np.dtype(dtype)
    if dt.kind == "u":
        a = rng.integers(0, 9, size=shape)
    elif dt.kind == "i":
        a = rng.integers(-9, 9, size=shape)
    else:
        a = np.round(rng.uniform(-4, 4, size=shape), 2)
    a = a.astype(dtype)
    if special and dt.kind == "f" and a.size >= 4:
        flat = a.reshape(-1)
        flat[a.size // 3] = np.nan
        flat[a.size // 2] = np.inf
        flat[-1] = -np.inf
    return a


def identity(op, dtype):
    dt = np.dtype(dtype)
    if op == "reduce_max":
        return -np.inf if dt.kind == "f" else np.iinfo(dt).min
    if op == "reduce_min":
        return np.inf if dt.kind == "f" else np.iinfo(dt).max
    return None


def reduce_np(op, a, axes, keep):
    ax = tuple(axes) if axes else None
    if op == "sum" or op == "product":
        f = np.sum if op == "sum" else np.prod
        if a.dtype.kind in "iu":
            return f(a, axis=ax, keepdims=keep, dtype=INT_ACC[a.dtype.kind == "i"])
        if a.dtype == np.float16:  # accumulated in f32, rounded once
            return f(a.astype(np.float32), axis=ax, keepdims=keep).astype(np.float16)
        return f(a, axis=ax, keepdims=keep)
    if op == "reduce_max":
        return np.max(a, axis=ax, keepdims=keep, initial=identity(op, a.dtype))
    if op == "reduce_min":
        return np.min(a, axis=ax, keepdims=keep, initial=identity(op, a.dtype))
    if op == "all":
        return np.all(a, axis=ax, keepdims=keep).astype(np.uint8)
    if op == "any":
        return np.any(a, axis=ax, keepdims=keep).astype(np.uint8)
    raise ValueError(op)


def add_reduce(name, op, a, axes, keep=False):
    out = np.asarray(reduce_np(op, a, axes, keep))
    cases.append({"name": name, "op": op, "params": {"axes": list(axes), "keep_axes": keep},
                  "inputs": [tensor(a)], "expected": tensor(out)})


REDUCE_OPS = ["sum", "product", "reduce_max", "reduce_min", "all", "any"]
DTYPES = [np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64]

for dtype in DTYPES:
    dn = np.dtype(dtype).name
    a4 = data((2, 3, 4, 5), dtype, special=False)
    s4 = data((2, 3, 4, 5), dtype, special=True)
    for op in REDUCE_OPS:
        src = a4 if op == "product" else s4  # products of 120 values: keep them finite
        if op == "product" and np.dtype(dtype).kind == "f":
            src = (np.abs(a4) % 1 + 0.5).astype(dtype)
        add_reduce("%s_%s_all" % (op, dn), op, src, [])
        add_reduce("%s_%s_ax1_3_keep" % (op, dn), op, src, [1, 3], True)
        add_reduce("%s_%s_ax0_2" % (op, dn), op, src, [0, 2])
        add_reduce("%s_%s_axlast" % (op, dn), op, src, [-1])
        add_reduce("%s_%s_ax0" % (op, dn), op, src, [0], True)
        add_reduce("%s_%s_rank0" % (op, dn), op, np.asarray(src.reshape(-1)[0]), [])
        add_reduce("%s_%s_empty_axis" % (op, dn), op, data((0, 3), dtype), [0])
        add_reduce("%s_%s_empty_out" % (op, dn), op, data((0, 3), dtype), [1], True)
        add_reduce("%s_%s_size1" % (op, dn), op, data((1, 1, 3), dtype), [0, 1])
# Integer wrap-around in the widened accumulators.
add_reduce("sum_s64_wraps", "sum", np.array([2**62, 2**62, 2**62], dtype=np.int64), [])
add_reduce("product_u8_widens", "product", np.array([200, 200, 3], dtype=np.uint8), [])


def arg_np(op, a, axis, keep, tie):
    f = np.argmax if op == "argmax" else np.argmin
    if tie == "low":
        r = f(a, axis=axis, keepdims=keep)
    else:  # the last extreme: search the reversed tensor, map the index back
        if axis is None:
            r = a.size - 1 - f(a.reshape(-1)[::-1])
            if keep:
                r = np.asarray(r).reshape((1,) * a.ndim)
        else:
            r = a.shape[axis] - 1 - f(np.flip(a, axis), axis=axis, keepdims=keep)
    return np.asarray(r, dtype=np.int64)


def add_arg(name, op, a, axis, keep=False, tie="low"):
    cases.append({"name": name, "op": op,
                  "params": {"axis": axis, "keep_axis": keep, "tie_break": tie},
                  "inputs": [tensor(a)], "expected": tensor(arg_np(op, a, axis, keep, tie))})


for dtype in DTYPES:
    dn = np.dtype(dtype).name
    a = data((3, 4, 5), dtype)
    a.reshape(-1)[::7] = a.reshape(-1)[0]  # ties
    s = data((3, 4, 5), dtype, special=True)
    for op in ["argmax", "argmin"]:
        for tie in ["low", "high"]:
            add_arg("%s_%s_flat_%s" % (op, dn, tie), op, a, None, False, tie)
            add_arg("%s_%s_flat_keep_%s" % (op, dn, tie), op, a, None, True, tie)
            add_arg("%s_%s_ax1_%s" % (op, dn, tie), op, a, 1, False, tie)
            add_arg("%s_%s_ax2_keep_%s" % (op, dn, tie), op, a, 2, True, tie)
            add_arg("%s_%s_ax0_special_%s" % (op, dn, tie), op, s, 0, False, tie)
            add_arg("%s_%s_rank0_%s" % (op, dn, tie), op, np.asarray(a.reshape(-1)[3]), None,
                    False, tie)
            add_arg("%s_%s_rank4_%s" % (op, dn, tie), op, data((2, 3, 2, 3), dtype), -2,
                    False, tie)
    # NaN twice: the first (low) or last (high) NaN wins.
    if np.dtype(dtype).kind == "f":
        n = np.array([1, np.nan, 7, np.nan, -2], dtype=dtype)
        for op in ["argmax", "argmin"]:
            add_arg("%s_%s_nan_low" % (op, dn), op, n, None, False, "low")
            add_arg("%s_%s_nan_high" % (op, dn), op, n, None, False, "high")


WINDOW_OPS = {"window_sum": (np.sum, 0), "window_product": (np.prod, 1),
              "window_max": (np.max, "lo"), "window_min": (np.min, "hi")}


def window_np(op, a, window, strides, padding, dilations):
    f, ident = WINDOW_OPS[op]
    kind = a.dtype.kind
    if ident == "lo":
        ident = -np.inf if kind == "f" else np.iinfo(a.dtype).min
    elif ident == "hi":
        ident = np.inf if kind == "f" else np.iinfo(a.dtype).max
    p = np.pad(a, padding, constant_values=ident)
    spans = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    shape_out = [0 if p.shape[i] < spans[i] else (p.shape[i] - spans[i]) // strides[i] + 1
                 for i in range(a.ndim)]
    if 0 in shape_out:
        return np.zeros(shape_out, dtype=a.dtype)
    v = sliding_window_view(p, spans)
    idx = tuple(slice(None, None, s) for s in strides) + tuple(
        slice(None, None, d) for d in dilations)
    v = v[idx]
    axes = tuple(range(a.ndim, 2 * a.ndim))
    if kind in "iu":
        acc = np.int64 if kind == "i" else np.uint64
        return f(v, axis=axes, dtype=acc).astype(a.dtype) if f is not np.max and f is not np.min \
            else f(v, axis=axes)
    if a.dtype == np.float16:
        return f(v.astype(np.float32), axis=axes).astype(np.float16)
    return f(v, axis=axes)


def add_window(name, op, a, window, strides=None, padding=None, dilations=None):
    r = a.ndim
    strides = strides or [1] * r
    padding = padding or [(0, 0)] * r
    dilations = dilations or [1] * r
    out = np.asarray(window_np(op, a, window, strides, padding, dilations))
    cases.append({"name": name, "op": op,
                  "params": {"window": list(window), "strides": list(strides),
                             "padding": [list(p) for p in padding],
                             "dilations": list(dilations)},
                  "inputs": [tensor(a)], "expected": tensor(out)})


for dtype in DTYPES:
    dn = np.dtype(dtype).name
    for op in WINDOW_OPS:
        a = data((6, 7), dtype, special=(op != "window_product"))
        if op == "window_product":
            a = (np.abs(data((6, 7), dtype)) % 3 + 1).astype(dtype)
        add_window("%s_%s_valid" % (op, dn), op, a, [2, 3])
        add_window("%s_%s_strided_padded" % (op, dn), op, a, [3, 2], [2, 3], [(1, 2), (0, 1)])
        add_window("%s_%s_dilated" % (op, dn), op, a, [2, 2], [1, 2], [(1, 0), (2, 2)], [3, 2])
        add_window("%s_%s_rank4" % (op, dn), op,
                   (np.abs(data((2, 3, 4, 3), dtype)) % 2 + 1).astype(dtype) if
                   op == "window_product" else data((2, 3, 4, 3), dtype),
                   [1, 2, 2, 2], [1, 1, 2, 1], [(0, 0), (1, 0), (0, 1), (1, 1)], [1, 2, 1, 1])
        add_window("%s_%s_rank1_pad_only" % (op, dn), op, data((3,), dtype) if
                   op != "window_product" else np.ones(3, dtype=dtype), [1], [1], [(2, 1)])
        add_window("%s_%s_too_big" % (op, dn), op, data((2, 2), dtype), [3, 1])
        add_window("%s_%s_zero_dim" % (op, dn), op, data((0, 3), dtype), [1, 2], None,
                   [(1, 0), (0, 0)])


CUM = {"cumulative_sum": np.add, "cumulative_product": np.multiply,
       "cumulative_max": np.maximum, "cumulative_min": np.minimum}


def cum_np(op, a, axis, reverse):
    x = np.flip(a, axis) if reverse else a
    if a.dtype == np.float16:  # accumulated in f32, each output rounded once
        y = CUM[op].accumulate(x.astype(np.float32), axis=axis).astype(np.float16)
    else:
        y = CUM[op].accumulate(x, axis=axis, dtype=a.dtype)
    return np.flip(y, axis) if reverse else y


def add_cum(name, op, a, axis, reverse):
    cases.append({"name": name, "op": op, "params": {"axis": axis, "reverse": reverse},
                  "inputs": [tensor(a)], "expected": tensor(cum_np(op, a, axis, reverse))})


for dtype in DTYPES:
    dn = np.dtype(dtype).name
    for op in CUM:
        a = data((2, 3, 4, 2), dtype, special=(op != "cumulative_product"))
        if op == "cumulative_product":
            a = (np.abs(a) % 3 + 1).astype(dtype)
            a.reshape(-1)[::5] = -1 if np.dtype(dtype).kind != "u" else 1
        for axis in [0, 2, -1]:
            for reverse in [False, True]:
                add_cum("%s_%s_ax%d_%s" % (op, dn, axis, "rev" if reverse else "fwd"), op, a,
                        axis, reverse)
        add_cum("%s_%s_zero_size" % (op, dn), op, data((2, 0), dtype), 1, False)
        add_cum("%s_%s_size1" % (op, dn), op, data((1,), dtype), 0, True)
add_cum("cumulative_sum_u8_wraps", "cumulative_sum", np.array([200, 100, 5], np.uint8), 0, False)

write("reduce", cases)
