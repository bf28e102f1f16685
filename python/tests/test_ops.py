"""Ops and operators against NumPy, on the cpu and on the default Vulkan device."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import vktensor as vt

RNG = np.random.default_rng(7)
A = RNG.uniform(0.5, 2.0, (3, 4)).astype(np.float32)
B = RNG.uniform(0.5, 2.0, (4,)).astype(np.float32)
I = RNG.integers(-20, 20, (3, 4)).astype(np.int32)
J = RNG.integers(1, 7, (4,)).astype(np.int32) * np.array([1, -1, 1, -1], np.int32)

UNARY = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
         "sqrt": np.sqrt, "abs": np.abs, "floor": np.floor, "ceil": np.ceil,
         "negate": np.negative, "sign": np.sign, "expm1": np.expm1, "log1p": np.log1p,
         "atan": np.arctan, "round": lambda v: np.copysign(np.floor(np.abs(v) + 0.5), v)}
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
          "max": np.maximum, "min": np.minimum, "pow": np.power, "atan2": np.arctan2}
COMPARE = {"less": np.less, "greater_equal": np.greater_equal, "equal": np.equal,
           "not_equal": np.not_equal}


def on(device, array):
    return vt.asarray(array, device=device)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops(device, name):
    got = getattr(vt, name)(on(device, A)).numpy()
    np.testing.assert_allclose(got, UNARY[name](A), rtol=2e-6)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_broadcast(device, name):
    got = getattr(vt, name)(on(device, A), on(device, B)).numpy()
    np.testing.assert_allclose(got, BINARY[name](A, B), rtol=2e-6)


@pytest.mark.parametrize("name", sorted(COMPARE))
def test_comparisons_give_u8(device, name):
    got = getattr(vt, name)(on(device, A), on(device, B))
    assert got.dtype == vt.uint8
    np.testing.assert_array_equal(got.numpy(), COMPARE[name](A, B).astype(np.uint8))


def test_operators_with_python_numbers_are_weak(device):
    x, i = on(device, A), on(device, I)
    np.testing.assert_allclose((x + 1).numpy(), A + 1)
    np.testing.assert_allclose((2 * x - x / 4).numpy(), 2 * A - A / 4, rtol=1e-6)
    np.testing.assert_allclose((x ** 2).numpy(), A ** 2, rtol=1e-6)
    np.testing.assert_allclose((1 / x).numpy(), 1 / A, rtol=1e-6)
    assert (x + 1).dtype == vt.float32 and (i + 1).dtype == vt.int32
    np.testing.assert_array_equal((i // 3).numpy(), I // 3)
    np.testing.assert_array_equal((i % 3).numpy(), I % 3)
    np.testing.assert_array_equal((i // on(device, J)).numpy(), I // J)
    np.testing.assert_array_equal((i % on(device, J)).numpy(), I % J)
    np.testing.assert_allclose((-x % 0.75).numpy(), np.mod(-A, np.float32(0.75)), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_array_equal((i & 6).numpy(), I & 6)
    np.testing.assert_array_equal((~i).numpy(), ~I)
    np.testing.assert_array_equal((-i).numpy(), -I)
    np.testing.assert_array_equal(abs(i).numpy(), np.abs(I))
    np.testing.assert_array_equal((i < 0).numpy(), (I < 0).astype(np.uint8))
    np.testing.assert_allclose((x @ on(device, A.T)).numpy(), A @ A.T, rtol=1e-5)


@pytest.mark.parametrize("name,ref", [("sum", np.sum), ("product", np.prod),
                                      ("reduce_max", np.max), ("reduce_min", np.min)])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), ()])
def test_reductions(device, name, ref, axis):
    got = getattr(vt, name)(on(device, A), axis=axis, keepdims=False).numpy()
    np.testing.assert_allclose(got, ref(A, axis=axis), rtol=1e-5)


def test_reduction_keepdims_and_arg_reductions(device):
    x = on(device, A)
    assert vt.sum(x, axis=1, keepdims=True).shape == (3, 1)
    np.testing.assert_array_equal(vt.argmax(x, axis=1).numpy(), np.argmax(A, axis=1))
    np.testing.assert_array_equal(vt.argmin(x).numpy(), np.argmin(A))
    np.testing.assert_allclose(vt.cumulative_sum(x, axis=1).numpy(), np.cumsum(A, axis=1),
                               rtol=1e-6)
    np.testing.assert_array_equal(vt.sort(x, axis=0).numpy(), np.sort(A, axis=0))


def test_arg_reductions_index_dtype(device):
    x = on(device, A)
    # NumPy's int64 by default; Nx's :type through dtype=.
    assert vt.argmax(x, axis=1).dtype == vt.int64
    assert vt.argsort(x).dtype == vt.int64
    for name in ("int32", "uint8", "int16"):
        dtype = getattr(vt, name)
        assert vt.argmax(x, axis=1, dtype=dtype).dtype == dtype
        np.testing.assert_array_equal(vt.argmin(x, dtype=dtype).numpy(), np.argmin(A))
        np.testing.assert_array_equal(vt.argsort(x, axis=0, dtype=dtype).numpy(),
                                      np.argsort(A, axis=0, kind="stable"))
    long_row = on(device, np.arange(300, dtype=np.float32))
    with pytest.raises(vt.TypeError, match=r"\[argmax\] index 299 does not fit the index type u8"):
        vt.argmax(long_row, dtype=vt.uint8)
    with pytest.raises(vt.TypeError, match=r"\[argsort\] the index type must be an integer"):
        vt.argsort(x, dtype=vt.float32)


def test_movement_and_joining(device):
    x = on(device, A)
    np.testing.assert_array_equal(vt.transpose(x).numpy(), A.T)
    np.testing.assert_array_equal(x.reshape(4, 3).numpy(), A.reshape(4, 3))
    np.testing.assert_array_equal(vt.concatenate([x, x], axis=1).numpy(),
                                  np.concatenate([A, A], axis=1))
    np.testing.assert_array_equal(vt.stack([x, x]).numpy(), np.stack([A, A]))
    np.testing.assert_array_equal(vt.select(x > 1, x, 0.0).numpy(), np.where(A > 1, A, 0))
    np.testing.assert_array_equal(vt.take(x, [2, 0], axis=1).numpy(), A[:, [2, 0]])
    np.testing.assert_array_equal(vt.clip(x, 0.8, 1.2).numpy(), np.clip(A, 0.8, 1.2))


KEYS = st.one_of(
    st.integers(-3, 2),
    st.slices(3),
    st.just(Ellipsis),
    st.just(None),
)


@settings(max_examples=150, deadline=None)
@given(st.tuples(KEYS, st.one_of(st.integers(-4, 3), st.slices(4), st.just(None))))
def test_basic_indexing_matches_numpy(key):
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    try:
        expected = a[key]
    except IndexError:
        with pytest.raises(IndexError):
            vt.asarray(a)[key]
        return
    np.testing.assert_array_equal(np.asarray(vt.asarray(a)[key]), expected)


def test_integer_array_index_and_errors():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = vt.asarray(a)
    np.testing.assert_array_equal(np.asarray(x[:, [2, 0]]), a[:, [2, 0]])
    np.testing.assert_array_equal(np.asarray(x[1, [[0, 1]], 2:]), a[1, [[0, 1]], 2:])
    with pytest.raises(IndexError, match=r"\[getitem\] index 3 is out of range"):
        x[0, 3]
    np.testing.assert_array_equal(np.asarray(x[a > 3]), a[a > 3])
    np.testing.assert_array_equal(np.asarray(x[a[:, :, 0] > 8]), a[a[:, :, 0] > 8])
    assert x[np.zeros((2, 3), bool)].shape == (0, 4)
    with pytest.raises(IndexError, match="boolean mask of shape"):
        x[np.ones((3,), bool)]
    with pytest.raises(TypeError, match="uint8 tensor index is ambiguous"):
        x[x > 3]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
