"""NumPy ufuncs on tensors (`np.exp(x)`, `np.add(x, y)`, `np.add.reduce`) and the ndarray
methods Dask calls on chunks (`x.sum(axis=..., keepdims=True)`, `x.squeeze(0)`), for
numpy_protocol.install(). A ufunc outside the table runs as NumPy's own on host views."""
import numpy as np

from . import _vktensor as _vt
from . import array_api as _xp
from . import numpy_protocol as _np_protocol

Tensor = _vt.Tensor


def _reciprocal(x):
    return 1 / x if x.dtype in _xp._FLOATS + _xp._COMPLEX else _vt.quotient(1, x)


# NumPy's ufunc name -> the vktensor op with its arguments in NumPy's order.
UFUNCS = {
    "add": _vt.add, "subtract": _vt.subtract, "multiply": _vt.multiply,
    "divide": _vt.divide, "true_divide": _vt.divide, "floor_divide": _vt.floor_divide,
    "remainder": _vt.mod, "power": _vt.pow, "negative": _vt.negate, "positive": _xp.positive,
    "absolute": _vt.abs, "fabs": _vt.abs, "sign": _vt.sign, "reciprocal": _reciprocal,
    "square": _xp.square, "sqrt": _vt.sqrt, "cbrt": _vt.cbrt, "exp": _vt.exp,
    "expm1": _vt.expm1, "log": _vt.log, "log1p": _vt.log1p, "log2": _xp.log2,
    "log10": _xp.log10, "logaddexp": _xp.logaddexp, "sin": _vt.sin, "cos": _vt.cos,
    "tan": _vt.tan, "arcsin": _vt.asin, "arccos": _vt.acos, "arctan": _vt.atan,
    "arctan2": _vt.atan2, "sinh": _vt.sinh, "cosh": _vt.cosh, "tanh": _vt.tanh,
    "arcsinh": _vt.asinh, "arccosh": _vt.acosh, "arctanh": _vt.atanh, "floor": _vt.floor,
    "ceil": _vt.ceil, "trunc": _xp.trunc, "rint": _xp.round, "conjugate": _vt.conjugate,
    "equal": _vt.equal, "not_equal": _vt.not_equal, "less": _vt.less,
    "less_equal": _vt.less_equal, "greater": _vt.greater, "greater_equal": _vt.greater_equal,
    "logical_and": _vt.logical_and, "logical_or": _vt.logical_or,
    "logical_xor": _vt.logical_xor, "logical_not": _vt.logical_not,
    "bitwise_and": _vt.bitwise_and, "bitwise_or": _vt.bitwise_or,
    "bitwise_xor": _vt.bitwise_xor, "invert": _vt.bitwise_not, "left_shift": _vt.left_shift,
    "right_shift": _vt.right_shift, "maximum": _vt.max, "minimum": _vt.min,
    "isnan": _vt.is_nan, "isinf": _vt.is_infinity, "isfinite": _xp.isfinite,
    "matmul": _vt.matmul,
}

# ufunc.reduce and ufunc.accumulate as the reductions and scans they are.
REDUCE = {"add": _vt.sum, "multiply": _vt.product, "maximum": _vt.reduce_max,
          "minimum": _vt.reduce_min, "logical_and": _vt.all, "logical_or": _vt.any}
ACCUMULATE = {"add": _vt.cumulative_sum, "multiply": _vt.cumulative_product,
              "maximum": _vt.cumulative_max, "minimum": _vt.cumulative_min}


def _call(ufunc, inputs, kwargs):
    op = UFUNCS.get(ufunc.__name__)
    if op is None:
        return None
    dtype = kwargs.pop("dtype", None)
    _np_protocol.refuse(ufunc.__name__, out=kwargs.pop("out", None),
                         where=kwargs.pop("where", True))
    kwargs.pop("casting", None)
    if kwargs:
        raise _vt.Unsupported(f"[np.{ufunc.__name__}] keywords {sorted(kwargs)} are not "
                              "supported for vktensor tensors")
    device = _np_protocol.first_device(inputs)
    operands = [_np_protocol.operand(v, device) for v in inputs]
    if any(o is None for o in operands):
        return NotImplemented
    if dtype is not None:
        operands = [_np_protocol.as_tensor(o, device).astype(dtype) for o in operands]
    return op(*operands)


def _reduce(ufunc, method, inputs, kwargs):
    table = REDUCE if method == "reduce" else ACCUMULATE
    op = table.get(ufunc.__name__)
    if op is None or len(inputs) != 1:
        return None
    x = _np_protocol.as_tensor(inputs[0])
    _np_protocol.refuse(f"{ufunc.__name__}.{method}", out=kwargs.pop("out", None),
                         initial=kwargs.pop("initial", None), where=kwargs.pop("where", True))
    dtype = kwargs.pop("dtype", None)
    if dtype is not None:
        x = x.astype(dtype)
    axis = kwargs.pop("axis", 0)
    if method == "accumulate":
        return op(x, axis=axis)
    return op(x, axis=_np_protocol.axis_arg(axis), keepdims=bool(kwargs.pop("keepdims", False)))


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NEP 13: the ufuncs in UFUNCS (and reduce/accumulate of a few) as vktensor ops."""
    if method == "__call__":
        result = _call(ufunc, inputs, dict(kwargs))
    elif method in ("reduce", "accumulate"):
        result = _reduce(ufunc, method, inputs, dict(kwargs))
    else:
        result = None
    if result is not None:
        return result
    if not all(isinstance(v, (Tensor, np.ndarray, np.generic, int, float, complex))
               for v in inputs):
        return NotImplemented
    host_inputs = _np_protocol.host_views(inputs)
    return getattr(ufunc, method)(*host_inputs, **_np_protocol.host_views(kwargs))


# ---- ndarray methods ----

def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """NumPy's astype: `casting` other than 'unsafe' is checked with NumPy's rules."""
    if casting != "unsafe" and not np.can_cast(_np_protocol.numpy_dtype(self.dtype),
                                               _np_protocol.numpy_dtype(
                                                   _np_protocol.dtype_arg(dtype)), casting):
        raise _vt.TypeError(f"[astype] cannot cast {self.dtype} to {dtype} under casting="
                            f"{casting!r}")
    return _vt.as_type(self, _np_protocol.dtype_arg(dtype))


def _method(function):
    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)
    method.__name__ = function.__name__
    method.__doc__ = f"NumPy's ndarray.{function.__name__.lstrip('_')} (a vktensor op)."
    return method


def _squeeze(self, axis=None):
    return _vt.squeeze(self, axis=axis)


def _transpose(self, *axes):
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        axes = axes[0]
    return _vt.transpose(self, axes=list(axes) if axes else None)


def _ravel(self, order="C"):
    return _np_protocol.ravel(self, order)


def _copy(self, order="C"):
    return _vt.asarray(self, copy=True)


def _copy_flat(self, order="C"):
    return _vt.asarray(_np_protocol.ravel(self, order), copy=True)


def install_methods(tensor_class):
    """The ndarray methods Dask calls on chunks; astype gains NumPy's keywords."""
    functions = _np_protocol.FUNCTIONS
    for name, function in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean),
                           ("max", np.max), ("min", np.min), ("argmax", np.argmax),
                           ("argmin", np.argmin), ("any", np.any), ("all", np.all),
                           ("cumsum", np.cumsum), ("cumprod", np.cumprod)):
        setattr(tensor_class, name, _method(functions[function]))
    tensor_class.squeeze = _squeeze
    tensor_class.transpose = _transpose
    tensor_class.ravel = _ravel
    tensor_class.flatten = _copy_flat
    tensor_class.copy = _copy
    tensor_class.astype = _astype
