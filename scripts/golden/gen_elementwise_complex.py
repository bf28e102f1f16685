"""Golden cases for the elementwise ops on complex numbers (c64, c128) and for phase (run
with Debian's /usr/bin/python3). A file of their own (elementwise_complex.json): rerunning
gen_elementwise.py on another cpu changes its float32 data by an ulp (NumPy's SIMD paths).

NumPy 1.24's own functions where it has them (glibc's cexp, clog, ... underneath, as the
cpu kernels); where NumPy has none or differs from the documented semantics
(docs/semantics-elementwise.md), the reference is written out here:
  log1p   NumPy's log(hypot(1 + x, y)) loses the digits near 0: there log1p(2x + x^2 + y^2)/2
          in long double;
  sign    z/|z| with NumPy 2's rules (1.24 gives the sign of the real part);
  cbrt    exp(log(z)/3) with the parts divided (NumPy's complex divide by 3 + 0i turns
          an infinite part into NaN);
  sigmoid 1/(1 + exp(-z)), rsqrt 1/sqrt(z), with NumPy's complex divide.
Each function op gets random values and a grid of special parts (0, -0, 1, -1.5, +-inf,
NaN, a large magnitude) crossed with each other.
"""
import numpy as np

from golden_io import tensor, write

RNG = np.random.default_rng(20261201)
COMPLEX = {"c64": np.complex64, "c128": np.complex128}
REAL_OF = {"c64": np.float32, "c128": np.float64}
BIG = {"c64": 1e30, "c128": 1e300}
SHAPES = [(3, 4), (2, 1, 3, 2), (), (0, 2), (1,), (2, 2, 1, 2, 2)]
BINARY_SHAPES = [((2, 3), (2, 3)), ((2, 1, 3, 1), (1, 2, 1, 2)), ((), ()), ((4,), ()),
                 ((0, 3), (3,)), ((3, 1), (1, 4))]


def numel(shape):
    return int(np.prod(shape)) if shape else 1


def random_complex(dtype, shape, lo=-3.0, hi=3.0):
    n = numel(shape)
    v = RNG.uniform(lo, hi, n) + 1j * RNG.uniform(lo, hi, n)
    return v.astype(COMPLEX[dtype]).reshape(shape)


def special_grid(dtype):
    parts = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, BIG[dtype]]
    re, im = np.meshgrid(parts, parts, indexing="ij")
    z = np.empty(re.size, COMPLEX[dtype])
    z.real, z.imag = re.reshape(-1), im.reshape(-1)
    return z


def make(re, im, dtype):
    z = np.empty(np.shape(re), COMPLEX[dtype])
    z.real, z.imag = re, im
    return z


def name_of(z):
    return "c64" if z.dtype == np.complex64 else "c128"


def log1p(z):
    x, y = z.real.astype(np.longdouble), z.imag.astype(np.longdouble)
    with np.errstate(all="ignore"):
        naive = np.log1p(z)
        small = (np.abs(x) < 0.5) & (np.abs(y) < 0.5)
        accurate = np.log1p(x * (2 + x) + y * y) / 2
    return make(np.where(small, accurate, naive.real), naive.imag, name_of(z))


def sign(z):
    x, y = z.real, z.imag
    out = []
    for a, b in zip(x.reshape(-1), y.reshape(-1)):
        m = np.hypot(a, b)
        if np.isnan(m):
            out.append((np.nan, np.nan))
        elif np.isinf(m):
            if np.isinf(a):
                out.append((np.nan, np.nan) if np.isinf(b) else (1.0 if a > 0 else -1.0, 0.0))
            else:
                out.append((0.0, 1.0 if b > 0 else -1.0))
        elif m == 0:
            out.append((0.0, 0.0))
        else:
            out.append((a / m, b / m))
    r = np.array(out, dtype=z.real.dtype).reshape(z.shape + (2,))
    return make(r[..., 0], r[..., 1], name_of(z))


def cbrt(z):
    lz = np.log(z)
    real_type = lz.real.dtype.type
    return np.exp(make(lz.real / real_type(3), lz.imag / real_type(3), name_of(z)))


FUNCTIONS = {
    "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": log1p,
    "sigmoid": lambda z: np.divide(1, 1 + np.exp(-z)),
    "cos": np.cos, "sin": np.sin, "tan": np.tan, "cosh": np.cosh, "sinh": np.sinh,
    "tanh": np.tanh, "acos": np.arccos, "asin": np.arcsin, "atan": np.arctan,
    "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh, "sqrt": np.sqrt,
    "rsqrt": lambda z: np.divide(1, np.sqrt(z)), "cbrt": cbrt,
    "negate": np.negative, "sign": sign, "conjugate": np.conjugate,
}
TO_REAL = {"abs": np.abs, "real": np.real, "imag": np.imag, "phase": np.angle}
PREDICATES = {"is_nan": np.isnan, "is_infinity": np.isinf, "logical_not": np.logical_not}
RANGE = {"exp": (-20, 20), "cosh": (-8, 8), "sinh": (-8, 8), "expm1": (-1e-3, 1e-3),
         "log1p": (-1e-3, 1e-3)}

BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "pow": np.power,
    "equal": lambda a, b: np.equal(a, b).astype(np.uint8),
    "not_equal": lambda a, b: np.not_equal(a, b).astype(np.uint8),
    "logical_and": lambda a, b: np.logical_and(a, b).astype(np.uint8),
    "logical_or": lambda a, b: np.logical_or(a, b).astype(np.uint8),
    "logical_xor": lambda a, b: np.logical_xor(a, b).astype(np.uint8),
}


def binary_inputs(op, dtype, sa, sb):
    a, b = random_complex(dtype, sa), random_complex(dtype, sb)
    if op == "pow" and b.size:
        # Small integer exponents (NumPy multiplies), real and complex ones, a zero.
        flat = b.reshape(-1)
        for i, e in enumerate([2, -3, 0.5, 0, 7]):
            if i < flat.size:
                flat[i] = e
    if op in ("equal", "not_equal", "logical_and", "logical_or", "logical_xor") and a.size:
        flat = a.reshape(-1)
        flat[:min(2, flat.size)] = 0  # zeros for the logical ops
        if b.size == a.size:
            b.reshape(-1)[-1] = flat[-1]  # one equal pair
    return a, b


def real_phase_cases(add_case):
    """phase of a real number: the angle of x + 0i (pi for negative x and -0, NaN stays
    NaN); integers are computed in f32."""
    for dtype, np_type in (("f32", np.float32), ("f64", np.float64), ("f16", np.float16)):
        x = RNG.uniform(-4, 4, 12).astype(np_type).reshape(3, 4)
        x.reshape(-1)[:5] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], np_type)
        add_case("phase_%s" % dtype, "phase", [x], np.angle(x).astype(np_type))
    x = np.array([-3, 0, 2, -1], np.int32)
    add_case("phase_s32_to_f32", "phase", [x], np.angle(x.astype(np.float32)).astype(np.float32))


def complex_cases(add_case):
    for dtype in COMPLEX:
        grid = special_grid(dtype)
        for k, (op, fn) in enumerate(FUNCTIONS.items()):
            lo, hi = RANGE.get(op, (-3.0, 3.0))
            x = random_complex(dtype, SHAPES[k % len(SHAPES)], lo, hi)
            add_case("%s_%s" % (op, dtype), op, [x], np.asarray(fn(x)).astype(COMPLEX[dtype]))
            add_case("%s_%s_special" % (op, dtype), op, [grid],
                     np.asarray(fn(grid)).astype(COMPLEX[dtype]))
        for k, (op, fn) in enumerate(TO_REAL.items()):
            x = random_complex(dtype, SHAPES[k % len(SHAPES)])
            add_case("%s_%s" % (op, dtype), op, [x], np.asarray(fn(x)).astype(REAL_OF[dtype]))
            add_case("%s_%s_special" % (op, dtype), op, [grid],
                     np.asarray(fn(grid)).astype(REAL_OF[dtype]))
        for op, fn in PREDICATES.items():
            add_case("%s_%s_special" % (op, dtype), op, [grid], fn(grid).astype(np.uint8))
        for k, (op, fn) in enumerate(BINARY.items()):
            for sa, sb in (BINARY_SHAPES[k % len(BINARY_SHAPES)],
                           BINARY_SHAPES[(k + 3) % len(BINARY_SHAPES)]):
                a, b = binary_inputs(op, dtype, sa, sb)
                expected = np.asarray(fn(a, b))
                if expected.dtype != np.uint8:
                    expected = expected.astype(COMPLEX[dtype])
                add_case("%s_%s_%s_%s" % (op, dtype, "x".join(map(str, sa)) or "scalar",
                                          "x".join(map(str, sb)) or "scalar"), op, [a, b],
                         expected)
            # Every special part against every other (64 x 8 broadcast).
            other = special_grid(dtype)[::8].copy()
            if op == "pow":
                other = np.array([2, -3, 0.5, 0, 1 + 1j, np.nan, np.inf, 1], COMPLEX[dtype])
            a, b = grid.reshape(64, 1), other.reshape(1, 8)
            expected = np.asarray(fn(a, b))
            if expected.dtype != np.uint8:
                expected = expected.astype(COMPLEX[dtype])
            add_case("%s_%s_special" % (op, dtype), op, [a, b], expected)

    # Promotion (Nx): complex beats every real type; f64 with c64 gives c128.
    a = random_complex("c64", (5,))
    b = RNG.uniform(-3, 3, 5)
    add_case("add_c64_f64_promotes_to_c128", "add", [a, b],
             a.astype(np.complex128) + b.astype(np.complex128))
    s = RNG.integers(-5, 5, 4).astype(np.int32)
    z = random_complex("c64", (4,))
    add_case("multiply_s32_c64_gives_c64", "multiply", [s, z],
             (s.astype(np.complex64) * z).astype(np.complex64))
    f = RNG.uniform(-3, 3, 4).astype(np.float32)
    w = random_complex("c128", (4,))
    add_case("divide_f32_c128_gives_c128", "divide", [f, w],
             np.divide(f.astype(np.complex128), w))


def main():
    cases = []
    np.seterr(all="ignore")

    def add_case(name, op, inputs, expected):
        cases.append({"name": name, "op": op, "params": {},
                      "inputs": [tensor(x) for x in inputs], "expected": tensor(expected)})

    real_phase_cases(add_case)
    complex_cases(add_case)
    write("elementwise_complex", cases)


if __name__ == "__main__":
    main()
