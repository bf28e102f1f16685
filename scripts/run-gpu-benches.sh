#!/usr/bin/env bash
# Runs the GPU-machine benchmarks in one go and writes the CSVs into OUTDIR:
# vkt-bench consumer (1024 .. 64M, x16 steps), ops, shapes, matmul, chain, and the PyTorch
# peer from the same machine. Usage:
#   scripts/run-gpu-benches.sh OUTDIR [build dir] [bench ...]   (default: all of them)
set -euo pipefail
out=${1:?usage: run-gpu-benches.sh OUTDIR [build dir] [bench ...]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
benches=${*:-info consumer torch ops shapes matmul chain}
bench="$build/vkt-bench"
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
sizes=1024,16384,262144,4194304,67108864
for b in $benches; do
  case $b in
    info) "$bench" info ;;
    consumer) "$bench" consumer --sizes $sizes --out "$out/${host}_consumer_${day}.csv" ;;
    torch)
      if python3 -c 'import torch' 2>/dev/null; then
        python3 bench/peers/torch_bench.py --sizes $sizes --out "$out/${host}_torch-consumer_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; peer skipped" >&2
      fi ;;
    ops|shapes|matmul|chain) "$bench" "$b" --out "$out/${host}_${b}_${day}.csv" ;;
    coverage) "$bench" coverage --out "$out/coverage-${host}.md" > /dev/null ;;
    *) echo "run-gpu-benches: unknown bench '$b'" >&2; exit 2 ;;
  esac
done
