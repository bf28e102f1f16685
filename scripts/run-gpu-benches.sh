#!/usr/bin/env bash
# Runs every GPU-machine benchmark in one go and writes the CSVs into OUTDIR:
# vkt-bench consumer (1024 .. 64M, x16 steps), ops, shapes, matmul, chain, and the PyTorch
# peer from the same machine. Usage: scripts/run-gpu-benches.sh OUTDIR [build dir]
set -euo pipefail
out=${1:?usage: run-gpu-benches.sh OUTDIR [build dir]}
build=${2:-build}
bench="$build/vkt-bench"
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
"$bench" info | tee "$out/${host}_info_${day}.txt"
"$bench" consumer --sizes 1024,16384,262144,4194304,67108864 --out "$out/${host}_consumer_${day}.csv"
"$bench" ops --out "$out/${host}_ops_${day}.csv"
"$bench" shapes --out "$out/${host}_shapes_${day}.csv"
"$bench" matmul --out "$out/${host}_matmul_${day}.csv"
"$bench" chain --out "$out/${host}_chain_${day}.csv"
if python3 -c 'import torch' 2>/dev/null; then
  python3 bench/peers/torch_bench.py --sizes 1024,16384,262144,4194304,67108864 \
    --out "$out/${host}_torch-consumer_${day}.csv"
else
  echo "run-gpu-benches: no PyTorch here; peer skipped" >&2
fi
