"""vt.asarray and NumPy views: zero-copy where the layout allows, copies where it must."""
import gc

import numpy as np
import pytest

import vktensor as vt


def test_contiguous_numpy_array_is_imported_without_a_copy():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = vt.asarray(a)
    assert x.device == vt.cpu()
    assert np.shares_memory(np.asarray(x), a)
    assert x.shape == (3, 4) and x.dtype == vt.float32


def test_numpy_view_of_a_cpu_tensor_is_read_only_and_shares_memory():
    x = vt.iota((2, 3), dtype=vt.int32)
    v = np.asarray(x)
    assert np.shares_memory(v, np.asarray(x))
    assert not v.flags.writeable
    np.testing.assert_array_equal(v, np.arange(6, dtype=np.int32).reshape(2, 3))


def test_view_outlives_its_tensor_and_tensor_outlives_its_array():
    x = vt.asarray(np.arange(5.0))
    v = np.asarray(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(v, np.arange(5.0))
    a = np.arange(7, dtype=np.int64)
    y = vt.asarray(a)
    del a
    gc.collect()
    assert y.tolist() == list(range(7))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16,
                                   np.int32, np.int64, np.float16, np.float32, np.float64,
                                   np.complex64, np.complex128, np.bool_])
def test_every_numpy_dtype_round_trips(dtype):
    a = (np.arange(6) % 3).astype(dtype).reshape(2, 3)
    x = vt.asarray(a)
    np.testing.assert_array_equal(np.asarray(x), a.astype(np.uint8) if dtype == np.bool_ else a)


def test_strided_swapped_zero_d_and_empty_arrays():
    a = np.arange(20, dtype=np.float64).reshape(4, 5)
    np.testing.assert_array_equal(np.asarray(vt.asarray(a[::2, ::-2])), a[::2, ::-2])
    big = np.arange(6, dtype=">i4")
    np.testing.assert_array_equal(np.asarray(vt.asarray(big)), np.arange(6, dtype=np.int32))
    assert vt.asarray(np.float32(2.5)).shape == ()
    assert vt.asarray(np.zeros((0, 3), np.float32)).shape == (0, 3)
    assert np.asarray(vt.asarray(np.zeros((0, 3), np.float32))).shape == (0, 3)


def test_python_values_take_vktensor_default_dtypes():
    assert vt.asarray(1.5).dtype == vt.float32
    assert vt.asarray([1, 2]).dtype == vt.int64
    assert vt.asarray([[1j]]).dtype == vt.complex64
    assert vt.asarray([True, False]).dtype == vt.uint8
    assert vt.asarray([1, 2], dtype=vt.bfloat16).dtype == vt.bfloat16
    assert vt.asarray(np.arange(3.0)).dtype == vt.float64  # a NumPy array keeps its dtype


def test_copy_flags():
    a = np.arange(4, dtype=np.float32)
    assert not np.shares_memory(np.asarray(vt.asarray(a, copy=True)), a)
    with pytest.raises(vt.Error, match=r"\[asarray\] copy=False"):
        vt.asarray(a[::2], copy=False)
    with pytest.raises(vt.Error, match=r"\[asarray\] copy=False"):
        vt.asarray(a, dtype=vt.float64, copy=False)


@pytest.mark.parametrize("bad", [None, "text", [[1, 2], [3]], [object()], {"a": 1}])
def test_unreadable_inputs_raise_a_type_error(bad):
    with pytest.raises(TypeError, match=r"\[asarray\]"):
        vt.asarray(bad)


def test_bfloat16_has_no_numpy_view():
    x = vt.asarray([1.0, 2.0], dtype=vt.bfloat16)
    with pytest.raises(TypeError, match="bfloat16 has no NumPy dtype"):
        np.asarray(x)
    assert x.tolist() == [1.0, 2.0]


def test_device_tensors_are_read_explicitly(device):
    x = vt.asarray(np.arange(4, dtype=np.float32), device=device)
    assert x.device == device
    if device != vt.cpu():
        with pytest.raises(TypeError, match="to_device"):
            np.asarray(x)
    np.testing.assert_array_equal(x.numpy(), np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(x.to_device(vt.cpu())), np.arange(4, dtype=np.float32))


def test_python_conversions():
    x = vt.asarray([[3.5]])
    assert float(x) == 3.5 and int(x) == 3 and bool(x) and complex(x) == 3.5
    assert x.item() == 3.5
    assert len(vt.asarray([1, 2, 3])) == 3
    assert [t.item() for t in vt.asarray([4, 5])] == [4, 5]
    with pytest.raises(vt.ShapeError):
        float(vt.asarray([1.0, 2.0]))
    with pytest.raises(TypeError):
        len(vt.asarray(1.0))
    with pytest.raises(TypeError, match="immutable"):
        x[0] = 1


def test_asarray_copies_a_complex128_array_numpy_aligns_at_8_bytes():
    """NumPy calls a complex128 array at an 8-byte boundary aligned; vktensor's items need
    16, so asarray copies it instead of raising."""
    buf = np.arange(10, dtype=np.float64)
    start = 0 if buf.ctypes.data % 16 == 8 else 1
    z = buf[start:start + 8].view(np.complex128)
    assert z.ctypes.data % 16 == 8 and z.flags.aligned
    t = vt.asarray(z)
    assert t.dtype == vt.complex128
    np.testing.assert_array_equal(np.asarray(t), z)
