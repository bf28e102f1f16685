#!/usr/bin/env python3
"""PyTorch eager and torch.compile as peers of `vkt-bench chain` (bench/chain.cpp).

Same workloads, same f32 data (iota(n)/n + 0.01, or VKT_BENCH_DATA=random's hashed values), same sizes: chains of k = 1, 4, 16
elementwise ops (alternating multiply by 1.0001 and add 0.5), an MLP layer
x {min(n/1024, 4096), 1024} @ W {1024, 1024} + bias, gelu (tanh form), and softmax and
layer norm over rows of min(n, 4096). Columns as vkt-bench chain's, for torch:
  B / B_compiled  cpu eager / torch.compile on cpu, then the consumer's view (.numpy())
  C / C_compiled  CUDA with inputs resident, then torch.cuda.synchronize()
  D / D_compiled  CUDA, then .cpu() and the view
  first_call_us   the first call of a fresh torch.compile'd function on CUDA (or cpu),
                  compilation included; cache_hit_host_us: later calls' host time
Where torch.compile fails (no compiler toolchain on the machine), its columns stay empty
and the reason goes to stderr.
"""

import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

F32 = torch.float32


def seed_data(n, shape, dev):
    """cases.cpp seed_data: iota(n)/n + 0.01, or with VKT_BENCH_DATA=random vkt-bench's hashed
    values (peer_common.bench_data_torch)."""
    x = pc.bench_data_torch(n) if pc.random_data() else torch.arange(n, dtype=F32) / n + 0.01
    return x.reshape(shape).to(dev)


def chain(k):
    def f(x):
        for j in range(k):
            x = x + 0.5 if j % 2 else x * 1.0001
        return x
    return f


def mlp(x, w, b):
    h = x @ w + b
    return h * 0.5 * (torch.tanh((h + h * h * h * 0.044715) * 0.7978845608) + 1.0)


def softmax_rows(x):
    e = torch.exp(x - x.amax(dim=1, keepdim=True))
    return e / e.sum(dim=1, keepdim=True)


def layer_norm_rows(x, gamma, beta):
    d = x - x.sum(dim=1, keepdim=True) / x.shape[1]
    var = (d * d).sum(dim=1, keepdim=True) / x.shape[1]
    return d * torch.rsqrt(var + 1e-5) * gamma + beta


def workloads(sizes):
    out = []
    for k in (1, 4, 16):
        for n in sizes:
            out.append((f"chain{k}", n, [n], lambda dev, n=n: [seed_data(n, [n], dev)], chain(k)))
    for n in sizes:
        rows = min(max(n // 1024, 1), 4096)
        out.append(("mlp", n, [rows, 1024],
                    lambda dev, rows=rows: [seed_data(rows * 1024, [rows, 1024], dev),
                                            seed_data(1024 * 1024, [1024, 1024], dev),
                                            seed_data(1024, [1024], dev)], mlp))
    for n in sizes:
        cols = min(n, 4096)
        side = max(n // cols, 1)
        out.append(("softmax", n, [side, cols], lambda dev, side=side, cols=cols: [seed_data(side * cols, [side, cols], dev)],
                    softmax_rows))
    for n in sizes:
        cols = min(n, 4096)
        side = max(n // cols, 1)
        out.append(("layernorm", n, [side, cols],
                    lambda dev, side=side, cols=cols: [seed_data(side * cols, [side, cols], dev),
                                                       seed_data(cols, [cols], dev),
                                                       seed_data(cols, [cols], dev)],
                    layer_norm_rows))
    return out


COLUMNS = pc.HOST_COLUMNS + ["op", "dtype", "shape", "size", "case", "B_us", "B_compiled_us", "C_us",
                             "C_compiled_us", "D_us", "D_compiled_us", "D_over_B", "D_compiled_over_B",
                             "first_call_us", "cache_hit_host_us", "library"]


def try_compile(fn, label):
    try:
        return torch.compile(fn)
    except Exception as e:  # noqa: BLE001  (a missing toolchain shows here or at first call)
        print(f"torch_chain: torch.compile of {label} failed: {e}", file=sys.stderr)
        return None


def main(argv=None):
    p = argparse.ArgumentParser(description="PyTorch eager and torch.compile peer of vkt-bench chain.")
    p.add_argument("--sizes", default="16384,1048576,16777216", help="comma-separated sizes (default: %(default)s)")
    p.add_argument("--reps", type=int, default=30, help="minimum timed repetitions (default: %(default)s)")
    p.add_argument("--out", default="", help="CSV path (default bench_results/<machine>/torch-chain.csv)")
    args = p.parse_args(argv)
    sizes = pc.parse_sizes(args.sizes)
    has_cuda = torch.cuda.is_available()
    meta = pc.host_metadata(f"torch {torch.__version__}" + (f", CUDA {torch.version.cuda}" if has_cuda else ""))
    out = args.out or pc.default_csv_path(meta, "torch-chain")
    pc.check_writable(out)
    sync = torch.cuda.synchronize if has_cuda else (lambda: None)
    rows = []
    work = workloads(sizes)
    for i, (label, n, shape, make, fn) in enumerate(work):
        print(f"\r[{i + 1}/{len(work)}] {label} {n}          ", end="", file=sys.stderr, flush=True)
        row = dict(meta, op=label, dtype="f32", shape=pc.shape_str(shape), size=str(n), case=label, library="torch")
        cpu_in = make("cpu")
        row["B_us"] = pc.fmt_num(pc.time_it(lambda: fn(*cpu_in).numpy(), min_reps=args.reps).median_us)
        dev = "cuda" if has_cuda else "cpu"
        fresh = try_compile(fn, label)
        if fresh is not None:
            try:
                dev_in = make(dev)
                t0 = time.perf_counter_ns()
                fresh(*dev_in)
                sync()
                row["first_call_us"] = pc.fmt_num((time.perf_counter_ns() - t0) / 1000.0)
                host = []
                for _ in range(32):
                    t0 = time.perf_counter_ns()
                    fresh(*dev_in)
                    host.append((time.perf_counter_ns() - t0) / 1000.0)
                    sync()
                row["cache_hit_host_us"] = pc.fmt_num(pc.summarize(host).median_us)
            except Exception as e:  # noqa: BLE001
                print(f"\ntorch_chain: torch.compile of {label} failed at run time: {e}", file=sys.stderr)
                fresh = None
        compiled_cpu = try_compile(fn, label) if has_cuda else fresh
        if compiled_cpu is not None:
            try:
                compiled_cpu(*cpu_in)
                row["B_compiled_us"] = pc.fmt_num(
                    pc.time_it(lambda: compiled_cpu(*cpu_in).numpy(), min_reps=args.reps).median_us)
            except Exception as e:  # noqa: BLE001
                print(f"\ntorch_chain: torch.compile of {label} on the cpu failed: {e}", file=sys.stderr)
        if has_cuda:
            gpu_in = make("cuda")
            sync()

            def c_run(f=fn):
                f(*gpu_in)
                sync()
            row["C_us"] = pc.fmt_num(pc.gpu_time_it(c_run, min_reps=args.reps).median_us)
            row["D_us"] = pc.fmt_num(pc.gpu_time_it(lambda: fn(*gpu_in).cpu().numpy(), min_reps=args.reps).median_us)
            row["D_over_B"] = pc.fmt_num(float(row["D_us"]) / float(row["B_us"]), 4)
            if fresh is not None:
                row["C_compiled_us"] = pc.fmt_num(pc.gpu_time_it(lambda: c_run(fresh), min_reps=args.reps).median_us)
                row["D_compiled_us"] = pc.fmt_num(
                    pc.gpu_time_it(lambda: fresh(*gpu_in).cpu().numpy(), min_reps=args.reps).median_us)
                row["D_compiled_over_B"] = pc.fmt_num(float(row["D_compiled_us"]) / float(row["B_us"]), 4)
        rows.append(row)
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    pc.print_table(rows, ["case", "size", "B_us", "B_compiled_us", "C_us", "C_compiled_us", "D_us", "D_compiled_us",
                          "first_call_us"])
    pc.write_csv(out, rows, COLUMNS)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
