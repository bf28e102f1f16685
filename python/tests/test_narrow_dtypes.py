"""The narrow dtypes from Python: names (ml_dtypes' and PyTorch's), Nx's packed binary through
vt.from_bytes / x.tobytes(), conversions with each format's rounding and saturation,
arithmetic that stays narrow, and typed errors where NumPy or DLPack has no such dtype."""
import math

import numpy as np
import pytest

import vktensor as vt

NARROW = [vt.int2, vt.int4, vt.uint2, vt.uint4, vt.float8_e5m2, vt.float8_e4m3fn]


def test_names_and_sizes():
    assert [str(d) for d in NARROW] == ["int2", "int4", "uint2", "uint4", "float8_e5m2",
                                        "float8_e4m3fn"]
    assert all(d.itemsize == 1 for d in NARROW)
    assert vt.asarray([1, 2, 3]).astype("int4").dtype == vt.int4
    # Strings follow NumPy where it has the name: "f8" is float64, as Dask passes it.
    assert vt.asarray([1.0]).astype("f8").dtype == vt.float64


def test_packed_binary_round_trips():
    x = vt.from_bytes(b"\x12\x3f", vt.int4, (4,))
    assert x.tolist() == [1, 2, 3, -1]
    assert x.tobytes() == b"\x12\x3f"
    assert vt.from_bytes(b"\x1b", "uint2", (4,)).tolist() == [0, 1, 2, 3]
    odd = vt.from_bytes(bytearray(b"\x12\x3a"), vt.uint4, [3])
    assert odd.tobytes() == b"\x12\x30"  # a last byte's unused bits come back zero
    with pytest.raises(vt.ShapeError, match=r"\[from_bytes\] 1 bytes given, u4 \{3\} needs 2"):
        vt.from_bytes(b"\x12", vt.uint4, (3,))


def test_float8_conversions_follow_each_format():
    x = vt.asarray(np.array([1.0, 448.0, 1000.0, np.inf, -np.inf, 0.0625, np.nan]))
    e4 = x.astype(vt.float8_e4m3fn)
    assert list(e4.tobytes()) == [0x38, 0x7E, 0x7E, 0x7E, 0xFE, 0x18, 0x7F]
    e5 = x.astype(vt.float8_e5m2)
    assert list(e5.tobytes()) == [0x3C, 0x5F, 0x64, 0x7C, 0xFC, 0x2C, 0x7E]
    back = e5.astype(vt.float64).numpy()
    assert back[1] == 448.0 and back[2] == 1024.0 and math.isinf(back[3])
    assert e4[0].item() == 1.0 and e4[1].item() == 448.0


def test_arithmetic_stays_narrow_and_wraps_or_saturates():
    a = vt.asarray(np.array([7, -8], dtype=np.int8)).astype(vt.int4)
    s = a + vt.asarray(np.array([1, -1], dtype=np.int8)).astype(vt.int4)
    assert s.dtype == vt.int4 and s.tolist() == [-8, 7]
    f = vt.asarray(np.array([448.0, 3.0], dtype=np.float32)).astype(vt.float8_e4m3fn)
    assert (f * 2).dtype == vt.float8_e4m3fn
    assert (f * 2).tolist() == [448.0, 6.0]
    assert (f + f.astype(vt.float8_e5m2)).dtype == vt.float16


def test_fp8_dot_to_float32_is_exact(device):
    a = vt.asarray(np.array([[1.125, -448.0], [3.5, 0.25]], np.float32)).astype(vt.float8_e4m3fn)
    b = vt.asarray(np.array([[-0.875], [0.25]], np.float32)).astype(vt.float8_e4m3fn)
    d = vt.dot(a.to_device(device), b.to_device(device), preferred_element_type=vt.float32)
    assert d.dtype == vt.float32
    assert d.to_device(vt.cpu()).numpy().ravel().tolist() == [1.125 * -0.875 - 112.0,
                                                              3.5 * -0.875 + 0.0625]
    with pytest.raises(vt.TypeError, match=r"\[dot\] preferred type float16|\[dot\] preferred type f16"):
        vt.dot(vt.asarray([1.0]), vt.asarray([1.0]), preferred_element_type=vt.float16)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float8_e5m2"])
def test_sixteen_bit_and_fp8_dot_into_float32_matches_numpy(device, dtype):
    # Quarters in [-2, 2]: exact in each dtype, every sum of products exact in f32.
    rng = np.random.default_rng(3)
    a_np = rng.integers(-8, 9, size=(33, 70)).astype(np.float32) / 4
    b_np = rng.integers(-8, 9, size=(70, 21)).astype(np.float32) / 4
    a = vt.asarray(a_np).astype(getattr(vt, dtype)).to_device(device)
    b = vt.asarray(b_np).astype(getattr(vt, dtype)).to_device(device)
    d = vt.dot(a, b, preferred_element_type=vt.float32)
    assert d.dtype == vt.float32
    assert np.array_equal(d.to_device(vt.cpu()).numpy(), a_np @ b_np)


def test_where_numpy_and_dlpack_have_no_such_dtype():
    x = vt.asarray([1.0, 2.0]).astype(vt.float8_e4m3fn)
    with pytest.raises(vt.TypeError, match=r"\[numpy\] float8_e4m3fn has no NumPy dtype"):
        x.numpy()
    with pytest.raises(vt.TypeError, match=r"\[__dlpack__\] f8_e4m3fn has no DLPack export"):
        x.__dlpack__()
    assert x.astype(vt.float32).numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", NARROW)
def test_device_results_equal_the_cpus(dtype, device):
    host = vt.asarray(np.array([[1.5, -2, 3], [7, 0.25, -8]], dtype=np.float32)).astype(dtype)
    want = vt.transpose(host + host).tobytes()
    x = host.to_device(device)
    got = vt.transpose(x + x)
    assert got.dtype == dtype
    assert got.tobytes() == want


# ---- properties against a reference written here from the formats' definitions ----
from fractions import Fraction  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

# name: (mantissa bits, bias, largest finite code, overflow code, vt dtype)
FLOAT8 = {"e5m2": (2, 15, 0x7B, 0x7C, vt.float8_e5m2),
          "e4m3fn": (3, 7, 0x7E, 0x7E, vt.float8_e4m3fn)}


def reference_code(fmt, x):
    """The code nearest x, ties to the even code; past the top, the format's overflow code."""
    m_bits, bias, top, overflow, _ = FLOAT8[fmt]
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    if math.isinf(x):
        return sign | overflow

    def value(c):
        e, m = c >> m_bits, c & ((1 << m_bits) - 1)
        if e == 0:
            return Fraction(m, 1 << m_bits) * Fraction(2) ** (1 - bias)
        return (1 + Fraction(m, 1 << m_bits)) * Fraction(2) ** (e - bias)

    a = abs(Fraction(x))
    # The next power of two past the top stands for code top + 1 (where rounding may go).
    candidates = [(value(c), c) for c in range(top + 1)]
    candidates.append((Fraction(2) ** ((top >> m_bits) - bias + 1), top + 1))
    best = min(candidates, key=lambda vc: (abs(vc[0] - a), vc[1] % 2))
    return sign | (best[1] if best[1] <= top else overflow)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, width=64), st.sampled_from(sorted(FLOAT8)))
def test_float8_conversion_matches_the_definition(x, fmt):
    got = vt.asarray(np.array([x])).astype(FLOAT8[fmt][4]).tobytes()[0]
    assert got == reference_code(fmt, x), (x, fmt, hex(got))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.sampled_from(sorted(FLOAT8)))
def test_float8_products_round_once_from_the_exact_product(a, b, fmt):
    dtype = FLOAT8[fmt][4]
    x = vt.from_bytes(bytes([a]), dtype, (1,))
    y = vt.from_bytes(bytes([b]), dtype, (1,))
    fx, fy = x.astype(vt.float64).item(), y.astype(vt.float64).item()
    exact = fx * fy  # two f8 values multiply exactly in float64
    if math.isnan(exact) or exact == 0:
        return  # NaN's code and the sign of an exact zero are not rounding's to decide
    assert (x * y).tobytes()[0] == reference_code(fmt, exact), (hex(a), hex(b), fmt)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=9))
def test_int4_wraps_and_packs_as_nx(values):
    got = vt.asarray(np.array(values, dtype=np.int64)).astype(vt.int4)
    wrapped = [((v + 8) % 16) - 8 for v in values]
    assert got.tolist() == wrapped
    bits = "".join(format(v & 15, "04b") for v in wrapped)
    bits += "0" * (-len(bits) % 8)
    assert got.tobytes() == int(bits, 2).to_bytes(len(bits) // 8, "big")
