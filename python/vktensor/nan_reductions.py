"""NumPy's NaN-skipping reductions on tensors: vt.nansum, nanprod, nanmax, nanmin, nanmean,
nanvar, nanstd, nanargmax, nanargmin (issue 39).

Each is composed of vktensor ops (is_nan, select, the plain reductions) here, in one place:
`vt.nansum(x)`, NumPy's `np.nansum(x)` on a tensor (numpy_protocol) and Dask's chunk functions
over tensor chunks (vktensor.dask) all reach these, on the tensor's device. They live in the
Python package, not the C++ API, as mean and var do (array_api.py): the C++ surface follows Nx,
which has neither. Semantics are NumPy's: NaNs are skipped; nanmax, nanmin and nanmean of an
all-NaN slice are NaN (without NumPy's warning), as are nanvar and nanstd where the count of
numbers is at most ddof; nanargmax and nanargmin of an all-NaN slice raise AllNaNSlice. Integer
inputs hold no NaN and take the plain reductions (nanmean, nanvar and nanstd in float64, as
NumPy). Complex inputs follow NumPy where it has an order-free answer: an element is NaN when
either part is (nansum, nanprod, nanmean, nanvar, nanstd; nanvar's result is real). nanmax,
nanmin, nanargmax and nanargmin refuse complex with vt.TypeError: vktensor's reduce_max and
argmax order no complex numbers. One difference from NumPy, on purpose: where a slice's best
number is an infinity after a NaN (max -inf, min +inf), NumPy's nanargmax returns the NaN's
index (it makes NaN -inf, which ties); these return the infinity's.
"""
import math

from . import _vktensor as _vt

_FLOATS = (_vt.float16, _vt.bfloat16, _vt.float32, _vt.float64)
_COMPLEX = (_vt.complex64, _vt.complex128)


class AllNaNSlice(_vt.Error, ValueError):
    """nanargmax / nanargmin of a slice holding only NaN (NumPy raises ValueError there): a
    vt.Error and a ValueError, so code written for NumPy (Dask's included) catches it."""


def _has_nan(x):
    return x.dtype in _FLOATS or x.dtype in _COMPLEX


def _constant(x, value, dtype=None):
    """A rank-0 tensor on x's device: `select` takes it broadcast, without a host operand."""
    return _vt.full((), value, dtype=x.dtype if dtype is None else dtype, device=x.device)


def _filled(x, mask, value):
    return _vt.select(mask, _constant(x, value), x)


def _converted(x, dtype):
    return x if dtype is None else x.astype(dtype)


def _refuse_complex(x, op):
    if x.dtype in _COMPLEX:
        raise _vt.TypeError(f"[{op}] complex tensors have no order (got {x.dtype}); reduce "
                            "vt.real(x) or vt.abs(x)")


def _count(x, mask, axis, keepdims, dtype):
    """How many numbers (not NaN) each slice holds, in `dtype` (the division's)."""
    return _vt.sum(_vt.logical_not(mask), axis=axis, keepdims=keepdims).astype(dtype)


def _real_dtype(dtype):
    return {_vt.complex64: _vt.float32, _vt.complex128: _vt.float64}.get(dtype, dtype)


# ---- sums and products ----

def nansum(x, axis=None, keepdims=False, dtype=None):
    """The sum with NaNs counted as zero; 0 for an all-NaN slice."""
    x = _converted(x, dtype)
    if _has_nan(x):
        x = _filled(x, _vt.is_nan(x), 0)
    return _vt.sum(x, axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False, dtype=None):
    """The product with NaNs counted as one; 1 for an all-NaN slice."""
    x = _converted(x, dtype)
    if _has_nan(x):
        x = _filled(x, _vt.is_nan(x), 1)
    return _vt.product(x, axis=axis, keepdims=keepdims)


# ---- extrema ----

def _nanextreme(x, axis, keepdims, op, largest):
    reduce = _vt.reduce_max if largest else _vt.reduce_min
    _refuse_complex(x, op)
    if not _has_nan(x):
        return reduce(x, axis=axis, keepdims=keepdims)
    mask = _vt.is_nan(x)
    # NaN loses to every number once it is -inf (+inf for min); a slice of NaN only gives
    # back NaN, told apart from a real infinity by `all`.
    best = reduce(_filled(x, mask, -math.inf if largest else math.inf), axis=axis,
                  keepdims=keepdims)
    return _vt.select(_vt.all(mask, axis=axis, keepdims=keepdims), _constant(x, math.nan), best)


def nanmax(x, axis=None, keepdims=False):
    """The maximum ignoring NaNs; NaN for an all-NaN slice."""
    return _nanextreme(x, axis, keepdims, "nanmax", True)


def nanmin(x, axis=None, keepdims=False):
    """The minimum ignoring NaNs; NaN for an all-NaN slice."""
    return _nanextreme(x, axis, keepdims, "nanmin", False)


# ---- mean, variance ----

def _float_input(x, dtype):
    """NumPy's rule: integers average in float64 unless a dtype is given."""
    if dtype is None and not _has_nan(x):
        dtype = _vt.float64
    return _converted(x, dtype)


def nanmean(x, axis=None, keepdims=False, dtype=None):
    """The mean of the numbers of each slice; NaN for an all-NaN slice (0 / 0)."""
    x = _float_input(x, dtype)
    mask = _vt.is_nan(x)
    total = _vt.sum(_filled(x, mask, 0), axis=axis, keepdims=keepdims)
    return total / _count(x, mask, axis, keepdims, x.dtype)


def nanvar(x, axis=None, keepdims=False, dtype=None, ddof=0):
    """The variance of the numbers of each slice (divided by count - ddof; real for complex
    input); NaN where the count is at most ddof."""
    x = _float_input(x, dtype)
    mask = _vt.is_nan(x)
    filled = _filled(x, mask, 0)
    mean = _vt.sum(filled, axis=axis, keepdims=True) / _count(x, mask, axis, True, x.dtype)
    # NaN positions deviate by zero (not by -mean): they add nothing to the squares.
    deviation = _filled(filled - mean, mask, 0)
    if x.dtype in _COMPLEX:
        squares = _vt.real(deviation * _vt.conjugate(deviation))
    else:
        squares = deviation * deviation
    real = _real_dtype(x.dtype)
    count = _count(x, mask, axis, keepdims, real)
    # Device constants, not literals: a literal operand is an upload to the device.
    dof = count - _constant(count, ddof) if ddof else count
    variance = _vt.sum(squares, axis=axis, keepdims=keepdims) / dof
    return _vt.select(dof > _constant(dof, 0), variance, _constant(variance, math.nan))


def nanstd(x, axis=None, keepdims=False, dtype=None, ddof=0):
    """The square root of nanvar."""
    return _vt.sqrt(nanvar(x, axis=axis, keepdims=keepdims, dtype=dtype, ddof=ddof))


# ---- argmax, argmin ----

def first_best_index(x, axis=None, keepdims=False, largest=True):
    """The index of each slice's first maximum (minimum) ignoring NaNs, 0 for an all-NaN
    slice (no check: vktensor.dask reads its chunks' values instead). Not argmax of x with
    NaN made -inf: a real -inf after a NaN would lose the tie to the NaN's position."""
    if not _has_nan(x):
        return (_vt.argmax if largest else _vt.argmin)(x, axis=axis, keepdims=keepdims)
    best = _nanextreme(x, axis, True, "nanargmax" if largest else "nanargmin", largest)
    return _vt.argmax(x == best, axis=axis, keepdims=keepdims)  # the first position of best


def _nanarg(x, axis, keepdims, op):
    largest = op == "nanargmax"
    _refuse_complex(x, op)
    if _has_nan(x) and bool(_vt.any(_vt.all(_vt.is_nan(x), axis=axis))):
        # NumPy raises here too; telling needs the answer on the host (one byte read back).
        raise AllNaNSlice(f"[{op}] All-NaN slice encountered (a slice of x{x.shape} along "
                          f"axis {axis} holds only NaN, so it has no {op[3:]})")
    return first_best_index(x, axis=axis, keepdims=keepdims, largest=largest)


def nanargmax(x, axis=None, keepdims=False):
    """The index of the first maximum ignoring NaNs; AllNaNSlice for an all-NaN slice."""
    return _nanarg(x, axis, keepdims, "nanargmax")


def nanargmin(x, axis=None, keepdims=False):
    """The index of the first minimum ignoring NaNs; AllNaNSlice for an all-NaN slice."""
    return _nanarg(x, axis, keepdims, "nanargmin")


FUNCTIONS = {f.__name__: f for f in (nansum, nanprod, nanmax, nanmin, nanmean, nanvar, nanstd,
                                     nanargmax, nanargmin)}
