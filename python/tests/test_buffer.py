"""The buffer protocol: memoryview(x) and np.asarray(x) read a cpu tensor in place, read-only."""
import ctypes
import gc

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN

FORMATS = [(vt.uint8, "B"), (vt.int8, "b"), (vt.uint16, "H"), (vt.int16, "h"), (vt.uint32, "I"),
           (vt.int32, "i"), (vt.uint64, "Q"), (vt.int64, "q"), (vt.float16, "e"),
           (vt.float32, "f"), (vt.float64, "d"), (vt.complex64, "Zf"), (vt.complex128, "Zd")]


@pytest.mark.parametrize("dtype,fmt", FORMATS)
def test_memoryview_describes_the_tensor(dtype, fmt):
    x = vt.iota((2, 3), dtype=dtype)
    m = memoryview(x)
    item = x.nbytes // x.size
    assert (m.format, m.shape, m.strides, m.readonly) == (fmt, (2, 3), (3 * item, item), True)
    assert m.nbytes == x.nbytes
    np.testing.assert_array_equal(np.asarray(x), np.arange(6).reshape(2, 3))


def test_numpy_reads_through_the_buffer_in_place():
    x = vt.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    a = np.asarray(x)
    assert isinstance(a.base, memoryview)  # the buffer protocol, not __array__
    assert np.shares_memory(a, np.asarray(x))
    assert not a.flags.writeable
    del x
    gc.collect()
    assert a.sum() == 66  # the view holds the tensor


def test_zero_d_and_size_zero_tensors():
    m = memoryview(vt.asarray(np.float64(2.5)))
    assert m.shape == () and m.tobytes() == np.float64(2.5).tobytes()
    e = np.asarray(vt.asarray(np.zeros((0, 3), np.complex64)))
    assert e.shape == (0, 3) and e.dtype == np.complex64


PYBUF_WRITABLE, PYBUF_F_CONTIGUOUS = 0x0001, 0x0058


def get_buffer(obj, flags):
    """PyObject_GetBuffer(obj, view, flags), released again; raises what the exporter raised."""
    view = ctypes.create_string_buffer(256)  # larger than a Py_buffer
    ctypes.pythonapi.PyObject_GetBuffer(ctypes.py_object(obj), view, ctypes.c_int(flags))
    ctypes.pythonapi.PyBuffer_Release(view)


def test_a_writable_view_is_refused():
    x = vt.iota((4,), dtype=vt.float32)
    with pytest.raises(BufferError, match="immutable"):
        get_buffer(x, PYBUF_WRITABLE)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]  # the process goes on


def test_a_fortran_order_request_is_refused_where_it_would_differ():
    with pytest.raises(BufferError, match="Fortran"):
        get_buffer(vt.iota((2, 3), dtype=vt.int32), PYBUF_F_CONTIGUOUS)
    get_buffer(vt.iota((1, 3), dtype=vt.int32), PYBUF_F_CONTIGUOUS)  # the same layout


def test_bfloat16_has_no_format_and_numpy_says_what_to_do():
    x = vt.iota((3,), dtype=vt.bfloat16)
    with pytest.raises(BufferError, match=r"\[buffer\] bf16 has no buffer-protocol format"):
        memoryview(x)
    with pytest.raises(vt.TypeError, match="bfloat16 has no NumPy dtype"):
        np.asarray(x)


@pytest.mark.skipif(VULKAN is None, reason="no Vulkan device")
def test_a_device_tensor_is_not_read_behind_the_users_back():
    x = vt.asarray(np.arange(4, dtype=np.float32), device=VULKAN)
    with vt.ledger() as led:
        with pytest.raises(BufferError, match="lives on"):
            memoryview(x)
        with pytest.raises(vt.TypeError, match="to_device"):
            np.asarray(x)
    assert led.downloads == 0


def test_dunder_array_follows_numpy_2s_copy_protocol():
    x = vt.iota((3,), dtype=vt.float32)
    assert np.shares_memory(x.__array__(), np.asarray(x))
    assert not np.shares_memory(x.__array__(copy=True), np.asarray(x))
    assert x.__array__(np.float64).dtype == np.float64
    with pytest.raises(ValueError, match=r"\[__array__\] copy=False"):
        x.__array__(np.float64, copy=False)
