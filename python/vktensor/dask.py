"""Dask arrays whose chunks are vktensor tensors (issue 39), on the cpu or a Vulkan device.

`import vktensor.dask` registers vt.Tensor as a Dask chunk type and its concatenate,
tensordot, einsum and element-count functions (numel and nannumel) in dask.array.dispatch,
and installs vktensor.dask_reductions (Dask's argmax, argmin, var, std and moment and their
NaN-skipping variants over tensor chunks).
NumPy's dispatch protocols on tensors (vktensor/numpy_protocol.py) do the rest: Dask calls
`np.sum`, `np.exp`, `np.concatenate`, ... on its chunks and gets tensors back. Here:
`from_numpy`, size-0 `meta` tensors, `argmax` / `argmin` (Dask's, arguments checked),
`compute_with_ledger` (from vktensor.dask_ledger: the ledger in total and per task) and
`local_cluster` (worker processes of one thread, each with its own `VKT_DEVICE`). What runs
where and what stays NumPy: docs/python.md, "Dask".
"""
import itertools
import math
import numbers

import dask
import dask.array as da
import numpy as np
from dask.array.chunk_types import register_chunk_type
from dask.array.dispatch import (concatenate_lookup, einsum_lookup, nannumel_lookup,
                                 numel_lookup, tensordot_lookup)

import vktensor as vt
from . import dask_reductions as _reductions
from . import numpy_protocol as _np_protocol
from .dask_ledger import LedgerPlugin, TaskLedger, compute_with_ledger  # noqa: F401
from .dask_ledger import record_task_ledgers  # noqa: F401

Tensor = vt.Tensor

register_chunk_type(Tensor)
concatenate_lookup.register(Tensor, _np_protocol.concatenate)
tensordot_lookup.register(Tensor, _np_protocol.tensordot)
einsum_lookup.register(Tensor, _np_protocol.einsum)
_reductions.install()  # da.argmax, da.argmin, var, std and moment over tensor chunks


@numel_lookup.register(Tensor)
def _numel(x, axis=None, keepdims=False, dtype=None, **unused):
    """The element count of a chunk along `axis`, as a tensor on the chunk's device (Dask's
    mean divides by it)."""
    axes = range(x.ndim) if axis is None else (
        (axis,) if isinstance(axis, numbers.Integral) else tuple(axis))
    axes = {a % max(x.ndim, 1) for a in axes}
    count = math.prod(x.shape[a] for a in axes)
    if keepdims:
        shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape))
    else:
        shape = tuple(n for a, n in enumerate(x.shape) if a not in axes)
    return vt.full(shape, count, dtype=_np_protocol.dtype_arg(dtype or np.float64),
                   device=x.device)


@nannumel_lookup.register(Tensor)
def _nannumel(x, axis=None, keepdims=False, dtype=None, **unused):
    """The count of numbers (not NaN) of a chunk along `axis`, on the chunk's device (Dask's
    nanmean and nanvar divide by it). Dask's own counts `~np.isnan(x)`, and `~` of a u8
    predicate is its bitwise not (254 for true), not a logical one."""
    count = vt.sum(vt.logical_not(vt.is_nan(x)), axis=_np_protocol.axis_arg(axis),
                   keepdims=keepdims)
    return count.astype(_np_protocol.dtype_arg(dtype or np.float64))


# ---- arrays ----

def meta(dtype, ndim, device=None):
    """A size-0 tensor of `dtype` and rank `ndim` on `device` (the cpu by default): what a
    Dask array of such chunks keeps as its `_meta`."""
    return vt.full((0,) * ndim, 0, dtype=_np_protocol.vt_dtype(dtype),
                   device=vt.cpu() if device is None else device)


def _host_array(array):
    if isinstance(array, (Tensor, da.Array)):
        raise vt.TypeError(f"[dask.from_numpy] takes a NumPy array, got a {type(array).__name__}"
                           "; for a tensor use da.from_array(tensor, chunks)")
    host = np.asarray(array)
    try:
        _np_protocol.vt_dtype(host.dtype)
    except vt.TypeError as error:
        raise vt.TypeError(f"[dask.from_numpy] NumPy dtype {host.dtype} has no vktensor "
                           "equivalent") from error
    return host


def _normalize_chunks(chunks, host):
    for size in (chunks if isinstance(chunks, tuple) else (chunks,)):
        if isinstance(size, numbers.Integral) and size <= 0 and size != -1:
            raise vt.ShapeError(f"[dask.from_numpy] chunk size {size} in chunks={chunks!r} "
                                f"for shape {host.shape}: sizes are positive (or -1: whole axis)")
    try:
        return da.core.normalize_chunks(chunks, host.shape, dtype=host.dtype)
    except (ValueError, TypeError, ZeroDivisionError) as error:
        message = str(error).splitlines()[0]
        raise vt.ShapeError(f"[dask.from_numpy] chunks={chunks!r} do not fit shape "
                            f"{host.shape}: {message}") from error


class HostBlock:
    """One block of a `from_numpy` array: NumPy values that become a tensor on `device` when
    indexed. Dask's getter tasks index it, and Dask holds a getter's result out of task
    fusion, so a block is converted (uploaded) once however often one task uses it; a slice
    of it taken later is fused into the getter and only that part is converted."""

    __slots__ = ("values", "device")

    def __init__(self, values, device):
        self.values, self.device = values, device

    def __getitem__(self, index):
        # np.asarray: a 0-d block indexed by () gives a NumPy scalar.
        return vt.asarray(np.asarray(self.values[index]), device=self.device)


def from_numpy(array, chunks="auto", device=None, name=None):
    """A Dask array of `array`'s values in chunks of vktensor tensors on `device` (the cpu by
    default; vt.vulkan(): each chunk is uploaded when its task runs). A cpu chunk of a
    contiguous block shares `array`'s memory, as vt.asarray does. Under `distributed` a
    Vulkan chunk lands on its worker's default Vulkan device (that worker's `VKT_DEVICE`)."""
    host = _host_array(array)
    chunks = _normalize_chunks(chunks, host)
    device = vt.cpu() if device is None else device
    if not isinstance(device, vt.Device):
        raise vt.TypeError(f"[dask.from_numpy] device={device!r}: pass vt.cpu() or vt.vulkan()")
    name = name or "vktensor-from-numpy-" + dask.base.tokenize(host, chunks, str(device))
    whole_block = (slice(None),) * host.ndim
    graph = {}
    for index, block in zip(itertools.product(*(range(len(c)) for c in chunks)),
                            da.core.slices_from_chunks(chunks)):
        graph[("host-" + name,) + index] = HostBlock(host[block], device)
        graph[(name,) + index] = (da.core.getter, ("host-" + name,) + index, whole_block,
                                  False, None)  # asarray=False, lock=None: Dask's getter form
    return da.Array(graph, name, chunks, meta=meta(host.dtype, host.ndim, device))


# ---- argmax / argmin ----

def _arg_reduction(dask_function, name):
    def reduction(x, axis=None, keepdims=False, split_every=None):
        if not isinstance(x, da.Array) or not isinstance(x._meta, Tensor):
            raise vt.TypeError(f"[dask.{name}] takes a Dask array of vktensor chunks, got "
                               f"{type(getattr(x, '_meta', x)).__name__}")
        if axis is not None and not isinstance(axis, numbers.Integral):
            raise vt.TypeError(f"[dask.{name}] axis={axis!r}: an int or None")
        return dask_function(x, axis=axis, keepdims=keepdims, split_every=split_every)
    reduction.__name__ = name
    reduction.__doc__ = (f"da.{name} for vktensor chunks, checked: the index (int64) of the "
                         "first best value, over all axes (axis=None) or along one.")
    return reduction


argmax = _arg_reduction(da.argmax, "argmax")
argmin = _arg_reduction(da.argmin, "argmin")


# ---- a local cluster ----

def _cluster_class():
    from distributed import LocalCluster

    class VulkanDeviceCluster(LocalCluster):
        """A LocalCluster whose worker i starts with VKT_DEVICE=vulkan_devices[i % n]."""

        def __init__(self, vulkan_devices, **kwargs):
            self.vulkan_devices = [str(d) for d in vulkan_devices]
            super().__init__(**kwargs)

        def new_worker_spec(self):
            spec = super().new_worker_spec()
            for name, worker in spec.items():
                options = dict(worker["options"])
                env = dict(options.get("env") or {})
                if self.vulkan_devices:
                    env["VKT_DEVICE"] = self.vulkan_devices[name % len(self.vulkan_devices)]
                spec[name] = {**worker, "options": {**options, "env": env}}
            return spec

    return VulkanDeviceCluster


def local_cluster(n_workers=2, vulkan_devices=None, timeout=60, **kwargs):
    """A `distributed.LocalCluster` of `n_workers` worker processes with one thread each
    (`processes=True, threads_per_worker=1`), started and waited for. `vulkan_devices`, a
    list of `VKT_DEVICE` values (device indices or name substrings), gives worker i the
    Vulkan device vulkan_devices[i % len] as its default: chunks placed on vt.vulkan() and
    tensors unpickled there land on it. None leaves each worker the default choice. Other
    keywords go to LocalCluster (memory_limit, dashboard_address, ...). Close it (a `with`
    block does) to end the processes."""
    if not isinstance(n_workers, numbers.Integral) or n_workers < 1:
        raise vt.ShapeError(f"[dask.local_cluster] n_workers={n_workers!r}: at least 1")
    if vulkan_devices is not None and (isinstance(vulkan_devices, (str, int))
                                       or len(vulkan_devices) == 0):
        raise vt.TypeError(f"[dask.local_cluster] vulkan_devices={vulkan_devices!r}: a "
                           "non-empty list of VKT_DEVICE values, one a worker (or None)")
    from distributed import Client

    kwargs.setdefault("dashboard_address", None)
    kwargs.setdefault("memory_limit", "auto")
    cluster = _cluster_class()(vulkan_devices or [], n_workers=0, processes=True,
                               threads_per_worker=1, **kwargs)
    try:
        cluster.scale(n_workers)
        with Client(cluster, timeout=timeout) as client:
            client.wait_for_workers(n_workers, timeout=timeout)
    except BaseException:
        cluster.close()
        raise
    return cluster
