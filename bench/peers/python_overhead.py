#!/usr/bin/python3
"""The Python binding's cost per call: a few ops on 1k-element f32 cpu tensors, called from
Python through vktensor, from C++ in the same process (the module's _cpp_ns_per_call loop,
on the same tensors), through NumPy, and through PyTorch where it is installed, in one run.

Each sample times a loop of --calls back-to-back calls (a single sub-microsecond call is
below the timer's resolution) and divides; medians over samples after warm-up, as every
vkt-bench figure. Writes bench_results/<machine>/python-overhead.csv.

Usage: PYTHONPATH=build/python python3 bench/peers/python_overhead.py [--calls 1000]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

import numpy as np  # noqa: E402

import vktensor as vt  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

N = 1024
# (label, vktensor op name for the C++ loop, second operand kind)
CASES = [("add(x, y)", "add", "tensor"), ("x * 2.0", "multiply", "literal"),
         ("exp(x)", "exp", None), ("sum(x)", "sum", None)]


def calls_of(fn, calls):
    def run():
        for _ in range(calls):
            fn()
    return run


def python_calls(label, x, y):
    return {"add(x, y)": lambda: vt.add(x, y), "x * 2.0": lambda: x * 2.0,
            "exp(x)": lambda: vt.exp(x), "sum(x)": lambda: vt.sum(x)}[label]


def numpy_calls(label, a, b):
    return {"add(x, y)": lambda: np.add(a, b), "x * 2.0": lambda: a * 2.0,
            "exp(x)": lambda: np.exp(a), "sum(x)": lambda: np.sum(a)}[label]


def torch_calls(label, a, b):
    return {"add(x, y)": lambda: torch.add(a, b), "x * 2.0": lambda: a * 2.0,
            "exp(x)": lambda: torch.exp(a), "sum(x)": lambda: torch.sum(a)}[label]


def per_call(stats, calls):
    """A sample's stats as per-call figures."""
    return pc.Stats(stats.median_us / calls, stats.p95_us / calls, stats.min_us / calls,
                    stats.reps)


def cpp_per_call(op, x, other, calls, reps=100, warmups=20):
    """The C++ loop's own figure (ns per call) for each sample, after warm-up samples."""
    for _ in range(warmups):
        vt._vktensor._cpp_ns_per_call(op, x, other, calls)
    return pc.summarize([vt._vktensor._cpp_ns_per_call(op, x, other, calls) / 1000.0 for _ in range(reps)])


def row(meta, label, library, stats, calls):
    return {**meta, "op": label, "size": N, "library": library, "calls_per_sample": calls,
            "per_call_us": pc.fmt_num(stats.median_us, 4), "p95_us": pc.fmt_num(stats.p95_us, 4),
            "min_us": pc.fmt_num(stats.min_us, 4), "reps": stats.reps}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000,
                        help="calls per timed sample: about a millisecond at 1k elements, so one "
                             "scheduler tick or a neighbour's burst moves a median little")
    parser.add_argument("--out", default=None, help="CSV path")
    args = parser.parse_args()
    device = None
    try:
        props = dict(vt.vulkan().properties)
        device = {"device": props.get("device_name", "none"),
                  "device_type": props.get("device_type", "none"),
                  "driver": props.get("driver_version", "none"),
                  "vk_api": props.get("api_version", "none")}
    except vt.Error:
        pass
    versions = f"numpy {np.__version__}" + (f", torch {torch.__version__}" if torch else "")
    meta = pc.host_metadata(f"Release; {versions}", device)
    out = args.out or pc.default_csv_path(meta, "python-overhead")
    pc.check_writable(out)
    a = np.linspace(0.5, 1.5, N, dtype=np.float32)
    b = np.linspace(1.5, 0.5, N, dtype=np.float32)
    x, y = vt.asarray(a), vt.asarray(b)
    rows = []
    for label, op, second in CASES:
        other = y if second == "tensor" else (2.0 if second == "literal" else None)
        rows.append(row(meta, label, "vktensor C++", cpp_per_call(op, x, other, args.calls),
                        args.calls))
        peers = [("vktensor Python", python_calls(label, x, y)),
                 ("NumPy", numpy_calls(label, a, b))]
        if torch is not None:
            ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
            peers.append(("PyTorch", torch_calls(label, ta, tb)))
        for library, fn in peers:
            stats = pc.time_it(calls_of(fn, args.calls))
            rows.append(row(meta, label, library, per_call(stats, args.calls), args.calls))
    columns = pc.HOST_COLUMNS + ["op", "size", "library", "calls_per_sample", "per_call_us",
                                 "p95_us", "min_us", "reps"]
    pc.write_csv(out, rows, columns=columns)
    pc.print_table(rows, ["op", "library", "per_call_us", "p95_us", "reps"])
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
