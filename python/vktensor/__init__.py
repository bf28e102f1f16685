"""vktensor: tensors on the cpu and on any Vulkan device, with honest transfer costs.

Ops run where their inputs live; a device op the device cannot run falls back to the cpu and
its result stays there (the fallback contract). The ledger counts every transfer.
"""
from contextlib import contextmanager

from . import _vktensor
from ._vktensor import *  # noqa: F401,F403  (the ops, dtypes, Tensor, Device, errors)
from ._vktensor import Error, ledger_snapshot, get_fallback_policy, set_fallback_policy, vulkan


class LedgerDelta:
    """What crossed the bus and ran inside a `with vt.ledger() as led:` block (led.delta)."""

    def __init__(self):
        self.delta = None

    def __getattr__(self, name):
        if self.delta is not None and name in self.delta:
            return self.delta[name]
        raise AttributeError(name)

    def __repr__(self):
        return f"LedgerDelta({self.delta})"


def _difference(after, before):
    delta = {}
    for key, value in after.items():
        if isinstance(value, dict):
            delta[key] = {op: n - before[key].get(op, 0) for op, n in value.items()
                          if n != before[key].get(op, 0)}
        else:
            delta[key] = value - before[key]
    return delta


@contextmanager
def ledger():
    """Counts the block's uploads, downloads, dispatches, submits, waits and fallbacks."""
    led = LedgerDelta()
    before = ledger_snapshot()
    try:
        yield led
    finally:
        led.delta = _difference(ledger_snapshot(), before)


@contextmanager
def fallback_policy(policy):
    """Sets the fallback policy ('allow', 'warn', 'error') for the block."""
    previous = get_fallback_policy()
    set_fallback_policy(policy)
    try:
        yield
    finally:
        set_fallback_policy(previous)


def devices():
    """The cpu, then every Vulkan device (each made ready on first use)."""
    found = [cpu()]  # noqa: F405
    for index in range(64):
        try:
            found.append(vulkan(index))
        except Error:
            break
    return found


from_numpy = asarray  # noqa: F405

from . import array_api  # noqa: E402  (after the module: it builds on the ops above)
from .nan_reductions import (AllNaNSlice, nanargmax, nanargmin, nanmax,  # noqa: E402,F401
                             nanmean, nanmin, nanprod, nanstd, nansum, nanvar)
from .grad import grad, value_and_grad, vjp  # noqa: E402,F401
from ._vktensor import stop_gradient  # noqa: E402,F401
from . import numpy_protocol, pickling  # noqa: E402

numpy_protocol.install()  # np.sum(x), np.exp(x), x.sum(axis=0): vktensor ops on x's device
pickling.install()  # pickle, multiprocessing and distributed ship tensors as host bytes


def _array_namespace(self, /, *, api_version=None):
    if api_version not in (None, "2021.12", "2022.12"):
        raise ValueError(f"[__array_namespace__] api_version {api_version!r} is not offered "
                         "(2022.12 is)")
    return array_api


Tensor.__array_namespace__ = _array_namespace  # noqa: F405
Tensor.mT = property(array_api.matrix_transpose)  # noqa: F405
