"""Golden cases for the elementwise family (run with Debian's /usr/bin/python3).

Floats come from NumPy's functions (np.fmod for remainder: C semantics, the sign of the
dividend); erf/erfc from math.erf/math.erfc in double and erf_inv by bisection in double
(SciPy is not installed). Integer ops whose C semantics NumPy leaves undefined or raises on
(pow with negative exponents, quotient by zero, shifts by out-of-range counts) are computed
with Python integers under the rules in docs/semantics-elementwise.md.
"""
import math

import numpy as np

from golden_io import tensor, write

RNG = np.random.default_rng(20261129)
FLOATS = ["f32", "f64", "f16"]
INTS = ["s32", "u8", "s64"]
ALL = FLOATS + INTS
NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "s32": np.int32,
      "u8": np.uint8, "s64": np.int64}
SPECIAL = [np.nan, np.inf, -np.inf, -0.0]

# (shape a, shape b): rank 0, size 1, 0-size, same shape, rank 4 and 5 broadcasts, scalar.
BINARY_SHAPES = [((2, 3), (2, 3)), ((2, 1, 3, 1), (1, 2, 1, 2)), ((), ()), ((4,), ()),
                 ((0, 3), (3,)), ((1,), (1,)), ((2, 1, 2, 1, 3), (3,)), ((3, 1), (1, 4))]
UNARY_SHAPES = [(3, 4), (2, 1, 3, 2), (), (0, 2), (1,), (2, 2, 1, 2, 2)]


def numel(shape):
    return int(np.prod(shape)) if shape else 1


def float_values(dtype, shape, lo=-4.0, hi=4.0):
    n = numel(shape)
    v = RNG.uniform(lo, hi, n)
    # Specials at the front so even small shapes get NaN/Inf.
    for i, s in enumerate(SPECIAL[:n]):
        v[i] = s
    return v.astype(NP[dtype]).reshape(shape)


def int_values(dtype, shape, lo=None, hi=None):
    """Random integers; without bounds, the type's extremes come first (wrap cases)."""
    info = np.iinfo(NP[dtype])
    full_range = lo is None and hi is None
    lo = max(info.min, -1000) if lo is None else lo
    hi = min(info.max, 1000) if hi is None else hi
    v = RNG.integers(lo, hi, numel(shape), endpoint=True, dtype=np.int64).astype(object)
    extremes = [info.min, info.max, 0, 1] if full_range else []
    for i, s in enumerate(extremes[:numel(shape) // 2]):
        v[i] = int(s)
    return np.array(list(v), dtype=NP[dtype]).reshape(shape)


def values(dtype, shape):
    return float_values(dtype, shape) if dtype in FLOATS else int_values(dtype, shape)


def wrap(x, dtype):
    """Python int -> the dtype's value modulo 2^bits."""
    bits = np.iinfo(NP[dtype]).bits
    x &= (1 << bits) - 1
    if np.iinfo(NP[dtype]).min < 0 and x >= 1 << (bits - 1):
        x -= 1 << bits
    return x


def int_map(fn, a, b, dtype):
    a2, b2 = np.broadcast_arrays(a, b)
    out = [wrap(fn(int(x), int(y), dtype), dtype) for x, y in zip(a2.reshape(-1), b2.reshape(-1))]
    return np.array(out, dtype=np.int64).astype(NP[dtype]).reshape(a2.shape)


def int_pow(x, y, dtype):
    if y < 0:
        return 1 if x == 1 else ((-1 if y % 2 else 1) if x == -1 else 0)
    return pow(x, y, 1 << 64)


def int_quotient(x, y, dtype):
    if y == 0:
        return 0
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def int_remainder(x, y, dtype):
    if y == 0:
        return 0
    return x - int_quotient(x, y, dtype) * y


def bits_of(dtype):
    return np.iinfo(NP[dtype]).bits


def shift_left(x, c, dtype):
    return 0 if c < 0 or c >= bits_of(dtype) else x << c


def shift_right(x, c, dtype):
    if c < 0 or c >= bits_of(dtype):
        return -1 if x < 0 else 0
    return x >> c  # Python's >> is arithmetic


def u8(x):
    return np.asarray(x).astype(np.uint8)


BINARY = {
    "add": lambda a, b, d: np.add(a, b),
    "subtract": lambda a, b, d: np.subtract(a, b),
    "multiply": lambda a, b, d: np.multiply(a, b),
    "divide": lambda a, b, d: np.divide(a.astype(np.float32), b.astype(np.float32))
    if d in INTS else np.divide(a, b),
    "pow": lambda a, b, d: int_map(int_pow, a, b, d) if d in INTS else np.power(a, b),
    "remainder": lambda a, b, d: int_map(int_remainder, a, b, d) if d in INTS else np.fmod(a, b),
    "atan2": lambda a, b, d: np.arctan2(a.astype(np.float32), b.astype(np.float32))
    if d in INTS else np.arctan2(a, b),
    "min": lambda a, b, d: np.minimum(a, b),
    "max": lambda a, b, d: np.maximum(a, b),
    "quotient": lambda a, b, d: int_map(int_quotient, a, b, d),
    "bitwise_and": lambda a, b, d: np.bitwise_and(a, b),
    "bitwise_or": lambda a, b, d: np.bitwise_or(a, b),
    "bitwise_xor": lambda a, b, d: np.bitwise_xor(a, b),
    "left_shift": lambda a, b, d: int_map(shift_left, a, b, d),
    "right_shift": lambda a, b, d: int_map(shift_right, a, b, d),
    "equal": lambda a, b, d: u8(np.equal(a, b)),
    "not_equal": lambda a, b, d: u8(np.not_equal(a, b)),
    "less": lambda a, b, d: u8(np.less(a, b)),
    "less_equal": lambda a, b, d: u8(np.less_equal(a, b)),
    "greater": lambda a, b, d: u8(np.greater(a, b)),
    "greater_equal": lambda a, b, d: u8(np.greater_equal(a, b)),
    "logical_and": lambda a, b, d: u8(np.logical_and(a, b)),
    "logical_or": lambda a, b, d: u8(np.logical_or(a, b)),
    "logical_xor": lambda a, b, d: u8(np.logical_xor(a, b)),
}
INTEGER_ONLY = {"quotient", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
                "right_shift"}


def binary_inputs(op, dtype, sa, sb):
    if dtype in FLOATS:
        return float_values(dtype, sa), float_values(dtype, sb)
    if op == "pow":
        return int_values(dtype, sa, -5 if dtype != "u8" else 0, 5), \
            int_values(dtype, sb, -2 if dtype != "u8" else 0, 9)
    if op in ("left_shift", "right_shift"):
        bits = bits_of(dtype)
        return int_values(dtype, sa), int_values(dtype, sb, -2 if dtype != "u8" else 0, bits + 2)
    a = int_values(dtype, sa)
    b = int_values(dtype, sb, -6 if dtype != "u8" else 0, 6)  # small divisors, zeros included
    return a, b


def in_domain(x, lo, hi):
    return np.where(np.isfinite(x), np.clip(x, lo, hi), x)


def erf_inv(x):
    if math.isnan(x) or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    if x == 0:
        return x
    ax, lo, hi = abs(x), 0.0, 7.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        # erfc near 1: 1 - ax is exact there and erf has no digits left.
        too_small = math.erfc(mid) > 1 - ax if ax > 0.5 else math.erf(mid) < ax
        lo, hi = (mid, hi) if too_small else (lo, mid)
    return math.copysign(0.5 * (lo + hi), x)


def elementwise_double(fn):
    return lambda x: np.vectorize(lambda v: fn(float(v)), otypes=[np.float64])(x)


FLOAT_UNARY = {
    "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": np.log1p,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x.astype(np.float64))),
    "cos": np.cos, "sin": np.sin, "tan": np.tan, "cosh": np.cosh, "sinh": np.sinh,
    "tanh": np.tanh, "acos": np.arccos, "asin": np.arcsin, "atan": np.arctan,
    "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x.astype(np.float64)), "cbrt": np.cbrt,
    "erf": elementwise_double(math.erf), "erfc": elementwise_double(math.erfc),
    "erf_inv": elementwise_double(erf_inv),
}
# Input ranges that exercise each function where it is interesting (plus NaN/Inf/-0).
FLOAT_RANGE = {"acos": (-1.2, 1.2), "asin": (-1.2, 1.2), "atanh": (-1.1, 1.1),
               "erf_inv": (-1.05, 1.05), "acosh": (0.5, 6), "exp": (-20, 20),
               "expm1": (-5, 5), "log1p": (-1.2, 5), "cosh": (-8, 8), "sinh": (-8, 8)}


def round_half_away(x):
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def clz(v, dtype):
    bits = bits_of(dtype)
    return bits - (int(v) & ((1 << bits) - 1)).bit_length()


def popcount(v, dtype):
    return bin(int(v) & ((1 << bits_of(dtype)) - 1)).count("1")


def int_unary(fn, x, dtype):
    return np.array([fn(v, dtype) for v in x.reshape(-1)], dtype=np.int64).astype(
        NP[dtype]).reshape(x.shape)


SAME_TYPE_UNARY = {
    "abs": np.abs, "negate": np.negative, "sign": np.sign, "ceil": np.ceil,
    "floor": np.floor, "round": round_half_away, "conjugate": np.conjugate, "real": np.real,
    "imag": np.zeros_like,
}
INT_UNARY = {"bitwise_not": lambda x, d: np.invert(x),
             "count_leading_zeros": lambda x, d: int_unary(clz, x, d),
             "population_count": lambda x, d: int_unary(popcount, x, d)}


def main():
    cases = []
    np.seterr(all="ignore")

    def add_case(name, op, inputs, expected, out_dtype=None):
        cases.append({"name": name, "op": op, "params": {},
                      "inputs": [tensor(x) for x in inputs],
                      "expected": tensor(np.asarray(expected), out_dtype)})

    # ---- binary: every op over its dtypes, rotating through the shapes ----
    for k, (op, fn) in enumerate(BINARY.items()):
        dtypes = INTS if op in INTEGER_ONLY else ALL
        for j, dtype in enumerate(dtypes):
            for sa, sb in (BINARY_SHAPES[(k + j) % len(BINARY_SHAPES)],
                           BINARY_SHAPES[(k + j + 3) % len(BINARY_SHAPES)]):
                a, b = binary_inputs(op, dtype, sa, sb)
                expected = fn(a, b, dtype)
                if op in ("divide", "atan2") and dtype in INTS:
                    expected = np.asarray(expected, np.float32)
                elif op not in ("equal", "not_equal", "less", "less_equal", "greater",
                                "greater_equal", "logical_and", "logical_or", "logical_xor"):
                    expected = np.asarray(expected).astype(NP[dtype])
                add_case("%s_%s_%s_%s" % (op, dtype, "x".join(map(str, sa)) or "scalar",
                                          "x".join(map(str, sb)) or "scalar"), op, [a, b], expected)

    # Mixed dtypes promote (Nx rules, not NumPy's): s32 + f32 is f32, u8 < s8 compares in s16.
    a, b = int_values("s32", (5,)), float_values("f32", (5,))
    add_case("add_s32_f32_promotes_to_f32", "add", [a, b],
             (a.astype(np.float64) + b.astype(np.float64)).astype(np.float32))
    ua = np.array([200, 5, 0, 255], np.uint8)
    sb8 = np.array([-56, 5, -1, -1], np.int8)
    add_case("less_u8_s8_in_s16", "less", [ua, sb8],
             u8(ua.astype(np.int16) < sb8.astype(np.int16)))
    add_case("multiply_u8_s8_gives_s16", "multiply", [ua, sb8],
             ua.astype(np.int16) * sb8.astype(np.int16))

    # ---- unary ----
    for k, (op, fn) in enumerate(FLOAT_UNARY.items()):
        lo, hi = FLOAT_RANGE.get(op, (-4.0, 4.0))
        for j, dtype in enumerate(FLOATS):
            shape = UNARY_SHAPES[(k + j) % len(UNARY_SHAPES)]
            x = float_values(dtype, shape, lo, hi)
            add_case("%s_%s" % (op, dtype), op, [x], np.asarray(fn(x)).astype(NP[dtype]))
        # Integers are computed in f32.
        x = int_values("s32", (2, 3), 0, 3) if op not in ("acosh",) else int_values("s32", (2, 3), 1, 4)
        add_case("%s_s32_to_f32" % op, op, [x],
                 np.asarray(fn(x.astype(np.float32))).astype(np.float32))

    for k, (op, fn) in enumerate(SAME_TYPE_UNARY.items()):
        for j, dtype in enumerate(ALL):
            shape = UNARY_SHAPES[(k + j) % len(UNARY_SHAPES)]
            x = values(dtype, shape)
            if dtype in FLOATS:
                # Halves, to pin down rounding.
                x = (np.round(x.astype(np.float64) * 2) / 2 + np.where(
                    np.arange(x.size).reshape(shape) % 3 == 0, 0.25, 0)).astype(NP[dtype])
                x.reshape(-1)[:min(4, x.size)] = np.array(SPECIAL[:min(4, x.size)], NP[dtype])
            if dtype in INTS and op in ("ceil", "floor", "round"):
                expected = x  # identity on integers (NumPy would go through float64)
            else:
                expected = np.asarray(fn(x)).astype(NP[dtype])
            add_case("%s_%s" % (op, dtype), op, [x], expected)

    for k, (op, fn) in enumerate(INT_UNARY.items()):
        for j, dtype in enumerate(INTS):
            shape = UNARY_SHAPES[(k + j) % len(UNARY_SHAPES)]
            x = int_values(dtype, shape)
            add_case("%s_%s" % (op, dtype), op, [x], fn(x, dtype))

    for op, fn in (("is_nan", np.isnan), ("is_infinity", np.isinf), ("logical_not", np.logical_not)):
        for j, dtype in enumerate(ALL):
            x = values(dtype, UNARY_SHAPES[j % len(UNARY_SHAPES)])
            add_case("%s_%s" % (op, dtype), op, [x], u8(fn(x)))

    write("elementwise", cases)


if __name__ == "__main__":
    main()
