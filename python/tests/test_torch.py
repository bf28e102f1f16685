"""DLPack with PyTorch where it is installed (the GPU machine): cpu tensors cross both ways
without a copy, and a CUDA tensor is refused with its device named."""
import gc

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN

torch = pytest.importorskip("torch")


def address(x):
    return np.asarray(x).__array_interface__["data"][0]


def test_torch_reads_a_cpu_tensor_without_a_copy():
    x = vt.iota((3, 4), dtype=vt.float32)
    t = torch.from_dlpack(x)
    assert t.data_ptr() == address(x)
    assert t.tolist() == np.arange(12, dtype=np.float32).reshape(3, 4).tolist()
    del x
    gc.collect()
    assert t.sum().item() == 66  # the capsule keeps the tensor's memory


def test_vktensor_reads_a_torch_cpu_tensor_without_a_copy():
    t = torch.arange(10, dtype=torch.int32)
    x = vt.from_dlpack(t)
    assert address(x) == t.data_ptr()
    del t
    gc.collect()
    assert x.tolist() == list(range(10))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int64", "float16", "bfloat16", "float32",
                                   "float64", "complex64", "complex128"])
def test_round_trips_every_dtype(dtype):
    t = (torch.arange(6) % 4).to(getattr(torch, dtype)).reshape(2, 3)
    back = torch.from_dlpack(vt.from_dlpack(t))
    assert back.dtype == t.dtype and torch.equal(back, t)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_a_cuda_tensor_is_refused_naming_its_device():
    with pytest.raises(vt.TypeError, match="DLPack device type 2"):
        vt.from_dlpack(torch.ones(3, device="cuda"))


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_a_vulkan_tensor_reaches_torch_only_through_an_explicit_read():
    x = vt.asarray(np.arange(4, dtype=np.float32), device=VULKAN)
    with pytest.raises(BufferError, match="lives on"):
        torch.from_dlpack(x)
    assert torch.from_dlpack(x.to_device(vt.cpu())).tolist() == [0.0, 1.0, 2.0, 3.0]
