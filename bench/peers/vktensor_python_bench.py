#!/usr/bin/python3
"""vktensor driven from Python as a peer in the consumer-aware bench (DESIGN.md section 5):
the seed's seven ops, each the same vktensor call `vkt-bench consumer` times, made through the
`vktensor` module. What a Python caller pays on top of the C++ call is the difference.

Timed as bench/measure.cpp times each column (Read modes in bench/measure.h):
  A  op on cpu tensors, then the result's device synchronize() (a no-op on the cpu)
  B  op on cpu tensors, then .to_device(vt.cpu()) (the same tensor) and np.asarray (a view)
  C  op on the device, inputs resident (bench/cases.cpp place_inputs), then synchronize()
  D  op on the device, then .to_device(vt.cpu()) (a download) and np.asarray, a view of it:
     C++'s to_cpu() + host_data()
E, B_vec, D_vec and C_gpu stay empty (Python has no device timer). The D ledger columns come
from one more D run inside `with vt.ledger()`, as measure() takes them. Cases are
bench/cases.cpp's: the same calls, shapes, indices, inputs held on the cpu (gather's and
indexed_put's indices) and data, built by the same vktensor ops (VKT_BENCH_DATA=random: the
hashed values of peer_common.bench_data). --cpp CSV adds D over the C++ bench's D.

Needs numpy and the vktensor module only (PYTHONPATH=build/python).
"""

import argparse
import csv
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

import vktensor as vt  # noqa: E402

CPU = vt.cpu()
LEDGER_KEYS = {"uploads": "uploads", "downloads": "downloads", "bytes_up": "upload_bytes",
               "bytes_down": "download_bytes", "submits": "submits"}
COLUMNS = pc.PEER_COLUMNS + ["D_over_cpp_D"]  # the other peers' columns, then ours


def f32_data(n, shape, scale=1.0, offset=0.01):
    """bench_data.cpp f32_data by the same cpu ops (iota / n * scale + offset, the scalars
    weak doubles as there), so the bits are vkt-bench's; or its hashed values."""
    if pc.random_data():
        return vt.asarray(pc.bench_data(n, scale, offset).reshape(shape), copy=True)
    ramp = vt.divide(vt.iota((n,), dtype=vt.float32, device=CPU), float(n))
    return vt.reshape(vt.add(vt.multiply(ramp, scale), offset), shape)


def s64(values, shape):
    return vt.asarray(np.array(values, dtype=np.int64).reshape(shape), copy=True)


# Each maker returns (main input's shape, [(input, stays_on_cpu)], the call on the placed
# inputs), as cases.cpp's OpCase.


def concatenate(n):
    inputs = [(f32_data(n, (n,)), False), (f32_data(n, (n,)), False)]
    return (n,), inputs, lambda a, b: vt.concatenate([a, b], 0)


def pad(n):
    s = pc.rows8(n)
    return s, [(f32_data(n, s), False)], lambda x: vt.pad(x, 0.0, [(1, 1, 0), (1, 1, 0)])


def put_slice(n):
    s = pc.rows8(n)
    mid = s[0] // 2
    update = vt.full((1, 8), 5.0, dtype=vt.float32, device=CPU)
    return s, [(f32_data(n, s), False), (update, False)], lambda x, u: vt.put_slice(x, (mid, 0), u)


def indexed_put(n):
    idx = s64([0, n // 2, n - 1], (3, 1))  # held on the host by the seed
    vals = vt.asarray(np.array([7, 8, 9], dtype=np.float32), copy=True)
    return (n,), [(f32_data(n, (n,)), False), (idx, True), (vals, False)], vt.indexed_put


def broadcast(n):
    s = vt.full((), 2.5, dtype=vt.float32, device=CPU)  # scalar_tensor(2.5f)
    return (), [(s, False)], lambda x: vt.broadcast(x, (n,))


def gather(n):
    idx = vt.reshape(vt.multiply(vt.iota((n // 4,), dtype=vt.int64, device=CPU), 4), (n // 4, 1))
    return (n,), [(f32_data(n, (n,)), False), (idx, True)], vt.gather  # indices held on the host


def take(n):
    s = pc.rows8(n)
    idx = vt.multiply(vt.iota((s[0] // 2,), dtype=vt.int64, device=CPU), 2)  # placed on the device
    return s, [(f32_data(n, s), False), (idx, False)], lambda x, i: vt.take(x, i, 0)


CASES = {"concatenate": concatenate, "pad": pad, "put_slice": put_slice, "indexed_put": indexed_put,
         "broadcast": broadcast, "gather": gather, "take": take}


def measure(op_fn, inputs, dev, read, timer, reps):
    """measure.cpp's measure(): places the inputs on `dev` (cpu-held ones stay), times the op
    and `read` ("none": the result's device synchronize; "to_cpu": to_device(cpu) + a numpy
    view), then runs once more under the ledger. Returns (Stats, ledger delta dict)."""
    placed = [t if stays else t.to_device(dev) for t, stays in inputs]
    dev.synchronize()

    def once():
        r = op_fn(*placed)
        if read == "none":
            r.device.synchronize()  # the result's device, as C++'s r.backend(): cpu after a fallback
        else:
            np.asarray(r.to_device(CPU))
    stats = timer(once, min_reps=reps)
    with vt.ledger() as led:
        once()
    return stats, led.delta


def measure_d2h_bytes_per_us(dev):
    """bench/device.cpp's floor rate: to_cpu() of a 256 MiB device tensor, median of 5 after
    one warm-up."""
    big = vt.full(((256 << 20) // 4,), 1.25, dtype=vt.float32, device=dev)
    dev.synchronize()
    st = pc.time_it(lambda: big.to_device(CPU), warmups=1, min_reps=5, min_total_us=0)
    print(f"vktensor_python_bench: device-to-host read of 256 MiB: to_device(cpu) median {st.median_us:.0f} us = "
          f"{big.nbytes / st.median_us / 1000.0:.2f} GB/s", file=sys.stderr)
    return big.nbytes / st.median_us


def find_device(text):
    """vkt-bench's find_device: --device cpu: none; else vt.vulkan(index), -1 the default
    (VKT_DEVICE or the best); no such device: none, with a note."""
    if text == "cpu":
        return None
    try:
        index = int(text)
    except ValueError:
        raise ValueError(f"bad --device '{text}': a Vulkan device index or 'cpu'")
    try:
        return vt.vulkan(index)
    except vt.NoDevice as e:
        print(f"vktensor_python_bench: no Vulkan device ({e}); device columns stay empty", file=sys.stderr)
        return None


def device_fields(dev):
    """host_info.cpp's device columns from the device's own properties (None: "none")."""
    if dev is None:
        return None
    props = dict(dev.properties)
    return {"device": props.get("device_name", "unknown"), "device_type": props.get("device_type", "unknown"),
            "driver": props.get("driver_version", "unknown"), "vk_api": props.get("api_version", "unknown")}


def read_cpp_d(path):
    """(op, size) -> D_us of a vkt-bench consumer CSV, and the devices it names."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error) as e:
        raise ValueError(f"cannot read --cpp '{path}': {getattr(e, 'strerror', None) or e}")
    if not rows or not {"op", "size", "D_us"} <= set(rows[0]):
        raise ValueError(f"--cpp '{path}' is not a vkt-bench consumer CSV (no op, size, D_us columns)")
    return {(r["op"], int(r["size"])): r["D_us"] for r in rows}, {r.get("device", "") for r in rows}


def parse_args(argv):
    p = argparse.ArgumentParser(description="vktensor from Python, peer of vkt-bench consumer: "
                                "A/B on the cpu, C/D on a Vulkan device.")
    pc.add_case_arguments(p, CASES)
    p.add_argument("--device", default="-1",
                   help="Vulkan device index (default -1: VKT_DEVICE or the best); 'cpu': columns A and B only")
    p.add_argument("--out", default="", help="CSV path (default bench_results/<machine>/python-consumer.csv)")
    p.add_argument("--cpp", default="", metavar="CSV",
                   help="a vkt-bench consumer CSV of the same machine: print and write D over its D per (op, size)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        ops, sizes = pc.cases_of(args, CASES)
        cpp, cpp_devices = read_cpp_d(args.cpp) if args.cpp else (None, set())
        dev = find_device(args.device)
        meta = pc.host_metadata("", device_fields(dev))
        meta["build_type"] = (f"vktensor {meta['commit']} from Python {platform.python_version()}, "
                              f"numpy {np.__version__}")
        out = args.out or pc.default_csv_path(meta, "python-consumer")
        pc.check_writable(out)
    except (ValueError, OSError) as e:
        print(f"vktensor_python_bench: {e}", file=sys.stderr)
        return 2
    # measure.cpp's min_warmup_us: the 500 ms warm-up is for a GPU's clocks; a cpu device
    # (lavapipe) keeps the cpu's 20 ms, as vkt-bench does there.
    on_gpu = dev is not None and dict(dev.properties).get("device_type") != "cpu"
    dev_timer = pc.gpu_time_it if on_gpu else pc.time_it
    if cpp is not None and meta["device"] not in cpp_devices:  # a ratio across machines means nothing
        print(f"vktensor_python_bench: --cpp ran on {', '.join(sorted(cpp_devices))}, this on {meta['device']}",
              file=sys.stderr)
    d2h = measure_d2h_bytes_per_us(dev) if dev is not None else None

    rows, ratios = [], []
    total = len(ops) * len(sizes)
    for op in ops:
        for n in sizes:
            print(f"\r[{len(rows) + 1}/{total}] {op} {n}          ", end="", file=sys.stderr, flush=True)
            shape, inputs, fn = CASES[op](n)
            cols = {"A": measure(fn, inputs, CPU, "none", pc.time_it, args.reps)[0],
                    "B": measure(fn, inputs, CPU, "to_cpu", pc.time_it, args.reps)[0]}
            expect = np.asarray(fn(*[t for t, _ in inputs]))
            path, led = "cpu-only", None
            if dev is not None:
                cols["C"] = measure(fn, inputs, dev, "none", dev_timer, args.reps)[0]
                cols["D"], led = measure(fn, inputs, dev, "to_cpu", dev_timer, args.reps)
                path = "fallback" if led["fallbacks"] > 0 else "native"  # rows.cpp path_taken
                got = np.asarray(fn(*[t if s else t.to_device(dev) for t, s in inputs]).to_device(CPU))
                if got.shape != expect.shape or not np.array_equal(got, expect):
                    print(f"\nvktensor_python_bench: {op} {n}: the device result differs from the cpu's",
                          file=sys.stderr)
            row = pc.consumer_row(meta, "vktensor-python", op, "f32", shape, n, path, cols, expect.nbytes, d2h)
            for name, key in LEDGER_KEYS.items():
                row[f"D_{name}"] = str(led[key]) if led else ""
            if cpp is not None and "D" in cols:
                cpp_d = cpp.get((op, n), "")
                ratio = pc.fmt_num(cols["D"].median_us / float(cpp_d), 4) if cpp_d and float(cpp_d) > 0 else ""
                row["D_over_cpp_D"] = ratio
                ratios.append({"op": op, "size": n, "py_D_us": row["D_us"], "cpp_D_us": cpp_d or "-",
                               "D_over_cpp_D": ratio or "-"})
            rows.append(row)
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    pc.print_table(rows, ["op", "size", "path", "A_us", "B_us", "C_us", "D_us", "D_over_B", "C_over_A",
                          "D_over_floor", "D_downloads", "D_submits"])
    if ratios:
        print()
        pc.print_table(ratios, ["op", "size", "py_D_us", "cpp_D_us", "D_over_cpp_D"])
    pc.write_csv(out, rows, columns=COLUMNS)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
