"""Golden cases for conv (Nx.conv semantics): tests/golden/data/conv.json.

The reference is a direct convolution written from Nx's definition, not an im2col: the input
is dilated (zeros between elements) and padded (negative pads crop), the kernel dilated, and
every output element is the sum of one window times one filter, in float64. Feature groups
split input channels and filters; batch groups split the input batch (group g reads images
n + g * N / groups) and filters. Layout permutations are applied by np.transpose as Nx does.
Inputs are multiples of 1/4 so f32/f64 results are exact. Run with Debian's /usr/bin/python3.
"""
import itertools

import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(20261201)
cases = []
FLOAT = {"f16": np.float16, "bf16": np.float32, "f32": np.float32, "f64": np.float64}


def values(shape, dtype):
    v = rng.integers(-8, 9, size=shape).astype(np.float64) / 4.0
    if dtype not in FLOAT:
        v = np.round(v)
    if dtype.startswith("u"):
        v = np.abs(v)
    return v


def dilate(x, dil):
    """Zeros between the elements of every spatial axis (axes 2..)."""
    shape = list(x.shape[:2]) + [(d - 1) * s + 1 if d > 0 else 0
                                 for d, s in zip(x.shape[2:], dil)]
    out = np.zeros(shape)
    out[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in dil)] = x
    return out


def pad(x, padding):
    for axis, (lo, hi) in enumerate(padding, start=2):
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        x = np.pad(x, widths)
        n = x.shape[axis]
        index = [slice(None)] * x.ndim
        index[axis] = slice(max(-lo, 0), n - max(-hi, 0))
        x = x[tuple(index)]
    return x


def conv_ref(x, k, strides, padding, idil, kdil, fg, bg):
    n, c = x.shape[:2]
    o = k.shape[0]
    xp = pad(dilate(x, idil), padding)
    kd = dilate(k, kdil)
    span = kd.shape[2:]
    out_sp = [(p - s) // st + 1 for p, s, st in zip(xp.shape[2:], span, strides)]
    groups = fg * bg
    og, cg, no = o // groups, c // fg, n // bg
    out = np.zeros([no, o] + out_sp)
    for oc in range(o):
        g = oc // og
        chans = slice(g * cg, (g + 1) * cg) if fg > 1 else slice(0, c)
        for b in range(no):
            image = b + g * no if bg > 1 else b
            for pos in itertools.product(*[range(d) for d in out_sp]):
                window = tuple(slice(i * st, i * st + s) for i, st, s in zip(pos, strides, span))
                out[(b, oc) + pos] = np.sum(xp[(image, chans) + window] * kd[oc])
    return out


def cast(r, dtype):
    return r.astype(FLOAT.get(dtype, np.float32))


def promote(a, b):
    """Nx: a float wins over integers; f16 with bf16 gives f32; integers alone give f32."""
    floats = [d for d in (a, b) if d in FLOAT]
    if not floats:
        return "f32"
    if set(floats) == {"f16", "bf16"}:
        return "f32"
    return max(floats, key=lambda d: np.dtype(FLOAT[d]).itemsize)


def add(name, dtype, in_shape, k_shape, strides=None, padding=None, idil=None, kdil=None, fg=1,
        bg=1, mode=None, in_perm=None, k_perm=None, out_perm=None, k_dtype=None):
    sp = len(in_shape) - 2
    k_dtype = k_dtype or dtype
    x = values(in_shape, dtype)
    k = values(k_shape, k_dtype)
    # The layouts the caller passes: the default layout transposed by the inverse of each
    # permutation, so that transposing by the permutation gives it back.
    x_caller = np.transpose(x, np.argsort(in_perm)) if in_perm else x
    k_caller = np.transpose(k, np.argsort(k_perm)) if k_perm else k
    st = strides or [1] * sp
    idl = idil or [1] * sp
    kdl = kdil or [1] * sp
    if mode == "same":
        pads = []
        for size, d in zip(k_shape[2:], kdl):
            total = max((size - 1) * d, 0)
            pads.append((total // 2, total - total // 2))
    else:
        pads = padding or [(0, 0)] * sp
    r = conv_ref(x, k, st, pads, idl, kdl, fg, bg)
    if out_perm:  # the default layout's axis i goes to axis out_perm[i]
        r = np.transpose(r, np.argsort(out_perm))
    out_dtype = promote(dtype, k_dtype)
    params = {"strides": strides or [], "padding": [list(p) for p in (padding or [])],
              "input_dilation": idil or [], "kernel_dilation": kdil or [],
              "feature_group_size": fg, "batch_group_size": bg, "mode": mode or "config",
              "input_permutation": in_perm or [], "kernel_permutation": k_perm or [],
              "output_permutation": out_perm or []}
    np_in = {"s32": np.int32, "u8": np.uint8}.get(dtype, FLOAT.get(dtype))
    np_k = {"s32": np.int32, "u8": np.uint8}.get(k_dtype, FLOAT.get(k_dtype))
    cases.append({"name": name, "op": "conv", "params": params,
                  "inputs": [tensor(x_caller.astype(np_in), dtype),
                             tensor(k_caller.astype(np_k), k_dtype)],
                  "expected": tensor(cast(r, out_dtype), out_dtype)})


for dt in ("f32", "f64", "f16", "bf16"):
    add("conv1d_%s_valid" % dt, dt, (2, 3, 7), (4, 3, 3))
    add("conv2d_%s_stride2_asym_pad" % dt, dt, (2, 3, 6, 5), (4, 3, 3, 2), strides=[2, 1],
        padding=[(1, 1), (0, 2)])
    add("conv2d_%s_dilations" % dt, dt, (1, 2, 5, 4), (3, 2, 2, 3), idil=[2, 1],
        kdil=[1, 2], padding=[(1, 0), (2, 1)])
add("conv2d_f32_same", "f32", (2, 3, 5, 6), (2, 3, 3, 4), mode="same")
add("conv2d_f32_same_dilated_stride", "f32", (1, 2, 7, 7), (2, 2, 3, 3), mode="same",
    kdil=[2, 2], strides=[2, 3])
add("conv2d_f32_feature_groups", "f32", (2, 4, 5, 5), (6, 2, 3, 3), fg=2, padding=[(1, 1), (1, 1)])
add("conv2d_f32_depthwise", "f32", (1, 3, 4, 4), (3, 1, 3, 3), fg=3, padding=[(1, 1), (1, 1)])
add("conv2d_f64_batch_groups", "f64", (4, 3, 5, 5), (4, 3, 2, 2), bg=2)
add("conv1d_f32_batch_groups_4", "f32", (4, 2, 6), (8, 2, 3), bg=4, strides=[2])
add("conv2d_f32_negative_pad", "f32", (1, 2, 6, 6), (2, 2, 2, 2), padding=[(-1, 0), (1, -2)])
add("conv3d_f32_same", "f32", (1, 2, 4, 5, 3), (2, 2, 2, 3, 2), mode="same")
add("conv3d_f64_strides_dilation", "f64", (2, 1, 5, 4, 6), (3, 1, 2, 2, 3), strides=[2, 1, 2],
    kdil=[1, 2, 1], idil=[1, 1, 2])
add("conv4d_f32", "f32", (1, 2, 3, 3, 3, 3), (2, 2, 2, 1, 2, 2), padding=[(0, 1)] * 4)
add("conv2d_s32_promotes_to_f32", "s32", (1, 2, 4, 4), (2, 2, 3, 3))
add("conv2d_u8_input_f16_kernel", "u8", (1, 1, 4, 4), (2, 1, 2, 2), k_dtype="f16")
add("conv2d_f32_pointwise", "f32", (2, 5, 3, 4), (3, 5, 1, 1))
add("conv2d_f32_nhwc_layouts", "f32", (2, 3, 5, 4), (4, 3, 3, 2), in_perm=[0, 3, 1, 2],
    k_perm=[3, 2, 0, 1], out_perm=[0, 3, 1, 2], padding=[(1, 1), (0, 1)])
add("conv2d_f32_odd_sizes", "f32", (3, 7, 9, 11), (5, 7, 3, 5), strides=[2, 3],
    padding=[(2, 1), (0, 3)])
write("conv", cases)
