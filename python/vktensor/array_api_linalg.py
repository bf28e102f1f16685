"""The array API's linalg extension over vktensor's decompositions and solves."""
import math
from collections import namedtuple

from . import _vktensor as _vt
from . import array_api as _xp

EighResult = namedtuple("EighResult", "eigenvalues eigenvectors")
QRResult = namedtuple("QRResult", "Q R")
SVDResult = namedtuple("SVDResult", "U S Vh")
SlogdetResult = namedtuple("SlogdetResult", "sign logabsdet")


def cholesky(x, /, *, upper=False):
    lower = _vt.cholesky(x)
    return _xp.matrix_transpose(_vt.conjugate(lower)) if upper else lower


def det(x, /):
    return _vt.determinant(x)


def slogdet(x, /):
    d = _vt.determinant(x)
    return SlogdetResult(_vt.sign(d), _vt.log(_vt.abs(d)))


def eigh(x, /):
    return EighResult(*_vt.eigh(x))


def eigvalsh(x, /):
    return _vt.eigh(x)[0]


def inv(x, /):
    eye = _vt.broadcast(_xp.eye(x.shape[-1], dtype=x.dtype, device=x.device), x.shape)
    return _vt.solve(x, eye)


def matmul(x1, x2, /):
    return _vt.matmul(x1, x2)


def matrix_transpose(x, /):
    return _xp.matrix_transpose(x)


def qr(x, /, *, mode="reduced"):
    return QRResult(*_vt.qr(x, mode=mode))


def solve(x1, x2, /):
    return _vt.solve(x1, x2)


def svd(x, /, *, full_matrices=True):
    return SVDResult(*_vt.svd(x, full_matrices=full_matrices))


def svdvals(x, /):
    return _vt.svd(x, full_matrices=False)[1]


def diagonal(x, /, *, offset=0):
    n, m = x.shape[-2], x.shape[-1]
    length = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    rows = _vt.iota((length,), dtype=_vt.int64) + max(0, -offset)
    cols = _vt.iota((length,), dtype=_vt.int64) + max(0, offset)
    flat = _vt.reshape(x, x.shape[:-2] + (n * m,))
    return _vt.take(flat, rows * m + cols, axis=x.ndim - 2)


def trace(x, /, *, offset=0, dtype=None):
    d = diagonal(x, offset=offset)
    return _vt.sum(d if dtype is None else d.astype(dtype), axis=-1)


def outer(x1, x2, /):
    return _vt.reshape(x1, (x1.shape[0], 1)) * _vt.reshape(x2, (1, x2.shape[0]))


def vecdot(x1, x2, /, *, axis=-1):
    return _xp.vecdot(x1, x2, axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    return _xp.tensordot(x1, x2, axes=axes)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
    a = _vt.abs(x)
    if ord == math.inf:
        return _vt.reduce_max(a, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return _vt.reduce_min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _vt.sum(_vt.not_equal(a, 0).astype(a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _vt.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return _vt.sqrt(_vt.sum(a * a, axis=axis, keepdims=keepdims))
    return _vt.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    axes = (x.ndim - 2, x.ndim - 1)
    a = _vt.abs(x)
    if ord == "fro":
        return _vt.sqrt(_vt.sum(a * a, axis=axes, keepdims=keepdims))
    if ord in (1, -1):
        sums = _vt.sum(a, axis=x.ndim - 2, keepdims=True)
        pick = _vt.reduce_max if ord == 1 else _vt.reduce_min
        r = pick(sums, axis=x.ndim - 1, keepdims=True)
    elif ord in (math.inf, -math.inf):
        sums = _vt.sum(a, axis=x.ndim - 1, keepdims=True)
        pick = _vt.reduce_max if ord == math.inf else _vt.reduce_min
        r = pick(sums, axis=x.ndim - 2, keepdims=True)
    elif ord in (2, -2, "nuc"):
        s = svdvals(x)
        r = _vt.sum(s, axis=-1) if ord == "nuc" else (
            _vt.reduce_max(s, axis=-1) if ord == 2 else _vt.reduce_min(s, axis=-1))
        return _vt.reshape(r, r.shape + (1, 1)) if keepdims else r
    else:
        raise ValueError(f"[matrix_norm] unknown ord {ord!r}")
    return r if keepdims else _vt.reshape(r, x.shape[:-2])


def matrix_power(x, n, /):
    if n < 0:
        return matrix_power(inv(x), -n)
    result = _vt.broadcast(_xp.eye(x.shape[-1], dtype=x.dtype, device=x.device), x.shape)
    base = x
    while n:
        if n & 1:
            result = _vt.matmul(result, base)
        base = _vt.matmul(base, base)
        n >>= 1
    return result


def pinv(x, /, *, rtol=None):
    u, s, vh = _vt.svd(x, full_matrices=False)
    if rtol is None:
        rtol = max(x.shape[-2:]) * _xp.finfo(s.dtype).eps
    cutoff = _vt.reduce_max(s, axis=-1, keepdims=True) * rtol
    s_inv = _vt.select(_vt.greater(s, cutoff), 1.0 / s, 0.0)
    return _vt.matmul(_xp.matrix_transpose(_vt.conjugate(vh)) * _vt.reshape(
        s_inv, s_inv.shape[:-1] + (1, s_inv.shape[-1])), _xp.matrix_transpose(_vt.conjugate(u)))


def matrix_rank(x, /, *, rtol=None):
    s = svdvals(x)
    if rtol is None:
        rtol = max(x.shape[-2:]) * _xp.finfo(s.dtype).eps
    cutoff = _vt.reduce_max(s, axis=-1, keepdims=True) * rtol
    return _vt.sum(_vt.greater(s, cutoff).astype(_vt.int64), axis=-1)


def cross(x1, x2, /, *, axis=-1):
    def part(t, i):
        return _vt.take(t, [i], axis=axis)
    a0, a1, a2 = (part(x1, i) for i in range(3))
    b0, b1, b2 = (part(x2, i) for i in range(3))
    return _vt.concatenate([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0],
                           axis=axis)
