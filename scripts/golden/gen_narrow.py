"""Golden cases for the narrow dtypes, from the formats' definitions (NumPy has no f8): every
code's value; values rounded to the nearest code (ties to the even code) by exhaustive search
over exact fractions, with E5M2's infinity and E4M3FN's saturation at +-448 (Nx's rule);
+, -, *, / of two codes rounded once from the exact result; and Nx's packed binary of
s2/s4/u2/u4 (the first element in the high bits).

Run with Debian's Python: /usr/bin/python3 scripts/golden/gen_narrow.py
Writes tests/golden/data/narrow.json (read by tests/golden/narrow_golden_test.cpp).
"""
import json
import math
import os
import random
from fractions import Fraction

rng = random.Random(20261207)

# name: (exponent bits, mantissa bits, bias, has infinity, NaN code)
FORMATS = {"f8": (5, 2, 15, True, 0x7E), "f8_e4m3fn": (4, 3, 7, False, 0x7F)}


def code_value(fmt, code):
    """The exact value of a code (a Fraction), or 'inf' / 'nan' / '-inf'."""
    e_bits, m_bits, bias, has_inf, _ = FORMATS[fmt]
    sign = -1 if code & 0x80 else 1
    e = (code & 0x7F) >> m_bits
    m = code & ((1 << m_bits) - 1)
    if has_inf and e == (1 << e_bits) - 1:
        return ("inf" if sign > 0 else "-inf") if m == 0 else "nan"
    if not has_inf and (code & 0x7F) == 0x7F:
        return "nan"
    if e == 0:
        return sign * Fraction(m, 1 << m_bits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(m, 1 << m_bits)) * Fraction(2) ** (e - bias)


def max_finite(fmt):
    return 0x7B if FORMATS[fmt][3] else 0x7E


def encode(fmt, x):
    """The code nearest x (a float or Fraction), ties to the even code."""
    _, m_bits, bias, has_inf, nan = FORMATS[fmt]
    top = max_finite(fmt)
    overflow = top + 1 if has_inf else top
    if isinstance(x, float) and math.isnan(x):
        return (0x80 if math.copysign(1, x) < 0 else 0) | nan
    negative = (math.copysign(1, x) < 0) if isinstance(x, float) else x < 0
    sign = 0x80 if negative else 0
    if isinstance(x, float) and math.isinf(x):
        return sign | overflow
    a = abs(Fraction(x))
    # The candidates: every finite non-negative code, and the next power of two as code
    # top + 1 (where the rounding of the largest value's upper half goes).
    candidates = [(code_value(fmt, c), c) for c in range(top + 1)]
    last_exponent = ((top >> m_bits) - bias) + 1
    candidates.append((Fraction(2) ** last_exponent, top + 1))
    best = None
    for value, c in candidates:
        d = abs(value - a)
        if best is None or d < best[0] or (d == best[0] and c % 2 == 0):
            best = (d, c)
    c = best[1]
    if c > top:
        c = overflow
    return sign | c


def number(v):
    if isinstance(v, str):
        return v
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


cases = []
for fmt in FORMATS:
    codes = list(range(256))
    cases.append({"name": fmt + " decode", "op": "decode", "dtype": fmt, "codes": codes,
                  "values": [number(code_value(fmt, c)) for c in codes]})
    values = []
    for c in range(max_finite(fmt)):  # every tie, and just either side of it
        lo, hi = code_value(fmt, c), code_value(fmt, c + 1)
        mid = float((lo + hi) / 2)
        values += [mid, math.nextafter(mid, 0), math.nextafter(mid, math.inf), -mid]
    for _ in range(400):
        values.append(rng.choice([-1, 1]) * math.ldexp(rng.random(), rng.randint(-22, 18)))
    # One NaN, unsigned: JSON carries no NaN sign.
    values += [0.0, -0.0, 1e-300, -1e-300, 1e300, -1e300, math.inf, -math.inf, math.nan,
               448.0, 464.0, 480.0, 481.0, 57344.0, 61439.0, 61440.0, 65504.0]
    cases.append({"name": fmt + " encode", "op": "encode", "dtype": fmt,
                  "values": [number(v) for v in values],
                  "codes": [encode(fmt, v) for v in values]})
    finite = [c for c in range(256) if not isinstance(code_value(fmt, c), str)]
    for op in ["add", "subtract", "multiply", "divide"]:
        a_codes, b_codes, out = [], [], []
        while len(out) < 300:
            a, b = rng.choice(finite), rng.choice(finite)
            va, vb = code_value(fmt, a), code_value(fmt, b)
            if op == "divide" and vb == 0:
                continue
            exact = {"add": lambda: va + vb, "subtract": lambda: va - vb,
                     "multiply": lambda: va * vb, "divide": lambda: va / vb}[op]()
            if exact == 0:
                continue  # the sign of an exact zero is the ops' own rule, not rounding's
            a_codes.append(a)
            b_codes.append(b)
            out.append(encode(fmt, exact))
        cases.append({"name": fmt + " " + op, "op": op, "dtype": fmt, "a": a_codes,
                      "b": b_codes, "codes": out})

for name, bits, signed in [("s2", 2, True), ("s4", 4, True), ("u2", 2, False), ("u4", 4, False)]:
    for n in [1, 3, 7, 8, 33]:
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        vals = [rng.randint(lo, hi) for _ in range(n)]
        packed = 0
        for v in vals:
            packed = (packed << bits) | (v & ((1 << bits) - 1))
        total = n * bits
        pad = (-total) % 8
        packed <<= pad
        nbytes = (total + pad) // 8
        binary = list(packed.to_bytes(nbytes, "big"))
        cases.append({"name": "%s pack %d" % (name, n), "op": "pack", "dtype": name,
                      "values": vals, "binary": binary})

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
path = os.path.join(root, "tests", "golden", "data", "narrow.json")
with open(path, "w") as f:
    json.dump({"generator": "scripts/golden/gen_narrow.py", "cases": cases}, f,
              separators=(",", ":"))
    f.write("\n")
print("wrote %d cases to %s" % (len(cases), path))
