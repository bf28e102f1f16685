"""DLPack both ways with NumPy: zero-copy for cpu memory, explicit copies for device memory."""
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
