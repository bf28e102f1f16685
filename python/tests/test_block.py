"""vt.block (Nx.block): the fallback runs unless the inputs' device registered its own
implementation of the kind; vt.grad and vt.compile see the fallback; errors are typed."""
import numpy as np
import pytest

import vktensor as vt


def softplus(x):
    return vt.log1p(vt.exp(x))


def test_fallback_unless_the_device_has_its_own(device):
    x = vt.asarray(np.array([0.0, 1.0], dtype=np.float32), device=device)
    expected = np.log1p(np.exp(np.array([0.0, 1.0], dtype=np.float32)))
    (y,) = vt.block("softplus", [x], softplus)
    np.testing.assert_allclose(np.asarray(y.to_device(vt.cpu())), expected, rtol=1e-6)
    calls = []

    def own(t):
        calls.append(t.shape)
        return vt.full(t.shape, 42.0, vt.float32, device=t.device)

    vt.register_block(device, "softplus", own)
    try:
        assert vt.has_block(device, "softplus")
        (z,) = vt.block("softplus", [x], softplus)
        assert calls == [(2,)] and z.device == device
        np.testing.assert_array_equal(np.asarray(z.to_device(vt.cpu())), [42.0, 42.0])
        # vt.grad traces the fallback: d softplus / dx = sigmoid(x).
        g = vt.grad(lambda t: vt.sum(vt.block("softplus", [t], softplus)[0]))(x)
        np.testing.assert_allclose(np.asarray(g.to_device(vt.cpu())),
                                   1 / (1 + np.exp(-np.array([0.0, 1.0]))), rtol=1e-6)
    finally:
        vt.register_block(device, "softplus", None)
    assert not vt.has_block(device, "softplus")
    (y,) = vt.block("softplus", [x], softplus)
    np.testing.assert_allclose(np.asarray(y.to_device(vt.cpu())), expected, rtol=1e-6)


def test_bad_functions_raise_and_the_process_goes_on():
    x = vt.asarray(np.ones(3, dtype=np.float32))
    with pytest.raises(vt.TypeError, match=r"\[block k\] the function must return a tensor"):
        vt.block("k", [x], lambda t: 3)

    def boom(t):
        raise ZeroDivisionError("from the fallback")
    with pytest.raises(ZeroDivisionError, match="from the fallback"):
        vt.block("k", [x], boom)
    assert len(vt.block("k", [x], lambda t: (t, t))) == 2
