"""Derivatives: vt.vjp, vt.grad and vt.value_and_grad over vkt::vjp (the C++ tracer's graph,
one rule per op in vktensor's own ops). As in JAX: `f` is traced once per call over symbolic
tensors (Python control flow sees shapes, not values); grad and value_and_grad take a
function returning one float scalar and work as decorators."""
import functools

from . import _vktensor


def vjp(f, *primals):
    """(f(*primals), pullback): pullback(cotangent, ...) gives one cotangent per primal."""
    outputs, pullback, returned_one = _vktensor._vjp(f, primals)

    def pull(*cotangents):
        got = pullback(list(cotangents))
        return tuple(got)

    return (outputs[0] if returned_one else tuple(outputs)), pull


def _argnums(argnums, count):
    picks = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in picks:
        if not -count <= a < count:
            raise _vktensor.Error(f"[grad] argnums names primal {a} of {count}")
    return picks


def value_and_grad(f, argnums=0):
    """A function returning (f(*args), the gradient with respect to args[argnums]); a tuple of
    gradients where argnums is a tuple."""
    @functools.wraps(f)
    def run(*args):
        picks = _argnums(argnums, len(args))
        value, pull = vjp(f, *args)
        if not isinstance(value, _vktensor.Tensor) or value.ndim != 0:
            raise _vktensor.Error("[grad] the function must return one float scalar (rank 0), got "
                                  f"{type(value).__name__} {getattr(value, 'shape', '')}")
        cotangents = pull(_vktensor.full((), 1, dtype=value.dtype, device=value.device))
        grads = tuple(cotangents[a] for a in picks)
        return value, (grads[0] if isinstance(argnums, int) else grads)
    return run


def grad(f, argnums=0):
    """A function returning the gradient of f (one float scalar) with respect to
    args[argnums] (a tuple of them where argnums is a tuple)."""
    with_value = value_and_grad(f, argnums)

    @functools.wraps(f)
    def run(*args):
        return with_value(*args)[1]
    return run
