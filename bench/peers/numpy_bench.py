#!/usr/bin/python3
"""NumPy as a peer in vktensor's consumer-aware bench (DESIGN.md section 5).

Columns A (op alone), B (op, then the consumer's use of the result: the array itself, as
vktensor's to_cpu() + host_span() is no copy for a cpu result) and B_vec (op, then a copy
into new host memory, tobytes(), as vktensor's to_vector); C..E stay empty: numpy has no
device. Cases mirror bench/cases.cpp: same shapes, same f32 data (arange(n)/n + 0.01, or
vkt-bench's hashed values with VKT_BENCH_DATA=random),
the same indices, and a new result array per repetition (no in-place reuse), as a
vktensor op returns a new tensor.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

F32 = np.float32


def f32_data(n, shape, scale=1.0, offset=0.01):
    """bench_data.cpp f32_data: iota(n)/n * scale + offset, computed in f32; with
    VKT_BENCH_DATA=random vkt-bench's hashed values (peer_common.bench_data)."""
    if pc.random_data():
        return pc.bench_data(n, scale, offset).reshape(shape)
    x = np.arange(n, dtype=F32) / F32(n) * F32(scale) + F32(offset)
    return x.astype(F32).reshape(shape)


def seed_data(n, shape):
    return f32_data(n, shape)


# Each maker returns (shape of the main input, the op as a no-argument callable). Inputs
# are built outside the timed callable.


def concatenate(n):
    a, b = seed_data(n, (n,)), seed_data(n, (n,))
    return (n,), lambda: np.concatenate((a, b), axis=0)


def pad(n):
    s = pc.rows8(n)
    x = seed_data(n, s)
    return s, lambda: np.pad(x, ((1, 1), (1, 1)), mode="constant", constant_values=0)


def put_slice(n):
    s = pc.rows8(n)
    x = seed_data(n, s)
    row = np.full((1, 8), 5.0, dtype=F32)
    mid = s[0] // 2

    def run():
        y = x.copy()  # vktensor's put_slice returns a new tensor; so must this
        y[mid:mid + 1, :] = row
        return y
    return s, run


def indexed_put(n):
    x = seed_data(n, (n,))
    idx = np.array([0, n // 2, n - 1], dtype=np.int64)
    vals = np.array([7, 8, 9], dtype=F32)

    def run():
        y = x.copy()
        y[idx] = vals
        return y
    return (n,), run


def broadcast(n):
    s = F32(2.5)
    # broadcast_to is a view; vktensor materializes the {n} result, so copy it.
    return (), lambda: np.broadcast_to(s, (n,)).copy()


def gather(n):
    x = seed_data(n, (n,))
    idx = np.arange(n // 4, dtype=np.int64) * 4
    return (n,), lambda: np.take(x, idx)


def take(n):
    s = pc.rows8(n)
    x = seed_data(n, s)
    idx = np.arange(s[0] // 2, dtype=np.int64) * 2
    return s, lambda: np.take(x, idx, axis=0)


def add(n):
    a, b = seed_data(n, (n,)), f32_data(n, (n,), 0.5, 0.25)
    return (n,), lambda: a + b


def multiply(n):
    a, b = seed_data(n, (n,)), f32_data(n, (n,), 0.5, 0.25)
    return (n,), lambda: a * b


def elementwise(fn):
    """A case of fn on one seed-data vector {n}."""
    def make(n):
        x = seed_data(n, (n,))
        return (n,), lambda: fn(x)
    return make


def on_square(fn):
    """A case of fn on seed data shaped square_ish(n) (reductions along rows)."""
    def make(n):
        s = pc.square_ish(n)
        x = seed_data(n, s)
        return s, lambda: fn(x)
    return make


exp = elementwise(np.exp)
tanh = elementwise(np.tanh)
sum_all = on_square(lambda x: x.sum())  # a numpy f32 scalar: 4 bytes, like vktensor's {} result
sum_axis1 = on_square(lambda x: x.sum(axis=1))
argmax = on_square(lambda x: x.argmax(axis=1))  # int64 per row, like vktensor's argmax(x, 1)
argmax_all = on_square(lambda x: x.argmax())  # one int64 over every element, like argmax(x)


def transpose(n):
    s = pc.square_ish(n)
    x = seed_data(n, s)
    return s, lambda: np.ascontiguousarray(x.T)  # x.T alone is a view; vktensor moves data


def concatenate_inner(n):
    s = pc.rows8(n)
    a, b = seed_data(n, s), seed_data(n, s)
    return s, lambda: np.concatenate((a, b), axis=1)


def dot(n):
    s = pc.square_ish(n)
    a, b = seed_data(n, s), seed_data(n, (s[1], s[0]))
    return s, lambda: a @ b


SQUARE_ISH_OPS = {"sum", "sum_axis1", "argmax", "argmax_all", "transpose", "dot"}

CASES = {
    "concatenate": concatenate, "pad": pad, "put_slice": put_slice, "indexed_put": indexed_put,
    "broadcast": broadcast, "gather": gather, "take": take,
    "add": add, "multiply": multiply, "exp": exp, "tanh": tanh, "sum": sum_all, "sum_axis1": sum_axis1, "argmax": argmax,
    "argmax_all": argmax_all,
    "transpose": transpose, "concatenate_inner": concatenate_inner, "dot": dot,
}


def blas_name():
    """The BLAS numpy's dot runs on, from numpy's build config (best effort)."""
    try:
        cfg = np.show_config(mode="dicts")
        return cfg["Build Dependencies"]["blas"]["name"]
    except Exception:  # older numpy: show_config prints and has no dicts mode
        return "unknown"


def parse_args(argv):
    p = argparse.ArgumentParser(description="NumPy peer of vkt-bench consumer: columns A (op) and B (op + read).")
    pc.add_case_arguments(p, CASES)
    p.add_argument("--out", default="", help="CSV path (default bench_results/<machine>/numpy-consumer.csv)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        ops, sizes = pc.cases_of(args, CASES)
        cases = {(op, n): CASES[op] for op in ops for n in sizes}
        for op, n in cases:  # shape errors before any timing (sizes are already multiples of 16)
            if op in SQUARE_ISH_OPS:
                pc.square_ish(n)
        meta = pc.host_metadata(f"numpy {np.__version__}, BLAS {blas_name()}")
        out = args.out or pc.default_csv_path(meta, "numpy-consumer")
        pc.check_writable(out)
    except (ValueError, OSError) as e:
        print(f"numpy_bench: {e}", file=sys.stderr)
        return 2

    rows = []
    for i, ((op, n), make) in enumerate(cases.items(), 1):
        print(f"\r[{i}/{len(cases)}] {op} {n}          ", end="", file=sys.stderr, flush=True)
        shape, run = make(n)
        a = pc.time_it(run, min_reps=args.reps)
        # B: the result array is what the consumer uses (np.asarray is a no-copy view).
        # B_vec: tobytes(), numpy's copy into a new bytes object, as to_vector. (tolist()
        # would time Python float boxing, which no C++ consumer pays.)
        b = pc.time_it(lambda: np.asarray(run()), min_reps=args.reps)
        b_vec = pc.time_it(lambda: run().tobytes(), min_reps=args.reps)
        out_bytes = run().nbytes
        rows.append(pc.consumer_row(meta, "numpy", op, "f32", shape, n, "cpu-only",
                                    {"A": a, "B": b, "B_vec": b_vec}, out_bytes))
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    pc.print_table(rows, ["op", "size", "shape", "A_us", "B_us", "A_reps", "B_reps"])
    pc.write_csv(out, rows)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
