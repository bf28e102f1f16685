#!/usr/bin/env bash
# The matmul run of issue 9, item 5 (and issue 11's complex dot), on the GPU machine: seven
# files in OUTDIR, a few minutes.
# Source scripts/gpu-env.sh first; from the repository root:
#   bash scripts/run-gpu-matmul.sh OUTDIR [packed build dir, default build-gpu]
# info.txt             vkt-bench info (cooperative-matrix shapes, NV and KHR) and nvidia-smi's
#                      clocks, throttle reasons and compute processes before and after each bench
# linalg-tests.log     the dot conformance tests (every kernel variant forced; cooperative
#                      matrices on and off where the device has them) and the pool's tests,
#                      validation and output poisoning on
# matmul-cliff.csv     f32 2048/4000/4096/8192, the tiled and reg kernels, operands in their
#                      own allocations (default at >= 4096, forced at 2048 by block_mb=16)
#                      or carved from one 2 GiB block (block_mb=2048); 3 rounds of fresh
#                      operands each; wall and device time per repetition
# matmul-kernels.csv   f32/f16/bf16/f64 1024..8192: the default rule against each kernel and tile
# torch-matmul.csv     PyTorch on the same sizes (f32 with TF32 off, f16, bf16)
# matmul-complex.csv   c64/c128 1024..4096 (one real GEMM of the parts: linalg.cpp), the default
#                      rule against the tiled and reg kernels
# torch-matmul-complex.csv  PyTorch complex64 (TF32 off) / complex128 on the same sizes
set -uo pipefail
out=${1:?usage: run-gpu-matmul.sh OUTDIR [packed build dir]}
build=${2:-build-gpu}
bench="$build/vkt-bench"
mkdir -p "$out"
status=0
smi() {
  echo "== nvidia-smi $1"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
    --format=csv 2>&1
  nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv 2>&1
}
{ "$bench" info; smi "before the tests"; } > "$out/info.txt" 2>&1
VKT_VALIDATION=1 VKT_POISON=1 "$build/tests/vkt_vulkan_tests" --gtest_filter='Linalg.*:Memory.*' \
  > "$out/linalg-tests.log" 2>&1 || status=1
tail -n 4 "$out/linalg-tests.log"
smi "before matmul-cliff" >> "$out/info.txt"
"$bench" matmul --sizes 2048,4000,4096,8192 --dtypes f32 --reps 10 --rounds 3 --cpu-max 0 \
  --variants 'tiled:dot_kernel=tiled;tiled-own-alloc:dot_kernel=tiled,block_mb=16;tiled-one-block:dot_kernel=tiled,block_mb=2048;reg:dot_kernel=reg;reg-own-alloc:dot_kernel=reg,block_mb=16;reg-one-block:dot_kernel=reg,block_mb=2048' \
  --out "$out/matmul-cliff.csv" || status=1
smi "before matmul-kernels" >> "$out/info.txt"
"$bench" matmul --sizes 1024,2048,4096,8192 --dtypes f32,f16,bf16,f64 --reps 10 --cpu-max 1024 \
  --variants 'auto:;tiled:dot_kernel=tiled;reg-128x128x16:dot_kernel=reg,dot_tile=128x128x16,coopmat=0;reg-128x128x8:dot_kernel=reg,dot_tile=128x128x8,coopmat=0;reg-64x64x16:dot_kernel=reg,dot_tile=64x64x16,coopmat=0;reg-scalar-reads:dot_kernel=reg,dot_vec=0,coopmat=0;coopmat-scalar-reads:dot_vec=0' \
  --out "$out/matmul-kernels.csv" || status=1
smi "before torch" >> "$out/info.txt"
if python3 -c 'import torch' 2>/dev/null; then
  python3 bench/peers/torch_matmul.py --sizes 1024,2048,4096,8192 --dtypes f32,f16,bf16 --reps 10 \
    --out "$out/torch-matmul.csv" || status=1
else
  echo "run-gpu-matmul: no PyTorch here; peer skipped" >&2
fi
smi "before matmul-complex" >> "$out/info.txt"
"$bench" matmul --sizes 1024,2048,4096 --dtypes c64,c128 --reps 10 --cpu-max 1024 \
  --variants 'auto:;tiled:dot_kernel=tiled;reg:dot_kernel=reg' \
  --out "$out/matmul-complex.csv" || status=1
if python3 -c 'import torch' 2>/dev/null; then
  python3 bench/peers/torch_matmul.py --sizes 1024,2048,4096 --dtypes c64,c128 --reps 10 \
    --out "$out/torch-matmul-complex.csv" || status=1
fi
smi "after" >> "$out/info.txt"
exit $status
