"""NumPy's dispatch protocols on vt.Tensor: `np.sum(x)`, `np.exp(x)`, `np.concatenate([x, y])`.

`__array_function__` (NEP 18) and `__array_ufunc__` (NEP 13) run the NumPy functions and
ufuncs in the tables below as vktensor ops, on the device the tensors live on, and return
tensors; the ndarray methods Dask calls on its chunks (`x.sum(axis=...)`, `x.squeeze()`, ...)
are added too. A function or ufunc outside the tables runs as NumPy's own on host views of the
tensors, as it did before this module: the result is a NumPy array, and a device tensor raises
(reading it is a download, which the library makes you ask for). `vt.float32` and its kin
take NumPy's dtype attributes (`np.dtype(vt.float32)`, `.kind`, `.type`), which Dask reads
from its chunks' dtype. Installed on `import vktensor`.
"""
import functools
import numbers

import numpy as np

from . import _vktensor as _vt
from . import array_api as _xp
from . import nan_reductions as _nan

Tensor = _vt.Tensor


# ---- operands ----

def first_device(values):
    for v in values:
        if isinstance(v, Tensor):
            return v.device
        if isinstance(v, (list, tuple)):
            found = first_device(v)
            if found is not None:
                return found
    return None


def as_tensor(value, device=None):
    """A tensor for an array argument: tensors stay, NumPy arrays and numbers are uploaded."""
    if isinstance(value, Tensor):
        return value
    return _vt.asarray(value, device=device)


def operand(value, device):
    """An elementwise operand: numbers stay Python numbers (weak literals), arrays become
    tensors on `device`; None for a type this protocol leaves to others (a Dask array)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, numbers.Number):
        return value
    if isinstance(value, np.ndarray):
        return _vt.asarray(value, device=device)
    return None


_WHY_REFUSED = {"out": "tensors are immutable: use the returned tensor",
                "where": "vktensor has no masked ops",
                "initial": "vktensor has no seeded reductions"}


def refuse(op, **arguments):
    """Raises vt.Unsupported for a NumPy keyword a vktensor op cannot honour."""
    for name, value in arguments.items():
        if value is None or value is np._NoValue or (name == "where" and value is True):
            continue
        raise _vt.Unsupported(f"[np.{op}] {name}={value!r} is not supported for vktensor "
                              f"tensors ({_WHY_REFUSED.get(name, 'no such keyword here')})")


def _keep(keepdims):
    return False if keepdims is np._NoValue else bool(keepdims)


def axis_arg(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@functools.lru_cache(maxsize=None)
def _named_dtype(name):
    """vktensor's reading of a dtype name first (its own names: 'u8' is uint8 there, uint64 in
    NumPy), else NumPy's ('f8', 'bool')."""
    try:
        return _vt.full((0,), 0, dtype=name).dtype
    except _vt.TypeError as unknown:
        try:
            return np.dtype(name)
        except TypeError:
            raise unknown from None


def dtype_arg(dtype):
    """A dtype argument as vktensor ops take it: a vt dtype or name, else the NumPy dtype NumPy
    reads it as (np.float64, float, a structured dtype); None stays None."""
    if dtype is None or isinstance(dtype, _vt.dtype):
        return dtype
    if isinstance(dtype, str):
        return _named_dtype(dtype)
    return np.dtype(dtype)


def vt_dtype(dtype):
    """The vt dtype of a dtype argument; vt.TypeError for one vktensor has not (object, str)."""
    d = dtype_arg(dtype)
    if isinstance(d, _vt.dtype):
        return d
    found = getattr(_vt, d.name, None) if d.kind in "biufc" else None
    if not isinstance(found, _vt.dtype):
        raise _vt.TypeError(f"[dtype] NumPy dtype {d} has no vktensor equivalent")
    return found


def numpy_dtype(dtype):
    """The NumPy dtype of a vt dtype (bfloat16 raises vt.TypeError: NumPy has none)."""
    if isinstance(dtype, _vt.dtype):
        if dtype == _vt.bfloat16:
            raise _vt.TypeError("[dtype] bfloat16 has no NumPy dtype; convert first, e.g. "
                                "vt.as_type(x, vt.float32)")
        return np.dtype(str(dtype))
    return np.dtype(dtype)


# ---- reductions ----

def _reduction(op, name):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        refuse(name, out=out, initial=initial, where=where)
        x = as_tensor(a)
        if dtype is not None:
            x = x.astype(dtype)
        return op(x, axis=axis_arg(axis), keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


def _extremum(op, name):
    def reduce(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        refuse(name, out=out, initial=initial, where=where)
        return op(as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


def _logical(op, name):
    def reduce(a, axis=None, out=None, keepdims=False, where=True):
        refuse(name, out=out, where=where)
        return op(as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


def _mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    """NumPy's dtype rule: integers average in float64, floats in their own dtype."""
    refuse("mean", out=out, where=where)
    x = as_tensor(a)
    if dtype is None and x.dtype not in _xp._FLOATS + _xp._COMPLEX:
        dtype = _vt.float64
    if dtype is not None:
        x = x.astype(dtype)
    axis = axis_arg(axis)
    return _vt.sum(x, axis=axis, keepdims=_keep(keepdims)) / _xp._count(x, axis)


def _arg_reduction(op, name):
    def reduce(a, axis=None, out=None, keepdims=False):
        refuse(name, out=out)
        return op(as_tensor(a), axis=axis, keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


# ---- NaN-skipping reductions (computed in nan_reductions.py; Dask's chunks call these) ----

def _nan_sum_like(name):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        refuse(name, out=out, initial=initial, where=where)
        return _nan.FUNCTIONS[name](as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims),
                                    dtype=dtype_arg(dtype))
    reduce.__name__ = name
    return reduce


def _nan_extremum(name):
    def reduce(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        refuse(name, out=out, initial=initial, where=where)
        return _nan.FUNCTIONS[name](as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


def _nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    refuse("nanmean", out=out, where=where)
    return _nan.nanmean(as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims),
                        dtype=dtype_arg(dtype))


def _nan_moment(name):
    def reduce(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
        refuse(name, out=out, where=where)
        return _nan.FUNCTIONS[name](as_tensor(a), axis=axis_arg(axis), keepdims=_keep(keepdims),
                                    dtype=dtype_arg(dtype), ddof=ddof)
    reduce.__name__ = name
    return reduce


def _nan_arg(name):
    def reduce(a, axis=None, out=None, keepdims=False):
        refuse(name, out=out)
        return _nan.FUNCTIONS[name](as_tensor(a), axis=axis, keepdims=_keep(keepdims))
    reduce.__name__ = name
    return reduce


# ---- joining, contraction ----

def _same_device(arrays, op):
    arrays = list(arrays)
    if not arrays:
        raise _vt.ShapeError(f"[np.{op}] needs at least one array")
    device = first_device(arrays)
    return [as_tensor(a, device) for a in arrays]


def concatenate(arrays, axis=0, out=None, dtype=None, casting=None):
    refuse("concatenate", out=out)
    tensors = _same_device(arrays, "concatenate")
    if dtype is not None:
        tensors = [t.astype(dtype) for t in tensors]
    if axis is None:
        tensors, axis = [_vt.reshape(t, (-1,)) for t in tensors], 0
    return _vt.concatenate(tensors, axis=axis)


def _stack(arrays, axis=0, out=None, dtype=None, casting=None):
    refuse("stack", out=out)
    tensors = _same_device(arrays, "stack")
    if dtype is not None:
        tensors = [t.astype(dtype) for t in tensors]
    return _vt.stack(tensors, axis=axis)


def tensordot(a, b, axes=2):
    device = first_device([a, b])
    return _xp.tensordot(as_tensor(a, device), as_tensor(b, device), axes=axes)


def _dot(a, b, out=None):
    refuse("dot", out=out)
    device = first_device([a, b])
    a, b = as_tensor(a, device), as_tensor(b, device)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _vt.dot(a, b, contract_axes=([a.ndim - 1], [max(b.ndim - 2, 0)]))


def einsum(subscripts, *operands, dtype=None, out=None, optimize=False, casting="safe",
            order="K"):
    """Explicit subscripts without repeated letters in one operand (no diagonals, no `...`):
    two operands run as one `vt.dot` (contracted and batch letters), others as broadcast
    products summed over the letters the output drops."""
    refuse("einsum", out=out)
    if not isinstance(subscripts, str) or "." in subscripts:
        raise _vt.Unsupported(f"[np.einsum] subscripts {subscripts!r}: only explicit letters "
                              "are supported (no '...', no operand-list form)")
    inputs, arrow, output = subscripts.replace(" ", "").partition("->")
    in_subs = inputs.split(",")
    if not arrow:
        output = "".join(sorted(c for c in set(inputs) if c != "," and inputs.count(c) == 1))
    device = first_device(operands)
    tensors = [as_tensor(o, device) for o in operands]
    if dtype is not None:
        tensors = [t.astype(dtype) for t in tensors]
    if len(in_subs) != len(tensors):
        raise _vt.ShapeError(f"[np.einsum] subscripts {subscripts!r} name {len(in_subs)} "
                             f"operands, {len(tensors)} given")
    unknown = [c for c in output if c not in inputs]
    if unknown or len(set(output)) != len(output):
        raise _vt.ShapeError(f"[np.einsum] output {output!r} of {subscripts!r}: each letter "
                             "once, and only letters the inputs have")
    for sub, t in zip(in_subs, tensors):
        if len(sub) != t.ndim or len(set(sub)) != len(sub):
            raise _vt.Unsupported(f"[np.einsum] subscript {sub!r} for an operand of shape "
                                  f"{t.shape}: one distinct letter per axis is supported")
    # A letter only one operand has and the output drops is summed there first.
    for i, sub in enumerate(in_subs):
        others = "".join(s for j, s in enumerate(in_subs) if j != i) + output
        alone = [k for k, c in enumerate(sub) if c not in others]
        if alone:
            tensors[i] = _vt.sum(tensors[i], axis=tuple(alone))
            in_subs[i] = "".join(c for c in sub if c in others)
    if len(tensors) == 2:
        result, letters = _einsum_pair(tensors, in_subs, output)
    else:
        result, letters = _einsum_product(tensors, in_subs, output)
    return _vt.transpose(result, axes=[letters.index(c) for c in output]) if letters else result


def _einsum_pair(tensors, subs, output):
    (a, b), (sa, sb) = tensors, subs
    batch = [c for c in sa if c in sb and c in output]
    contract = [c for c in sa if c in sb and c not in output]
    if not batch and not contract:  # an outer product: vt.dot needs an axis in common
        a = _vt.reshape(a, a.shape + (1,) * b.ndim)
        return a * b, sa + sb
    result = _vt.dot(a, b, contract_axes=([sa.index(c) for c in contract],
                                          [sb.index(c) for c in contract]),
                     batch_axes=([sa.index(c) for c in batch], [sb.index(c) for c in batch]))
    free_a = [c for c in sa if c not in sb]
    free_b = [c for c in sb if c not in sa]
    return result, "".join(batch + free_a + free_b)


def _einsum_product(tensors, subs, output):
    letters = output + "".join(sorted({c for s in subs for c in s if c not in output}))
    product = None
    for sub, t in zip(subs, tensors):
        order = sorted(range(len(sub)), key=lambda k: letters.index(sub[k]))
        t = _vt.transpose(t, axes=order) if order else t
        sizes = {sub[k]: t.shape[i] for i, k in enumerate(order)}
        t = _vt.reshape(t, tuple(sizes.get(c, 1) for c in letters))
        product = t if product is None else product * t
    dropped = tuple(i for i, c in enumerate(letters) if c not in output)
    result = _vt.sum(product, axis=dropped) if dropped else product
    return result, output


# ---- elementwise, creation ----

def _where(condition, x=None, y=None):
    if x is None or y is None:  # np.nonzero: a data-dependent shape, NumPy's on the host
        return np.where(*host_views((condition,) + tuple(v for v in (x, y) if v is not None)))
    device = first_device([condition, x, y])
    return _vt.select(as_tensor(condition, device), operand(x, device), operand(y, device))


def _full_like(prototype, fill_value, dtype=None, order="K", subok=True, shape=None):
    x = as_tensor(prototype)
    target_shape = x.shape if shape is None else _xp._shape(shape)
    return _vt.full(target_shape, fill_value,
                    dtype=x.dtype if dtype is None else dtype_arg(dtype), device=x.device)


def _zeros_like(prototype, dtype=None, order="K", subok=True, shape=None):
    return _full_like(prototype, 0, dtype=dtype, shape=shape)


def _ones_like(prototype, dtype=None, order="K", subok=True, shape=None):
    return _full_like(prototype, 1, dtype=dtype, shape=shape)


def _array_like(like, obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    """np.array(obj, like=tensor): a tensor on the device of `like`."""
    t = _vt.asarray(obj, dtype=dtype_arg(dtype), device=like.device)
    if t.ndim < ndmin:
        t = _vt.reshape(t, (1,) * (ndmin - t.ndim) + t.shape)
    return t


def _asarray_like(like, obj, dtype=None, order=None):
    return _vt.asarray(obj, dtype=dtype_arg(dtype), device=like.device)


def _filled_like(value):
    def create(like, shape, dtype=None, order="C"):
        return _vt.full(_xp._shape(shape), value,
                        dtype=_vt.float64 if dtype is None else dtype_arg(dtype),
                        device=like.device)
    return create


def _full_with_like(like, shape, fill_value, dtype=None, order="C"):
    if dtype is None:
        dtype = np.asarray(fill_value).dtype
    return _vt.full(_xp._shape(shape), fill_value, dtype=dtype_arg(dtype), device=like.device)


# ---- manipulation ----

def _reshape(a, newshape, order="C"):
    if order != "C":
        raise _vt.Unsupported(f"[np.reshape] order={order!r}: tensors are row-major ('C')")
    return _vt.reshape(as_tensor(a), _xp._shape(newshape))


def ravel(a, order="C"):
    return _reshape(a, (-1,), order)


def _transpose(a, axes=None):
    return _vt.transpose(as_tensor(a), axes=None if axes is None else list(axes))


def _moveaxis(a, source, destination):
    x = as_tensor(a)
    source = [s % x.ndim for s in ((source,) if isinstance(source, int) else source)]
    destination = [d % x.ndim for d in
                   ((destination,) if isinstance(destination, int) else destination)]
    order = [n for n in range(x.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return _vt.transpose(x, axes=order)


def _swapaxes(a, axis1, axis2):
    x = as_tensor(a)
    order = list(range(x.ndim))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return _vt.transpose(x, axes=order)


def _squeeze(a, axis=None):
    return _vt.squeeze(as_tensor(a), axis=axis)


def _expand_dims(a, axis):
    x = as_tensor(a)
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    rank = x.ndim + len(axes)
    for ax in sorted(ax % rank for ax in axes):
        x = _xp.expand_dims(x, axis=ax)
    return x


def _broadcast_to(array, shape, subok=False):
    return _xp.broadcast_to(as_tensor(array), shape)


def _take(a, indices, axis=None, out=None, mode="raise"):
    refuse("take", out=out)
    x = as_tensor(a)
    if axis is None:
        x, axis = _vt.reshape(x, (-1,)), 0
    return _vt.take(x, as_tensor(np.asarray(indices, np.int64) if not isinstance(indices, Tensor)
                               else indices, x.device), axis=axis)


def _take_along_axis(arr, indices, axis):
    x = as_tensor(arr)
    if axis is None:
        x, axis = _vt.reshape(x, (-1,)), 0
    return _vt.take_along_axis(x, as_tensor(indices, x.device), axis=axis)


def _result_type(*arrays_and_dtypes):
    """NumPy's promotion of the tensors' dtypes (what Dask's metadata expects)."""
    return np.result_type(*(numpy_dtype(a.dtype) if isinstance(a, Tensor) else
                            numpy_dtype(a) if isinstance(a, _vt.dtype) else a
                            for a in arrays_and_dtypes))


def _copy(a, order="K", subok=False):
    return _vt.asarray(as_tensor(a), copy=True)


def _cumulative(op, name):
    def scan(a, axis=None, dtype=None, out=None):
        refuse(name, out=out)
        x = as_tensor(a)
        if dtype is not None:
            x = x.astype(dtype)
        if axis is None:
            x, axis = _vt.reshape(x, (-1,)), 0
        return op(x, axis=axis % max(x.ndim, 1))
    scan.__name__ = name
    return scan


FUNCTIONS = {
    np.sum: _reduction(_vt.sum, "sum"), np.prod: _reduction(_vt.product, "prod"),
    np.max: _extremum(_vt.reduce_max, "max"), np.min: _extremum(_vt.reduce_min, "min"),
    np.amax: _extremum(_vt.reduce_max, "amax"), np.amin: _extremum(_vt.reduce_min, "amin"),
    np.any: _logical(_vt.any, "any"), np.all: _logical(_vt.all, "all"), np.mean: _mean,
    np.argmax: _arg_reduction(_vt.argmax, "argmax"),
    np.argmin: _arg_reduction(_vt.argmin, "argmin"),
    np.nansum: _nan_sum_like("nansum"), np.nanprod: _nan_sum_like("nanprod"),
    np.nanmax: _nan_extremum("nanmax"), np.nanmin: _nan_extremum("nanmin"),
    np.nanmean: _nanmean, np.nanvar: _nan_moment("nanvar"), np.nanstd: _nan_moment("nanstd"),
    np.nanargmax: _nan_arg("nanargmax"), np.nanargmin: _nan_arg("nanargmin"),
    np.cumsum: _cumulative(_vt.cumulative_sum, "cumsum"),
    np.cumprod: _cumulative(_vt.cumulative_product, "cumprod"),
    np.concatenate: concatenate, np.stack: _stack, np.tensordot: tensordot, np.dot: _dot,
    np.einsum: einsum, np.where: _where, np.full_like: _full_like,
    np.empty_like: _zeros_like, np.zeros_like: _zeros_like, np.ones_like: _ones_like,
    np.reshape: _reshape, np.ravel: ravel, np.transpose: _transpose, np.moveaxis: _moveaxis,
    np.swapaxes: _swapaxes, np.squeeze: _squeeze, np.expand_dims: _expand_dims,
    np.broadcast_to: _broadcast_to, np.take: _take, np.take_along_axis: _take_along_axis,
    np.result_type: _result_type, np.copy: _copy,
    np.shape: lambda a: a.shape, np.ndim: lambda a: a.ndim, np.size: lambda a, axis=None:
        a.size if axis is None else a.shape[axis],
}

# Creation functions called with like=tensor: the tensor is the first argument.
LIKE_FUNCTIONS = {
    np.array: _array_like, np.asarray: _asarray_like, np.asanyarray: _asarray_like,
    np.empty: _filled_like(0), np.zeros: _filled_like(0), np.ones: _filled_like(1),
    np.full: _full_with_like,
}


def host_views(value):
    """Tensors replaced by NumPy views (np.asarray raises for a device tensor, naming
    to_device), through lists, tuples and dicts."""
    if isinstance(value, Tensor):
        return np.asarray(value)
    if isinstance(value, (list, tuple)):
        return type(value)(host_views(v) for v in value)
    if isinstance(value, dict):
        return {k: host_views(v) for k, v in value.items()}
    return value


def _array_function(self, func, types, args, kwargs):
    if not all(issubclass(t, (Tensor, np.ndarray)) for t in types):
        return NotImplemented  # a Dask array or another duck array decides
    if func in FUNCTIONS:
        return FUNCTIONS[func](*args, **kwargs)
    if func in LIKE_FUNCTIONS:
        return LIKE_FUNCTIONS[func](self, *args, **kwargs)
    implementation = getattr(func, "_implementation", func)  # like= functions lack one
    return implementation(*host_views(args), **host_views(kwargs))


# Not shape or ndim: with them and `dtype`, Dask would take a vt dtype for an array.
_DTYPE_ATTRIBUTES = {"kind", "char", "type", "str", "hasobject", "fields", "names", "byteorder",
                     "num", "isbuiltin", "isnative", "alignment", "base", "subdtype", "descr",
                     "flags", "metadata", "isalignedstruct"}


def _dtype_getattr(self, name):
    """NumPy's dtype attributes on a vt dtype (named ones only, so that copy and pickle never
    find a NumPy dtype's dunder methods here)."""
    if name == "dtype":
        return numpy_dtype(self)
    if name in _DTYPE_ATTRIBUTES:
        return getattr(numpy_dtype(self), name)
    raise AttributeError(f"'vktensor.dtype' object has no attribute {name!r}")


def install():
    """Puts the protocols and methods on vt.Tensor and NumPy's attributes on vt.dtype."""
    from . import numpy_ufuncs  # it builds on the helpers here

    Tensor.__array_function__ = _array_function
    Tensor.__array_ufunc__ = numpy_ufuncs.array_ufunc
    Tensor.__array_priority__ = 1.0  # above ndarray's: a mixed list joins as tensors
    _vt.dtype.__getattr__ = _dtype_getattr
    numpy_ufuncs.install_methods(Tensor)
