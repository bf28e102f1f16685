"""vt.nansum ... vt.nanargmin and np.nan*(tensor): NumPy's results on arrays with NaNs at random
places, along each axis, with keepdims, all-NaN slices, integer and complex input, and typed
errors naming the op; on the cpu and on Vulkan, each device's result left on it."""
import warnings

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN

RNG = np.random.default_rng(1039)
SHAPE = (6, 5, 4)


def _with_nans(fraction=0.3, dtype=np.float32):
    values = RNG.standard_normal(SHAPE).astype(dtype)
    values[RNG.random(SHAPE) < fraction] = np.nan
    return values


# A: NaNs anywhere, and an all-NaN slice along each axis.
A = _with_nans()
A[2, :, 1] = np.nan
A[:, 3, 2] = np.nan
A[4, 1, :] = np.nan
# B: NaNs, infinities, and a number in every slice along every axis (where i + j + k is a
# multiple of 4), so that its arg-reductions are defined.
B = _with_nans(0.5)
B[0, 0, 1], B[5, 4, 3] = np.inf, -np.inf
_i, _j, _k = np.indices(SHAPE)
B[(_i + _j + _k) % 4 == 0] = RNG.standard_normal(SHAPE).astype(np.float32)[(_i + _j + _k) % 4 == 0]

VALUE_OPS = ("nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd")
AXES = (None, 0, 1, 2, -1, (0, 2))


def _host(result, device, complex_fallback=False):
    """The values of a result on `device`; complex reductions Vulkan runs on the cpu, where
    the result stays (the fallback contract)."""
    assert isinstance(result, vt.Tensor), type(result)
    assert result.device == device or (complex_fallback and result.device == vt.cpu())
    return result.numpy()


def _numpy(name, values, **kwargs):
    with warnings.catch_warnings():  # NumPy warns of all-NaN slices and ddof past the count
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np, name)(values, **kwargs)


def _check(got, expected, rtol=2e-5, atol=2e-5, name=""):
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (name, got.shape, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=name)


@pytest.mark.parametrize("name", VALUE_OPS)
def test_value_reductions_match_numpy_on_each_axis(device, name):
    x = vt.asarray(A, device=device)
    for axis in AXES:
        for keepdims in (False, True):
            label = f"{name} axis={axis} keepdims={keepdims}"
            expected = _numpy(name, A, axis=axis, keepdims=keepdims)
            ours = getattr(vt, name)(x, axis=axis, keepdims=keepdims)
            through_numpy = getattr(np, name)(x, axis=axis, keepdims=keepdims)
            for got in (ours, through_numpy):
                assert got.dtype == vt.float32, label
                _check(_host(got, device), expected, rtol=1e-4 if name == "nanprod" else 2e-5,
                       name=label)


def test_all_nan_slices(device):
    x = vt.asarray(A, device=device)
    # The slice A[2, :, 1] is NaN only: NumPy's answers there, which these checks pin.
    picks = {"nansum": 0.0, "nanprod": 1.0, "nanmax": np.nan, "nanmin": np.nan,
             "nanmean": np.nan, "nanvar": np.nan, "nanstd": np.nan}
    for name, value in picks.items():
        got = _host(getattr(vt, name)(x, axis=1), device)[2, 1]
        assert got == value or (np.isnan(value) and np.isnan(got)), (name, got)
    everything = vt.asarray(np.full((3, 2), np.nan, np.float32), device=device)
    assert np.isnan(_host(vt.nanmax(everything), device))
    assert _host(vt.nansum(everything), device) == 0


def test_var_and_std_with_ddof(device):
    x = vt.asarray(A, device=device)
    for name in ("nanvar", "nanstd"):
        for ddof in (1, 3, 6):  # 6: past every slice's count along axis 0 (NaN there)
            for axis in (None, 0, 2):
                expected = _numpy(name, A, axis=axis, ddof=ddof)
                _check(_host(getattr(vt, name)(x, axis=axis, ddof=ddof), device), expected,
                       name=f"{name} ddof={ddof} axis={axis}")
                _check(_host(getattr(np, name)(x, axis, None, None, ddof), device), expected,
                       name=f"np.{name} positional ddof={ddof}")


@pytest.mark.parametrize("name", ("nanargmax", "nanargmin"))
def test_arg_reductions_match_numpy(device, name):
    x = vt.asarray(B, device=device)
    for axis in (None, 0, 1, 2, -1):
        for keepdims in (False, True):
            expected = getattr(np, name)(B, axis=axis, keepdims=keepdims)
            for got in (getattr(vt, name)(x, axis=axis, keepdims=keepdims),
                        getattr(np, name)(x, axis=axis, keepdims=keepdims)):
                got = _host(got, device)
                assert got.dtype == np.int64 and got.shape == expected.shape, (axis, keepdims)
                np.testing.assert_array_equal(got, expected, err_msg=f"{name} axis={axis}")


def test_arg_reductions_skip_nan_before_an_infinity_and_find_the_first_best(device):
    values = np.array([np.nan, -np.inf, np.nan, -np.inf, 2.0, 2.0, np.nan], np.float32)
    x = vt.asarray(values[:4], device=device)
    # -inf is the maximum there, first at 1. NumPy 1.24 answers 0, a NaN's index (it makes
    # NaN -inf, which ties): vktensor keeps to "ignoring NaNs" and answers a number's index.
    assert _host(vt.nanargmax(x), device) == 1
    assert _host(vt.nanmax(x), device) == -np.inf
    y = vt.asarray(values, device=device)
    assert _host(vt.nanargmax(y), device) == np.nanargmax(values) == 4
    assert _host(vt.nanargmin(y), device) == np.nanargmin(values) == 1


def test_arg_reductions_of_an_all_nan_slice_raise_naming_the_op(device):
    x = vt.asarray(A, device=device)
    for name in ("nanargmax", "nanargmin"):
        with pytest.raises(vt.AllNaNSlice, match=rf"^\[{name}\] All-NaN slice encountered"):
            getattr(vt, name)(x, axis=1)
        with pytest.raises(ValueError, match=rf"\[{name}\]"):  # as NumPy code catches it
            getattr(np, name)(x, axis=0)
        with pytest.raises(vt.Error):
            getattr(vt, name)(vt.asarray(np.full(3, np.nan), device=device))
    # Slices with a number along axis 2 are fine even though other axes have all-NaN ones.
    ok = np.where(np.isnan(A).all(axis=2, keepdims=True), 0, A)
    np.testing.assert_array_equal(_host(vt.nanargmax(vt.asarray(ok, device=device), axis=2),
                                        device), np.nanargmax(ok, axis=2))


def test_integer_input_takes_the_plain_reductions(device):
    ints = RNG.integers(-20, 20, SHAPE).astype(np.int32)
    x = vt.asarray(ints, device=device)
    for name in VALUE_OPS + ("nanargmax", "nanargmin"):
        for axis in (None, 1):
            expected = _numpy(name, ints, axis=axis)
            got = _host(getattr(np, name)(x, axis=axis), device)
            assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
            _check(got, expected, rtol=1e-12, atol=0, name=f"{name} axis={axis}")
    assert _host(vt.nanvar(x, ddof=1), device) == pytest.approx(np.var(ints, ddof=1))


def test_float64_and_dtype_arguments(device):
    values = A.astype(np.float64)
    x = vt.asarray(values, device=device)
    for name in ("nansum", "nanmean", "nanvar"):
        got = _host(getattr(np, name)(x, axis=0), device)
        assert got.dtype == np.float64
        _check(got, _numpy(name, values, axis=0), rtol=1e-12, atol=1e-12, name=name)
    y = vt.asarray(A, device=device)
    got = _host(np.nansum(y, axis=2, dtype=np.float64), device)
    assert got.dtype == np.float64
    _check(got, np.nansum(A, axis=2, dtype=np.float64), name="nansum dtype=f64")


def test_complex_input_follows_numpy_or_refuses_ordering(device):
    values = (RNG.standard_normal((5, 4)) + 1j * RNG.standard_normal((5, 4))).astype(np.complex64)
    values[0, 1] = complex(np.nan, 1.0)  # NaN in either part makes the element NaN
    values[3, 2] = complex(2.0, np.nan)
    values[:, 3] = complex(np.nan, np.nan)  # an all-NaN column
    x = vt.asarray(values, device=device)
    for name in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd"):
        for axis in (None, 0, 1):
            expected = _numpy(name, values, axis=axis)
            got = _host(getattr(vt, name)(x, axis=axis), device, complex_fallback=True)
            assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
            _check(got, expected, rtol=1e-4, atol=1e-5, name=f"complex {name} axis={axis}")
    for name in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
        with pytest.raises(vt.TypeError, match=rf"^\[{name}\] complex"):
            getattr(vt, name)(x, axis=0)


def test_numpy_keywords_a_tensor_cannot_honour_raise_naming_the_op():
    x = vt.asarray(A)
    with pytest.raises(vt.Unsupported, match=r"^\[np.nansum\] out="):
        np.nansum(x, out=np.zeros(()))
    with pytest.raises(vt.Unsupported, match=r"^\[np.nanmax\] initial="):
        np.nanmax(x, initial=0.0)
    with pytest.raises(vt.Unsupported, match=r"^\[np.nanvar\] where="):
        np.nanvar(x, where=np.isfinite(A))
    with pytest.raises(vt.Unsupported, match=r"^\[np.nanargmax\] out="):
        np.nanargmax(vt.asarray(B), out=np.zeros((), np.int64))


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_vulkan_equals_the_cpu():
    host, device = vt.asarray(A), vt.asarray(A, device=VULKAN)
    for name in VALUE_OPS:
        for axis in (None, 1, (0, 2)):
            on_cpu = _host(getattr(vt, name)(host, axis=axis), vt.cpu())
            on_device = _host(getattr(vt, name)(device, axis=axis), VULKAN)
            _check(on_device, on_cpu, rtol=1e-5, atol=1e-6, name=f"{name} axis={axis}")
    on_b = vt.asarray(B, device=VULKAN)
    for axis in (None, 0, 2):
        np.testing.assert_array_equal(_host(vt.nanargmax(on_b, axis=axis), VULKAN),
                                      _host(vt.nanargmax(vt.asarray(B), axis=axis), vt.cpu()))


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_on_vulkan_nothing_crosses_the_bus_but_the_all_nan_check():
    x = vt.asarray(A, device=VULKAN)
    vt.synchronize()
    for name in VALUE_OPS:
        with vt.ledger() as led:
            getattr(vt, name)(x, axis=1)
            getattr(vt, name)(x, **({"ddof": 1} if name in ("nanvar", "nanstd") else {}))
            vt.synchronize()
        assert (led.uploads, led.downloads, led.fallbacks) == (0, 0, 0), (name, led)
    with vt.ledger() as led:
        vt.nanargmax(vt.asarray(B, device=VULKAN), axis=0)
    assert led.downloads == 1 and led.fallbacks == 0, led  # the one byte: any all-NaN slice
