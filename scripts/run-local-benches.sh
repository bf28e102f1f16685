#!/usr/bin/env bash
# The lavapipe (no GPU) set of benches, sized for a small CPU-only machine: consumer at the
# seed sizes, ops, shapes, chain, matmul up to 512 (lavapipe runs shaders on the CPU), and
# the NumPy consumer peer. Usage: scripts/run-local-benches.sh OUTDIR [build dir]
set -euo pipefail
out=${1:?usage: run-local-benches.sh OUTDIR [build dir]}
build=${2:-build}
bench="$build/vkt-bench"
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
"$bench" info > "$out/${host}_info_${day}.txt"
"$bench" consumer --out "$out/${host}_consumer_${day}.csv"
/usr/bin/python3 bench/peers/numpy_bench.py --out "$out/${host}_numpy-consumer_${day}.csv"
"$bench" ops --out "$out/${host}_ops_${day}.csv"
"$bench" shapes --sizes 256,1024,4096,16384,65536,262144,1048576,4194304 --out "$out/${host}_shapes_${day}.csv"
"$bench" chain --sizes 16384,1048576,4194304 --out "$out/${host}_chain_${day}.csv"
"$bench" matmul --sizes 16,64,256,512 --reps 5 --out "$out/${host}_matmul_${day}.csv"
