"""Pickling for tensors and devices (through copyreg), so that multiprocessing and Dask's
`distributed` can ship them between processes.

A tensor travels as its dtype name, its shape, the kind of device it lived on and its values
as a C-contiguous host array (NumPy hands that buffer to pickle protocol 5 out of band). A
device tensor is read back to the host first (a download, counted by the ledger); unpickling
puts the values on the receiving process's default Vulkan device (`VKT_DEVICE` picks it)
when the tensor came from one and that process has one, else on the cpu. A device pickles
as its kind: the cpu, or the receiving process's default Vulkan device (NoDevice if none).
"""
import copyreg
import functools

import numpy as np

from . import _vktensor as _vt


def _kind(device):
    return "cpu" if device == _vt.cpu() else "vulkan"


@functools.lru_cache(maxsize=None)
def _default_vulkan_or_none():
    try:
        return _vt.vulkan()
    except _vt.Error:
        return None


def _host_values(tensor):
    """The values as a host NumPy array (bfloat16 as its uint16 bit patterns)."""
    host = tensor if tensor.device == _vt.cpu() else tensor.to_device(_vt.cpu())
    if host.dtype == _vt.bfloat16:
        host = _vt.bitcast(host, _vt.uint16)
    return np.ascontiguousarray(np.asarray(host))


def restore_tensor(dtype_name, shape, device_kind, values):
    """The inverse of pickling a tensor (see the module's docstring for the device rule)."""
    tensor = _vt.asarray(np.asarray(values).reshape(shape))
    if dtype_name == "bfloat16":
        tensor = _vt.bitcast(tensor, _vt.bfloat16)
    elif str(tensor.dtype) != dtype_name:
        raise _vt.TypeError(f"[unpickle] values of dtype {tensor.dtype} for a {dtype_name} "
                            "tensor")
    device = _default_vulkan_or_none() if device_kind == "vulkan" else None
    return tensor if device is None else tensor.to_device(device)


def _reduce_tensor(tensor):
    return restore_tensor, (str(tensor.dtype), tuple(tensor.shape), _kind(tensor.device),
                            _host_values(tensor))


def restore_device(kind):
    """A pickled device: the cpu, or this process's default Vulkan device."""
    return _vt.cpu() if kind == "cpu" else _vt.vulkan()


def _reduce_device(device):
    return restore_device, (_kind(device),)


def install():
    copyreg.pickle(_vt.Tensor, _reduce_tensor)
    copyreg.pickle(_vt.Device, _reduce_device)
