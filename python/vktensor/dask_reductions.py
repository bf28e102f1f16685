"""Dask's argmax, argmin, var, std and moment, and their NaN-skipping variants (nanargmax,
nanargmin, nanvar, nanstd), over vktensor chunks (issue 39).

Dask's own chunk functions for these write into their results (`arg[:] = ...`,
`denominator[denominator < 0] = nan`) and index with several integer arrays at once, which
tensors, immutable, refuse. `install()` (run by `import vktensor.dask`) wraps five of them in
dask.array.reductions (arg_chunk, arg_combine, arg_agg, nanarg_agg, moment_agg): tensor chunks
take the functions here, every other chunk type Dask's own unchanged. So `da.argmax(x)`,
`x.argmin(axis=1)`, `np.argmax(x)`, `x.var()`, `x.std(ddof=1)`, `da.moment(x, 3)`,
`da.nanargmax(x)` and `da.nanvar(x)` run on the chunks' device. da.nansum, nanprod, nanmax,
nanmin and nanmean need no wrapper: their chunk functions call np.nansum and its kin, which
numpy_protocol runs as vt.nansum (nan_reductions.py) on the chunk.
"""
import functools
import math

import numpy as np
from dask.array import chunk as _dask_chunk
from dask.array import reductions as _dask_reductions
from dask.array.core import _concatenate2
from dask.core import flatten
from dask.utils import deepmap

import vktensor as vt
from vktensor import nan_reductions as _nan

Tensor = vt.Tensor

# Dask's argfunc, by name -> (vktensor's arg op, its reduction). By name: a distributed worker
# unpickles dask.array.chunk.argmax (a wrapper made at import) by value, a function other than
# its own. The nan ops' index ignores NaN and does not raise: an all-NaN chunk gives index 0
# and value NaN, and only nanarg_agg, seeing a NaN value chosen, knows a whole slice was NaN.
_ARG_OPS = {_dask_chunk.argmax.__name__: (vt.argmax, vt.reduce_max),
            _dask_chunk.argmin.__name__: (vt.argmin, vt.reduce_min),
            _dask_reductions._nanargmax.__name__: (
                functools.partial(_nan.first_best_index, largest=True), vt.nanmax),
            _dask_reductions._nanargmin.__name__: (
                functools.partial(_nan.first_best_index, largest=False), vt.nanmin)}
_WRAPPED = ("arg_chunk", "arg_combine", "arg_agg", "nanarg_agg", "moment_agg")
_DASK = {}  # Dask's own functions, kept at install()


# ---- argmax / argmin ----

def tensor_arg_chunk(argfunc, reduce_max_or_min, x, axis, offset_info):
    """One chunk's best value and its index in the whole array, without writing into the
    result (Dask's own arg_chunk does `arg[:] = ...`)."""
    over_all = len(axis) == x.ndim or x.ndim == 1
    if not over_all:
        values = reduce_max_or_min(x, axis=axis[0], keepdims=True)
        index = argfunc(x, axis=axis[0], keepdims=True) + offset_info
        return {"vals": values, "arg": index}
    offset, total_shape = offset_info
    flat = vt.reshape(x, (-1,))
    local = argfunc(flat, axis=0, keepdims=True)  # index into the chunk, row-major
    values = vt.reshape(vt.take(flat, local, axis=0), (1,) * x.ndim)
    # The chunk's row-major index -> the whole array's: unravel in the chunk's shape, shift
    # by the chunk's offset, ravel in the whole shape (int64 arithmetic on the device).
    remaining, whole = local, local * 0
    for dim in reversed(range(x.ndim)):
        coordinate = vt.mod(remaining, x.shape[dim]) + offset[dim]
        remaining = vt.quotient(remaining, x.shape[dim])
        whole = whole + coordinate * math.prod(total_shape[dim + 1:])
    return {"vals": values, "arg": vt.reshape(whole, (1,) * x.ndim)}


def tensor_arg_combine(argfunc, data, axis=None, keepdims=True, **unused):
    """The best of several chunks' (value, index) pairs, along `axis` or over all of them."""
    values, index = data["vals"], data["arg"]
    if len(axis) == values.ndim or values.ndim == 1:
        best = argfunc(vt.reshape(values, (-1,)), axis=0, keepdims=True)
        shape = (1,) * values.ndim if keepdims else ()
        return {"vals": vt.reshape(vt.take(vt.reshape(values, (-1,)), best, axis=0), shape),
                "arg": vt.reshape(vt.take(vt.reshape(index, (-1,)), best, axis=0), shape)}
    best = argfunc(values, axis=axis[0], keepdims=True)
    chosen = {"vals": vt.take_along_axis(values, best, axis=axis[0]),
              "arg": vt.take_along_axis(index, best, axis=axis[0])}
    if not keepdims:
        chosen = {k: vt.squeeze(v, axis=axis[0]) for k, v in chosen.items()}
    return chosen


def tensor_arg_agg(argfunc, data, axis=None, keepdims=False, **unused):
    return tensor_arg_combine(argfunc, data, axis=axis, keepdims=keepdims)["arg"]


def _name(function):
    return getattr(function, "__name__", None)


def _tensor_pairs(data):
    return isinstance(data, dict) and isinstance(data.get("vals"), Tensor)


def arg_chunk(func, argfunc, x, axis, offset_info):
    """Dask's arg_chunk, or vktensor's for a tensor chunk of argmax / argmin."""
    if isinstance(x, Tensor) and _name(argfunc) in _ARG_OPS:
        return tensor_arg_chunk(*_ARG_OPS[_name(argfunc)], x, axis, offset_info)
    return _DASK["arg_chunk"](func, argfunc, x, axis, offset_info)


def arg_combine(argfunc, data, axis=None, **kwargs):
    """Dask's arg_combine, or vktensor's for tensor chunks' pairs."""
    if _tensor_pairs(data) and _name(argfunc) in _ARG_OPS:
        return tensor_arg_combine(_ARG_OPS[_name(argfunc)][0], data, axis=axis, keepdims=True)
    return _DASK["arg_combine"](argfunc, data, axis=axis, **kwargs)


def arg_agg(argfunc, data, axis=None, keepdims=False, **kwargs):
    """Dask's arg_agg, or vktensor's for tensor chunks' pairs."""
    if _tensor_pairs(data) and _name(argfunc) in _ARG_OPS:
        return tensor_arg_agg(_ARG_OPS[_name(argfunc)][0], data, axis=axis, keepdims=keepdims)
    return _DASK["arg_agg"](argfunc, data, axis=axis, keepdims=keepdims, **kwargs)


def nanarg_agg(argfunc, data, axis=None, keepdims=False, **kwargs):
    """Dask's nanarg_agg, or vktensor's for tensor chunks' pairs: a NaN among the chosen
    values means a slice of NaN only, AllNaNSlice as NumPy's ValueError (read on the host)."""
    if not (_tensor_pairs(data) and _name(argfunc) in _ARG_OPS):
        return _DASK["nanarg_agg"](argfunc, data, axis=axis, keepdims=keepdims, **kwargs)
    chosen = tensor_arg_combine(_ARG_OPS[_name(argfunc)][0], data, axis=axis, keepdims=keepdims)
    if bool(vt.any(vt.is_nan(chosen["vals"]))):
        op = _name(argfunc).lstrip("_")
        raise _nan.AllNaNSlice(f"[{op}] All-NaN slice encountered")
    return chosen["arg"]


# ---- var / std / moment (and nanvar / nanstd: sum is np.nansum) ----

def moment_agg(pairs, order=2, ddof=0, dtype="f8", sum=np.sum, axis=None,
               computing_meta=False, **kwargs):
    """Dask's moment_agg (var, std, moment), for tensor chunks without its write of NaN
    into the denominator where the count is below ddof: a `where` gives the same NaN."""
    parts = pairs if isinstance(pairs, list) else [pairs]
    tensors = (not computing_meta and (sum is np.sum or sum is np.nansum)
               and any(isinstance(p, dict) and isinstance(p.get("n"), Tensor)
                       for p in flatten(parts, container=list)))
    if not tensors:
        return _DASK["moment_agg"](pairs, order=order, ddof=ddof, dtype=dtype, sum=sum,
                                   axis=axis, computing_meta=computing_meta, **kwargs)
    kwargs["dtype"] = dtype
    keepdim_kw = dict(kwargs, keepdims=True)
    ns = _concatenate2(deepmap(lambda pair: pair["n"], parts), axes=axis)
    n = ns.sum(axis=axis, **keepdim_kw)
    totals = _concatenate2(deepmap(lambda pair: pair["total"], parts), axes=axis)
    moments = _concatenate2(deepmap(lambda pair: pair["M"], parts), axes=axis)
    divide = _dask_reductions.divide
    mu = divide(totals.sum(axis=axis, **keepdim_kw), n, dtype=dtype)
    inner_term = divide(totals, ns, dtype=dtype) - mu
    m = _dask_reductions._moment_helper(moments, ns, inner_term, order, sum, axis, kwargs)
    denominator = n.sum(axis=axis, **kwargs) - ddof
    denominator = np.where(denominator < 0, math.nan, denominator)
    return divide(m, denominator, dtype=dtype)


def install():
    """Wraps Dask's five functions (once): see the module's docstring."""
    if _DASK:
        return
    for name in _WRAPPED:
        _DASK[name] = getattr(_dask_reductions, name)
        setattr(_dask_reductions, name, globals()[name])
