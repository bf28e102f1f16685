"""Golden cases for the decompositions and solvers: tests/golden/data/linalg.json.

Expected values come from numpy.linalg in float64 on the input values rounded to the case's
dtype, then rounded to that dtype (f16/bf16 and integer inputs as vktensor computes them: in
f32). Only results that are unique are compared element by element: cholesky's L, solve and
triangular_solve's x, determinant, eigenvalues, singular values, |R| of qr (row signs are
LAPACK's choice), and p/l/u of lu (partial pivoting, first largest pivot, computed here by a
plain loop as an independent reference; NumPy has no lu). tests/golden/linalg_golden_test.cpp
checks the other parts by reconstruction (Q·R = A, U·S·Vᵀ = A, V·W·Vᵀ = A, P·L·U = A) with
tolerances scaled by each case's condition number, carried in params.cond.
Run with Debian's /usr/bin/python3 (it has numpy).
"""
import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(20261201)
cases = []
FLOATS = ("f32", "f64")
WIDENED = ("f16", "bf16", "s32")  # computed in f32 by vktensor


def np_type(name):
    return {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": np.float32,
            "s32": np.int32}[name]


def to_bf16(x):
    """Round-to-nearest-even to bf16, kept in float32."""
    f = np.asarray(x, np.float32)
    b = np.atleast_1d(f).view(np.uint32).astype(np.uint64)
    b = ((b + np.uint64(0x7FFF) + ((b >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)) \
        << np.uint64(16)
    return b.astype(np.uint32).view(np.float32).reshape(f.shape)


def as_dtype(x, name):
    """x rounded to the dtype, as the float64 values vktensor will see."""
    if name == "bf16":
        return to_bf16(x).astype(np.float64)
    if name == "s32":
        return np.round(x).astype(np.int32).astype(np.float64)
    return np.asarray(x).astype(np_type(name)).astype(np.float64)


def result_dtype(name):
    return "f32" if name == "s32" else name


def out(x, name):
    r = result_dtype(name)
    if r == "bf16":
        return tensor(to_bf16(x), r)
    return tensor(np.asarray(x, np.float64).astype(np_type(r)), r)


def inp(x, name):
    v = as_dtype(x, name)
    if name == "bf16":
        return tensor(v.astype(np.float32), "bf16")
    return tensor(v.astype(np_type(name)), name)


def cond(a):
    if a.shape[-1] == 0 or a.shape[-2] == 0:
        return 1.0
    return float(np.max(np.linalg.cond(a)))


def add(name, op, params, inputs, expected, a):
    p = dict(params)
    p["cond"] = cond(a)
    cases.append({"name": name, "op": op, "params": p, "inputs": inputs, "expected": expected})


def spd(shape):
    n = shape[-1]
    m = rng.uniform(-1, 1, size=shape)
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def general(shape, scale=1.0):
    """Random, diagonally weighted so solves are well conditioned."""
    n = shape[-1]
    a = rng.uniform(-1, 1, size=shape) * scale
    if len(shape) > 1 and shape[-1] == shape[-2]:
        a = a + 2 * np.eye(n) * scale
    return a


def integral(shape):
    n = shape[-1]
    a = rng.integers(-3, 4, size=shape).astype(np.float64)
    if len(shape) > 1:
        a = a + 6 * np.eye(shape[-2], n)
    return a


def matrix_for(dtype, shape, kind):
    if dtype == "s32":
        return integral(shape) if kind != "spd" else np.round(spd(shape))
    return spd(shape) if kind == "spd" else general(shape)


# ---- cholesky ----
for dtype in FLOATS + WIDENED:
    shapes = [(1, 1), (3, 3), (6, 6), (2, 3, 4, 4)] if dtype in FLOATS else [(4, 4)]
    for shape in shapes:
        a = as_dtype(matrix_for(dtype, shape, "spd"), dtype)
        # only the lower triangle is read: garbage above it must not matter
        noisy = np.tril(a) + np.triu(rng.uniform(-9, 9, size=shape), 1)
        if dtype == "s32":
            noisy = np.tril(a) + np.triu(np.round(rng.uniform(-9, 9, size=shape)), 1)
        add("cholesky_%s_%s" % (dtype, "x".join(map(str, shape))), "cholesky", {},
            [inp(noisy, dtype)], out(np.linalg.cholesky(a), dtype), a)

# ---- triangular_solve: every side / triangle / transform ----
def tri_ref(a, b, left, lower, transform, vector):
    t = np.tril(a) if lower else np.triu(a)
    if transform != "none":
        t = np.swapaxes(t, -1, -2)
    if left:
        return np.linalg.solve(t, b[..., None])[..., 0] if vector else np.linalg.solve(t, b)
    # x t = b  <=>  tᵀ xᵀ = bᵀ
    tt = np.swapaxes(t, -1, -2)
    if vector:
        return np.linalg.solve(tt, b[..., None])[..., 0]
    return np.swapaxes(np.linalg.solve(tt, np.swapaxes(b, -1, -2)), -1, -2)


for dtype in FLOATS + WIDENED:
    combos = [(l, lo, t) for l in (True, False) for lo in (True, False)
              for t in ("none", "transpose", "conjugate_transpose")]
    if dtype not in FLOATS:
        combos = [(True, True, "none"), (False, False, "transpose")]
    for left, lower, transform in combos:
        for batch, n, k, vector in ((), 4, 3, False), ((), 5, 0, True), ((2, 3), 3, 2, False):
            a = matrix_for(dtype, batch + (n, n), "general")
            a = as_dtype(a + 2 * np.sign(np.diagonal(a, axis1=-2, axis2=-1))[..., None] *
                         np.eye(n), dtype)
            bshape = batch + ((n,) if vector else ((n, k) if left else (k, n)))
            b = as_dtype(integral(bshape) if dtype == "s32" else general(bshape), dtype)
            x = tri_ref(a, b, left, lower, transform, vector)
            t = np.tril(a) if lower else np.triu(a)
            name = "triangular_solve_%s_%s_%s_%s_%s" % (
                dtype, "left" if left else "right", "lower" if lower else "upper", transform,
                "x".join(map(str, bshape)))
            add(name, "triangular_solve",
                {"left_side": left, "lower": lower, "transform_a": transform},
                [inp(a, dtype), inp(b, dtype)], out(x, dtype), t)

# ---- solve ----
for dtype in FLOATS + WIDENED:
    for ashape, bshape in (((3, 3), (3,)), ((4, 4), (4, 2)), ((2, 5, 5), (2, 5)),
                           ((2, 2, 3, 3), (2, 2, 3, 4)), ((1, 1), (1, 3))):
        if dtype not in FLOATS and len(ashape) > 2:
            continue
        a = as_dtype(matrix_for(dtype, ashape, "general"), dtype)
        b = as_dtype(integral(bshape) if dtype == "s32" else general(bshape), dtype)
        x = np.linalg.solve(a, b[..., None])[..., 0] if len(bshape) == len(ashape) - 1 else \
            np.linalg.solve(a, b)
        add("solve_%s_%s_%s" % (dtype, "x".join(map(str, ashape)), "x".join(map(str, bshape))),
            "solve", {}, [inp(a, dtype), inp(b, dtype)], out(x, dtype), a)

# ---- determinant ----
for dtype in FLOATS + WIDENED:
    shapes = [(1, 1), (2, 2), (3, 3), (5, 5), (2, 3, 4, 4)] if dtype in FLOATS else [(3, 3)]
    for shape in shapes:
        a = as_dtype(matrix_for(dtype, shape, "general"), dtype)
        add("determinant_%s_%s" % (dtype, "x".join(map(str, shape))), "determinant", {},
            [inp(a, dtype)], out(np.linalg.det(a), dtype), a)
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    add("determinant_%s_singular" % dtype, "determinant", {}, [inp(singular, dtype)],
        out(np.array(0.0), dtype), np.eye(3))

# ---- qr: |R| compared, Q·R = A checked by the test ----
for dtype in FLOATS + WIDENED:
    shapes = [(4, 3), (3, 4), (3, 3), (2, 5, 3), (1, 1)] if dtype in FLOATS else [(4, 3)]
    for shape in shapes:
        for mode in ("reduced", "complete"):
            a = as_dtype(matrix_for(dtype, shape, "general"), dtype)
            r = np.linalg.qr(a, mode=mode)[1] if a.ndim == 2 else np.stack(
                [np.linalg.qr(x, mode=mode)[1] for x in a])
            add("qr_%s_%s_%s" % (dtype, "x".join(map(str, shape)), mode), "qr.r_abs",
                {"mode": mode}, [inp(a, dtype)], out(np.abs(r), dtype), a)

# ---- eigh: eigenvalues compared, V·diag(W)·Vᵀ = A checked by the test ----
for dtype in FLOATS + WIDENED:
    shapes = [(1, 1), (3, 3), (6, 6), (2, 3, 4, 4)] if dtype in FLOATS else [(4, 4)]
    for shape in shapes:
        m = matrix_for(dtype, shape, "general")
        a = as_dtype((m + np.swapaxes(m, -1, -2)) / 2, dtype)
        a = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)  # exactly symmetric after rounding
        noisy = np.tril(a) + np.triu(np.round(rng.uniform(-9, 9, size=shape)), 1)
        add("eigh_%s_%s" % (dtype, "x".join(map(str, shape))), "eigh.eigenvalues", {},
            [inp(noisy, dtype)], out(np.linalg.eigvalsh(a), dtype), a)

# ---- svd: singular values compared, U·S·Vᵀ = A checked by the test ----
for dtype in FLOATS + WIDENED:
    shapes = [(4, 3), (3, 4), (3, 3), (2, 5, 2), (1, 1)] if dtype in FLOATS else [(4, 3)]
    for shape in shapes:
        for full in (True, False):
            a = as_dtype(matrix_for(dtype, shape, "general"), dtype)
            add("svd_%s_%s_%s" % (dtype, "x".join(map(str, shape)), "full" if full else "reduced"),
                "svd.s", {"full_matrices": full}, [inp(a, dtype)],
                out(np.linalg.svd(a, compute_uv=False), dtype), a)


# ---- lu: an independent partial-pivoting reference, a = p·l·u ----
def lu_ref(a):
    n = a.shape[0]
    u = a.copy()
    l = np.eye(n)
    perm = np.arange(n)
    for j in range(n):
        piv = j + int(np.argmax(np.abs(u[j:, j])))  # the first largest, as LAPACK's i?amax
        if piv != j:
            u[[j, piv], :] = u[[piv, j], :]
            l[[j, piv], :j] = l[[piv, j], :j]
            perm[[j, piv]] = perm[[piv, j]]
        if u[j, j] != 0:
            for i in range(j + 1, n):
                l[i, j] = u[i, j] / u[j, j]
                u[i, :] -= l[i, j] * u[j, :]
    p = np.zeros((n, n))
    p[perm, np.arange(n)] = 1
    return p, l, np.triu(u)


for dtype in FLOATS + WIDENED:
    shapes = [(1, 1), (3, 3), (5, 5), (2, 4, 4)] if dtype in FLOATS else [(3, 3)]
    for shape in shapes:
        a = as_dtype(rng.uniform(-4, 4, size=shape) if dtype != "s32" else integral(shape), dtype)
        parts = [lu_ref(x) for x in a.reshape((-1,) + shape[-2:])]
        for i, part in enumerate(("p", "l", "u")):
            v = np.stack([x[i] for x in parts]).reshape(shape)
            expect = tensor(v.astype(np.int32), "s32") if part == "p" and dtype == "s32" \
                else out(v, dtype)
            add("lu_%s_%s_%s" % (dtype, "x".join(map(str, shape)), part), "lu." + part, {},
                [inp(a, dtype)], expect, a)

write("linalg", cases)
