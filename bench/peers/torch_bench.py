#!/usr/bin/env python3
"""PyTorch as a peer in vktensor's consumer-aware bench (DESIGN.md section 5).

Timed exactly as vkt-bench times vktensor (bench/measure.h):
  A  op on torch cpu tensors
  B  op, then the consumer's view of the result: .numpy() (no copy), as vktensor's
     to_cpu() + host_span() is no copy for a cpu result
  C  op on CUDA with inputs resident, then torch.cuda.synchronize()
  D  op on CUDA, then .cpu() (torch's read into new pageable host memory), then .numpy()
  B_vec, D_vec  B and D with the result copied into new host memory (.numpy().tobytes()),
     as vktensor's to_vector columns copy it into a new std::vector
E stays empty (torch has no legacy path). Without CUDA, C and D stay empty. Cases mirror bench/cases.cpp: same shapes, same f32 data (VKT_BENCH_DATA=random as there), indices the seed holds
on the cpu are moved to the device inside the timed region, as vktensor must.

Runs with the GPU machine's own python3 (no matplotlib; numpy optional).
"""

import argparse
import os
import subprocess
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

F32 = torch.float32

try:
    import numpy  # noqa: F401  (only for .numpy(), the consumer read)
    HAVE_NUMPY = True
except ImportError:
    HAVE_NUMPY = False


def host_view(t):
    """The consumer's use of a host tensor: its elements in place, as vktensor's
    host_span(). Without numpy the tensor itself is that view."""
    return t.numpy() if HAVE_NUMPY else t


def host_copy(t):
    """A copy of a host tensor's elements into new host memory, like vktensor's
    to_vector(). Without numpy, clone() is the same one copy into a new host buffer."""
    return t.numpy().tobytes() if HAVE_NUMPY else t.clone()


def f32_data(n, shape, dev, scale=1.0, offset=0.01):
    """bench_data.cpp f32_data: iota(n)/n * scale + offset in f32 (with VKT_BENCH_DATA=random
    vkt-bench's hashed values, peer_common.bench_data_torch), placed on `dev`."""
    if pc.random_data():
        return pc.bench_data_torch(n, scale, offset).reshape(shape).to(dev)
    x = torch.arange(n, dtype=F32) / n * scale + offset
    return x.reshape(shape).to(dev)


def seed_data(n, shape, dev):
    return f32_data(n, shape, dev)


# Each maker takes (n, device) and returns (main input's shape, the op as a no-argument
# callable). Inputs are built and placed outside the timed callable.


def concatenate(n, dev):
    a, b = seed_data(n, (n,), dev), seed_data(n, (n,), dev)
    return (n,), lambda: torch.cat((a, b), 0)


def pad(n, dev):
    s = pc.rows8(n)
    x = seed_data(n, s, dev)
    return s, lambda: F.pad(x, (1, 1, 1, 1))  # last dim (1,1), then first dim (1,1); zeros


def put_slice(n, dev):
    s = pc.rows8(n)
    x = seed_data(n, s, dev)
    row = torch.full((1, 8), 5.0, dtype=F32, device=dev)
    mid = s[0] // 2

    def run():
        y = x.clone()  # vktensor's put_slice returns a new tensor; so must this
        y[mid:mid + 1, :] = row
        return y
    return s, run


def indexed_put(n, dev):
    x = seed_data(n, (n,), dev)
    idx = torch.tensor([0, n // 2, n - 1], dtype=torch.int64)  # held on the cpu, as in the seed
    vals = torch.tensor([7.0, 8.0, 9.0], dtype=F32, device=dev)
    return (n,), lambda: x.clone().index_put_((idx.to(dev),), vals)


def broadcast(n, dev):
    s = torch.tensor(2.5, dtype=F32, device=dev)
    return (), lambda: s.expand(n).contiguous()  # expand alone is a view; vktensor materializes


def gather(n, dev):
    x = seed_data(n, (n,), dev)
    idx = torch.arange(n // 4, dtype=torch.int64) * 4  # held on the cpu, as in the seed
    return (n,), lambda: x[idx.to(dev)]


def take(n, dev):
    s = pc.rows8(n)
    x = seed_data(n, s, dev)
    idx = (torch.arange(s[0] // 2, dtype=torch.int64) * 2).to(dev)  # resident, as in the seed
    return s, lambda: torch.index_select(x, 0, idx)


def add(n, dev):
    a, b = seed_data(n, (n,), dev), f32_data(n, (n,), dev, 0.5, 0.25)
    return (n,), lambda: a + b


def multiply(n, dev):
    a, b = seed_data(n, (n,), dev), f32_data(n, (n,), dev, 0.5, 0.25)
    return (n,), lambda: a * b


def elementwise(fn):
    """A case of fn on one seed-data vector {n}."""
    def make(n, dev):
        x = seed_data(n, (n,), dev)
        return (n,), lambda: fn(x)
    return make


def on_square(fn):
    """A case of fn on seed data shaped square_ish(n) (reductions along rows)."""
    def make(n, dev):
        s = pc.square_ish(n)
        x = seed_data(n, s, dev)
        return s, lambda: fn(x)
    return make


exp = elementwise(torch.exp)
tanh = elementwise(torch.tanh)
sum_all = on_square(lambda x: x.sum())
sum_axis1 = on_square(lambda x: x.sum(dim=1))
argmax = on_square(lambda x: x.argmax(dim=1))  # s64 per row, like vktensor's argmax(x, 1)
argmax_all = on_square(lambda x: x.argmax())  # one s64 over every element, like argmax(x)


def transpose(n, dev):
    s = pc.square_ish(n)
    x = seed_data(n, s, dev)
    return s, lambda: x.t().contiguous()  # .t() alone is a view; vktensor moves data


def concatenate_inner(n, dev):
    s = pc.rows8(n)
    a, b = seed_data(n, s, dev), seed_data(n, s, dev)
    return s, lambda: torch.cat((a, b), 1)


def dot(n, dev):
    s = pc.square_ish(n)
    a, b = seed_data(n, s, dev), seed_data(n, (s[1], s[0]), dev)
    return s, lambda: a @ b  # torch's default: no TF32 for f32 matmul, full f32 like vktensor


def flat_sort(fn):
    """vkt-bench's sort_flat / argsort_flat: one line of n reversed seed values (stable, as
    vktensor's sort is)."""
    def make(n, dev):
        x = torch.flip(seed_data(n, (n,), dev), (0,))
        return (n,), lambda: fn(x)
    return make


sort_flat = flat_sort(lambda x: torch.sort(x, stable=True).values)
argsort_flat = flat_sort(lambda x: torch.argsort(x, stable=True))


def row_sort(fn):
    """vkt-bench's sort / argsort: rows of square_ish(n) (16M: {4096, 4096}), each row's
    seed values reversed, sorted along the rows (stable, as vktensor's sort is)."""
    def make(n, dev):
        s = pc.square_ish(n)
        x = torch.flip(seed_data(n, s, dev), (1,))
        return s, lambda: fn(x)
    return make


sort_rows = row_sort(lambda x: torch.sort(x, dim=1, stable=True).values)
argsort_rows = row_sort(lambda x: torch.argsort(x, dim=1, stable=True))


def top_k(n, dev):
    """vkt-bench's top_k: the 4 largest of each row of square_ish(n), values read."""
    s = pc.square_ish(n)
    x = seed_data(n, s, dev)
    return s, lambda: torch.topk(x, 4, dim=1).values


def top_k_flat(n, dev):
    """vkt-bench's top_k_flat: the 100 largest of one line of n, values read."""
    x = seed_data(n, (n,), dev)
    return (n,), lambda: torch.topk(x, 100).values


SQUARE_ISH_OPS = {"sum", "sum_axis1", "argmax", "argmax_all", "transpose", "dot", "sort", "argsort",
                  "top_k"}

CASES = {
    "concatenate": concatenate, "pad": pad, "put_slice": put_slice, "indexed_put": indexed_put,
    "broadcast": broadcast, "gather": gather, "take": take,
    "add": add, "multiply": multiply, "exp": exp, "tanh": tanh, "sum": sum_all, "sum_axis1": sum_axis1, "argmax": argmax,
    "argmax_all": argmax_all,
    "transpose": transpose, "concatenate_inner": concatenate_inner, "dot": dot,
    "sort_flat": sort_flat, "argsort_flat": argsort_flat,
    "sort": sort_rows, "argsort": argsort_rows, "top_k": top_k, "top_k_flat": top_k_flat,
}


def cuda_device_fields():
    """Device columns for the CUDA device (None without CUDA: "none" everywhere)."""
    if not torch.cuda.is_available():
        return None
    props = torch.cuda.get_device_properties(0)
    driver = "unknown"
    try:  # torch does not expose the driver version; nvidia-smi does
        r = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader", "-i", "0"],
                           capture_output=True, text=True, timeout=30)
        if r.returncode == 0 and r.stdout.strip():
            driver = r.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return {
        "device": torch.cuda.get_device_name(0),
        # Vulkan's physical-device type names, so the column means the same in both files.
        "device_type": "integrated_gpu" if getattr(props, "is_integrated", False) else "discrete_gpu",
        "driver": driver,
        "vk_api": "none",  # torch drives the GPU through CUDA, not Vulkan; CUDA's version is in build_type
    }


def measure_d2h_bytes_per_us():
    """Device-to-host rate, once per run, from a 256 MiB CUDA tensor, median of 5 after one
    warm-up: the bus rate, a copy into pinned host memory allocated beforehand, as
    vkt-bench's measure_d2h_bytes_per_us times to_cpu() (a copy-engine transfer into pinned
    memory). The rates into a ready pageable tensor and by a fresh .cpu() are printed too."""
    big = torch.full(((256 << 20) // 4,), 1.25, dtype=F32, device="cuda")
    pinned = torch.empty(big.shape, dtype=F32, pin_memory=True)
    host = torch.zeros(big.shape, dtype=F32)  # pageable, like a consumer's buffer
    torch.cuda.synchronize()
    nbytes = big.numel() * big.element_size()
    plan = dict(min_reps=5, warmups=1, min_total_us=0, max_reps=5)
    bus = pc.time_it(lambda: pinned.copy_(big), **plan)  # synchronous (non_blocking=False)
    into = pc.time_it(lambda: host.copy_(big), **plan)
    fresh = pc.time_it(lambda: big.cpu(), **plan)
    for what, st in (("into pinned memory (the floor's rate)", bus), ("into a ready pageable tensor", into),
                     ("by .cpu() (new host memory)", fresh)):
        print(f"torch_bench: device-to-host read of {nbytes >> 20} MiB {what}: median {st.median_us:.0f} us = "
              f"{nbytes / st.median_us / 1000.0:.2f} GB/s", file=sys.stderr)
    return nbytes / bus.median_us


def cuda_timed(run, min_reps):
    """C and its device time: op + torch.cuda.synchronize() wall time, and CUDA events
    around the op (as vkt-bench's timestamps), read after each timed rep, outside its
    wall-clock time. Returns (wall Stats, device Stats)."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    device_us = []

    def timed():
        start.record()
        run()
        end.record()
        torch.cuda.synchronize()
    wall = pc.gpu_time_it(timed, min_reps=min_reps, after=lambda: device_us.append(start.elapsed_time(end) * 1000.0))
    return wall, pc.summarize(device_us)


def parse_args(argv):
    p = argparse.ArgumentParser(description="PyTorch peer of vkt-bench consumer: A/B on cpu tensors, C/D on CUDA.")
    pc.add_case_arguments(p, CASES)
    p.add_argument("--cpu-only", action="store_true", help="columns A, B and B_vec only (torch CPU)")
    p.add_argument("--device-only", action="store_true",
                   help="columns C, D and D_vec only (CUDA), as vkt-bench consumer --device-only")
    p.add_argument("--out", default="", help="CSV path (default bench_results/<machine>/torch-consumer.csv)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        ops, sizes = pc.cases_of(args, CASES)
        for op in ops:  # shape errors before any timing (sizes are already multiples of 16)
            for n in sizes:
                if op in SQUARE_ISH_OPS:
                    pc.square_ish(n)
        has_cuda = torch.cuda.is_available() and not args.cpu_only
        build = f"torch {torch.__version__}" + (f", CUDA {torch.version.cuda}" if has_cuda else "")
        if HAVE_NUMPY:
            build += f", numpy {numpy.__version__}"
        build += f", {torch.get_num_threads()} cpu threads"
        meta = pc.host_metadata(build, cuda_device_fields() if has_cuda else None)
        out = args.out or pc.default_csv_path(meta, "torch-consumer")
        pc.check_writable(out)
    except (ValueError, OSError) as e:
        print(f"torch_bench: {e}", file=sys.stderr)
        return 2
    if not has_cuda:
        print("torch_bench: no CUDA device; columns C and D stay empty", file=sys.stderr)
    if not HAVE_NUMPY:
        print("torch_bench: no numpy; the consumer view is the tensor itself and the copy columns use clone()",
              file=sys.stderr)
    d2h = measure_d2h_bytes_per_us() if has_cuda else None

    rows = []
    total = len(ops) * len(sizes)
    for op in ops:
        for n in sizes:
            print(f"\r[{len(rows) + 1}/{total}] {op} {n}          ", end="", file=sys.stderr, flush=True)
            shape, run_cpu = CASES[op](n, "cpu")
            cols = {}
            if not (args.device_only and has_cuda):
                cols = {"A": pc.time_it(run_cpu, min_reps=args.reps),
                        "B": pc.time_it(lambda: host_view(run_cpu()), min_reps=args.reps),
                        "B_vec": pc.time_it(lambda: host_copy(run_cpu()), min_reps=args.reps)}
                r = run_cpu()
                out_bytes = r.numel() * r.element_size()
            else:
                r = CASES[op](n, "cuda")[1]()
                out_bytes = r.numel() * r.element_size()
                del r
            if has_cuda:
                _, run_gpu = CASES[op](n, "cuda")
                torch.cuda.synchronize()
                cols["C"], cols["C_gpu"] = cuda_timed(run_gpu, args.reps)
                # .cpu() waits for the op and copies into new pageable host memory; then B's view.
                cols["D"] = pc.gpu_time_it(lambda: host_view(run_gpu().cpu()), min_reps=args.reps)
                cols["D_vec"] = pc.gpu_time_it(lambda: host_copy(run_gpu().cpu()), min_reps=args.reps)
                del run_gpu
            rows.append(pc.consumer_row(meta, "torch", op, "f32", shape, n, "native" if has_cuda else "cpu-only",
                                        cols, out_bytes, d2h))
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    pc.print_table(rows, ["op", "size", "path", "A_us", "B_us", "C_us", "C_gpu_us", "D_us", "D_over_B", "C_over_A", "floor_us",
                          "D_over_floor"])
    pc.write_csv(out, rows)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
