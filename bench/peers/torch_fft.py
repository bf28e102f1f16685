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
from torch_bench import cuda_device_fields, cuda_timed, measure_d2h_bytes_per_us  # noqa: E402

DTYPES = {"c64": (torch.complex64, torch.float32), "c128": (torch.complex128, torch.float64)}
COLUMNS = (pc.HOST_COLUMNS + ["op", "dtype", "shape", "size", "path"]
           + pc.TIMED_COLUMNS + ["library"])


def seed_data(batch, n, dtype, real):
    count = batch * n
    re = (torch.arange(count, dtype=torch.float64) / float(count) + 0.01).to(real)
    return torch.complex(re, torch.zeros_like(re)).to(dtype).reshape(batch, n)


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
            cols["C"], g = cuda_timed(lambda: torch.fft.fft(x), args.reps)
            cols["D"] = pc.gpu_time_it(lambda: torch.fft.fft(x).cpu().clone(), min_reps=args.reps)
            out_bytes = batch * n * x.element_size()
            row = dict(meta)
            row.update(op="fft", dtype=d, shape=pc.shape_str((batch, n)), size=str(batch * n),
                       path="native")
            row.update(pc.timed_columns(cols, g, out_bytes, d2h, flop), library="torch")
            rows.append(row)
            print(f"torch fft {d} {batch} x {n}: gpu median {g.median_us:.1f} us", file=sys.stderr)
            del x
    pc.write_csv(out, rows, columns=COLUMNS)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
