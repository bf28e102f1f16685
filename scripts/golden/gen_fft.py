"""Golden cases for fft, ifft, rfft, irfft, fft2, ifft2 (numpy.fft): tests/golden/data/fft.json.

Inputs are multiples of 1/64 in [-1, 1] (exact in f32, so c64 and c128 runs read the same
values); integer inputs are small integers. Expected values are numpy.fft's in complex128 /
float64. Complex tensors are written as {"dtype": "c128", "shape", "data": [re, im, ...]}.
Run with Debian's /usr/bin/python3.
"""
import numpy as np

from golden_io import tensor, write

rng = np.random.default_rng(20261201)
cases = []
LENGTHS = [1, 2, 3, 5, 7, 8, 12, 16, 17, 64, 97, 100, 1000, 4096]


def values(shape):
    return rng.integers(-64, 65, size=shape).astype(np.float64) / 64.0


def complex_values(shape):
    return values(shape) + 1j * values(shape)


def ctensor(arr):
    arr = np.asarray(arr, dtype=np.complex128)
    pairs = np.stack([arr.real, arr.imag], axis=-1).reshape(-1)
    return {"dtype": "c128", "shape": list(arr.shape), "data": [float(v) for v in pairs]}


def any_tensor(arr):
    return ctensor(arr) if np.iscomplexobj(arr) else tensor(arr)


def add(name, op, x, params, expected):
    cases.append({"name": name, "op": op, "params": params, "inputs": [any_tensor(x)],
                  "expected": any_tensor(expected)})


NUMPY = {"fft": np.fft.fft, "ifft": np.fft.ifft, "rfft": np.fft.rfft, "irfft": np.fft.irfft}


def one_axis(name, op, x, length=None, axis=-1):
    add(name, op, x, {"length": length, "axis": axis}, NUMPY[op](x, n=length, axis=axis))


# Every length, 1-d, default length.
for n in LENGTHS:
    one_axis("fft_n%d" % n, "fft", complex_values([n]))
    one_axis("ifft_n%d" % n, "ifft", complex_values([n]))
    one_axis("rfft_n%d" % n, "rfft", values([n]))
    # irfft of n points from n // 2 + 1 stored ones.
    one_axis("irfft_n%d" % n, "irfft", complex_values([n // 2 + 1]), length=n)
# irfft's default length 2 * (m - 1).
one_axis("irfft_default_m9", "irfft", complex_values([9]))
one_axis("irfft_default_m2", "irfft", complex_values([2]))

# Cropping and zero-padding.
for n in [5, 12, 17, 64]:
    for length in [n // 2 + 1, n + 3, 2 * n]:
        one_axis("fft_n%d_len%d" % (n, length), "fft", complex_values([n]), length)
        one_axis("ifft_n%d_len%d" % (n, length), "ifft", complex_values([n]), length)
        one_axis("rfft_n%d_len%d" % (n, length), "rfft", values([n]), length)
        one_axis("irfft_m%d_len%d" % (n, length), "irfft", complex_values([n]), length)

# Every axis of a 3-d tensor, with and without a length.
shape = [3, 5, 4]
for axis in [0, 1, 2, -1, -3]:
    for length in [None, 7, 2]:
        tag = "ax%d_len%s" % (axis, length)
        one_axis("fft_3d_" + tag, "fft", complex_values(shape), length, axis)
        one_axis("ifft_3d_" + tag, "ifft", complex_values(shape), length, axis)
        one_axis("rfft_3d_" + tag, "rfft", values(shape), length, axis)
        one_axis("irfft_3d_" + tag, "irfft", complex_values(shape), length, axis)

# Real and integer inputs of fft and ifft (converted to complex first).
one_axis("fft_real_2d", "fft", values([4, 12]))
one_axis("ifft_real_2d", "ifft", values([4, 12]), None, 0)
ints = rng.integers(-9, 10, size=[3, 16]).astype(np.int32)
one_axis("fft_s32", "fft", ints, None, 1)
one_axis("rfft_s32", "rfft", ints, 10, 1)
one_axis("irfft_real", "irfft", values([2, 7]), 12, 1)

# fft2 / ifft2.
x = complex_values([4, 6, 5])
for op, fn in [("fft2", np.fft.fft2), ("ifft2", np.fft.ifft2)]:
    add(op + "_default", op, x, {"lengths": [], "axes": [-2, -1]}, fn(x))
    add(op + "_axes02_len", op, x, {"lengths": [3, 8], "axes": [0, 2]},
        fn(x, s=[3, 8], axes=[0, 2]))
    add(op + "_axes10", op, x, {"lengths": [], "axes": [1, 0]}, fn(x, axes=[1, 0]))

write("fft", cases)
