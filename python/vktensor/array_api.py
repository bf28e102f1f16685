"""The Python array API standard (2022.12) over vktensor: `x.__array_namespace__()`.

Functions of the standard map onto vktensor's ops; where the standard and vktensor differ
(Nx's type promotion, uint8 for booleans, immutable arrays) the difference is listed in
docs/python.md. Functions whose result shape depends on the data (nonzero, the unique_*
family) read the tensor to the host: on a device that is a download, counted by the ledger.
"""
import builtins
import math
import numbers
from collections import namedtuple

import numpy as _np

from . import _vktensor as _vt

__array_api_version__ = "2022.12"

Tensor = _vt.Tensor
int8, int16, int32, int64 = _vt.int8, _vt.int16, _vt.int32, _vt.int64
uint8, uint16, uint32, uint64 = _vt.uint8, _vt.uint16, _vt.uint32, _vt.uint64
float32, float64 = _vt.float32, _vt.float64
complex64, complex128 = _vt.complex64, _vt.complex128
bool = _vt.uint8  # noqa: A001  vktensor's predicates give uint8 (there is no boolean dtype)
e, inf, nan, pi, newaxis = math.e, math.inf, math.nan, math.pi, None

_FLOATS = (_vt.float16, _vt.bfloat16, _vt.float32, _vt.float64)
_COMPLEX = (_vt.complex64, _vt.complex128)
_SIGNED = (_vt.int8, _vt.int16, _vt.int32, _vt.int64)
_UNSIGNED = (_vt.uint8, _vt.uint16, _vt.uint32, _vt.uint64)


def _default_float(device=None):
    return _vt.float32


# ---- creation ----

def asarray(obj, /, *, dtype=None, device=None, copy=None):
    return _vt.asarray(obj, dtype=dtype, device=device, copy=copy)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if stop is None:
        start, stop = 0, start
    n = builtins.max(0, math.ceil((stop - start) / step))
    if dtype is None:
        is_float = builtins.any(isinstance(v, float) for v in (start, stop, step))
        dtype = _default_float() if is_float else _vt.int64
    return _vt.iota((n,), dtype=_vt.float64 if dtype in _FLOATS else _vt.int64,
                    device=device).__mul__(step).__add__(start).astype(dtype)


def full(shape, fill_value, *, dtype=None, device=None):
    return _vt.full(_shape(shape), fill_value, dtype=dtype, device=device)


def zeros(shape, *, dtype=None, device=None):
    return _vt.full(_shape(shape), 0, dtype=dtype or _default_float(), device=device)


def ones(shape, *, dtype=None, device=None):
    return _vt.full(_shape(shape), 1, dtype=dtype or _default_float(), device=device)


def empty(shape, *, dtype=None, device=None):
    return zeros(shape, dtype=dtype, device=device)  # immutable: an "uninitialised" array is zeros


def full_like(x, /, fill_value, *, dtype=None, device=None):
    return full(x.shape, fill_value, dtype=dtype or x.dtype, device=device or x.device)


def zeros_like(x, /, *, dtype=None, device=None):
    return full_like(x, 0, dtype=dtype, device=device)


def ones_like(x, /, *, dtype=None, device=None):
    return full_like(x, 1, dtype=dtype, device=device)


def empty_like(x, /, *, dtype=None, device=None):
    return zeros_like(x, dtype=dtype, device=device)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    n_cols = n_rows if n_cols is None else n_cols
    rows = _vt.iota((n_rows, n_cols), dtype=_vt.int64, axis=0, device=device)
    cols = _vt.iota((n_rows, n_cols), dtype=_vt.int64, axis=1, device=device)
    return (rows + k == cols).astype(dtype or _default_float())


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    dtype = dtype or _default_float()
    divisions = (num - 1) if endpoint else num
    step = (stop - start) / divisions if divisions > 0 else 0.0
    values = _vt.iota((num,), dtype=_vt.float64, device=device) * step + start
    if endpoint and num > 1:
        values = _vt.put_slice(values, [num - 1], _vt.full((1,), float(stop), dtype=_vt.float64,
                                                            device=values.device))
    return values.astype(dtype)


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"[meshgrid] indexing must be 'xy' or 'ij', got {indexing!r}")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and len(arrays) > 1 and i < 2:
            axis = 1 - i
        out.append(_vt.broadcast(a, tuple(shape), axes=(axis,)))
    return out


def _triangle(x, k, lower):
    rows = _vt.iota(x.shape[-2:], dtype=_vt.int64, axis=0, device=x.device)
    cols = _vt.iota(x.shape[-2:], dtype=_vt.int64, axis=1, device=x.device)
    keep = (cols <= rows + k) if lower else (cols >= rows + k)
    return _vt.select(keep, x, zeros_like(x))


def tril(x, /, *, k=0):
    return _triangle(x, k, True)


def triu(x, /, *, k=0):
    return _triangle(x, k, False)


def from_dlpack(x, /):
    return _vt.from_dlpack(x)


# ---- data types ----

def astype(x, dtype, /, *, copy=True):
    if x.dtype == dtype and not copy:
        return x
    return x.astype(dtype)


def isdtype(dtype, kind):
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if not isinstance(kind, str):
        return dtype == kind
    groups = {"bool": (_vt.uint8,), "signed integer": _SIGNED, "unsigned integer": _UNSIGNED,
              "integral": _SIGNED + _UNSIGNED, "real floating": _FLOATS,
              "complex floating": _COMPLEX, "numeric": _SIGNED + _UNSIGNED + _FLOATS + _COMPLEX}
    if kind not in groups:
        raise ValueError(f"[isdtype] unknown kind {kind!r}")
    return dtype in groups[kind]


def result_type(*arrays_and_dtypes):
    """vktensor's promotion (Nx's), applied pairwise."""
    result = None
    for a in arrays_and_dtypes:
        t = a if isinstance(a, Tensor) else _vt.full((), 0, dtype=a)
        result = t if result is None else (_vt.full((), 0, dtype=result.dtype) + t)
    return result.dtype


def can_cast(from_, to, /):
    source = from_.dtype if isinstance(from_, Tensor) else from_
    return result_type(source, to) == to


_finfo = namedtuple("finfo", "bits eps max min smallest_normal dtype")
_iinfo = namedtuple("iinfo", "bits max min dtype")


def finfo(type, /):  # noqa: A002
    dtype = type.dtype if isinstance(type, Tensor) else type
    if dtype in _COMPLEX:
        dtype = _vt.float32 if dtype == _vt.complex64 else _vt.float64
    if dtype == _vt.bfloat16:
        return _finfo(16, 2.0**-7, 3.3895313892515355e38, -3.3895313892515355e38, 2.0**-126,
                      dtype)
    f = _np.finfo(_np.dtype(str(dtype)))
    return _finfo(f.bits, float(f.eps), float(f.max), float(f.min), float(f.smallest_normal),
                  dtype)


def iinfo(type, /):  # noqa: A002
    dtype = type.dtype if isinstance(type, Tensor) else type
    i = _np.iinfo(_np.dtype(str(dtype)))
    return _iinfo(i.bits, int(i.max), int(i.min), dtype)


# ---- elementwise ----

def _same(name):
    return getattr(_vt, name)


abs, acos, acosh, add, asin, asinh, atan, atan2, atanh = (  # noqa: A001
    _same(n) for n in ("abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh"))
bitwise_and, bitwise_or, bitwise_xor = (_same(n) for n in ("bitwise_and", "bitwise_or",
                                                          "bitwise_xor"))
bitwise_invert, bitwise_left_shift, bitwise_right_shift = (
    _vt.bitwise_not, _vt.left_shift, _vt.right_shift)
ceil, cos, cosh, divide, equal, exp, expm1, floor = (
    _same(n) for n in ("ceil", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor"))
greater, greater_equal, less, less_equal, log, log1p = (
    _same(n) for n in ("greater", "greater_equal", "less", "less_equal", "log", "log1p"))
logical_and, logical_not, logical_or, logical_xor, multiply, not_equal = (
    _same(n) for n in ("logical_and", "logical_not", "logical_or", "logical_xor", "multiply",
                       "not_equal"))
pow, real, imag, sign, sin, sinh, sqrt, subtract, tan, tanh = (  # noqa: A001
    _same(n) for n in ("pow", "real", "imag", "sign", "sin", "sinh", "sqrt", "subtract", "tan",
                       "tanh"))
conj, negative, isnan, isinf = _vt.conjugate, _vt.negate, _vt.is_nan, _vt.is_infinity
floor_divide, remainder = _vt.floor_divide, _vt.mod


def positive(x, /):
    return x


def square(x, /):
    return _vt.multiply(x, x)


def isfinite(x, /):
    return _vt.logical_not(_vt.logical_or(_vt.is_nan(x), _vt.is_infinity(x)))


def round(x, /):  # noqa: A001
    """Half to even, as the standard asks (vt.round rounds halves away from zero)."""
    if not isdtype(x.dtype, "real floating"):
        return x
    r = _vt.round(x)
    tie = _vt.equal(_vt.abs(x - trunc(x)), 0.5)
    odd = _vt.not_equal(_vt.mod(r, 2), 0)
    return _vt.select(_vt.logical_and(tie, odd), r - _vt.sign(x), r)


def trunc(x, /):
    return _vt.select(_vt.less(x, 0), _vt.ceil(x), _vt.floor(x))


def _log_base(x, base):
    wide = x.astype(_vt.float64) if x.dtype in (_vt.float16, _vt.bfloat16, _vt.float32) else x
    return (_vt.log(wide) * (1.0 / math.log(base))).astype(x.dtype)


def log2(x, /):
    return _log_base(x, 2.0)


def log10(x, /):
    return _log_base(x, 10.0)


def logaddexp(x1, x2, /):
    hi = _vt.max(x1, x2)
    return hi + _vt.log1p(_vt.exp(-_vt.abs(x1 - x2)))


# ---- statistics, searching, sorting, utility ----

def _axes(axis):
    return () if axis == () else axis


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _vt.sum(x if dtype is None else x.astype(dtype), axis=_axes(axis), keepdims=keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _vt.product(x if dtype is None else x.astype(dtype), axis=_axes(axis),
                       keepdims=keepdims)


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _vt.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _vt.reduce_min(x, axis=axis, keepdims=keepdims)


def _count(x, axis):
    """The element count a reduction over `axis` (None, an int or a sequence) averages."""
    if axis is None:
        return x.size
    axes = (axis,) if isinstance(axis, numbers.Integral) else axis
    return math.prod(x.shape[a] for a in axes)


def mean(x, /, *, axis=None, keepdims=False):
    return _vt.sum(x, axis=axis, keepdims=keepdims) / _count(x, axis)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    centred = x - mean(x, axis=axis, keepdims=True)
    squares = _vt.sum(centred * _vt.conjugate(centred) if x.dtype in _COMPLEX
                      else centred * centred, axis=axis, keepdims=keepdims)
    return squares / builtins.max(_count(x, axis) - correction, 0)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _vt.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def argmax(x, /, *, axis=None, keepdims=False):
    return _vt.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    return _vt.argmin(x, axis=axis, keepdims=keepdims)


def where(condition, x1, x2, /):
    return _vt.select(condition, x1, x2)


def _host(x):
    return _np.asarray(x.to_device(_vt.cpu())) if x.device != _vt.cpu() else _np.asarray(x)


def nonzero(x, /):
    """Data-dependent shape: read on the host (a download for a device tensor)."""
    return tuple(_vt.asarray(i.astype(_np.int64), device=x.device) for i in _np.nonzero(_host(x)))


def sort(x, /, *, axis=-1, descending=False, stable=True):
    return _vt.sort(x, axis=axis, descending=descending)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    return _vt.argsort(x, axis=axis, descending=descending)


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _vt.all(x, axis=axis, keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _vt.any(x, axis=axis, keepdims=keepdims)


_UniqueAll = namedtuple("UniqueAllResult", "values indices inverse_indices counts")
_UniqueCounts = namedtuple("UniqueCountsResult", "values counts")
_UniqueInverse = namedtuple("UniqueInverseResult", "values inverse_indices")


def _unique(x):
    values, indices, inverse, counts = _np.unique(_host(x).ravel(), return_index=True,
                                                  return_inverse=True, return_counts=True)
    back = lambda a: _vt.asarray(a, device=x.device)  # noqa: E731
    return (back(values), back(indices.astype(_np.int64)),
            back(inverse.astype(_np.int64).reshape(x.shape)), back(counts.astype(_np.int64)))


def unique_all(x, /):
    return _UniqueAll(*_unique(x))


def unique_counts(x, /):
    v, _, _, c = _unique(x)
    return _UniqueCounts(v, c)


def unique_inverse(x, /):
    v, _, inv, _ = _unique(x)
    return _UniqueInverse(v, inv)


def unique_values(x, /):
    return _unique(x)[0]


# ---- manipulation ----

def _shape(shape):
    return (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)


def broadcast_to(x, /, shape):
    return _vt.broadcast(x, _shape(shape))


def broadcast_arrays(*arrays):
    shape = _np.broadcast_shapes(*(a.shape for a in arrays))
    return [broadcast_to(a, shape) for a in arrays]


def concat(arrays, /, *, axis=0):
    if axis is None:
        return _vt.concatenate([reshape(a, (-1,)) for a in arrays], axis=0)
    return _vt.concatenate(list(arrays), axis=axis)


def stack(arrays, /, *, axis=0):
    return _vt.stack(list(arrays), axis=axis)


def expand_dims(x, /, *, axis=0):
    rank = x.ndim + 1
    if not -rank <= axis < rank:
        raise _vt.AxisError(f"[expand_dims] axis {axis} is out of range for rank {rank}")
    axis %= rank
    return _vt.reshape(x, x.shape[:axis] + (1,) + x.shape[axis:])


def flip(x, /, *, axis=None):
    return _vt.reverse(x, axis=axis)


def permute_dims(x, /, axes):
    return _vt.transpose(x, axes=axes)


def reshape(x, /, shape, *, copy=None):
    if copy is True:
        return _vt.asarray(_vt.reshape(x, _shape(shape)), copy=True)
    return _vt.reshape(x, _shape(shape))


def squeeze(x, /, axis):
    return _vt.squeeze(x, axis=axis)


def roll(x, /, shift, *, axis=None):
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, axis=0), x.shape)
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    for s, a in zip(shifts, axes):
        n = x.shape[a]
        if n == 0:
            continue
        s %= n
        if s:
            index = [slice(None)] * x.ndim
            index[a] = slice(n - s, None)
            tail = x[tuple(index)]
            index[a] = slice(0, n - s)
            x = _vt.concatenate([tail, x[tuple(index)]], axis=a)
    return x


def matmul(x1, x2, /):
    return _vt.matmul(x1, x2)


def matrix_transpose(x, /):
    axes = list(range(x.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return _vt.transpose(x, axes=axes)


def _contraction_axes(a_ndim, b_ndim, axes):
    """tensordot's `axes` (a count, or two axes or sequences) as two lists of axes >= 0."""
    if isinstance(axes, numbers.Integral):
        return list(range(a_ndim - axes, a_ndim)), list(range(axes))
    a_axes, b_axes = axes
    a_axes = [a_axes] if isinstance(a_axes, numbers.Integral) else list(a_axes)
    b_axes = [b_axes] if isinstance(b_axes, numbers.Integral) else list(b_axes)
    if len(a_axes) != len(b_axes):
        raise _vt.ShapeError(f"[tensordot] axes {a_axes} and {b_axes} differ in length")
    return [a % a_ndim for a in a_axes], [b % b_ndim for b in b_axes]


def tensordot(x1, x2, /, *, axes=2):
    """One vt.dot over the contracted axes (no transposed copies of the operands); with no
    axis in common, the outer product."""
    a_axes, b_axes = _contraction_axes(x1.ndim, x2.ndim, axes)
    if not a_axes:
        return _vt.reshape(x1, x1.shape + (1,) * x2.ndim) * x2
    return _vt.dot(x1, x2, contract_axes=(a_axes, b_axes))


def vecdot(x1, x2, /, *, axis=-1):
    return _vt.sum(_vt.conjugate(x1) * x2, axis=axis)


from . import array_api_linalg as linalg  # noqa: E402
from . import array_api_fft as fft  # noqa: E402
