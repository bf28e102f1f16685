#!/usr/bin/env python3
"""PyTorch as the peer of `vkt-bench conv`: the ResNet-style 3x3 layer (input {batch, C, hw, hw},
kernel {C, C, 3, 3}, padding 1) by torch.nn.functional.conv2d, in vkt-bench conv's CSV schema
(bench/conv.cpp) plus a `library` column.

- --passes as vkt-bench's: forward (F.conv2d), input_cotangent and kernel_cotangent (one
  output of aten.convolution_backward, the kernel autograd runs, from the output's
  cotangent g = (iota/size + 0.01) / hw^2); column "pass".
- Inputs as vkt-bench's: x = iota/size + 0.01 and k = (iota/size + 0.01) / C (with
  VKT_BENCH_DATA=random its hashed values in place of iota/size + 0.01), made in f32 on the
  cpu and cast, then moved to the GPU outside the timing (inputs resident).
- cuDNN with TF32 OFF (torch.backends.cudnn.allow_tf32 = False, and for matmul too), so the
  f32 rows are full-f32 convolutions like vktensor's; cudnn.benchmark off (PyTorch's
  default); f16/bf16 keep PyTorch's defaults (tensor cores).
- A/B: torch on the cpu (op; op + a copy of the result into a new host buffer, as
  torch_bench.py's B). C: op + torch.cuda.synchronize() wall time; C_gpu_us the CUDA-event
  time around the op, read after each rep (vkt-bench's device timestamps); D: op + .cpu() +
  the host copy. E empty (no legacy path). --no-cpu leaves A/B out.
Runs with the GPU machine's own python3.
"""

import argparse
import itertools
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402
from torch_bench import cuda_device_fields, cuda_timed, measure_d2h_bytes_per_us  # noqa: E402

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64}
# vkt-bench conv's columns; its "kernel" (the conv kernel's shape) follows the host's "kernel"
# (the OS kernel), so the row keys it conv_kernel and only the header says "kernel".
COLUMNS = (pc.HOST_COLUMNS + ["op", "dtype", "shape", "conv_kernel", "padding", "pass", "size",
                              "path"]
           + pc.TIMED_COLUMNS + ["library"])
HEADER = ["kernel" if c == "conv_kernel" else c for c in COLUMNS]


def seed_data(shape, scale=1.0):
    """vkt-bench conv's inputs: seed_data (iota/size + 0.01, or with VKT_BENCH_DATA=random its
    hashed values, peer_common.bench_data_torch) times `scale`, in f32."""
    n = 1
    for d in shape:
        n *= d
    x = pc.bench_data_torch(n) if pc.random_data() else torch.arange(n, dtype=torch.float32) / float(n) + 0.01
    return (x * scale).reshape(shape)


def conv_pass(name, x, k, g):
    """The layer's conv (`forward`) or one of its backward convs, as a function of nothing."""
    if name == "forward":
        return lambda: F.conv2d(x, k, padding=1)
    mask = [name == "input_cotangent", name == "kernel_cotangent", False]
    which = 0 if mask[0] else 1
    return lambda: torch.ops.aten.convolution_backward(
        g, x, k, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, mask)[which]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dtypes", default="f32,f16")
    p.add_argument("--batches", default="32")
    p.add_argument("--channels", type=int, default=64)
    p.add_argument("--hw", type=int, default=56)
    p.add_argument("--passes", default="forward",
                   help="comma-separated: forward, input_cotangent, kernel_cotangent")
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--no-cpu", action="store_true", help="leave the cpu columns A and B out")
    p.add_argument("--out", default="")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("torch_conv: no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"torch_conv: cudnn {torch.backends.cudnn.version()}, allow_tf32=False, "
          f"cudnn.benchmark={torch.backends.cudnn.benchmark}", file=sys.stderr)
    meta = pc.host_metadata(f"torch {torch.__version__}, CUDA {torch.version.cuda}, "
                            f"{torch.get_num_threads()} cpu threads", cuda_device_fields())
    out = args.out or pc.default_csv_path(meta, "torch-conv")
    pc.check_writable(out)
    d2h = measure_d2h_bytes_per_us()
    c, hw = args.channels, args.hw
    rows = []
    for d in [x for x in args.dtypes.split(",") if x]:
        dt = DTYPES[d]
        batches = [int(x) for x in args.batches.split(",") if x]
        passes = [x for x in args.passes.split(",") if x]
        for batch, name in itertools.product(batches, passes):
            x_cpu = seed_data((batch, c, hw, hw)).to(dt)
            k_cpu = seed_data((c, c, 3, 3), 1.0 / c).to(dt)
            g_cpu = seed_data((batch, c, hw, hw), 1.0 / (hw * hw)).to(dt)
            flop = 2.0 * batch * c * hw * hw * c * 9
            cols = {}
            if not args.no_cpu and dt != torch.float16:  # no f16 conv on the cpu in older torch
                run = conv_pass(name, x_cpu, k_cpu, g_cpu)
                cols["A"] = pc.time_it(run, min_reps=min(args.reps, 10))
                cols["B"] = pc.time_it(lambda: run().clone(), min_reps=min(args.reps, 10))
            x, k, g_dev = x_cpu.cuda(), k_cpu.cuda(), g_cpu.cuda()
            torch.cuda.synchronize()
            run = conv_pass(name, x, k, g_dev)
            cols["C"], g = cuda_timed(run, args.reps)
            cols["D"] = pc.gpu_time_it(lambda: run().cpu().clone(), min_reps=args.reps)
            out_shape = (c, c, 3, 3) if name == "kernel_cotangent" else (batch, c, hw, hw)
            out_bytes = x.element_size() * math.prod(out_shape)
            row = dict(meta)
            row.update(op="conv", dtype=d, shape=pc.shape_str((batch, c, hw, hw)),
                       conv_kernel=pc.shape_str((c, c, 3, 3)), padding="1",
                       size=str(batch * c * hw * hw), path="native")
            row["pass"] = name
            row.update(pc.timed_columns(cols, g, out_bytes, d2h, flop), library="torch")
            rows.append(row)
            print(f"torch conv {d} batch {batch} {name}: gpu median {g.median_us:.1f} us = "
                  f"{flop / g.median_us / 1e6:.2f} TFLOP/s", file=sys.stderr)
            del x, k, g_dev
    pc.write_csv(out, rows, columns=COLUMNS, header=HEADER)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
