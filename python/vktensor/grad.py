"""Derivatives: vt.vjp, vt.grad and vt.value_and_grad over vkt::vjp (the C++ tracer's graph,
one rule per op in vktensor's own ops). As in JAX: `f` is traced once per call over symbolic
tensors (Python control flow sees shapes, not values); grad and value_and_grad take a
function returning one float scalar and work as decorators. An argument may be a tuple,
list or dict of tensors (a model's parameters): its gradient has the same structure."""
import functools

from . import _vktensor


def _flatten(tree, leaves):
    """The structure of `tree` with None at each tensor, its tensors appended to leaves."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(_flatten(t, leaves) for t in tree)
    if isinstance(tree, dict):
        return {k: _flatten(v, leaves) for k, v in tree.items()}
    leaves.append(tree)
    return None


def _unflatten(structure, leaves):
    """`structure` with its Nones replaced by the next of the iterator `leaves`."""
    if isinstance(structure, (tuple, list)):
        return type(structure)(_unflatten(s, leaves) for s in structure)
    if isinstance(structure, dict):
        return {k: _unflatten(v, leaves) for k, v in structure.items()}
    return next(leaves)


def vjp(f, *primals):
    """(f(*primals), pullback): pullback(cotangent, ...) gives one cotangent per primal, each
    of its primal's structure."""
    leaves = []
    structure = _flatten(primals, leaves)

    def flat_f(*flat):
        return f(*_unflatten(structure, iter(flat)))

    outputs, pullback, returned_one = _vktensor._vjp(flat_f, leaves)

    def pull(*cotangents):
        return _unflatten(structure, iter(pullback(list(cotangents))))

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
