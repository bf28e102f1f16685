#!/usr/bin/env python3
"""PyTorch as the peer of `vkt-bench fft`: torch.fft.fft along the last axis of {batch, n}
complex tensors (cuFFT on cuda, pocketfft/MKL on the cpu), in vkt-bench fft's CSV schema
(bench/fft.cpp) plus a `library` column.

- Inputs as vkt-bench's: real parts iota / size + 0.01, imaginary parts 0, made on the cpu
  and moved to the GPU outside the timing (inputs resident).
- A/B: torch on the cpu (op; op + a copy of the result into a new host buffer, as
  torch_bench.py's B). C: op + torch.cuda.synchronize() wall time; C_gpu_us the CUDA-event
  time around the op, read after each rep (vkt-bench's device timestamps); D: op + .cpu() +
  the host copy. E empty (no legacy path). --no-cpu leaves A/B out. cuFFT's plan cache is
  warm after the first (untimed) warm-up reps, as VkFFT's plan cache is in vkt-bench.
Runs with the GPU machine's own python3.
"""

import argparse
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402
from torch_bench import cuda_device_fields, measure_d2h_bytes_per_us  # noqa: E402

DTYPES = {"c64": (torch.complex64, torch.float32), "c128": (torch.complex128, torch.float64)}
LETTERS = ["A", "B", "C", "D", "E"]
COLUMNS = (pc.HOST_COLUMNS + ["op", "dtype", "shape", "size", "path"]
           + [f"{x}_{s}" for x in LETTERS for s in ("us", "min_us", "p95_us", "reps")]
           + ["C_gpu_us", "C_gpu_min_us", "D_over_B", "D_over_E", "C_over_A", "out_bytes",
              "d2h_GBps", "floor_us", "D_over_floor", "GFLOP", "A_GFLOPs", "C_gpu_GFLOPs",
              "library"])


def seed_data(batch, n, dtype, real):
    count = batch * n
    re = (torch.arange(count, dtype=torch.float64) / float(count) + 0.01).to(real)
    return torch.complex(re, torch.zeros_like(re)).to(dtype).reshape(batch, n)


def ratio(x, y):
    return pc.fmt_num(x.median_us / y.median_us, 4) if x and y and y.median_us > 0 else ""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dtypes", default="c64")
    p.add_argument("--sizes", default="4096,65536,1048576,16777216")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--no-cpu", action="store_true", help="leave the cpu columns A and B out")
    p.add_argument("--out", default="")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("torch_fft: no CUDA device", file=sys.stderr)
        return 2
    meta = pc.host_metadata(f"torch {torch.__version__}, CUDA {torch.version.cuda}, "
                            f"{torch.get_num_threads()} cpu threads", cuda_device_fields())
    out = args.out or pc.default_csv_path(meta, "torch-fft")
    pc.check_writable(out)
    d2h = measure_d2h_bytes_per_us()
    rows = []
    for d in [x for x in args.dtypes.split(",") if x]:
        dt, real = DTYPES[d]
        for n in [int(x) for x in args.sizes.split(",") if x]:
            batch = args.batch
            x_cpu = seed_data(batch, n, dt, real)
            flop = 5.0 * batch * n * math.log2(max(2, n))
            cols = {}
            if not args.no_cpu:
                cols["A"] = pc.time_it(lambda: torch.fft.fft(x_cpu), min_reps=min(args.reps, 10))
                cols["B"] = pc.time_it(lambda: torch.fft.fft(x_cpu).clone(),
                                       min_reps=min(args.reps, 10))
            x = x_cpu.cuda()
            torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            gpu = []

            def op_only():
                start.record()
                torch.fft.fft(x)
                end.record()
                torch.cuda.synchronize()
            cols["C"] = pc.gpu_time_it(op_only, min_reps=args.reps,
                                   after=lambda: gpu.append(start.elapsed_time(end) * 1000.0))
            cols["D"] = pc.gpu_time_it(lambda: torch.fft.fft(x).cpu().clone(), min_reps=args.reps)
            g = pc.summarize(gpu)
            out_bytes = batch * n * x.element_size()
            floor_us = cols["C"].median_us + out_bytes / d2h
            row = dict(meta)
            row.update(op="fft", dtype=d, shape=pc.shape_str((batch, n)), size=str(batch * n),
                       path="native")
            for letter in LETTERS:
                s = cols.get(letter)
                row[f"{letter}_us"] = pc.fmt_num(s.median_us) if s else ""
                row[f"{letter}_min_us"] = pc.fmt_num(s.min_us) if s else ""
                row[f"{letter}_p95_us"] = pc.fmt_num(s.p95_us) if s else ""
                row[f"{letter}_reps"] = str(s.reps) if s else ""
            row.update(C_gpu_us=pc.fmt_num(g.median_us), C_gpu_min_us=pc.fmt_num(g.min_us),
                       D_over_B=ratio(cols.get("D"), cols.get("B")), D_over_E="",
                       C_over_A=ratio(cols.get("C"), cols.get("A")), out_bytes=str(out_bytes),
                       d2h_GBps=pc.fmt_num(d2h / 1000.0), floor_us=pc.fmt_num(floor_us),
                       D_over_floor=pc.fmt_num(cols["D"].median_us / floor_us, 4),
                       GFLOP=pc.fmt_num(flop / 1e9, 3),
                       A_GFLOPs=pc.fmt_num(flop / cols["A"].median_us / 1e3, 2) if "A" in cols else "",
                       C_gpu_GFLOPs=pc.fmt_num(flop / g.median_us / 1e3, 2), library="torch")
            rows.append(row)
            print(f"torch fft {d} {batch} x {n}: gpu median {g.median_us:.1f} us", file=sys.stderr)
            del x
    pc.write_csv(out, rows, columns=COLUMNS)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
