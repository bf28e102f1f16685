"""vktensor.dask: Dask arrays of tensor chunks equal NumPy's results on the cpu and on Vulkan
(Dask's own argmax, var, std and moment and their NaN-skipping variants too), tensors pickle,
the ledger helper counts in total and per task, and a two-process LocalCluster gives the right
answers: with one worker killed mid-computation, and streaming an array four times each
worker's pool cap."""
import os
import pickle
import signal
import time
import warnings

import numpy as np
import pytest

import vktensor as vt
from conftest import VULKAN

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
vd = pytest.importorskip("vktensor.dask")
key_split = pytest.importorskip("dask.utils").key_split

RNG = np.random.default_rng(39)
A = RNG.standard_normal((7, 5)).astype(np.float32)
B = RNG.standard_normal((5, 6)).astype(np.float32)


def _values(result, device):
    """The host values of a computed result, checking that it is a tensor on `device`."""
    assert isinstance(result, vt.Tensor), type(result)
    assert result.device == device
    return result.numpy()


def _close(result, expected, device, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(_values(result, device), expected, rtol=rtol, atol=atol)


def _compute_all(*arrays):
    return dask.compute(*arrays, scheduler="threads")


def test_reductions_chain_and_matmul_match_numpy(device):
    x = vd.from_numpy(A, chunks=(3, 2), device=device)
    y = vd.from_numpy(B, chunks=(2, 4), device=device)
    assert isinstance(x._meta, vt.Tensor) and x._meta.shape == (0, 0)
    assert x._meta.device == device and x.dtype == vt.float32
    cases = {
        "sum": (x.sum(), A.sum()), "sum axis 0": (x.sum(axis=0), A.sum(axis=0)),
        "mean": (x.mean(), A.mean()), "mean axis 1": (x.mean(axis=1), A.mean(axis=1)),
        "max": (x.max(), A.max()), "min axis 0 keepdims": (x.min(axis=0, keepdims=True),
                                                           A.min(axis=0, keepdims=True)),
        "chain": (np.exp(x * 0.5 + 1.0) - x / 3, np.exp(A * 0.5 + 1.0) - A / 3),
        "matmul": (x @ y, A @ B), "tensordot": (da.tensordot(x, y, axes=1), A @ B),
        "einsum": (da.einsum("ij,jk->ik", x, y), A @ B), "dot": (da.dot(x, y), A @ B),
        "prod axis 1": ((x * 0.1 + 1).prod(axis=1), (A * 0.1 + 1).prod(axis=1)),
        "any axis 0": ((x > 1.5).any(axis=0), (A > 1.5).any(axis=0)),
        "all axis 1": ((x > -1).all(axis=1), (A > -1).all(axis=1)),
    }
    computed = dict(zip(cases, _compute_all(*(arr for arr, _ in cases.values()))))
    for name, (arr, expected) in cases.items():
        assert isinstance(arr._meta, vt.Tensor), name
        _close(computed[name], expected, device, rtol=1e-4, atol=1e-4)
    # argmax / argmin: vktensor.dask's (Dask's own write into the chunk results).
    for axis in (None, 0, 1):
        assert _values(vd.argmax(x, axis=axis).compute(), device).tolist() == \
            A.argmax(axis=axis).tolist()
        assert _values(vd.argmin(x, axis=axis).compute(), device).tolist() == \
            A.argmin(axis=axis).tolist()
    assert _values(vd.argmax(x[2], axis=0).compute(), device) == A[2].argmax()


def test_argmax_argmin_of_3d_with_keepdims_and_split_every(device):
    values = RNG.standard_normal((9, 7, 4)).astype(np.float32)
    x = vd.from_numpy(values, chunks=(4, 3, 2), device=device)
    for axis in (None, 0, 2):
        for keepdims in (False, True):
            got = vd.argmax(x, axis=axis, keepdims=keepdims, split_every=2).compute()
            np.testing.assert_array_equal(_values(got, device),
                                          values.argmax(axis=axis, keepdims=keepdims))
    np.testing.assert_array_equal(_values(vd.argmin(x, axis=-2).compute(), device),
                                  values.argmin(axis=-2))


def test_dasks_own_argmax_var_std_and_moment_match_numpy(device):
    values = RNG.standard_normal((9, 7, 4)).astype(np.float32)
    ints = RNG.integers(-50, 50, (9, 7)).astype(np.int32)
    x = vd.from_numpy(values, chunks=(4, 3, 2), device=device)
    n = vd.from_numpy(ints, chunks=(4, 3), device=device)
    cases = {
        "da.argmax": (da.argmax(x), values.argmax()),
        "argmin axis 1": (x.argmin(axis=1), values.argmin(axis=1)),
        "np.argmax axis -1 keepdims": (np.argmax(x, axis=-1, keepdims=True),
                                       values.argmax(axis=-1, keepdims=True)),
        "int argmin": (n.argmin(), ints.argmin()),
        "var": (x.var(), values.var()), "var axis 0": (x.var(axis=0), values.var(axis=0)),
        "std axis (0, 2) ddof 1": (x.std(axis=(0, 2), ddof=1), values.std(axis=(0, 2), ddof=1)),
        "std keepdims": (x.std(axis=1, keepdims=True), values.std(axis=1, keepdims=True)),
        "int var": (n.var(axis=1), ints.var(axis=1)),
    }
    computed = dict(zip(cases, _compute_all(*(arr for arr, _ in cases.values()))))
    for name, (_, expected) in cases.items():
        got = _values(computed[name], device)
        if "arg" in name:
            assert got.dtype == np.int64, name
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5, err_msg=name)
    # Where NumPy has no twin, Dask's own on NumPy chunks: the third moment, and ddof past
    # the count (Dask gives NaN there).
    numpy_chunks = da.from_array(values, chunks=(4, 3, 2))
    for ours, dasks in ((da.moment(x, 3, axis=0), da.moment(numpy_chunks, 3, axis=0)),
                        (x.var(axis=0, ddof=10), numpy_chunks.var(axis=0, ddof=10))):
        np.testing.assert_allclose(_values(ours.compute(), device), dasks.compute(),
                                   rtol=1e-4, atol=1e-5)
    # NumPy chunks keep Dask's own functions.
    assert numpy_chunks.argmax().compute() == values.argmax()
    np.testing.assert_allclose(numpy_chunks.std(axis=1).compute(), values.std(axis=1),
                               rtol=1e-5)


def test_nan_reductions_of_tensor_chunks_match_numpy(device):
    rng = np.random.default_rng(1039)
    values = rng.standard_normal((7, 6)).astype(np.float32)
    values[rng.random(values.shape) < 0.3] = np.nan
    values[2, :] = np.nan  # an all-NaN row
    values[3:6, 4:6] = np.nan  # an all-NaN chunk
    values[:, 0] = rng.standard_normal(7)  # every column holds a number (and row 2 below)
    values[2, 0] = np.nan
    x = da.from_array(vt.asarray(values, device=device), chunks=(3, 4),
                      meta=vd.meta(vt.float32, 2, device))
    with warnings.catch_warnings():  # NumPy's of all-NaN slices; vktensor's give none
        warnings.simplefilter("ignore", RuntimeWarning)
        cases = {
            "nansum": (da.nansum(x), np.nansum(values)),
            "nansum axis 0": (da.nansum(x, axis=0), np.nansum(values, axis=0)),
            "nanmean axis 1": (da.nanmean(x, axis=1), np.nanmean(values, axis=1)),
            "nanmax axis 1": (da.nanmax(x, axis=1), np.nanmax(values, axis=1)),
            "nanmin": (da.nanmin(x), np.nanmin(values)),
            "nanvar axis 0 ddof 1": (da.nanvar(x, axis=0, ddof=1),
                                     np.nanvar(values, axis=0, ddof=1)),
            "nanstd": (da.nanstd(x), np.nanstd(values)),
            "nanargmax": (da.nanargmax(x), np.nanargmax(values)),
            "nanargmin axis 0": (da.nanargmin(x, axis=0), np.nanargmin(values, axis=0)),
        }
    computed = dict(zip(cases, dask.compute(*(a for a, _ in cases.values()), scheduler="sync")))
    for name, (_, expected) in cases.items():
        got = _values(computed[name], device)
        if "arg" in name:
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, equal_nan=True,
                                       err_msg=name)
    with pytest.raises(vt.AllNaNSlice, match=r"^\[nanargmax\] All-NaN slice"):
        da.nanargmax(x, axis=1).compute(scheduler="sync")


def test_movement_rechunk_and_map_blocks(device):
    x = vd.from_numpy(A, chunks=(4, 3), device=device)
    _close(x.rechunk((2, 5)).compute(), A, device, rtol=0, atol=0)
    _close(x[1:6, ::2].T.compute(), A[1:6, ::2].T, device, rtol=0, atol=0)
    _close(da.concatenate([x, x * 2], axis=0).compute(), np.concatenate([A, A * 2]), device)
    _close(da.stack([x, x + 1]).compute(), np.stack([A, A + 1]), device)
    _close(x.cumsum(axis=0).compute(), A.cumsum(axis=0), device, rtol=1e-5)
    _close(da.where(x > 0, x, 0.0).compute(), np.where(A > 0, A, 0.0), device)
    wide = x.astype(np.float64)
    assert wide.dtype == vt.float64
    _close(wide.compute(), A.astype(np.float64), device)
    _close(x.map_blocks(lambda block: vt.sqrt(vt.abs(block))).compute(), np.sqrt(np.abs(A)),
           device)

    @vt.compile
    def gelu_ish(block):
        return block * vt.sigmoid(block * 1.702)

    # The threaded scheduler: one thread traces a chunk shape while another calls the function
    # (chunks of two shapes), which deadlocked before the binding waited for the cache's lock
    # without the GIL.
    _close(x.map_blocks(gelu_ish).compute(scheduler="threads"), A / (1 + np.exp(-1.702 * A)),
           device)


def test_from_array_of_a_tensor_with_a_vktensor_meta(device):
    t = vt.asarray(A, device=device)
    x = da.from_array(t, chunks=(3, 3), meta=vd.meta(vt.float32, 2, device))
    assert isinstance(x._meta, vt.Tensor) and x._meta.device == device
    _close((x + 1).sum(axis=1).compute(), (A + 1).sum(axis=1), device, rtol=1e-5)


def test_from_numpy_of_0d_and_size_0_arrays(device):
    for values, chunks in ((np.array(2.5, np.float32), ()), (np.zeros((0, 3), np.int32), 2)):
        x = vd.from_numpy(values, chunks=chunks, device=device)
        _close((x + 1).compute(), values + 1, device, rtol=0, atol=0)
        _close(x.sum().compute(), values.sum(), device, rtol=0, atol=0)


def test_meta_is_size_zero_with_dtype_and_rank():
    for dtype, ndim in ((np.float64, 0), ("int32", 1), (vt.complex64, 3), (bool, 2)):
        m = vd.meta(dtype, ndim)
        assert m.shape == (0,) * ndim if ndim else m.shape == ()
        assert m.dtype == vt.asarray(np.zeros(1, dtype)).dtype


def test_numpy_protocol_on_tensors(device):
    x = vt.asarray(A, device=device)
    s = np.sum(x, axis=0)
    assert isinstance(s, vt.Tensor) and s.device == device
    np.testing.assert_allclose(s.numpy(), A.sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(np.einsum("ij->j", x).numpy(), A.sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(np.einsum("ij,ij->i", x, x).numpy(),
                               np.einsum("ij,ij->i", A, A), rtol=1e-5)
    np.testing.assert_allclose(np.einsum("i,j->ij", x[0], x[1]).numpy(), np.outer(A[0], A[1]))
    np.testing.assert_allclose(np.add.reduce(x, axis=1).numpy(), A.sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(np.maximum.accumulate(x, axis=1).numpy(),
                                  np.maximum.accumulate(A, axis=1))
    for made in (np.zeros_like(x, shape=(2,)), np.array([1.5, 2], like=x), np.ones(3, like=x)):
        assert isinstance(made, vt.Tensor) and made.device == device
    assert np.result_type(x, np.float64) == np.float64
    with pytest.raises(vt.Unsupported, match=r"\[np.sum\] out="):
        np.sum(x, out=np.zeros(5, np.float32))
    assert np.dtype(vt.float32) == np.float32 and vt.int16.kind == "i"
    assert (x.astype("u8").dtype, x.astype("f8").dtype) == (vt.uint8, vt.float64)  # vt names first
    # Outside the tables: NumPy's own on a host view, which a device tensor refuses.
    if device == vt.cpu():
        assert np.allclose(x, A)
    else:
        with pytest.raises(TypeError, match="to_device"):
            np.allclose(x, A)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float16", "bfloat16",
                                   "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (2, 3)])
def test_pickle_round_trip(device, dtype, shape):
    values = (RNG.standard_normal(shape) * 10).astype(np.float64)
    if dtype == "bfloat16":
        t = vt.as_type(vt.asarray(values.astype(np.float32)), vt.bfloat16)
    elif dtype.startswith("complex"):
        t = vt.asarray((values + 1j * values[::-1] if shape else values + 2j).astype(dtype))
    else:
        t = vt.asarray(values.astype(dtype))
    t = t.to_device(device)
    back = pickle.loads(pickle.dumps(t, protocol=5))
    assert (back.dtype, back.shape, back.device) == (t.dtype, t.shape, device)
    as_host = (lambda u: vt.bitcast(u, vt.uint16)) if dtype == "bfloat16" else (lambda u: u)
    np.testing.assert_array_equal(as_host(back).numpy(), as_host(t).numpy())


def test_pickle_device_and_dask_array(device):
    assert pickle.loads(pickle.dumps(device)) == device
    x = vd.from_numpy(A, chunks=(4, 5), device=device)
    _close(pickle.loads(pickle.dumps(x)).sum().compute(), A.sum(), device, rtol=1e-5)


def test_compute_with_ledger_counts_one_upload_a_chunk(device):
    x = vd.from_numpy(A, chunks=(4, 5), device=device)  # 2 chunks, each used twice by x + x
    (total, doubled), led = vd.compute_with_ledger(x.sum(), x + x)
    _close(total, A.sum(), device, rtol=1e-5)
    _close(doubled, A * 2, device)
    on_device = device != vt.cpu()
    assert led.uploads == (2 if on_device else 0)
    assert led.upload_bytes == (A.nbytes if on_device else 0)
    assert led.downloads == 0 and led.fallbacks == 0
    assert led.tasks is None and "no per-task counts" in led.summary()  # threads at once
    with pytest.raises(vt.Unsupported, match=r"\[dask.compute_with_ledger\] scheduler"):
        vd.compute_with_ledger(x.sum(), scheduler="processes")


def test_compute_with_ledger_per_task_under_the_synchronous_scheduler(device):
    x = vd.from_numpy(A, chunks=(4, 5), device=device)
    total, led = vd.compute_with_ledger(x.sum(), scheduler="sync")
    _close(total, A.sum(), device, rtol=1e-5)
    on_device = device != vt.cpu()
    getters = {k: d for k, d in led.tasks.items() if k[0].startswith("vktensor-from-numpy")}
    assert sorted(k[1:] for k in getters) == [(0, 0), (1, 0)]
    for (_, row, _), delta in getters.items():  # each getter uploads its chunk, once
        chunk_bytes = A[4 * row:4 * row + 4].nbytes
        assert delta.get("uploads", 0) == (1 if on_device else 0), delta
        assert delta.get("upload_bytes", 0) == (chunk_bytes if on_device else 0), delta
    # One task at a time: the tasks' counts add up to the whole computation's.
    for counter in ("uploads", "upload_bytes", "downloads", "dispatches"):
        assert sum(d.get(counter, 0) for d in led.tasks.values()) == led.delta[counter]
    lines = led.summary().splitlines()
    assert lines[0].split()[:4] == ["task", "tasks", "uploads", "up"]
    getter_row = next(line.split() for line in lines if line.startswith("vktensor-from-numpy "))
    assert getter_row[1:4] == (["2", "2", str(A.nbytes)] if on_device else ["2", "0", "0"])
    assert lines[-1].startswith("(whole computation)")


def test_bad_input_raises_typed_errors_naming_the_values():
    with pytest.raises(vt.ShapeError, match=r"\[dask.from_numpy\] chunk size 0 .*\(7, 5\)"):
        vd.from_numpy(A, chunks=0)
    with pytest.raises(vt.ShapeError, match=r"\[dask.from_numpy\] chunks=\(\(3, 3\), \(5,\)\) "
                                            r"do not fit shape \(7, 5\)"):
        vd.from_numpy(A, chunks=((3, 3), (5,)))
    with pytest.raises(vt.ShapeError, match=r"chunks='lots'"):
        vd.from_numpy(A, chunks="lots")
    with pytest.raises(vt.TypeError, match=r"\[dask.from_numpy\] NumPy dtype object"):
        vd.from_numpy(np.array([object()]), chunks=1)
    with pytest.raises(vt.TypeError, match=r"\[dask.from_numpy\] takes a NumPy array, got a "
                                           r"Tensor"):
        vd.from_numpy(vt.asarray(A), chunks=2)
    with pytest.raises(vt.TypeError, match=r"device='gpu'"):
        vd.from_numpy(A, chunks=2, device="gpu")
    with pytest.raises(vt.TypeError, match=r"\[dask.argmax\] axis=\(0, 1\)"):
        vd.argmax(vd.from_numpy(A, chunks=2), axis=(0, 1))
    with pytest.raises(vt.ShapeError, match=r"\[dask.local_cluster\] n_workers=0"):
        vd.local_cluster(0)


# ---- distributed: two worker processes of one thread ----

CLUSTER_WARNINGS = pytest.mark.filterwarnings(  # tornado's, under distributed 2022.12
    "ignore:make_current is deprecated:DeprecationWarning")


def _default_vulkan_name():
    try:
        return dict(vt.vulkan().properties)["device_name"]
    except vt.Error:
        return "0"


# VKT_DEVICE by index for worker 0, by this machine's default device's name for worker 1.
WORKER_DEVICES = ["0", _default_vulkan_name()]
# Each worker's Vulkan pool may hold 1 MiB (VKT_VK_POOL_CAP_MB through the nanny's env).
WORKER_POOL_CAP_MB = 1


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with vd.local_cluster(2, vulkan_devices=WORKER_DEVICES, timeout=60,
                          env={"VKT_VK_POOL_CAP_MB": str(WORKER_POOL_CAP_MB)}) as cluster, \
            distributed.Client(cluster, timeout=60) as c:
        yield c


@CLUSTER_WARNINGS
def test_local_cluster_sum_and_matmul_with_per_task_ledgers(client, device):
    distributed = pytest.importorskip("distributed")
    assert sorted(client.run(lambda: os.environ.get("VKT_DEVICE")).values()) == \
        sorted(WORKER_DEVICES)
    x = vd.from_numpy(A, chunks=(3, 2), device=device)
    y = vd.from_numpy(B, chunks=(2, 4), device=device)
    (total, product), led = vd.compute_with_ledger(x.sum(), x @ y, client=client, timeout=60)
    _close(total, A.sum(), device, rtol=1e-4, atol=1e-4)
    _close(product, A @ B, device, rtol=1e-4, atol=1e-4)
    on_device = device != vt.cpu()
    if on_device:  # every chunk was uploaded on a worker, and results came back
        assert led.uploads >= len(x.chunks[0]) * len(x.chunks[1]) and led.downloads >= 2
    # Per task, from each worker's LedgerPlugin: each of the 9 + 6 getters uploaded its chunk.
    # A worker's ledger is its process's, so a task's delta also holds what the worker
    # received for other tasks meanwhile (a chunk unpickled is uploaded): at least, not exactly.
    getters = [d for k, d in led.tasks.items() if key_split(k) == "vktensor-from-numpy"]
    assert len(getters) == 15
    if on_device:
        assert all(d.get("uploads", 0) >= 1 for d in getters), getters
        assert sum(d.get("upload_bytes", 0) for d in getters) >= A.nbytes + B.nbytes
    else:
        assert all(d.get("uploads", 0) == 0 for d in getters), getters
    assert sum(d.get("uploads", 0) for d in led.tasks.values()) <= led.uploads
    assert any(line.startswith("vktensor-from-numpy ") for line in led.summary().splitlines())
    # And in Dask's own task metadata, which the scheduler keeps for an output key.
    def upload_and_sum(values, where):
        return vt.sum(vt.asarray(values, device=where))

    with distributed.get_task_metadata() as collected:
        client.submit(upload_and_sum, A, device, pure=False).result(timeout=60)
    (metadata,) = collected.metadata.values()
    counted = metadata["vktensor_ledger"]
    assert (counted.get("uploads", 0), counted.get("upload_bytes", 0)) == \
        ((1, A.nbytes) if on_device else (0, 0)), counted


@CLUSTER_WARNINGS
def test_local_cluster_survives_a_killed_worker(client, device):
    def slow_square(block):
        time.sleep(0.4)
        return block * block

    # 7 tasks of 0.4 s over 2 one-thread workers; Vulkan chunks die with the worker's device.
    x = vd.from_numpy(A, chunks=(1, 5), device=device)
    future = client.compute(x.map_blocks(slow_square).sum(axis=1))
    deadline = time.monotonic() + 20
    busy = []
    while not busy and time.monotonic() < deadline:
        busy = [w for w, tasks in client.processing().items() if tasks]
        time.sleep(0.05)
    assert busy, "no task started within 20 s"
    killed = client.run(os.getpid)[busy[0]]
    os.kill(killed, signal.SIGKILL)
    _close(future.result(timeout=60), (A * A).sum(axis=1), device, rtol=1e-5)
    assert killed not in client.run(os.getpid).values()


def _worker_peak_reserved():
    return vt.vulkan().memory_stats()["peak_reserved"]


def _fits_on_worker(nbytes):
    try:
        vt.full((nbytes // 4,), 1.0, dtype=vt.float32, device=vt.vulkan()).to_device(vt.cpu())
        return True
    except vt.OutOfMemory:
        return False


@CLUSTER_WARNINGS
def test_local_cluster_streams_an_array_four_times_each_workers_pool_cap(client):
    if VULKAN is None:
        pytest.skip("no Vulkan device")
    cap = WORKER_POOL_CAP_MB << 20
    values = RNG.standard_normal((4096, cap // 4096)).astype(np.float32)
    weights = RNG.standard_normal((values.shape[1], 8)).astype(np.float32)
    assert values.nbytes == 4 * cap
    # A worker cannot hold the array at once: its pool refuses it.
    assert not any(client.run(_fits_on_worker, values.nbytes).values())
    x = vd.from_numpy(values, chunks=(128, -1), device=VULKAN)  # 32 chunks of 128 KiB
    w = vd.from_numpy(weights, chunks=-1, device=VULKAN)
    # The chain's result is as large as the array: each chunk leaves the device in its task.
    chain = (np.exp(x * 0.5) - x / 3).map_blocks(lambda block: block.to_device(vt.cpu()),
                                                 meta=vd.meta(vt.float32, 2))
    cases = {"sum": (x.sum(), values.sum()),
             # split_every=4: a combine step holds 4 partial rows, not 16.
             "mean axis 0": (x.mean(axis=0, split_every=4), values.mean(axis=0)),
             "argmax": (da.argmax(x), values.argmax()),
             "argmin axis 1": (x.argmin(axis=1), values.argmin(axis=1)),
             "matmul": (x @ w, values @ weights),
             "chain": (chain, np.exp(values * 0.5) - values / 3)}
    for name, (arr, expected) in cases.items():  # one at a time: each streams the chunks
        got = client.compute(arr).result(timeout=60).numpy()
        if "arg" in name:
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            atol = 1e-6 * np.abs(values).sum() if name == "sum" else 1e-4
            np.testing.assert_allclose(got, expected, rtol=1e-4, atol=atol, err_msg=name)
    peaks = client.run(_worker_peak_reserved)
    assert all(0 < peak <= cap for peak in peaks.values()), peaks
