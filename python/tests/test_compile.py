"""@vt.compile from Python: one trace per signature, results bit-identical to eager."""
import numpy as np
import pytest

import vktensor as vt


def gelu_ish(x, b, scale=2.0):
    return vt.tanh(x * scale + b), vt.sum(x, axis=1)


def test_compiled_equals_eager_bit_for_bit(device):
    f = vt.compile(gelu_ish)
    a = np.linspace(-2, 2, 48, dtype=np.float32).reshape(6, 8)
    x = vt.asarray(a, device=device)
    b = vt.asarray(np.linspace(0, 1, 8, dtype=np.float32), device=device)
    eager = gelu_ish(x, b)
    with vt.ledger() as first:
        got = f(x, b)
    with vt.ledger() as second:
        again = f(x, b)
    assert isinstance(got, tuple) and len(got) == 2
    for g, e in zip(got, eager):
        assert g.dtype == e.dtype and g.shape == e.shape
        assert np.array_equal(g.numpy().view(np.uint32), e.numpy().view(np.uint32))
    assert first.traces == 1 and second.traces == 0 and second.plan_reuses == 1
    assert np.array_equal(again[1].numpy(), got[1].numpy())


def test_non_tensor_arguments_are_part_of_the_signature():
    calls = []

    def scaled(x, scale):
        calls.append(scale)
        return x * scale

    f = vt.compile(scaled)
    x = vt.asarray(np.arange(4, dtype=np.float32))
    assert f(x, 2.0).tolist() == [0, 2, 4, 6]
    assert f(x, 2.0).tolist() == [0, 2, 4, 6]
    assert f(x, scale=3.0).tolist() == [0, 3, 6, 9]
    assert calls == [2.0, 3.0]  # traced once per value
    assert f.plans == 2
    assert "multiply" in f.describe()


def test_bad_results_and_errors_inside_raise():
    with pytest.raises(TypeError, match=r"\[compile\] the function returned a int"):
        vt.compile(lambda x: 3)(vt.asarray([1.0]))
    with pytest.raises(vt.ShapeError, match=r"\[add\]"):
        vt.compile(lambda x, y: x + y)(vt.asarray([1.0, 2.0]), vt.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ZeroDivisionError):
        vt.compile(lambda x: x * (1 / 0))(vt.asarray([1.0]))
    # the process stays usable
    assert vt.compile(lambda x: [x + 1])(vt.asarray([1.0]))[0].tolist() == [2.0]
