"""The ops with options or a caller's function, against NumPy: dot's dimension numbers, conv,
triangular_solve, window_scatter, fft2, to_batched, copy, reduce and window_reduce."""
import numpy as np
import pytest

import vktensor as vt


def f64(x):
    return np.asarray(vt.as_type(x, vt.float64).to_device(vt.cpu()))


def test_dot_with_contraction_and_batch_axes_is_einsum(device):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 4, 5)), rng.standard_normal((3, 5, 2))
    x, y = vt.asarray(a, device=device), vt.asarray(b, device=device)
    got = vt.dot(x, y, contract_axes=([2], [1]), batch_axes=([0], [0]))
    np.testing.assert_allclose(f64(got), np.einsum("bij,bjk->bik", a, b), rtol=1e-12)
    np.testing.assert_allclose(f64(vt.dot(x[0], y[0])), a[0] @ b[0], rtol=1e-12)
    with pytest.raises(vt.TypeError, match=r"\[dot\] contract_axes is a pair"):
        vt.dot(x, y, contract_axes=[2])
    with pytest.raises(vt.TypeError, match="needs contract_axes"):
        vt.dot(x, y, batch_axes=([0], [0]))


@pytest.mark.parametrize("padding,mode", [(None, "valid"), ("valid", "valid"), ("same", "same")])
def test_conv_is_cross_correlation(device, padding, mode):
    signal = np.arange(1.0, 10.0)
    kernel = np.array([1.0, -2.0, 0.5])
    x = vt.asarray(signal.reshape(1, 1, 9), device=device)
    k = vt.asarray(kernel.reshape(1, 1, 3), device=device)
    got = vt.conv(x, k, padding=padding)
    np.testing.assert_allclose(f64(got).ravel(), np.correlate(signal, kernel, mode), rtol=1e-12)
    strided = vt.conv(x, k, strides=[2], padding=[(1, 1)])
    np.testing.assert_allclose(f64(strided).ravel(), np.correlate(signal, kernel, "same")[::2],
                               rtol=1e-12)
    with pytest.raises(vt.Error, match=r"\[conv\] padding must be"):
        vt.conv(x, k, padding="full")


def test_triangular_solve_reads_one_triangle(device):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    b = rng.standard_normal((4, 2))
    x = vt.asarray(a, device=device)
    lower = vt.triangular_solve(x, vt.asarray(b, device=device))
    np.testing.assert_allclose(f64(lower), np.linalg.solve(np.tril(a), b), rtol=1e-10)
    upper_t = vt.triangular_solve(x, vt.asarray(b, device=device), lower=False,
                                  transform_a="transpose")
    np.testing.assert_allclose(f64(upper_t), np.linalg.solve(np.triu(a).T, b), rtol=1e-10)
    with pytest.raises(vt.Error, match="transform_a must be"):
        vt.triangular_solve(x, x, transform_a="both")


def test_window_scatter_max_adds_each_source_at_its_windows_maximum(device):
    t = np.array([[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 9.0, 1.0]])
    source = np.array([[10.0, 20.0]])
    got = vt.window_scatter_max(vt.asarray(t, device=device), vt.asarray(source, device=device),
                                0.0, (2, 2), strides=(2, 2))
    expected = np.zeros_like(t)
    expected[0, 1], expected[1, 2] = 10.0, 20.0  # 5 is the first window's max, 9 the second's
    np.testing.assert_array_equal(f64(got), expected)
    low = vt.window_scatter_min(vt.asarray(t), vt.asarray(source), 0.0, (2, 2), strides=(2, 2))
    expected = np.zeros_like(t)
    expected[0, 0], expected[0, 3] = 10.0, 20.0
    np.testing.assert_array_equal(f64(low), expected)


def test_window_scatter_takes_a_tensor_init_value_as_nx_does(device):
    t = np.array([[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 9.0, 1.0]], dtype=np.float32)
    source = np.array([[10, 20]], dtype=np.int32)
    init = vt.asarray(np.float32(-0.0), device=device)
    got = vt.window_scatter_max(vt.asarray(t, device=device), vt.asarray(source, device=device),
                                init, (2, 2), strides=(2, 2))
    assert got.dtype == vt.float32  # int32 source and float32 init promote
    expected = np.full_like(t, -0.0)
    expected[0, 1], expected[1, 2] = 10.0, 20.0
    out = np.asarray(got.to_device(vt.cpu()))
    np.testing.assert_array_equal(out, expected)
    assert np.signbit(out[0, 0])  # init lands bit for bit where no source went
    with pytest.raises(vt.ShapeError, match=r"\[window_scatter_min\] init_value must be a rank-0"):
        vt.window_scatter_min(vt.asarray(t), vt.asarray(source), np.zeros(1), (2, 2),
                              strides=(2, 2))


def test_pad_takes_a_tensor_value_as_nx_does(device):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = vt.asarray(a, device=device)
    got = vt.pad(x, vt.asarray(np.float64(np.nan), device=device), [(1, 0), (0, 2, 1)])
    assert got.dtype == vt.float64
    expected = np.full((3, 7), np.nan)
    expected[1:, 0:5:2] = a
    np.testing.assert_array_equal(np.asarray(got.to_device(vt.cpu())), expected)
    # A number keeps the tensor's dtype, as before.
    assert vt.pad(x, 2.0, [(1, 0), (0, 0)]).dtype == vt.int16
    with pytest.raises(vt.ShapeError, match=r"\[pad\] the pad value must be a rank-0 tensor"):
        vt.pad(x, np.zeros(2), [(1, 0), (0, 0)])


def test_fft2_and_ifft2_are_numpys(device):
    a = np.random.default_rng(3).standard_normal((4, 6))
    x = vt.asarray(a, device=device)
    np.testing.assert_allclose(np.asarray(vt.fft2(x).to_device(vt.cpu())), np.fft.fft2(a),
                               rtol=1e-9, atol=1e-12)
    back = vt.ifft2(vt.fft2(x, lengths=(4, 8)), axes=(-2, -1))
    np.testing.assert_allclose(np.asarray(back.to_device(vt.cpu())).real[:, :6], a, atol=1e-12)


def test_to_batched_repeats_or_discards_the_leftover():
    x = vt.iota((5, 2), dtype=vt.int32)
    batches = vt.to_batched(x, 2)
    assert [b.tolist() for b in batches] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [0, 1]]]
    assert len(vt.to_batched(x, 2, leftover="discard")) == 2
    with pytest.raises(vt.Error, match="leftover must be"):
        vt.to_batched(x, 2, leftover="pad")


def test_copy_owns_its_memory(device):
    x = vt.iota((4,), dtype=vt.float32, device=device)
    y = vt.copy(x)
    assert y.device == x.device and y.tolist() == x.tolist()
    if device == vt.cpu():
        assert not np.shares_memory(np.asarray(x), np.asarray(y))
    assert vt.copy(x, device=vt.cpu()).device == vt.cpu()


def test_reduce_folds_a_python_function(device):
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    x = vt.asarray(a, device=device)
    assert vt.reduce(x, 0, lambda e, acc: e + acc, axis=1).tolist() == a.sum(axis=1).tolist()
    # The order is row-major: a fold that is not commutative shows it.
    digits = vt.reduce(vt.asarray([1, 2, 3]), 0, lambda e, acc: acc * 10 + e)
    assert digits.item() == 123
    as_numpy = vt.reduce(vt.asarray([1.5, 2.5]), 1.0, lambda e, acc: np.float32(e * acc))
    assert as_numpy.item() == 3.75


def test_reduce_folds_complex_in_order(device):
    a = np.array([[1 + 2j, 3 - 1j], [-2 + 0.5j, 4j]], dtype=np.complex64)
    x = vt.asarray(a, device=device)

    def rotate_add(e, acc):
        return acc * 1j + e

    def fold(values, acc):
        for v in values:
            acc = acc * 1j + v
        return acc

    rows = vt.reduce(x, 1 + 1j, rotate_add, axis=1)
    assert rows.dtype == vt.complex64
    assert rows.tolist() == [fold(a[0], 1 + 1j), fold(a[1], 1 + 1j)]
    # A complex accumulator makes a real tensor complex64, as Nx's binary_type does.
    real = vt.reduce(vt.asarray([1.0, 2.0, 3.0]), 1j, rotate_add)
    assert real.dtype == vt.complex64 and real.item() == fold([1, 2, 3], 1j)
    w = vt.window_reduce(x, 0j, (1, 2), rotate_add)
    assert w.tolist() == [[fold(a[0], 0j)], [fold(a[1], 0j)]]


def test_reduce_passes_on_what_the_function_raises():
    def fails(e, acc):
        raise ValueError("no fold today")
    with pytest.raises(ValueError, match="no fold today"):
        vt.reduce(vt.iota((1000,), dtype=vt.float32), 0.0, fails)
    with pytest.raises(vt.TypeError, match="must return a number"):
        vt.reduce(vt.iota((3,), dtype=vt.float32), 0.0, lambda e, acc: "x")
    assert vt.sum(vt.iota((3,))).item() == 3  # the process goes on


def test_window_reduce_matches_window_sum(device):
    x = vt.asarray(np.arange(10.0).reshape(2, 5), device=device)
    got = vt.window_reduce(x, 0.0, (1, 3), lambda e, acc: e + acc, strides=(1, 2))
    np.testing.assert_array_equal(f64(got), f64(vt.window_sum(x, (1, 3), strides=(1, 2))))


def test_ops_by_name_and_scalar_tensor():
    x = vt.asarray([1.0, 4.0])
    assert vt.unary("sqrt", x).tolist() == [1.0, 2.0]
    assert vt.binary("subtract", x, 1).tolist() == [0.0, 3.0]
    with pytest.raises(vt.Error, match="exp"):
        vt.binary("exp", x, x)
    with pytest.raises(vt.Error, match="no_such_op"):
        vt.unary("no_such_op", x)
    s = vt.scalar_tensor(3, dtype=vt.int16)
    assert s.shape == () and s.dtype == vt.int16 and s.item() == 3
    assert vt.scalar_tensor(2.5).dtype == vt.float32
