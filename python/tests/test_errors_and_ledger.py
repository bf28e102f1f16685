"""The exception tree, the ledger and the fallback contract from Python."""
import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN


def test_exception_tree():
    assert issubclass(vt.ShapeError, vt.Error) and issubclass(vt.ShapeError, ValueError)
    assert issubclass(vt.TypeError, vt.Error) and issubclass(vt.TypeError, TypeError)
    assert issubclass(vt.OutOfMemory, MemoryError)
    assert issubclass(vt.AxisError, IndexError)
    with pytest.raises(vt.ShapeError, match=r"^\[add\]"):
        vt.add(vt.asarray(np.ones(3)), vt.asarray(np.ones(4)))
    with pytest.raises(vt.AxisError, match=r"\[sum\]"):
        vt.sum(vt.asarray(np.ones(3)), axis=5)
    with pytest.raises(vt.TypeError, match=r"\[bitwise_and\]"):
        vt.bitwise_and(vt.asarray([1.0]), vt.asarray([2.0]))
    with pytest.raises(vt.TypeError, match=r"\[dtype\] unknown dtype name 'float7'"):
        vt.asarray([1], dtype="float7")
    with pytest.raises(vt.Error, match=r"\[fallback_policy\]"):
        vt.set_fallback_policy("sometimes")
    with pytest.raises(vt.Error, match=r"\[argmax\] tie_break"):
        vt.argmax(vt.asarray([1, 2]), tie_break="middle")
    # The process stays usable after each.
    assert vt.sum(vt.asarray([1, 2, 3])).item() == 6


def test_huge_and_negative_shapes_are_refused():
    with pytest.raises(vt.Error):
        vt.full((2**62, 4), 1.0)
    with pytest.raises(vt.Error):
        vt.full((-1,), 1.0)
    with pytest.raises(vt.TypeError, match="does not fit 64 bits"):
        vt.asarray([1]) + 2**70


def test_ledger_counts_cpu_work_as_no_transfer():
    x = vt.asarray(np.ones(1000, np.float32))
    with vt.ledger() as led:
        (x + 1).numpy()
    assert led.uploads == 0 and led.downloads == 0


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_ledger_and_fallback_contract_on_vulkan():
    a = np.arange(1000, dtype=np.float32)
    with vt.ledger() as led:
        x = vt.asarray(a, device=VULKAN)
        y = (x + x).to_device(vt.cpu())
    assert led.uploads == 1 and led.downloads == 1
    assert led.upload_bytes == a.nbytes and led.download_bytes == a.nbytes
    np.testing.assert_array_equal(np.asarray(y), a * 2)
    f64 = vt.asarray(np.ones(4), device=VULKAN)
    with vt.fallback_policy("error"):
        with pytest.raises(vt.FallbackForbidden, match=r"\[erf\]"):
            vt.erf(f64)
    with vt.ledger() as led:
        r = vt.erf(f64)  # no f64 erf on the device: the result stays on the cpu
    assert r.device == vt.cpu() and led.fallbacks == 1


def test_devices_lists_the_cpu_first():
    found = vt.devices()
    assert found[0] == vt.cpu()
    if VULKAN is not None:
        assert VULKAN in found
