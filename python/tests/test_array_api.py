"""The array API namespace (x.__array_namespace__()) against NumPy."""
import math

import numpy as np
import pytest

import vktensor as vt

RNG = np.random.default_rng(11)
A = RNG.uniform(0.5, 2.0, (3, 4)).astype(np.float32)
SPD = (lambda m: m @ m.T + 4 * np.eye(4))(RNG.uniform(-1, 1, (4, 4))).astype(np.float64)


@pytest.fixture
def xp():
    return vt.asarray(A).__array_namespace__()


def close(got, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(got.to_device(vt.cpu())), expected, rtol=rtol,
                               atol=atol)


def test_namespace_identity(xp):
    assert xp.__array_api_version__ == "2022.12"
    assert vt.asarray([1]).__array_namespace__(api_version="2022.12") is xp
    with pytest.raises(ValueError):
        vt.asarray([1]).__array_namespace__(api_version="1999.01")


def test_creation(xp):
    close(xp.arange(5), np.arange(5))
    close(xp.arange(1.0, 2.0, 0.25), np.arange(1.0, 2.0, 0.25))
    close(xp.arange(10, 0, -3), np.arange(10, 0, -3))
    close(xp.linspace(0, 1, 5), np.linspace(0, 1, 5))
    close(xp.linspace(0, 1, 4, endpoint=False), np.linspace(0, 1, 4, endpoint=False))
    close(xp.eye(3, 4, k=1), np.eye(3, 4, k=1))
    close(xp.zeros((2, 3)), np.zeros((2, 3)))
    close(xp.ones_like(vt.asarray(A)), np.ones_like(A))
    close(xp.full((2,), 7), np.full((2,), 7))
    close(xp.tril(vt.asarray(A), k=-1), np.tril(A, k=-1))
    close(xp.triu(vt.asarray(A), k=1), np.triu(A, k=1))
    gx, gy = xp.meshgrid(xp.arange(3), xp.arange(2))
    nx, ny = np.meshgrid(np.arange(3), np.arange(2))
    close(gx, nx)
    close(gy, ny)


def test_dtypes(xp):
    assert xp.isdtype(xp.float32, "real floating") and not xp.isdtype(xp.int8, "real floating")
    assert xp.isdtype(xp.uint16, ("bool", "unsigned integer"))
    assert xp.finfo(xp.float32).eps == np.finfo(np.float32).eps
    assert xp.iinfo(xp.int16).max == 32767
    assert xp.result_type(xp.int32, xp.float32) == xp.float32
    assert xp.can_cast(xp.int8, xp.int32) and not xp.can_cast(xp.float64, xp.int32)
    assert xp.astype(vt.asarray(A), xp.float64).dtype == xp.float64


def test_elementwise_extras(xp):
    x = vt.asarray(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7], np.float32))
    close(xp.round(x), np.round(np.asarray(x)))
    close(xp.trunc(x), np.trunc(np.asarray(x)))
    close(xp.square(x), np.square(np.asarray(x)))
    close(xp.log2(vt.asarray(np.float32([8.0, 0.5]))), [3.0, -1.0], atol=0)
    close(xp.log10(vt.asarray(np.float32([1000.0]))), [3.0], atol=0)
    close(xp.logaddexp(vt.asarray(A), vt.asarray(A.T[:3, :3].sum(1)[:, None])),
          np.logaddexp(A, A.T[:3, :3].sum(1)[:, None]))
    assert xp.isfinite(vt.asarray([1.0, math.inf, math.nan])).tolist() == [1, 0, 0]


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_statistics(xp, axis):
    x = vt.asarray(A)
    close(xp.mean(x, axis=axis), np.mean(A, axis=axis))
    close(xp.var(x, axis=axis, correction=1), np.var(A, axis=axis, ddof=1), rtol=1e-4)
    close(xp.std(x, axis=axis), np.std(A, axis=axis), rtol=1e-4)
    close(xp.prod(x, axis=axis), np.prod(A, axis=axis), rtol=1e-5)


def test_searching_sets_and_manipulation(xp):
    x = vt.asarray(np.array([[3, 0, 2], [0, 2, 5]], np.int32))
    rows, cols = xp.nonzero(x)
    assert rows.tolist() == [0, 0, 1, 1] and cols.tolist() == [0, 2, 1, 2]
    u = xp.unique_counts(x)
    assert u.values.tolist() == [0, 2, 3, 5] and u.counts.tolist() == [2, 2, 1, 1]
    inv = xp.unique_inverse(x).inverse_indices
    assert inv.shape == (2, 3) and inv.tolist() == [[2, 0, 1], [0, 1, 3]]
    a = vt.asarray(A)
    close(xp.roll(a, 1, axis=1), np.roll(A, 1, axis=1))
    close(xp.roll(a, -5), np.roll(A, -5))
    close(xp.flip(a, axis=0), np.flip(A, axis=0))
    close(xp.permute_dims(a, (1, 0)), A.T)
    close(xp.expand_dims(a, axis=-1), A[..., None])
    close(xp.concat([a, a], axis=None), np.concatenate([A.ravel(), A.ravel()]))
    b1, b2 = xp.broadcast_arrays(vt.asarray(np.ones((3, 1))), vt.asarray(np.ones(4)))
    assert b1.shape == b2.shape == (3, 4)
    close(xp.tensordot(a, vt.asarray(A.T), axes=1), np.tensordot(A, A.T, axes=1), rtol=1e-5)
    close(xp.vecdot(a, a), np.sum(A * A, axis=-1), rtol=1e-5)
    close(a.mT, A.T)


def test_linalg(xp):
    s = vt.asarray(SPD)
    la = xp.linalg
    close(la.cholesky(s), np.linalg.cholesky(SPD), rtol=1e-10)
    close(la.cholesky(s, upper=True), np.linalg.cholesky(SPD).T, rtol=1e-10)
    close(la.inv(s), np.linalg.inv(SPD), rtol=1e-9)
    close(la.det(s), np.linalg.det(SPD), rtol=1e-9)
    close(la.eigvalsh(s), np.linalg.eigvalsh(SPD), rtol=1e-9)
    close(la.svdvals(s), np.linalg.svd(SPD, compute_uv=False), rtol=1e-9)
    close(la.trace(s, offset=1), np.trace(SPD, offset=1))
    close(la.diagonal(s, offset=-2), np.diagonal(SPD, offset=-2))
    close(la.matrix_norm(s), np.linalg.norm(SPD), rtol=1e-9)
    close(la.matrix_norm(s, ord=1), np.linalg.norm(SPD, ord=1), rtol=1e-9)
    close(la.vector_norm(s, axis=1, ord=3), np.linalg.norm(SPD, axis=1, ord=3), rtol=1e-9)
    close(la.matrix_power(s, 3), np.linalg.matrix_power(SPD, 3), rtol=1e-9)
    close(la.pinv(s), np.linalg.pinv(SPD), rtol=1e-8)
    assert la.matrix_rank(s).item() == 4
    close(la.cross(vt.asarray([1.0, 0, 0]), vt.asarray([0, 1.0, 0])), [0, 0, 1])
    close(la.outer(vt.asarray([1.0, 2]), vt.asarray([3.0, 4, 5])), np.outer([1, 2], [3, 4, 5]))


def test_fft(xp):
    x = vt.asarray(A.astype(np.float64))
    close(xp.fft.fftn(x), np.fft.fftn(A), rtol=1e-5, atol=1e-5)
    close(xp.fft.fftfreq(5, d=0.5), np.fft.fftfreq(5, d=0.5))
    close(xp.fft.rfftfreq(6), np.fft.rfftfreq(6))
    close(xp.fft.fftshift(x), np.fft.fftshift(A))
    close(xp.fft.ifftshift(x, axes=1), np.fft.ifftshift(A, axes=1))
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fft(x, norm="ortho")
