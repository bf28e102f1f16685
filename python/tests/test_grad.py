"""vt.grad, vt.value_and_grad and vt.vjp: against central differences and known derivatives,
on the cpu and on Vulkan; composable with vt.compile."""
import numpy as np
import pytest

import vktensor as vt


def numeric_grad(f, x, h=1e-6):
    """Central differences of a NumPy-valued f at the f64 array x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


def mlp_loss(w, b, x):
    return vt.sum(vt.tanh(vt.matmul(x, w) + b) ** 2)


def test_grad_matches_central_differences(device):
    rng = np.random.default_rng(0)
    w0, b0, x0 = rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal((5, 4))
    w, b, x = (vt.asarray(a, device=device) for a in (w0, b0, x0))
    dw, db = vt.grad(mlp_loss, argnums=(0, 1))(w, b, x)
    assert dw.device == device and dw.shape == (4, 3) and db.shape == (3,)

    def loss_np(wv, bv):
        return float(np.sum(np.tanh(x0 @ wv + bv) ** 2))
    np.testing.assert_allclose(np.asarray(dw.to_device(vt.cpu())),
                               numeric_grad(lambda v: loss_np(v, b0), w0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(np.asarray(db.to_device(vt.cpu())),
                               numeric_grad(lambda v: loss_np(w0, v), b0), rtol=1e-5, atol=1e-7)


def test_value_and_grad_and_decorator_use():
    @vt.value_and_grad
    def f(x):
        return vt.sum(vt.exp(x) * 2.0)

    x = vt.asarray(np.array([0.0, 1.0, 2.0]))
    value, g = f(x)
    np.testing.assert_allclose(value.item(), 2 * np.exp([0.0, 1.0, 2.0]).sum())
    np.testing.assert_allclose(np.asarray(g), 2 * np.exp([0.0, 1.0, 2.0]))


def test_vjp_gives_one_cotangent_per_primal():
    x = vt.asarray(np.array([1.0, 2.0]))
    y = vt.asarray(np.array([3.0, 4.0]))
    out, pull = vt.vjp(lambda a, b: (a * b, vt.sin(a)), x, y)
    assert out[0].tolist() == [3.0, 8.0]
    # NumPy's sin is its own on AVX-512 machines (1 ulp from the correctly rounded value
    # there: sin(2.0) ends ...6816, glibc's ...6817), so compare as values, not bits.
    np.testing.assert_allclose(np.asarray(out[1]), np.sin([1.0, 2.0]), rtol=4e-16)
    ones = vt.asarray(np.ones(2))
    gx, gy = pull(ones, ones)
    np.testing.assert_allclose(np.asarray(gx), [3.0 + np.cos(1.0), 4.0 + np.cos(2.0)])
    assert gy.tolist() == [1.0, 2.0]


def test_grad_composes_with_compile():
    x = vt.asarray(np.linspace(-1, 1, 8))
    eager = vt.grad(lambda v: vt.sum(vt.sin(v) * v))(x)
    compiled = vt.compile(vt.grad(lambda v: vt.sum(vt.sin(v) * v)))(x)
    assert np.array_equal(np.asarray(eager), np.asarray(compiled))


def test_errors_name_the_op_and_leave_the_process_usable():
    x = vt.asarray(np.array([1.0, 2.0]))
    with pytest.raises(vt.Error, match=r"\[grad\] reduce has no derivative"):
        vt.grad(lambda v: vt.reduce(v, 0.0, lambda e, acc: e + acc))(x)
    with pytest.raises(vt.Error, match="one float scalar"):
        vt.grad(lambda v: vt.exp(v))(x)
    with pytest.raises(vt.TypeError, match="must return"):
        vt.grad(lambda v: 3.0)(x)
    with pytest.raises(vt.Error, match="argnums"):
        vt.grad(lambda v: vt.sum(v), argnums=2)(x)
    assert vt.grad(lambda v: vt.sum(v * v))(x).tolist() == [2.0, 4.0]


def test_stop_gradient_makes_a_constant():
    x = vt.asarray(np.array([0.5, 2.0]))
    assert vt.grad(lambda v: vt.sum(v * vt.stop_gradient(v)))(x).tolist() == [0.5, 2.0]
    assert vt.stop_gradient(x).tolist() == [0.5, 2.0]


def test_a_closed_over_tensor_is_a_constant(device):
    w = vt.asarray(np.array([1.0, 2.0, 3.0]), device=device)
    x = vt.asarray(np.array([1.0, -1.0, 0.5]), device=device)

    def loss(v):  # reads w without taking it, as a model's closure over its weights does
        return vt.sum(v * v * w)

    g = vt.grad(loss)(x)
    assert g.device == device and g.tolist() == [2.0, -4.0, 3.0]
    assert vt.compile(loss)(x).item() == 1.0 + 2.0 + 0.75


def test_parameters_as_a_tuple_or_dict_get_gradients_of_the_same_structure(device):
    w = vt.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]), device=device)
    b = vt.asarray(np.array([0.5, -0.5]), device=device)
    x = vt.asarray(np.array([[1.0, -1.0]]), device=device)

    def loss(params, inputs):
        return vt.sum((inputs @ params["w"] + params["b"]) ** 2)

    g = vt.grad(loss)({"w": w, "b": b}, x)
    assert set(g) == {"w", "b"}
    out = np.array([[1.0, -1.0]]) @ np.array([[1.0, 2.0], [3.0, 4.0]]) + [0.5, -0.5]
    np.testing.assert_allclose(np.asarray(g["b"].to_device(vt.cpu())), 2 * out[0])
    np.testing.assert_allclose(np.asarray(g["w"].to_device(vt.cpu())),
                               np.array([[1.0], [-1.0]]) @ (2 * out))
    tuple_grads = vt.grad(lambda p, v: vt.sum(v @ p[0] + p[1]))((w, b), x)
    assert isinstance(tuple_grads, tuple) and tuple_grads[1].tolist() == [1.0, 1.0]


def test_compile_takes_parameter_tuples_and_returns_nested_results():
    x = vt.asarray(np.linspace(-1, 1, 6).reshape(2, 3))
    params = (vt.asarray(np.ones((3, 2))), vt.asarray(np.zeros(2)))
    step = vt.compile(vt.value_and_grad(lambda p, v: vt.sum(vt.tanh(v @ p[0] + p[1]))))
    value, (dw, db) = step(params, x)
    eager_value, (ew, eb) = vt.value_and_grad(lambda p, v: vt.sum(vt.tanh(v @ p[0] + p[1])))(params, x)
    assert value.item() == eager_value.item()
    assert np.array_equal(np.asarray(dw), np.asarray(ew)) and np.array_equal(np.asarray(db), np.asarray(eb))
    step(params, x)
    assert step.plans == 1


def test_the_digits_example_trains_to_97_percent():
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    run = subprocess.run([sys.executable, os.path.join(root, "examples", "python", "train_digits.py"),
                          "--model", "mlp", "--epochs", "30", "--require", "0.97"],
                         capture_output=True, text=True, env=os.environ)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 fallbacks" in run.stdout


def test_memory_stats_see_a_training_step(device):
    w = vt.asarray(np.ones((64, 64), np.float32), device=device)
    device.synchronize()
    device.reset_peak_memory()
    before = device.memory_stats()
    g = vt.grad(lambda v: vt.sum(vt.tanh(v @ v)))(w)
    device.synchronize()
    after = device.memory_stats()
    assert set(after) == {"in_use", "reserved", "peak_in_use", "peak_reserved"}
    if device == vt.cpu():
        assert after == {"in_use": 0, "reserved": 0, "peak_in_use": 0, "peak_reserved": 0}
    else:
        assert after["peak_in_use"] >= before["in_use"] + 3 * w.nbytes  # w, v @ v, the gradient
        assert after["peak_reserved"] >= after["peak_in_use"]
    assert g.shape == (64, 64)


def test_compile_traces_the_tensors_of_a_dict_argument():
    f = vt.compile(lambda d: d["a"] * 2 + d["b"])
    a = vt.asarray(np.arange(100.0))
    changed = vt.asarray(np.arange(100.0) + np.r_[np.zeros(99), 5.0])  # the same printed prefix
    one = vt.asarray(np.ones(100))
    assert f({"a": a, "b": one}).tolist()[-1] == 199.0
    assert f({"a": changed, "b": one}).tolist()[-1] == 209.0
    assert f.plans == 1
    params = {"w": vt.asarray(np.ones(3)), "b": vt.asarray(np.zeros(3))}
    value, grads = vt.compile(vt.value_and_grad(lambda p, x: vt.sum(p["w"] * x + p["b"])))(
        params, vt.asarray(np.array([1.0, 2.0, 3.0])))
    assert value.item() == 6.0
    assert grads["w"].tolist() == [1.0, 2.0, 3.0] and grads["b"].tolist() == [1.0, 1.0, 1.0]


def test_compile_refuses_tensors_hidden_in_other_objects():
    class Params:
        def __init__(self, w):
            self.w = w

    f = vt.compile(lambda p, x: p.w * x)
    with pytest.raises(vt.TypeError, match=r"\[compile\] an argument of type Params holds a tensor in \.w"):
        f(Params(vt.asarray(np.ones(3))), vt.asarray(np.ones(3)))
    assert f(Params(2.0), vt.asarray(np.ones(3))).tolist() == [2.0, 2.0, 2.0]
