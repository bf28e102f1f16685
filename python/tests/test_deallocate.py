"""x.deallocate(): memory freed now, later uses raise vt.Deallocated, exports keep their bytes."""
import gc

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN


def test_deallocate_marks_every_alias_and_answers_false_the_second_time(device):
    x = vt.iota((2, 3), dtype=vt.float32, device=device)
    view = x.reshape(3, 2)
    assert not x.is_deallocated
    assert x.deallocate() is True
    assert x.is_deallocated and view.is_deallocated
    assert x.deallocate() is False
    assert view.deallocate() is False


def test_later_uses_raise_deallocated_naming_the_op(device):
    x = vt.iota((2, 3), dtype=vt.float32, device=device)
    other = vt.iota((2, 3), dtype=vt.float32, device=device)
    x.deallocate()
    assert issubclass(vt.Deallocated, vt.Error) and issubclass(vt.Deallocated, RuntimeError)
    with pytest.raises(vt.Deallocated, match=r"^\[add\]"):
        x + other
    with pytest.raises(vt.Deallocated, match=r"^\[sum\]"):
        vt.sum(x)
    with pytest.raises(vt.Deallocated, match=r"^\[transfer\]"):
        x.to_device(vt.cpu())
    with pytest.raises(vt.Deallocated):
        x.tolist()
    with pytest.raises(vt.Deallocated):
        x.numpy()
    with pytest.raises(vt.Deallocated, match=r"^\[__array__\]"):
        x.__array__()
    with pytest.raises(vt.Deallocated, match=r"^\[__dlpack__\]"):
        x.__dlpack__()
    with pytest.raises(vt.Deallocated):
        np.asarray(x)
    with pytest.raises(vt.Deallocated):
        vt.compile(lambda t: t * 2)(x)
    assert (other + 1).tolist() == [[1, 2, 3], [4, 5, 6]]  # the device goes on


def test_buffer_protocol_raises_deallocated():
    x = vt.iota((4,), dtype=vt.float32)
    x.deallocate()
    with pytest.raises(vt.Deallocated, match=r"^\[buffer\]"):
        memoryview(x)


def test_a_zero_copy_import_drops_only_its_reference():
    a = np.arange(6, dtype=np.float32)
    x = vt.asarray(a)
    assert np.shares_memory(np.asarray(x), a)
    x.deallocate()
    np.testing.assert_array_equal(a, np.arange(6, dtype=np.float32))  # NumPy's memory is NumPy's


@pytest.mark.parametrize("export", ["asarray", "memoryview", "dlpack"])
def test_an_export_taken_before_keeps_its_bytes(export):
    # 1 MiB: a pooled host buffer, which a new tensor of the same size would be handed if it
    # had gone back to the pool.
    x = vt.full((1 << 18,), 7.0, dtype=vt.float32)
    if export == "asarray":
        view = np.asarray(x)
    elif export == "memoryview":
        view = np.asarray(memoryview(x))
    else:
        view = np.from_dlpack(x)
    assert x.deallocate() is True
    y = vt.full((1 << 18,), -1.0, dtype=vt.float32)
    assert view[0] == 7.0 and view[-1] == 7.0 and float(view.sum()) == 7.0 * (1 << 18)
    del view
    gc.collect()
    assert float(vt.sum(y)) == -(1 << 18)


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_device_memory_goes_back_to_the_pool():
    VULKAN.synchronize()
    before = VULKAN.memory_stats()["in_use"]
    x = vt.full((1 << 18,), 1.0, dtype=vt.float32, device=VULKAN)
    VULKAN.synchronize()
    assert VULKAN.memory_stats()["in_use"] == before + x.nbytes
    x.deallocate()
    VULKAN.synchronize()
    assert VULKAN.memory_stats()["in_use"] == before
