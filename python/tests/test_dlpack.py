"""DLPack both ways with NumPy: zero-copy for cpu memory, explicit copies for device memory."""
import ctypes
import gc

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN


def test_numpy_reads_a_cpu_tensor_without_a_copy():
    x = vt.iota((3, 4), dtype=vt.float32)
    assert x.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(x)
    np.testing.assert_array_equal(a, np.arange(12, dtype=np.float32).reshape(3, 4))
    assert np.shares_memory(a, np.asarray(x))
    del x
    gc.collect()
    assert a.sum() == 66  # the capsule keeps the tensor's memory


def test_vktensor_reads_a_numpy_array_without_a_copy():
    a = np.arange(10, dtype=np.int32)
    x = vt.from_dlpack(a)
    assert np.shares_memory(np.asarray(x), a)
    y = vt.asarray(a[::3].copy(order="C"))
    assert y.tolist() == [0, 3, 6, 9]
    with pytest.raises(vt.Error, match="copy=False"):
        vt.asarray(a, dtype=vt.float32, copy=False)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128])
def test_round_trips_every_numpy_dtype(dtype):
    a = (np.arange(6) % 4).astype(dtype).reshape(2, 3)
    back = np.from_dlpack(vt.from_dlpack(a))
    np.testing.assert_array_equal(back, a)
    assert back.dtype == a.dtype


class Strided:
    """A DLPack producer over a non-compact NumPy view (NumPy itself refuses to export it)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_strided_producers_are_copied():
    a = np.arange(20, dtype=np.float64).reshape(4, 5)[:, 1:4]
    x = vt.from_dlpack(Strided(a))
    np.testing.assert_array_equal(np.asarray(x), a)
    with pytest.raises(vt.Error, match="not compact"):
        vt.from_dlpack(Strided(a), copy=False)


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_a_vulkan_tensor_is_copied_only_when_asked():
    x = vt.asarray(np.arange(4, dtype=np.float32), device=VULKAN)
    assert x.__dlpack_device__()[0] == 7  # kDLVulkan
    with pytest.raises(BufferError, match="lives on"):
        np.from_dlpack(x)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    cap = x.__dlpack__(dl_device=(1, 0))
    assert type(cap).__name__ == "PyCapsule"
    y = vt.from_dlpack(x, device=vt.cpu())
    assert y.device == vt.cpu() and y.tolist() == [0.0, 1.0, 2.0, 3.0]


def _versioned_header(capsule):
    """(major, minor, flags) of a "dltensor_versioned" capsule, read as DLPack 1.0 lays it out."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get(capsule, b"dltensor_versioned")
    major, minor = (ctypes.c_uint32 * 2).from_address(address)
    flags = ctypes.c_uint64.from_address(address + 8 + 2 * ctypes.sizeof(ctypes.c_void_p)).value
    return major, minor, flags


def test_the_versioned_capsule_is_given_when_asked_and_says_read_only():
    x = vt.iota((2, 2), dtype=vt.float32)
    assert "dltensor\"" in repr(x.__dlpack__())  # NumPy 1.24 and older consumers
    cap = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    assert _versioned_header(cap) == (1, 0, 1)  # read-only, not a copy
    assert _versioned_header(x.__dlpack__(max_version=(1, 2), copy=True)) == (1, 0, 3)
    assert "dltensor\"" in repr(x.__dlpack__(max_version=(0, 8)))
    with pytest.raises(TypeError, match=r"\[__dlpack__\] max_version"):
        x.__dlpack__(max_version=3)


class Recording:
    """A producer that records what its consumer asked for."""

    def __init__(self, tensor):
        self.tensor, self.asked = tensor, []

    def __dlpack__(self, **kwargs):
        self.asked.append(kwargs)
        return self.tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def test_the_versioned_capsule_is_read_without_a_copy():
    x = vt.iota((5,), dtype=vt.int64)
    producer = Recording(x)
    y = vt.from_dlpack(producer)
    assert producer.asked == [{"max_version": (1, 0)}]
    assert np.shares_memory(np.asarray(y), np.asarray(x))
    del x, producer
    gc.collect()
    assert y.tolist() == [0, 1, 2, 3, 4]


def test_a_producer_without_max_version_is_asked_again_without_it():
    a = np.arange(6, dtype=np.float32)
    producer = Strided(a)  # its __dlpack__ takes only stream=, as NumPy 1.24's
    assert np.shares_memory(np.asarray(vt.from_dlpack(producer)), a)
