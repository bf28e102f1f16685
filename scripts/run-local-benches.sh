#!/usr/bin/env bash
# The lavapipe (no GPU) set of benches, sized for a small CPU-only machine where lavapipe
# runs the shaders on the same 2 cores (a 1024^2 dot takes seconds there): consumer at the
# seed sizes, ops at 4096 and 65536, shapes up to 262144, chain, matmul up to 512, and the
# NumPy consumer peer. Usage: scripts/run-local-benches.sh OUTDIR [build dir] [bench ...]
set -euo pipefail
out=${1:?usage: run-local-benches.sh OUTDIR [build dir]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
benches=${*:-info consumer numpy ops shapes chain matmul}
bench="$build/vkt-bench"
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
for b in $benches; do
  case $b in
    info) "$bench" info > "$out/${host}_info_${day}.txt" ;;
    consumer) "$bench" consumer --out "$out/${host}_consumer_${day}.csv" ;;
    numpy) /usr/bin/python3 bench/peers/numpy_bench.py --out "$out/${host}_numpy-consumer_${day}.csv" ;;
    ops) "$bench" ops --sizes 4096,65536 --out "$out/${host}_ops_${day}.csv" ;;
    shapes) "$bench" shapes --sizes 256,1024,4096,16384,65536,262144 --out "$out/${host}_shapes_${day}.csv" ;;
    chain) "$bench" chain --sizes 16384,262144,1048576 --out "$out/${host}_chain_${day}.csv" ;;
    matmul) "$bench" matmul --sizes 16,64,256,512 --reps 5 --out "$out/${host}_matmul_${day}.csv" ;;
    *) echo "run-local-benches: unknown bench '$b'" >&2; exit 2 ;;
  esac
done
