#!/usr/bin/env python3
"""PyTorch as the peer of `vkt-bench matmul`: square n x n products on CUDA, inputs
resident, in vkt-bench matmul's CSV schema (bench/matmul.cpp) plus a `library` column.

- Operands as vkt-bench's: a = iota(n*n)/n^2 + 0.01 (f32, then cast), b = a's transpose,
  made contiguous on the device.
- c64 / c128 (complex64 / complex128): a times 1 + 0.5i, 8 real flops per multiply-add.
- f32 (and c64) runs with TF32 OFF (torch.backends.cuda.matmul.allow_tf32 = False, cuDNN too), so
  the f32 rows are full-f32 products like vktensor's; f16 and bf16 keep PyTorch's defaults
  (tensor cores, f32 accumulation; cuBLAS may reduce in reduced precision where
  torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction says so: printed).
- f8_e4m3fn: torch._scaled_mm(a, b, scale_a=1, scale_b=1, out_dtype=float32), the FP8 GEMM
  (e4m3 x e4m3 -> f32, as vkt-bench multiplies FP8 into f32), b column-major as it requires
  (a's transpose viewed, the same product); variant `torch_scaled_mm`, and
  `torch_scaled_mm_fast_accum` with use_fast_accum=True, the faster way a skilled user takes.
- vulkan_us columns hold the wall time of op + torch.cuda.synchronize(), vulkan_gpu_us the
  CUDA-event time around the op (vkt-bench's device timestamps), read after each rep.
Runs with the GPU machine's own python3.
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402
from torch_bench import cuda_device_fields  # noqa: E402

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
          "c64": torch.complex64, "c128": torch.complex128, "f8_e4m3fn": torch.float8_e4m3fn}

COLUMNS = pc.HOST_COLUMNS + [
    "op", "dtype", "shape", "size", "n", "variant", "env", "round", "path", "error", "cpu_us",
    "cpu_min_us", "vulkan_us", "vulkan_min_us", "vulkan_max_us", "vulkan_reps", "vulkan_gpu_us",
    "vulkan_gpu_min_us", "vulkan_gpu_max_us", "gpu_first_us", "gpu_seq_us", "cpu_GFLOPs",
    "vulkan_GFLOPs", "vulkan_gpu_GFLOPs", "vulkan_gpu_best_GFLOPs", "upload_included", "library"]


def operands(n, dt):
    a = (torch.arange(n * n, dtype=torch.float32, device="cuda").reshape(n, n) / float(n * n) + 0.01).to(dt)
    if dt.is_complex:  # as vkt-bench: times 1 + 0.5i, both parts nonzero
        a = a * (1 + 0.5j)
    if dt == torch.float8_e4m3fn:  # _scaled_mm's b is column-major: a's transpose viewed
        return a, a.t()
    return a, a.t().contiguous()


def products(d, a, b):
    """(variant, the timed product) pairs for dtype name d."""
    if d != "f8_e4m3fn":
        return [("torch", lambda: torch.matmul(a, b))]
    one = torch.ones((), dtype=torch.float32, device="cuda")
    return [(f"torch_scaled_mm{'_fast_accum' if fast else ''}",
             lambda fast=fast: torch._scaled_mm(a, b, one, one, out_dtype=torch.float32,
                                                use_fast_accum=fast))
            for fast in (False, True)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1024,2048,4096,8192")
    p.add_argument("--dtypes", default="f32,f16,bf16")
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--out", default="")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("torch_matmul: no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print("torch_matmul: allow_tf32=False; allow_fp16_reduced_precision_reduction="
          f"{torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction}", file=sys.stderr)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    dtypes = [x for x in args.dtypes.split(",") if x]
    meta = pc.host_metadata(f"torch {torch.__version__}, CUDA {torch.version.cuda}", cuda_device_fields())
    out = args.out or pc.default_csv_path(meta, "torch-matmul")
    pc.check_writable(out)
    rows = []
    for d in dtypes:
        for n in sizes:
            a, b = operands(n, DTYPES[d])
            for variant, product in products(d, a, b):
                torch.cuda.synchronize()
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                gpu = []

                def timed():
                    start.record()
                    product()
                    end.record()
                    torch.cuda.synchronize()
                wall = pc.gpu_time_it(timed, min_reps=args.reps, min_total_us=0, max_reps=args.reps,
                                  after=lambda: gpu.append(start.elapsed_time(end) * 1000.0))
                g = pc.summarize(gpu)
                flop = (8.0 if d.startswith("c") else 2.0) * n * n * n  # complex: 8 real flops per multiply-add
                row = dict(meta)
                row.update(op="matmul", dtype=d, shape=pc.shape_str((n, n)), size=str(n * n), n=str(n),
                           variant=variant, env="allow_tf32=0" if d in ("f32", "c64") else "", round="1",
                           path="native", error="", vulkan_us=pc.fmt_num(wall.median_us),
                           vulkan_min_us=pc.fmt_num(wall.min_us), vulkan_max_us="", vulkan_reps=str(wall.reps),
                           vulkan_gpu_us=pc.fmt_num(g.median_us), vulkan_gpu_min_us=pc.fmt_num(g.min_us),
                           vulkan_gpu_max_us=pc.fmt_num(max(gpu)), gpu_seq_us=";".join(f"{x:.1f}" for x in gpu),
                           vulkan_GFLOPs=pc.fmt_num(flop / wall.median_us / 1e3, 2),
                           vulkan_gpu_GFLOPs=pc.fmt_num(flop / g.median_us / 1e3, 2),
                           vulkan_gpu_best_GFLOPs=pc.fmt_num(flop / g.min_us / 1e3, 2),
                           upload_included="no", library="torch")
                rows.append(row)
                print(f"{variant} {d} {n}: gpu median {g.median_us:.1f} us = {flop / g.median_us / 1e6:.1f} TFLOP/s",
                      file=sys.stderr)
            del a, b
    pc.write_csv(out, rows, columns=COLUMNS)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
