"""Hypothesis: elementwise ops and reductions against NumPy over dtypes, broadcast shapes of
rank 0 to 5 (size-0 and size-1 axes included) and strided inputs, on the cpu and on Vulkan.
vktensor promotes as Nx does, so NumPy's answer is computed in float64 (or int64) and
compared in vktensor's result dtype."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import vktensor as vt
from conftest import VULKAN

DTYPES = [np.int8, np.int32, np.int64, np.uint8, np.uint16, np.float16, np.float32, np.float64]
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "max": np.maximum,
          "min": np.minimum, "less": np.less, "equal": np.equal}
DEVICES = ["cpu"] + (["vulkan"] if VULKAN is not None else [])


def device_of(name):
    return vt.cpu() if name == "cpu" else VULKAN


@st.composite
def operands(draw, count):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=count, min_dims=0, max_dims=5,
                                                    min_side=0, max_side=3))
    arrays = []
    for shape in shapes.input_shapes:
        dtype = draw(st.sampled_from(DTYPES))
        a = draw(hnp.arrays(dtype, shape, elements=st.integers(0, 9).map(dtype)))
        if a.ndim and draw(st.booleans()):
            a = a[..., ::-1]  # a strided view: asarray copies it
        arrays.append(a)
    return arrays


def expected(fn, arrays, out_dtype):
    """NumPy's answer in vktensor's result dtype: exact integers wrapped to it (as both
    libraries wrap), floats computed in float64."""
    np_out = np.dtype(str(out_dtype))
    if np_out.kind in "iu":
        r = fn(*[a.astype(np.int64) for a in arrays])
        return r.astype(np.uint8) if r.dtype == bool else r.astype(np_out)
    return fn(*[a.astype(np.float64) for a in arrays])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=25, deadline=None)
@given(data=operands(2))
def test_binary_ops(device, name, data):
    a, b = data
    got = getattr(vt, name)(vt.asarray(a, device=device_of(device)),
                            vt.asarray(b, device=device_of(device)))
    want = expected(BINARY[name], [a, b], got.dtype)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy().astype(np.float64), want, rtol=2e-3)


@pytest.mark.parametrize("device", DEVICES)
@settings(max_examples=25, deadline=None)
@given(data=operands(1), axis=st.sampled_from([None, 0, -1]), keepdims=st.booleans())
def test_sum_and_max(device, data, axis, keepdims):
    (a,) = data
    if axis is not None and a.ndim == 0:
        return
    x = vt.asarray(a, device=device_of(device))
    got = vt.sum(x, axis=axis, keepdims=keepdims).numpy().astype(np.float64)
    np.testing.assert_allclose(got, np.sum(a.astype(np.float64), axis=axis, keepdims=keepdims),
                               rtol=2e-3)
    if a.size:
        got = vt.reduce_max(x, axis=axis, keepdims=keepdims).numpy().astype(np.float64)
        np.testing.assert_array_equal(got, np.max(a, axis=axis, keepdims=keepdims))
