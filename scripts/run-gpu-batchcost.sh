#!/usr/bin/env bash
# The cost of an extra op inside a batch (issue 9: at most 5 us) under the recorder's flush
# bound (on GPUs the batch is submitted every 4 ops, so the device starts while the host
# records; on cpu devices one submit per host boundary). Source scripts/gpu-env.sh first.
# Usage, from the repository root:
#   scripts/run-gpu-batchcost.sh OUTDIR [build dir]   (default build dir: build-gpu)
# vkt-bench chain (chain1/4/16 at 16384 and 1M: C per extra op) and vkt-bench overhead
# --ops chain,add (the chain's recording time beside C and the device time).
# SIZES (default 16384,1048576) and REPS (default 50 for chain, 200 for overhead) shrink it
# for a smoke test on lavapipe.
set -euo pipefail
out=${1:?usage: run-gpu-batchcost.sh OUTDIR [build dir]}
build=${2:-build-gpu}
bench=$build/vkt-bench
mkdir -p "$out"
# The GPU's clocks up first (run 11: the fixed cost on a cold GPU is twice as high).
"$bench" ops --ops add --sizes "${WARMUP_SIZE:-16777216}" --reps 300 --out "$out/warmup.csv" \
  > /dev/null
"$bench" chain --ops chain1,chain4,chain16 --sizes "${SIZES:-16384,1048576}" \
  --reps "${REPS:-50}" --out "$out/chain.csv"
"$bench" overhead --ops chain,add --reps "${REPS:-200}" --out "$out/overhead.csv"
rm -f "$out/warmup.csv"
